// The performance model's building blocks: the Li-Hoefler equations give
// the values worked out by hand from the paper's definitions, the size
// ranges of the decision cache tile the sizes without gaps, and every
// algorithm of every collective has a cost formula.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "collectives/allreduce/allreduce.hpp"
#include "collectives/allreduce/tree_shape.hpp"
#include "collectives/bcast/bcast.hpp"
#include "collectives/framework/levels.hpp"
#include "collectives/framework/registry.hpp"
#include "collectives/model/cost.hpp"
#include "collectives/model/params.hpp"
#include "collectives/reduce/reduce.hpp"
#include "collectives/reduce_scatter/reduce_scatter.hpp"
#include "collectives/scatter/scatter.hpp"

using namespace hmpi::coll;

namespace {

ModelParams made_up_params() {
    ModelParams p;
    p.alpha = {100, 2, 4, 6, 8, 1, 3, 5, 7};     // a, b, B, b_mem, B_mem, c, C, c_mem, C_mem
    p.beta = {300, 5, 10, 9, 12, 4, 8, 8, 11};
    p.copy_bandwidth = 10;
    p.nt_copy_bandwidth = 12;
    return p;
}

// s sockets of q cores each (one L3 per socket), ranks numbered compactly.
CommTopology sockets(int s, int q) {
    std::vector<RankPlace> places;
    for (int i = 0; i < s * q; ++i) {
        RankPlace r;
        r.core = i;
        r.l2 = i;
        r.l3 = i / q;
        r.numa = i / q;
        r.socket = i / q;
        places.push_back(r);
    }
    return build_comm_topology(places, 1 << 20, 32 << 20, true);
}

}  // namespace

TEST_CASE("Eq. 1: the congestion-aware first phase of the intra-domain reduction") {
    const ModelParams p = made_up_params();
    const CommTopology t = sockets(1, 16);
    const CostQuery q{p, t, CollKind::allreduce, 64 * 10, true};
    // c = floor(b/B) = floor(2/4) -> at least 1; d = min(q, 2^(1+ceil log2 1) + 1) = 3.
    // T = a + (q-d) B m + (a + b m) ceil(log2 d) = 100 + 13*4*10 + (100 + 20)*2.
    CHECK(li_intra_tree_reduce(q, 16, q.m(), 0) == doctest::Approx(100 + 13 * 4 * 10 + 120 * 2));
    // Few ranks: no congested phase, a plain binary tree.
    CHECK(li_intra_tree_reduce(q, 2, q.m(), 0) == doctest::Approx(120));
    CHECK(li_intra_tree_reduce(q, 1, q.m(), 0) == 0);
}

TEST_CASE("Eq. 2 and Eq. 4: inter-domain tree and one- or two-stage broadcast") {
    const ModelParams p = made_up_params();
    const CommTopology t = sockets(4, 4);
    const CostQuery q{p, t, CollKind::allreduce, 64, true};
    CHECK(li_inter_tree_reduce(q, 4, 1, 0) == doctest::Approx((300 + 5) * 2));
    // A broadcast copies: the copy costs c, C stand where the paper has b, B.
    const double two = (100 + 3 * 3 * 1) + (300 + 4 * 1);  // a_a + C_a (q-1) m + a_b + c_b m
    const double one = 300 + 8 * 4 * 1;                    // a_b + C_b q m
    CHECK(li_two_stage_bcast(q, 4, 4, 1, 0) == doctest::Approx(two));
    CHECK(li_one_stage_bcast(q, 4, 4, 1, 0) == doctest::Approx(one));
    bool two_stage = true;
    CHECK(li_bcast(q, 4, 4, 1, 0, &two_stage) == doctest::Approx(std::min(one, two)));
    CHECK(two_stage == (two < one));
    // One domain: the broadcast stays inside it.
    CHECK(li_one_stage_bcast(q, 4, 1, 1, 0) == doctest::Approx(100 + 3 * 3));
}

TEST_CASE("Eq. 6, 7 and 10: dissemination and tiled reduction") {
    const ModelParams p = made_up_params();
    const CommTopology t = sockets(2, 4);
    const CostQuery q{p, t, CollKind::allreduce, 64, true};
    // p = 8 = 2^3, q = 4, s = 2: (a_a + B_a q m) log2 q + (a_b + B_b 2q m) log2 s:
    // a step across has the ranks of both domains on the link between them,
    // 2q (min p) threads, as hmpi-calibrate's beta ring measured B_b.
    CHECK(li_dissemination(q, 8, 4, 2, 1, 0) == doctest::Approx((100 + 16) * 2 + (300 + 80) * 1));
    // p = 12, q = 6, s = 2: (a_a + B_a q m)(ceil log2 q + 2) + (a_b + B_b 2q m)(ceil log2 p - floor log2 q - 1).
    CHECK(li_dissemination(q, 12, 6, 2, 1, 0) == doctest::Approx((100 + 24) * 5 + (300 + 120) * 1));
    // Eq. 10: a_a q + B_a m q (q-1)/q + (a_b + B_b m) ceil(log2 s) (a thread's own
    // tile of its own input is local: 3 of its 4 tiles come from others),
    // with Eq. 8's a_a q as two flat waits of the domain's 4 (no poll_line
    // here: a + a line b_a per further flag, 100 + 2 * 2 each).
    CHECK(li_tiled_reduce(q, 4, 2, 10, 0) == doctest::Approx(2 * (100 + 2 * 2) + 4 * 10 * 4 * 3 / 4.0 + (300 + 10 * 10)));
    // Each member folds its m/q lines no faster a line than one thread
    // alone (Eq. 1): where b_a exceeds q B_a, its 3 folds of a tile's m/q
    // lines cost b_a each.
    ModelParams slow_one = p;
    slow_one.alpha.b = 20;
    const CostQuery qs{slow_one, t, CollKind::allreduce, 64, true};
    CHECK(li_tiled_reduce(qs, 4, 2, 10, 0) == doctest::Approx(2 * (100 + 2 * 20) + 3 * 20 * 10 / 4.0 + (300 + 10 * 10)));
    // One rank per domain: it copies its input into its receive buffer (its
    // domain's partial, c_a a line), then its whole vector crosses at one
    // thread's b_b, never at a B_b below it (Eq. 1; B_b m alone up to stop
    // 29; the copy uncharged up to stop 34).
    ModelParams cheap = p;
    cheap.beta.B = 2;
    const CommTopology t1 = sockets(2, 1);
    const CostQuery q1{cheap, t1, CollKind::allreduce, 64, true};
    CHECK(li_tiled_reduce(q1, 1, 2, 10, 0) == doctest::Approx(1 * 10 + 300 + 5 * 10));
}

TEST_CASE("steps that reduce into a third buffer are charged r, R where the profile has them, else b, B") {
    ModelParams p = made_up_params();
    const CommTopology t = sockets(2, 4);
    REQUIRE(t.cache_bytes > 0);
    const std::size_t in = t.cache_bytes, out = t.cache_bytes + 1;
    {
        // No third-buffer costs (a profile before format 8): b's.
        const CostQuery q{p, t, CollKind::allreduce, 64, true};
        CHECK(reduce3_line_cost(q, p.alpha, in) == doctest::Approx(2));
        CHECK(congested_reduce3_line_cost(q, p.alpha, out) == doctest::Approx(8));
        CHECK(congested_reduce3_step_cost(q, p.beta, 10, 4, in) == doctest::Approx(300 + 10 * 4 * 10));
    }
    p.alpha.r = 3, p.alpha.R = 5, p.alpha.r_mem = 9, p.alpha.R_mem = 11;
    p.beta.r = 7, p.beta.R = 13, p.beta.r_mem = 15, p.beta.R_mem = 17;
    const CostQuery q{p, t, CollKind::allreduce, 64, true};
    CHECK(reduce3_line_cost(q, p.alpha, in) == doctest::Approx(3));
    CHECK(reduce3_line_cost(q, p.alpha, out) == doctest::Approx(9));
    CHECK(congested_reduce3_line_cost(q, p.beta, in) == doctest::Approx(13));
    CHECK(congested_reduce3_line_cost(q, p.beta, out) == doctest::Approx(17));
    // max(r, R t): one thread alone is charged r, never a share of R.
    CHECK(shared_reduce3_line_cost(q, p.alpha, 1, in) == doctest::Approx(5));
    CHECK(shared_reduce3_line_cost(q, p.beta, 1, in) == doctest::Approx(13));
    ModelParams lone = p;
    lone.alpha.R = 1;
    const CostQuery lq{lone, t, CollKind::allreduce, 64, true};
    CHECK(shared_reduce3_line_cost(lq, lone.alpha, 2, in) == doctest::Approx(3));
    // Eq. 6 with every step into a third buffer: p = 8, q = 4, s = 2:
    // (a_a + R_a q m) log2 q + (a_b + R_b 2q m) log2 s.
    CHECK(li_dissemination(q, 8, 4, 2, 1, 0) == doctest::Approx((100 + 20) * 2 + (300 + 104) * 1));
    // Eq. 10: each tile's first fold at R_a, the other q - 2 at B_a:
    // a_a q + (R_a + (q-2) B_a) m + (a_b + B_b m) ceil(log2 s).
    CHECK(li_tiled_reduce(q, 4, 2, 10, 0) == doctest::Approx(2 * (100 + 2 * 2) + (5 + 2 * 4) * 10 + (300 + 10 * 10)));
    // The accumulating steps keep b, B.
    CHECK(congested_step_cost(q, p.alpha, 10, 3, in) == doctest::Approx(100 + 4 * 3 * 10));
    CHECK(li_inter_tree_reduce(q, 4, 1, 0) == doctest::Approx((300 + 5) * 2));
    // reduce_bcast's root folds as the linear Reduce's does (it runs
    // reduce_linear_at): the first fold, into its receive buffer, at r of
    // its link (here beta's: ranks on both sockets), the others at b.
    const CostQuery big{p, t, CollKind::allreduce, 64 * 1000, true};
    ModelParams b3 = p;
    b3.beta.r = p.beta.b;
    const CostQuery big_b{b3, t, CollKind::allreduce, 64 * 1000, true};
    const std::size_t ws = 2 * 8 * big.bytes;
    CHECK(reduce_linear_fold_line_cost(big, ws) == doctest::Approx(3 * 2 + 4 * 5 - 5 + 7));
    CHECK(allreduce_reduce_bcast_cost(big) - allreduce_reduce_bcast_cost(big_b) ==
          doctest::Approx((7 - 5) * 1000.0));
}

TEST_CASE("out of cache, the memory per-line costs apply") {
    const ModelParams p = made_up_params();
    const CommTopology t = sockets(1, 4);
    const CostQuery q{p, t, CollKind::allreduce, 64, true};
    REQUIRE(t.cache_bytes > 0);
    CHECK(step_cost(q, p.alpha, 10, t.cache_bytes) == doctest::Approx(100 + 2 * 10));
    CHECK(step_cost(q, p.alpha, 10, t.cache_bytes + 1) == doctest::Approx(100 + 6 * 10));
    CHECK(congested_step_cost(q, p.alpha, 10, 3, t.cache_bytes + 1) == doctest::Approx(100 + 8 * 3 * 10));

    // A profile that measured less cache per core than hwloc reports moves
    // the switch down to the measured C.
    ModelParams measured = p;
    measured.core_cache_bytes = t.llc_bytes / 4;
    const std::size_t c = t.cache_bytes_with(measured.core_cache_bytes);
    REQUIRE(c < t.cache_bytes);
    const CostQuery mq{measured, t, CollKind::allreduce, 64, true};
    CHECK(step_cost(mq, p.alpha, 10, c) == doctest::Approx(100 + 2 * 10));
    CHECK(step_cost(mq, p.alpha, 10, c + 1) == doctest::Approx(100 + 6 * 10));
}

TEST_CASE("in the L2s b_l2, c_l2, r_l2 apply; one reader pays near_line for a step's first near_lines lines") {
    ModelParams p = made_up_params();
    p.alpha.r = 3;
    p.alpha.R = 5;
    p.alpha.r_mem = 9;
    p.alpha.R_mem = 10;
    const CommTopology t = sockets(1, 4);  // L2 1 MiB per core: in the L2s up to 512 KiB a rank
    const CostQuery q{p, t, CollKind::reduce, 64, true};
    const std::size_t in_l2 = 4 * (512u << 10), past = in_l2 + 4;
    REQUIRE(past < t.cache_bytes);
    // A format 17 profile: b, c, r at every size in cache, no excess.
    CHECK(step_cost(q, p.alpha, 10, in_l2) == doctest::Approx(100 + 2 * 10));
    CHECK(near_excess(q, 10) == 0);
    CHECK(li_intra_tree_reduce(q, 2, 10, in_l2) == doctest::Approx(100 + 2 * 10));
    ModelParams f18 = p;
    f18.alpha.b_l2 = 1.5;
    f18.alpha.c_l2 = 0.5;
    f18.alpha.r_l2 = 2.5;
    f18.near_line = 4;
    f18.near_lines = 8;
    const CostQuery n{f18, t, CollKind::reduce, 64, true};
    CHECK(l2_resident(n, in_l2));
    CHECK_FALSE(l2_resident(n, past));
    CHECK(line_cost(n, f18.alpha, in_l2) == doctest::Approx(1.5));
    CHECK(line_cost(n, f18.alpha, past) == doctest::Approx(2));
    CHECK(copy_line_cost(n, f18.alpha, in_l2) == doctest::Approx(0.5));
    CHECK(copy_line_cost(n, f18.alpha, past) == doctest::Approx(1));
    CHECK(reduce3_line_cost(n, f18.alpha, in_l2) == doctest::Approx(2.5));
    CHECK(reduce3_line_cost(n, f18.alpha, past) == doctest::Approx(3));
    CHECK(line_cost(n, f18.alpha, t.cache_bytes + 1) == doctest::Approx(6));  // memory: b_mem
    // The congested costs have no in-L2 form.
    CHECK(congested_line_cost(n, f18.alpha, in_l2) == doctest::Approx(4));
    // The excess: near_line for each line up to near_lines.
    CHECK(near_excess(n, 5) == doctest::Approx(4 * 5));
    CHECK(near_excess(n, 100) == doctest::Approx(4 * 8));
    // A tree level of one reader pays it: 2 ranks, a + b_l2 m + excess.
    CHECK(li_intra_tree_reduce(n, 2, 10, in_l2) == doctest::Approx(100 + 1.5 * 10 + 4 * 8));
    // A plain step does not (its source may be busy: direct Scatter's root).
    CHECK(step_cost(n, f18.alpha, 10, in_l2) == doctest::Approx(100 + 1.5 * 10));
}

TEST_CASE("a slice fold stays at the in-L2 rate to 3/4 of an L2 a rank; a one-reader step to half") {
    ModelParams p = made_up_params();
    p.alpha.R_slices = 1;
    p.alpha.r = 3;     // past half an L2
    p.alpha.r_l2 = 2.5;  // within it
    const CommTopology t = sockets(1, 4);  // L2 1 MiB per core
    const CostQuery q{p, t, CollKind::reduce, 64, true};
    const std::size_t half = 4 * (512u << 10), three_quarters = 4 * (768u << 10), past = three_quarters + 4;
    REQUIRE(past < t.cache_bytes);
    CHECK(slice_fold_l2_resident(q, half));
    CHECK(slice_fold_l2_resident(q, three_quarters));
    CHECK_FALSE(slice_fold_l2_resident(q, past));
    CHECK_FALSE(l2_resident(q, three_quarters));
    // One thread's r_l2 against t = 2 threads' R_slices t: r_l2 decides.
    CHECK(shared_slice_reduce3_line_cost(q, p.alpha, 2, three_quarters) == doctest::Approx(2.5));
    CHECK(shared_slice_reduce3_line_cost(q, p.alpha, 2, past) == doctest::Approx(3));
    // A one-reader step's r is already past its L2 share there.
    CHECK(reduce3_line_cost(q, p.alpha, three_quarters) == doctest::Approx(3));
    // Without r_l2 (format 17) nothing changes.
    ModelParams f17 = p;
    f17.alpha.r_l2 = 0;
    const CostQuery o{f17, t, CollKind::reduce, 64, true};
    CHECK(shared_slice_reduce3_line_cost(o, f17.alpha, 2, three_quarters) == doctest::Approx(3));
    // Format 19: R_slices_l2 for t threads within the share, R_slices past.
    ModelParams f19 = p;
    f19.alpha.R_slices_l2 = 2;
    f19.slice_near_line = 4;
    f19.slice_near_lines = 10;
    const CostQuery n{f19, t, CollKind::reduce, 64, true};
    CHECK(shared_slice_reduce3_line_cost(n, f19.alpha, 2, three_quarters) == doctest::Approx(4));
    CHECK(shared_slice_reduce3_line_cost(n, f19.alpha, 2, past) == doctest::Approx(3));
    CHECK(congested_slice_reduce3_line_cost(n, f19.alpha, past) == doctest::Approx(1));
    CHECK(slice_near_excess(n, 5) == doctest::Approx(4 * 5));
    CHECK(slice_near_excess(n, 100) == doctest::Approx(4 * 10));
    CHECK(slice_near_excess(q, 100) == 0);
}

TEST_CASE("in the L1s b_l1, r_l1 apply to half an L1 a rank, R_slices_l1 to kSliceFoldL1Share of one") {
    ModelParams p = made_up_params();
    p.alpha.r = 3;
    p.alpha.R = 5;
    p.alpha.r_mem = 9;
    p.alpha.R_mem = 10;
    p.alpha.R_slices = 1;
    p.alpha.R_slices_mem = 10;
    p.alpha.b_l2 = 1.5;
    p.alpha.c_l2 = 0.5;
    p.alpha.r_l2 = 2.5;
    p.alpha.R_slices_l2 = 2;
    CommTopology t = sockets(1, 4);  // 4 ranks
    t.l1_bytes = 48 << 10;
    const std::size_t half = 4 * (24u << 10), past_half = half + 4;
    const std::size_t share = static_cast<std::size_t>(4 * kSliceFoldL1Share * (48 << 10)), past_share = share + 4;
    // A format 21 profile: the L2s' costs from the first line.
    const CostQuery o{p, t, CollKind::reduce, 64, true};
    CHECK(line_cost(o, p.alpha, half) == doctest::Approx(1.5));
    CHECK(reduce3_line_cost(o, p.alpha, half) == doctest::Approx(2.5));
    CHECK(shared_slice_reduce3_line_cost(o, p.alpha, 2, share) == doctest::Approx(4));
    // Format 22: b_l1, r_l1 up to half an L1 a rank; the copy has no L1 cost.
    ModelParams f22 = p;
    f22.alpha.b_l1 = 0.75;
    f22.alpha.r_l1 = 1.25;
    f22.alpha.R_slices_l1 = 0.5;
    const CostQuery n{f22, t, CollKind::reduce, 64, true};
    CHECK(l1_resident(n, half));
    CHECK_FALSE(l1_resident(n, past_half));
    CHECK(line_cost(n, f22.alpha, half) == doctest::Approx(0.75));
    CHECK(line_cost(n, f22.alpha, past_half) == doctest::Approx(1.5));
    CHECK(reduce3_line_cost(n, f22.alpha, half) == doctest::Approx(1.25));
    CHECK(reduce3_line_cost(n, f22.alpha, past_half) == doctest::Approx(2.5));
    CHECK(copy_line_cost(n, f22.alpha, half) == doctest::Approx(0.5));
    // A slice fold: max(r_l1, R_slices_l1 t) within the share, the L2s' past it.
    CHECK(slice_fold_l1_resident(n, share));
    CHECK_FALSE(slice_fold_l1_resident(n, past_share));
    CHECK(shared_slice_reduce3_line_cost(n, f22.alpha, 2, share) == doctest::Approx(1.25));
    CHECK(shared_slice_reduce3_line_cost(n, f22.alpha, 4, share) == doctest::Approx(2));
    CHECK(shared_slice_reduce3_line_cost(n, f22.alpha, 2, past_share) == doctest::Approx(4));
    CHECK(congested_slice_reduce3_line_cost(n, f22.alpha, share) == doctest::Approx(0.5));
    // No L1 size from hwloc: none of them.
    CommTopology u = t;
    u.l1_bytes = 0;
    const CostQuery z{f22, u, CollKind::reduce, 64, true};
    CHECK(line_cost(z, f22.alpha, half) == doctest::Approx(1.5));
    CHECK(shared_slice_reduce3_line_cost(z, f22.alpha, 2, share) == doctest::Approx(4));
}

TEST_CASE("the decision cache's size ranges tile the sizes in order") {
    CHECK(size_range_of(0) == 0);
    CHECK(size_range_of(1) == 1);
    int last = 0;
    for (std::size_t b = 1; b < (std::size_t(1) << 30); b = b * 9 / 8 + 1) {
        const int r = size_range_of(b);
        CHECK(r >= last);
        CHECK(size_range_low(r) <= b);
        if (r + 1 < kSizeRanges) CHECK(b < size_range_low(r + 1));
        const std::size_t rep = size_range_representative(r);
        CHECK(size_range_of(rep) == r);
        last = r;
    }
    // Two ranges per power of two.
    CHECK(size_range_of(1024) + 2 == size_range_of(2048));
    CHECK(size_range_of(1024) + 1 == size_range_of(1500));
}

TEST_CASE("every intracommunicator algorithm has a cost formula") {
    const ModelParams p = made_up_params();
    const CommTopology t = sockets(2, 4);
    for (int i = 0; i < kCollKinds; ++i) {
        const auto k = static_cast<CollKind>(i);
        for (const CollAlgorithm& a : algorithms_of(k)) {
            CAPTURE(coll_name(k));
            CAPTURE(a.name);
            const bool has_cost = a.cost != nullptr;
            REQUIRE(has_cost);
            const CostQuery q{p, t, k, 4096, true};
            const double ns = a.cost(q);
            CHECK((ns > 0 || std::isinf(ns)));
        }
    }
}

TEST_CASE("The tree's first fold: a third-buffer reduction unless the copy hides the wait") {
    ModelParams p = made_up_params();
    p.alpha.r = 3;  // r, R, r_mem, R_mem
    p.alpha.R = 7;
    p.alpha.r_mem = 9;
    p.alpha.R_mem = 11;
    p.beta.r = 6;
    const CommTopology t2 = sockets(1, 2);
    // 1 line: copying it (c = 1 ns) hides in the 100 ns handoff: the input is
    // copied while the child is awaited, nothing beyond Eq. 1-3.
    const CostQuery tiny{p, t2, CollKind::reduce, 64, true};
    CHECK(copy_hides_wait(tiny));
    CHECK(tree_first_fold_excess(tiny, 2, 1, tiny.m(), 0) == 0);
    // 1000 lines: copying takes 1000 ns > a: the first fold is one pass, r - b = 1 ns a line.
    const CostQuery big{p, t2, CollKind::reduce, 64 * 1000, true};
    CHECK_FALSE(copy_hides_wait(big));
    CHECK(tree_first_fold_excess(big, 2, 1, big.m(), 0) == doctest::Approx(1000 * (3 - 2)));
    // 16 ranks in one domain: d = 3 survivors (Eq. 1, above); each survivor's
    // first fold is congested, min(d, q - d) = 3 of them at R - B = 3 a line.
    const CommTopology t16 = sockets(1, 16);
    const CostQuery wide{p, t16, CollKind::allreduce, 64 * 1000, true};
    CHECK(tree_first_fold_excess(wide, 16, 1, wide.m(), 0) == doctest::Approx(3 * (7 - 4) * 1000));
    // One rank per domain: the first fold crosses domains, beta's r - b.
    const CommTopology t4 = sockets(4, 1);
    const CostQuery across{p, t4, CollKind::allreduce, 64 * 1000, true};
    CHECK(tree_first_fold_excess(across, 1, 4, across.m(), 0) == doctest::Approx(1000 * (6 - 5)));
    // A profile without third-buffer costs charges the paper's b: nothing more.
    const ModelParams old = made_up_params();
    const CostQuery before{old, t2, CollKind::reduce, 64 * 1000, true};
    CHECK(tree_first_fold_excess(before, 2, 1, before.m(), 0) == 0);
}

TEST_CASE("binomial Reduce: each level's head folds its children in one chain, the first into a third buffer") {
    ModelParams p = made_up_params();
    p.alpha.r = 3;
    p.beta.r = 6;
    const std::size_t bytes = 64 * 100;  // m = 100 lines, in cache
    // Two ranks of one domain: one fold, x_0 op x_1 into the receive buffer.
    // Plus (p-1)/p a_a: the other rank's wait for the root's "folded".
    const CostQuery two{p, sockets(1, 2), CollKind::reduce, bytes, true};
    CHECK(reduce_binomial_cost(two) == doctest::Approx(100 + 3 * 100.0 + 100 / 2.0));
    // Eight ranks, two domains of four: levels 1-2 within (alpha), 3 across
    // (beta); the head of level k folds k: r_a, then b of each level's link.
    const CostQuery eight{p, sockets(2, 4), CollKind::reduce, bytes, true};
    const double chains = (100 + 3 * 100.0) + (100 + (3 + 2) * 100.0) + (300 + (3 + 2 + 5) * 100.0);
    CHECK(reduce_binomial_cost(eight) == doctest::Approx(chains + 100 * 7 / 8.0));
    // A profile without r: b for the first fold too, one chain per level.
    const CostQuery old{made_up_params(), sockets(1, 2), CollKind::reduce, bytes, true};
    CHECK(reduce_binomial_cost(old) == doctest::Approx(100 + 2 * 100.0 + 100 / 2.0));
}

TEST_CASE("slice folds are charged R_slices where the profile has it; dissemination keeps R") {
    ModelParams p = made_up_params();
    p.alpha.r = 3, p.alpha.R = 5, p.alpha.r_mem = 9, p.alpha.R_mem = 11;
    p.beta.r = 7, p.beta.R = 13, p.beta.r_mem = 15, p.beta.R_mem = 17;
    const CommTopology two = sockets(1, 2);
    const std::size_t bytes = 64 * 64;  // m = 64 lines, in cache
    const CostQuery before{p, two, CollKind::reduce_scatter_block, bytes, true};
    // Without R_slices (a profile before format 10) R stands in:
    // 2 a_a + max(r, R 2) m/2.
    CHECK(congested_slice_reduce3_line_cost(before, p.alpha, 0) == doctest::Approx(5));
    CHECK(slice_fold_cost(before, true) == doctest::Approx(2 * 100 + 10 * 32));
    const CostQuery reduce_before{p, two, CollKind::reduce, bytes, true};
    // ... tiled Reduce as well: the same fold.
    CHECK(reduce_tiled_cost(reduce_before) == doctest::Approx(2 * 100 + 10 * 32));
    p.alpha.R_slices = 2, p.alpha.R_slices_mem = 6;
    p.beta.R_slices = 4, p.beta.R_slices_mem = 10;
    const CostQuery after{p, two, CollKind::reduce_scatter_block, bytes, true};
    CHECK(congested_slice_reduce3_line_cost(after, p.alpha, 0) == doctest::Approx(2));
    CHECK(congested_slice_reduce3_line_cost(after, p.alpha, std::size_t{1} << 40) == doctest::Approx(6));
    // max(r, R_slices 2) = max(3, 4) per line of the rank's slice.
    CHECK(slice_fold_cost(after, true) == doctest::Approx(2 * 100 + 4 * 32));
    const CostQuery reduce_after{p, two, CollKind::reduce, bytes, true};
    CHECK(reduce_tiled_cost(reduce_after) == doctest::Approx(slice_fold_cost(reduce_after, false)));
    // Dissemination's rounds read every line of both ranks' inputs twice
    // at once: R, not R_slices (Eq. 6 at p = q = 2: a_a + max(r, R 2) m).
    CHECK(li_dissemination(after, 2, 2, 1, 64, 0) == doctest::Approx(100 + 10 * 64));
}

TEST_CASE("tiled_push past the cache: one streaming pass of m lines where the profile has fold_stream_line") {
    ModelParams p = made_up_params();
    const CommTopology two = sockets(1, 2);
    const std::size_t beyond = std::size_t{64} << 20;  // 2 p m = 256 MiB, past C
    const CostQuery old_q{p, two, CollKind::allreduce, beyond, true};
    REQUIRE(old_q.spills(2 * 2 * beyond));
    // Without the measurement (a profile before format 15): the fold and the
    // pushes, 64 B / nt_copy_bandwidth a pushed line.
    const double slice = old_q.m() / 2;
    const double fold_and_pushes = slice_fold_cost(old_q, true) + 64.0 / p.nt_copy_bandwidth * slice;
    CHECK(allreduce_tiled_push_cost(old_q) == doctest::Approx(fold_and_pushes));

    p.fold_stream_line = 3;
    const CostQuery q{p, two, CollKind::allreduce, beyond, true};
    // 2 (a + Y(p)) + m fold_stream_line (peer_args 0 in the made-up profile).
    const double streamed = 2 * slice_fold_wait_cost(q) + 3 * q.m();
    CHECK(allreduce_tiled_push_cost(q) == doctest::Approx(streamed));
    CHECK(streamed != doctest::Approx(fold_and_pushes));
    // A non-commutative op keeps the fold and its copies, and so does a
    // vector in cache.
    const CostQuery ordered{p, two, CollKind::allreduce, beyond, false};
    CHECK(allreduce_tiled_push_cost(ordered) > streamed);
    CHECK(allreduce_tiled_push_cost(ordered) ==
          doctest::Approx(allreduce_tiled_push_cost(CostQuery{made_up_params(), two, CollKind::allreduce, beyond,
                                                              false})));
    const CostQuery in_cache{p, two, CollKind::allreduce, 64 * 64, true};
    const CostQuery in_cache_old{made_up_params(), two, CollKind::allreduce, 64 * 64, true};
    CHECK(allreduce_tiled_push_cost(in_cache) == doctest::Approx(allreduce_tiled_push_cost(in_cache_old)));
}

TEST_CASE("pipelined Bcast: a parent's f - 1 readers share its lines, a lone reader copies at c") {
    // In cache, one domain: the bottleneck is max(c, (f - 1) C) m.
    ModelParams slow_ring = made_up_params(), fast_ring = made_up_params();
    slow_ring.alpha.C = 1;    // = c: 2 ranks pay c m either way
    fast_ring.alpha.C = 0.5;  // a ring's per-thread cost below one reader's
    const std::size_t bytes = 64 * 4096;
    const CommTopology two = sockets(1, 2), sixteen = sockets(1, 16);
    const auto cost = [&](const ModelParams& p, const CommTopology& t) {
        return bcast_pipelined_cost(CostQuery{p, t, CollKind::bcast, bytes, true});
    };
    // 2 ranks: one reader; the ring's cost does not apply (priced C m, the
    // 2-rank pipeline was predicted half its measured time).
    CHECK(cost(fast_ring, two) == doctest::Approx(cost(slow_ring, two)));
    // 16 ranks: 15 readers at once, 15 C m (7.5 m against 15 m).
    CHECK(cost(slow_ring, sixteen) - cost(fast_ring, sixteen) == doctest::Approx(15 * 0.5 * 4096));
}

TEST_CASE("copies into result buffers are priced at nt_copy_ratio from nt_copy_from a rank on") {
    ModelParams p = made_up_params();
    const CommTopology t = sockets(1, 2);
    // 1 MiB blocks at 2 ranks: Scatter's working set (sent and received) is
    // 4 MiB, 2 MiB a rank.
    const CostQuery q{p, t, CollKind::scatter, 1 << 20, true};
    CHECK(result_copy_scale(q, 4u << 20) == 1.0);  // no measurement: memcpy's cost
    const double before = scatter_direct_cost(q);
    p.nt_copy_from = 2u << 20;
    p.nt_copy_ratio = 0.75;
    CHECK(result_copy_scale(q, 4u << 20) == 0.75);
    CHECK(result_copy_scale(q, (4u << 20) - 2) == 1.0);  // under 2 MiB a rank
    // The copy's lines (C = 3 ns per line per thread, one reader: m lines,
    // in cache) cost a quarter less; its handoff and the arguments do not.
    const double m = q.m();
    CHECK(before - scatter_direct_cost(q) == doctest::Approx(0.25 * m * std::max(p.alpha.c, p.alpha.C)));
    // A ratio without a threshold (or the reverse) prices nothing differently.
    p.nt_copy_from = 0;
    CHECK(result_copy_scale(q, std::size_t{1} << 40) == 1.0);
}
