// Golden tests of the model's decisions: fixed, made-up parameters and
// machines in, the exact algorithm the runtime would run per collective and
// size range out (model_choice, registry.cpp: the same ranking the decision
// cache stores, evaluated at the range's first size). A change to a cost
// formula, to the size ranges or to the tables that moves a decision shows
// up here as a named difference, to be checked against the formulas
// (docs/model.md) and then recorded.
//
// To print the current decisions in this file's format (after an intended
// change): HMPI_GOLDEN_PRINT=1 build/bin/unit_tests -tc="*golden*".
//
// Worked by hand from the formulas, for the two-rank machine (one cache
// domain; p = 2, q = 2; a = 200, b = 6, B = 3, c = 3, C = 1.5 in cache;
// every prediction + call_overhead):
//  - Allreduce, m lines: inline = a + m max(b, 2B) = 200 + 6m; dissemination
//    = (a + 2Bm) + a (closing) = 400 + 6m; so inline wins wherever it
//    applies (up to 4 KiB = 64 lines). Above, movement_avoiding = R p a
//    + c m/2 (the first visit: a rank's own slice copied into the result)
//    + max(b, 2B) m/2 (folds) + a + max(c, 2C) m/2 (copy-out) = 200 + 400R
//    + 6m (R rounds of 512 KiB) never catches dissemination in cache
//    (these parameters have no third-buffer cost r: dissemination's steps
//    are charged b); against tiled = 2a + 2B m (1/2) (Eq. 8,
//    own tile local) + (a + c m) (one-stage Eq. 4, its one reader alone
//    uncongested: max(c, C t) with t = 1) + a/2 = 700 + 6m: dissemination
//    from 4 KiB to 2 MiB (R = 1 at 32 KiB and 256 KiB, 4 at 2 MiB). At
//    16 MiB the working set 2pm = 64 MiB spills the 32 MiB cache:
//    dissemination pays max(b_mem, 2 B_mem) = 16 per line, tiled B_mem +
//    c_mem = 16, movement_avoiding c_mem/2 + max(b_mem, 2 B_mem)/2 +
//    max(c_mem, 2 C_mem)/2 nt = 4 + 8 + 5 (6/8) = 15.75 (non-temporal
//    copy-out) plus 32 rounds' 400 ns, so movement_avoiding; tree =
//    (a + bm) + (a + cm) + a/2 = 500 + 9m never catches up.
//  - Reduce_scatter_block: direct = 2a + B p (p+1) m/p = 400 + 4.5m equals
//    tiled's (the first fold takes two inputs), and the table's order
//    (direct first) decides.
//  - Reduce: inline = (a + bm)/2 = 100 + 3m up to 4 KiB; then tiled = 2a +
//    2B m (1/2) = 400 + 3m against binomial = a + bm = 200 + 6m: tiled from
//    m = 67 lines.
//  - Bcast: inline = (p-1)/p (a + m max(c, C)) = 100 + 1.5m (up to 4 KiB);
//    one_stage = a + c m + a/2 = 300 + 3m; split = a + m/2 max(c, 2C) + a
//    = 400 + 1.5m: split overtakes one_stage above 66 lines, i.e. from the
//    first range past the inline limit.
//  - Barrier: flat = a (one flag line), dissemination = a (one round):
//    equal, and the table's order (flat first) decides.
//  - The inline algorithms' copy-in (rewrite_line = 12 per line past the
//    flag's own line) adds 12m on every rank's path, which the inline
//    figures above leave out: at 4 KiB (m = 64, +768 ns) inline loses.
//    Allreduce: 200 + 18m = 1352 against dissemination's 784; Bcast: 100 +
//    13.5m = 964 against one_stage's 492; Reduce: 100 + 15m = 1060 against
//    binomial's 200 + 6m = 584 (tiled: 592). Below 4 KiB (m <= 8) inline
//    stays ahead. source_line = 4 moves nothing here: with p = 2 one
//    reader meets a source, 4 < B t = 6.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "collectives/framework/levels.hpp"
#include "collectives/framework/registry.hpp"
#include "collectives/model/params.hpp"

using namespace hmpi::coll;

namespace {

constexpr std::size_t kL2 = 512u << 10, kL3 = 32u << 20;

ModelParams made_up_params() {
    ModelParams p;
    p.alpha = {200, 6, 3, 12, 8, 3, 1.5, 8, 5};
    p.beta = {400, 12, 6, 20, 14, 6, 3, 12, 9};
    p.copy_bandwidth = 6;
    p.nt_copy_bandwidth = 8;
    p.call_overhead = 150;
    p.rewrite_line = 12;
    p.source_line = 4;
    p.topology_key = "made-up";
    p.source = "model_golden_test";
    return p;
}

// `sockets` cache domains (one L3 and package each) of `per_socket` ranks,
// ranks in core order.
CommTopology machine(int sockets, int per_socket) {
    std::vector<RankPlace> places;
    for (int s = 0; s < sockets; ++s)
        for (int c = 0; c < per_socket; ++c) {
            const int core = s * per_socket + c;
            places.push_back({core, core, s, 0, s});
        }
    return build_comm_topology(places, kL2, kL3, false);
}

const std::vector<std::size_t> kSizes = {8, 64, 512, 4096, 32768, 262144, 2u << 20, 16u << 20};

const std::vector<std::pair<CollKind, bool>> kColls = {
    {CollKind::barrier, true},   {CollKind::bcast, true},     {CollKind::reduce, true},
    {CollKind::allreduce, true}, {CollKind::allreduce, false}, {CollKind::reduce_scatter_block, true},
    {CollKind::allgather, true}, {CollKind::gather, true},     {CollKind::scatter, true},
    {CollKind::alltoall, true},  {CollKind::scan, true},      {CollKind::exscan, true},
};

std::string label(CollKind k, bool commutative) {
    return std::string(coll_name(k)) + (commutative ? "" : "(non-commutative)");
}

// "collective: algorithm per size" lines, in kSizes order (barrier: one).
std::map<std::string, std::string> decisions(const CommTopology& topo, const ModelParams& params = made_up_params()) {
    std::map<std::string, std::string> out;
    for (const auto& [k, commutative] : kColls) {
        std::string line;
        for (std::size_t bytes : kSizes) {
            const CollAlgorithm* a = model_choice(k, params, topo, k == CollKind::barrier ? 0 : bytes, commutative);
            if (!line.empty()) line += " ";
            line += a ? a->name : "?";
            if (k == CollKind::barrier) break;
        }
        out[label(k, commutative)] = line;
    }
    return out;
}

void check_against(const char* name, const CommTopology& topo, const std::map<std::string, std::string>& golden,
                   const ModelParams& params = made_up_params()) {
    const auto got = decisions(topo, params);
    if (std::getenv("HMPI_GOLDEN_PRINT")) {
        std::printf("    // %s\n", name);
        for (const auto& [coll, line] : got) std::printf("    {\"%s\", \"%s\"},\n", coll.c_str(), line.c_str());
    }
    CHECK(got.size() == golden.size());
    for (const auto& [coll, line] : golden) {
        INFO(name, ": ", coll, " (sizes 8 B, 64 B, 512 B, 4 KiB, 32 KiB, 256 KiB, 2 MiB, 16 MiB)");
        REQUIRE(got.count(coll) == 1);
        CHECK(got.at(coll) == line);
    }
}

}  // namespace

// Non-commutative Allreduce at 4 KiB: tiled from stop 28, when the tree's
// top began to pay for folding into the lines its reader copied out in the
// previous call (result_source_rewrite_cost: 64 lines x rewrite_line 12),
// to stop 32, when tiled's members began to pay the same for their tile
// folds into the leader's buffer (m/q = 32 lines x 12): inline again.
// Scan at 4 KiB: chained since stop 20, when inline's reader was charged
// its whole pull (rank 1 pulls rank 0's vector: p/2 vectors per reader, not
// (p-1)/2), as exscan's already was at that size. Scan from 32 KiB: chained
// again since stop 30, whose step is one pass of m lines (r), as linear's
// at 2 ranks, but after one synchronized step where linear has two.
// Allgather, on every shape here, wherever direct was: push since stop 35,
// priced as push alltoall (push_line in the L2, cheaper than direct's pulls;
// C beyond, a tie that the table's order gives push).
// Allreduce from 4 KiB (both ops): tiled_push since stop 35, which moves
// each line once: a rank's slice folds (2 waits, m/2 lines folded) and m/2
// lines stored into the other's buffer, against dissemination's full m
// lines read and folded by both ranks in one round and tiled's copy first.
// Reduce at 4 KiB: tiled since stop 39 (binomial before), when binomial's
// other rank began to pay its wait for the root's "folded", (p-1)/p a, as
// the tree's and linear's always did.
TEST_CASE("golden: the model's decisions on two ranks sharing a cache") {
    check_against("2 ranks, one cache domain", machine(1, 2), {
        {"allgather", "inline inline inline push push push push push"},
        {"allreduce", "inline inline inline tiled_push tiled_push tiled_push tiled_push tiled_push"},
        {"allreduce(non-commutative)", "inline inline inline tiled_push tiled_push tiled_push tiled_push tiled_push"},
        {"alltoall", "inline inline inline pairwise pairwise pairwise pairwise pairwise"},
        {"barrier", "flat"},
        {"bcast", "inline inline inline one_stage split split split split"},
        {"exscan", "inline inline inline chained chained chained chained chained"},
        {"gather", "inline inline inline parallel parallel parallel parallel parallel"},
        {"reduce", "inline inline inline tiled tiled tiled tiled tiled"},
        {"reduce_scatter_block", "inline inline inline direct direct direct direct direct"},
        {"scan", "inline inline inline chained chained chained chained chained"},
        {"scatter", "inline inline inline direct direct direct direct direct"},
    });
}

// Two ranks, each its own cache domain (a 2-core EPYC whose cores share no
// L3). Exscan: chained is one push of m lines (push_line while 3 m fits the
// L2, then C), after two handoffs; linear is a pull (b_b) after two
// synchronized steps of both ranks, each with step_overhead. Non-commutative
// Allreduce: reduce_bcast from 256 KiB and inline at 4 KiB since stop 30,
// when tiled's step across stopped charging B_b m (a B below one thread's
// b: one rank per domain moves its whole vector alone). Scan: chained
// from 4 KiB since stop 30 (one pass of m lines, r_b, after one handoff;
// inline copies in and then pulls). Reduce at 4 KiB: linear since stop 31,
// when tiled became the reduce-scatter's fold (slice_fold_cost: 2 a_b +
// max(r_b, R_b p) m/2 = 800 + 12 * 32 = 1184; it charged 2 a_a + a_b + B_b
// m/2 = 992 before) against linear's 1.5 a_a + r_b m = 300 + 768 = 1068.
// Non-commutative Allreduce at 32 KiB: reduce_bcast since stop 32, when
// tiled began to pay for its two copies into lines the other rank read in
// the previous call (a rank's input into its own receive buffer, its domain
// having one member, and the broadcast into the other leader's buffer:
// 2 x 512 lines x rewrite_line 12), where reduce_bcast pays one fold's.
// Allreduce from 4 KiB: tiled_push since stop 35 (movement_avoiding
// before, whose chained steps and copy-out move each of a rank's m/2
// pulled lines twice; non-commutative: inline, then reduce_bcast, whose
// root alone folds and then is read). Bcast at 4 KiB: one_stage since stop
// 50, when split's cost began to charge its busiest rank's chunks: 4 KiB is
// one chunk, which one rank copies whole while the other waits, as
// one_stage's reader does, plus the claims (it charged each rank half).
TEST_CASE("golden: the model's decisions on two ranks in two cache domains") {
    check_against("2 ranks, two cache domains", machine(2, 1), {
        {"allgather", "inline inline inline push push push push push"},
        {"allreduce", "inline inline inline tiled_push tiled_push tiled_push tiled_push tiled_push"},
        {"allreduce(non-commutative)", "inline inline inline tiled_push tiled_push tiled_push tiled_push tiled_push"},
        {"alltoall", "inline inline inline pairwise pairwise pairwise pairwise pairwise"},
        {"barrier", "flat"},
        {"bcast", "inline inline inline one_stage split split split split"},
        {"exscan", "inline inline inline chained chained chained chained chained"},
        {"gather", "inline inline inline parallel parallel parallel parallel parallel"},
        {"reduce", "inline inline inline linear tiled tiled tiled tiled"},
        {"reduce_scatter_block", "inline inline inline direct direct direct direct direct"},
        {"scan", "inline inline inline chained chained chained chained chained"},
        {"scatter", "inline inline inline direct direct direct direct direct"},
    });
}

// Allreduce at 512 B and non-commutative at 4-32 KiB: tiled, where
// reduce_bcast and tree were before stop 28; their root folds into the
// receive buffer the 15 others copied out in the previous call (m lines x
// rewrite_line while 4 m fits the L2: result_source_rewrite_cost).
// Non-commutative at 256 KiB: tree again since stop 29 (4 m = 1 MiB, more
// than the L2 of 512 KiB: a reader's copy has evicted the lines it read).
// Allreduce at 4-32 KiB: tiled, whose domain waits are two flat waits of
// all 16 since stop 27 (Eq. 8's q a before; tiled measured 14-46% faster
// than tree at 2-8 KiB in stop 25's 16-rank run).
// Reduce_scatter_block at 4 KiB (m = 64, m_b = 4): direct = 2a + (max(r,
// R p) + (p-2) max(b, B p)) m_b = 400 + (48 + 14 * 48) * 4 = 3280 (no r in
// these parameters: r = b), ahead of inline. A commutative op's folds are
// staggered (reduce_staggered), so direct pays no busy-source term; in rank
// order it would add (source_line * 15 - B * 16) = 12 ns on each of the
// (p-1) m_b = 60 lines read from others, 720 ns. At 16 MiB the blocks leave
// the cache: direct streams its result through the 14 further folds
// (max(c_mem, C_mem p) each), tiled keeps it in cache.
// Reduce from 32 KiB: tiled, where binomial was until stop 31, when
// binomial's levels became the fold chains its nodes run (the head of
// level k folds its k children at once, the first into a third buffer:
// 4 (a + r m) + 6 b m over 4 levels, where 4 (a + b m) was charged, the
// cost of one fold per level; stop 25's 16-rank run measured binomial
// 2.2-8.6x slower than tiled from 32 KiB). At 16 MiB binomial (31.5 ms):
// tiled, the reduce-scatter's fold since stop 31, streams its result
// slices through the 14 further folds beyond the cache as direct does
// (49.8 ms; they are not strip-mined).
// Allreduce at 64 B (8 B too for a non-commutative op, which rules out
// hierarchical, and 512 B for it): inline_split since stop 49, two waits for
// lines that carry their data (an owner reads one line from each of the 15
// others, every rank one line from each owner) where reduce_bcast's root
// reaches 16 buffers through their owners' arguments and then 15 ranks
// copy from it. Allreduce from 512 B: tiled_push since stop 35, tiled's folds without
// its broadcast step (each rank stores its finished
// slice into the 15 others' buffers: the lines the broadcast's readers
// would pull) and without movement_avoiding's p chained steps per round.
TEST_CASE("golden: the model's decisions on 16 ranks in one cache domain") {
    check_against("16 ranks, one cache domain", machine(1, 16), {
        {"allgather", "inline inline inline push push push push push"},
        {"allreduce", "hierarchical inline_split tiled_push tiled_push tiled_push tiled_push tiled_push tiled_push"},
        {"allreduce(non-commutative)", "inline_split inline_split inline_split tiled_push tiled_push tiled_push tiled_push tiled_push"},
        {"alltoall", "inline inline pairwise pairwise pairwise pairwise pairwise pairwise"},
        {"barrier", "flat"},
        {"bcast", "inline inline one_stage one_stage binomial binomial binomial pipelined"},
        {"exscan", "inline inline inline chained chained chained chained chained"},
        {"gather", "inline inline inline inline parallel parallel parallel parallel"},
        {"reduce", "inline inline inline inline tiled tiled tiled binomial"},
        {"reduce_scatter_block", "reduce_then_scatter reduce_then_scatter inline direct direct direct direct tiled"},
        {"scan", "inline inline inline chained chained chained chained chained"},
        {"scatter", "inline inline direct direct direct direct direct direct"},
    });
}

// Reduce_scatter_block from 32 KiB: movement_avoiding, whose results cross
// into the other socket twice per block, where direct's ranks fold 8 of
// their 16 inputs from across it (beta's costs). Reduce from 32 KiB: tree
// since stop 31 (binomial before; see the one-domain case): its Eq. 1
// first phase and one step across the sockets (32 KiB: 20.0 us) against
// binomial's chains (34.9) and tiled's fold, 8 of whose 15 folds a line
// read from across the sockets (36.3).
TEST_CASE("golden: the model's decisions on two sockets of 8 ranks") {
    check_against("16 ranks, two cache domains", machine(2, 8), {
        {"allgather", "inline inline inline inline push push push push"},
        {"allreduce", "reduce_bcast reduce_bcast tiled tiled tiled tiled tiled tiled"},
        {"allreduce(non-commutative)", "reduce_bcast reduce_bcast tiled tiled tiled tiled tiled tiled"},
        {"alltoall", "inline inline pairwise pairwise pairwise pairwise pairwise pairwise"},
        {"barrier", "flat"},
        {"bcast", "inline inline one_stage two_stage binomial pipelined pipelined pipelined"},
        {"exscan", "inline inline linear chained chained chained chained chained"},
        {"gather", "inline inline inline inline parallel parallel parallel two_stage"},
        {"reduce", "inline inline inline inline tree tree tree tree"},
        {"reduce_scatter_block", "reduce_then_scatter reduce_then_scatter inline direct movement_avoiding movement_avoiding movement_avoiding movement_avoiding"},
        {"scan", "inline inline linear chained chained chained chained chained"},
        {"scatter", "inline inline direct direct direct direct direct two_stage"},
    });
}

// 16 ranks bound to 2 cores as hmpirun binds them (rank r on core r mod 2,
// each core its own cache domain), 8 to a core, with switch_handoff =
// 2000 ns (the 2-core EPYC guest measured 1.9-2.0 us): every synchronized
// step's a is charged 7 x 2000 ns more (oversubscribed_params), and a wait
// of every rank for every rank (the slice folds' two, flat_wait_cost) 7 x
// 2000 ns more again (all_wait_switches), so the algorithms with fewer
// steps move up. Against the same shape without the term (exactly the
// decisions of "16 ranks, two cache domains" above): Allreduce inline up
// to 512 B (reduce_bcast, then tiled before: one copy-in and one wait
// where they take three or more steps), reduce_bcast at 4 KiB and
// tiled_push at 32 KiB (tiled's two all-rank waits and broadcast); Bcast
// one step fewer from 512 B to 256 KiB (inline, one_stage, two_stage,
// binomial where one_stage, two_stage, binomial, pipelined were); Scan and
// Exscan inline at 512 B and linear at 4 and 32 KiB (chained's p - 1
// handoffs in turn); Reduce binomial at 32 KiB (tiled since stop 39, when
// binomial's children began to pay their wait for "folded"); Reduce_scatter_block
// inline up to 4 KiB and direct at 32 and 256 KiB. On the 2-core guest,
// with its own profile, the choices at 4, 8 and 16 ranks came within 10%
// of the fastest forced algorithm at 131 of 138 points (130 since stop 39:
// Reduce at 4 ranks, 32 KiB, went from binomial to tree), against 114
// without the terms (docs/results/oversubscribed, "The model when ranks
// outnumber CPUs").
CommTopology oversubscribed_machine(int cpus, int ranks) {
    std::vector<RankPlace> places;
    for (int r = 0; r < ranks; ++r) places.push_back({r % cpus, r % cpus, r % cpus, 0, r % cpus});
    CommTopology t = build_comm_topology(places, kL2, kL3, false);
    t.ranks_per_cpu = (ranks + cpus - 1) / cpus;
    return t;
}

TEST_CASE("golden: the model's decisions on 16 ranks sharing 2 CPUs") {
    ModelParams params = made_up_params();
    params.switch_handoff = 2000;
    check_against("16 ranks on 2 CPUs", oversubscribed_machine(2, 16), {
        {"allgather", "inline inline inline inline push push push push"},
        {"allreduce", "inline inline inline reduce_bcast tiled_push tiled tiled tiled"},
        {"allreduce(non-commutative)", "inline inline inline reduce_bcast tiled_push tiled tiled tiled"},
        {"alltoall", "inline inline pairwise pairwise pairwise pairwise pairwise pairwise"},
        {"barrier", "flat"},
        {"bcast", "inline inline inline one_stage one_stage two_stage binomial pipelined"},
        {"exscan", "inline inline inline linear linear chained chained chained"},
        {"gather", "inline inline inline inline parallel parallel parallel two_stage"},
        {"reduce", "inline inline inline inline tiled tree tree tree"},
        {"reduce_scatter_block", "inline inline inline inline direct direct movement_avoiding movement_avoiding"},
        {"scan", "inline inline inline linear linear chained chained chained"},
        {"scatter", "inline inline direct direct direct direct direct two_stage"},
    }, params);
}

TEST_CASE("switch_handoff moves decisions only where ranks outnumber CPUs") {
    ModelParams params = made_up_params();
    params.switch_handoff = 2000;
    CommTopology shared = oversubscribed_machine(2, 16), unshared = shared;
    unshared.ranks_per_cpu = 1;
    // Without the oversubscription, the term is not charged: the same
    // decisions as with no switch_handoff at all.
    CHECK(decisions(unshared, params) == decisions(unshared));
    // Without a measured switch_handoff (a profile before format 12) the
    // oversubscribed shape decides as before.
    CHECK(decisions(shared) == decisions(unshared));
    // With both, each synchronized step costs (k - 1) switch_handoff more:
    // a one-step Barrier's prediction grows by exactly that.
    const CostQuery q0{params, unshared, CollKind::barrier, 0, true}, q1{params, shared, CollKind::barrier, 0, true};
    const auto flat_of = [](const std::vector<Prediction>& v) {
        for (const Prediction& p : v)
            if (std::string(p.algorithm->name) == "flat") return p.ns;
        return -1.0;
    };
    CHECK(flat_of(predict(CollKind::barrier, q1)) - flat_of(predict(CollKind::barrier, q0)) ==
          doctest::Approx(7 * 2000.0));
    CHECK(decisions(shared, params) != decisions(shared));
}

namespace {
double predicted(CollKind k, const ModelParams& params, const CommTopology& topo, std::size_t bytes,
                 const char* name, bool commutative = true) {
    const CostQuery q{params, topo, k, bytes, commutative};
    for (const Prediction& p : predict(k, q))
        if (std::string(p.algorithm->name) == name) return p.ns;
    FAIL("no algorithm ", name);
    return 0;
}
}  // namespace

TEST_CASE("the sharer and source terms add what their formulas say, where they apply") {
    const CommTopology topo = machine(1, 16);
    ModelParams off = made_up_params(), on = made_up_params();
    off.rewrite_line = off.source_line = 0;
    on.rewrite_line = 20;
    on.source_line = 5;
    // Inline copy-in: 4 KiB = 64 lines past the flag's own line cost 64 *
    // rewrite_line, on every rank's path; data in the flag's line, nothing.
    for (auto [k, name] : {std::pair{CollKind::bcast, "inline"}, std::pair{CollKind::allreduce, "inline"},
                           std::pair{CollKind::gather, "inline"}}) {
        INFO(coll_name(k));
        CHECK(predicted(k, on, topo, 4096, name) - predicted(k, off, topo, 4096, name) == doctest::Approx(64 * 20));
        CHECK(predicted(k, on, topo, 8, name) == doctest::Approx(predicted(k, off, topo, 8, name)));
    }
    // Scatter's root writes the other ranks' blocks: 15 x 256 B = 60 lines.
    CHECK(predicted(CollKind::scatter, on, topo, 256, "inline") - predicted(CollKind::scatter, off, topo, 256, "inline") ==
          doctest::Approx(60 * 20));
    // A broadcast source's rewrite: tree, hierarchical and reduce_bcast
    // Allreduce fold into the root's receive buffer, which every reader
    // copied last call: m rewrite_line while twice the reader's 2 m fit its
    // L2 (512 KiB here: 32 KiB, m = 512, yes; 256 KiB, no); a vector in the
    // flags' payloads (8 B) has no buffer to rewrite.
    for (const char* name : {"tree", "hierarchical", "reduce_bcast"}) {
        INFO(name);
        CHECK(predicted(CollKind::allreduce, on, topo, 32768, name) -
                  predicted(CollKind::allreduce, off, topo, 32768, name) ==
              doctest::Approx(512 * 20));
        CHECK(predicted(CollKind::allreduce, on, topo, 256 << 10, name) ==
              doctest::Approx(predicted(CollKind::allreduce, off, topo, 256 << 10, name)));
    }
    // Past a knee (rewrite_knee lines) each line costs rewrite_line_beyond:
    // 64 lines of inline copy-in, 16 at 20 and 48 at 50; tree and
    // reduce_bcast's rewrite of 512 lines, 16 at 20 and 496 at 50. The
    // pipelined hierarchical Allreduce stays at rewrite_line throughout.
    ModelParams knee = on;
    knee.rewrite_knee = 16;
    knee.rewrite_line_beyond = 50;
    for (auto [k, name] : {std::pair{CollKind::bcast, "inline"}, std::pair{CollKind::allreduce, "inline"}}) {
        INFO(coll_name(k));
        CHECK(predicted(k, knee, topo, 4096, name) - predicted(k, off, topo, 4096, name) ==
              doctest::Approx(16 * 20 + 48 * 50));
        CHECK(predicted(k, knee, topo, 1024, name) - predicted(k, off, topo, 1024, name) == doctest::Approx(16 * 20));
    }
    for (const char* name : {"tree", "reduce_bcast"}) {
        INFO(name);
        CHECK(predicted(CollKind::allreduce, knee, topo, 32768, name) -
                  predicted(CollKind::allreduce, off, topo, 32768, name) ==
              doctest::Approx(16 * 20 + 496 * 50));
    }
    CHECK(predicted(CollKind::allreduce, knee, topo, 32768, "hierarchical") -
              predicted(CollKind::allreduce, off, topo, 32768, "hierarchical") ==
          doctest::Approx(512 * 20));
    CHECK(predicted(CollKind::allreduce, on, topo, 8, "tree") ==
          doctest::Approx(predicted(CollKind::allreduce, off, topo, 8, "tree")));
    // Rank-order sweeps (a non-commutative op): 15 readers at a source,
    // 5 * 15 = 75 ns per line against B t = 3 * 16 = 48, so 27 ns more for
    // each of the (p-1) m/p lines read from other ranks (32 KiB: m = 512,
    // m/p = 32).
    const bool rank_order = false;
    CHECK(predicted(CollKind::reduce_scatter_block, on, topo, 32768, "direct", rank_order) -
              predicted(CollKind::reduce_scatter_block, off, topo, 32768, "direct", rank_order) ==
          doctest::Approx(27.0 * 15 * 32));
    CHECK(predicted(CollKind::reduce, on, topo, 32768, "tiled", rank_order) -
              predicted(CollKind::reduce, off, topo, 32768, "tiled", rank_order) ==
          doctest::Approx(27.0 * 512 * 15 / 16));
    // Tiled Allreduce: the q - 1 other members of the domain at a source;
    // and its members' tile folds store into the leader's receive buffer,
    // which the broadcast's readers copied last call: m/q = 32 lines at
    // rewrite_line (the profile has no fold_rewrite_line; 2 * 2 m fits the L2).
    CHECK(predicted(CollKind::allreduce, on, topo, 32768, "tiled", rank_order) -
              predicted(CollKind::allreduce, off, topo, 32768, "tiled", rank_order) ==
          doctest::Approx(27.0 * 512 * 15 / 16 + 32 * 20));
    // Once a rank's input fills its L2 (512 KiB here) the source no longer
    // serves it from there: nothing more.
    for (std::size_t bytes : {std::size_t{512} << 10, std::size_t{2} << 20})
        CHECK(predicted(CollKind::reduce_scatter_block, on, topo, bytes, "direct", rank_order) ==
              doctest::Approx(predicted(CollKind::reduce_scatter_block, off, topo, bytes, "direct", rank_order)));
    CHECK(predicted(CollKind::reduce_scatter_block, on, topo, 256 << 10, "direct", rank_order) >
          predicted(CollKind::reduce_scatter_block, off, topo, 256 << 10, "direct", rank_order));
    // Staggered readers (one per source at a time) pay nothing more: a
    // commutative op's folds start at each rank's own input
    // (reduce_staggered), as do pairwise Alltoall and movement_avoiding.
    for (auto [k, name] : {std::pair{CollKind::reduce_scatter_block, "movement_avoiding"},
                           std::pair{CollKind::alltoall, "pairwise"}, std::pair{CollKind::reduce_scatter_block, "direct"},
                           std::pair{CollKind::reduce_scatter_block, "tiled"}, std::pair{CollKind::reduce, "tiled"}}) {
        INFO(coll_name(k), " ", name);
        CHECK(predicted(k, on, topo, 32768, name) == doctest::Approx(predicted(k, off, topo, 32768, name)));
    }
    CHECK(predicted(CollKind::allreduce, on, topo, 32768, "tiled") -
              predicted(CollKind::allreduce, off, topo, 32768, "tiled") ==
          doctest::Approx(32 * 20));
    // Below B t the source is not the bottleneck: nothing more.
    ModelParams low = off;
    low.source_line = 3;  // 45 < 48
    CHECK(predicted(CollKind::reduce_scatter_block, low, topo, 32768, "direct", rank_order) ==
          doctest::Approx(predicted(CollKind::reduce_scatter_block, off, topo, 32768, "direct", rank_order)));
}

TEST_CASE("tiled, one rank per domain: two first stores into lines the parent holds, rewrite_first or a_b each") {
    ModelParams none = made_up_params(), low = made_up_params(), high = made_up_params();
    low.rewrite_first = 40;
    high.rewrite_first = 90;
    // Two domains of one rank: each leader's copy-in and the broadcast's copy
    // over it; whatever the size.
    const CommTopology two = machine(2, 1);
    for (std::size_t bytes : {std::size_t{8}, std::size_t{1024}, std::size_t{256} << 10}) {
        INFO(bytes);
        CHECK(predicted(CollKind::allreduce, high, two, bytes, "tiled") -
                  predicted(CollKind::allreduce, low, two, bytes, "tiled") ==
              doctest::Approx(2 * (90 - 40)));
        CHECK(predicted(CollKind::allreduce, none, two, bytes, "tiled") -
                  predicted(CollKind::allreduce, low, two, bytes, "tiled") ==
              doctest::Approx(2 * (none.beta.a - 40)));
    }
    // Domains of several ranks (q > 1) and the tree: no such term.
    const CommTopology one = machine(1, 16);
    CHECK(predicted(CollKind::allreduce, high, one, 1024, "tiled") ==
          doctest::Approx(predicted(CollKind::allreduce, low, one, 1024, "tiled")));
    CHECK(predicted(CollKind::allreduce, high, two, 1024, "tree") ==
          doctest::Approx(predicted(CollKind::allreduce, low, two, 1024, "tree")));
}

TEST_CASE("inline_read_first: a read past the lines the wait prefetched takes one more round trip") {
    ModelParams none = made_up_params(), first = made_up_params();
    first.inline_read_first = 150;
    auto extra = [&](CollKind k, const CommTopology& t, std::size_t bytes) {
        return predicted(k, first, t, bytes, "inline") - predicted(k, none, t, bytes, "inline");
    };
    // 2 ranks, one writer each: up to 8 lines come with the flag (the
    // wait prefetches them; up to 48 B in the flag's own line), more after it.
    const CommTopology two = machine(2, 1);
    CHECK(extra(CollKind::allreduce, two, 8) == doctest::Approx(0));
    CHECK(extra(CollKind::allreduce, two, 512) == doctest::Approx(0));
    CHECK(extra(CollKind::allreduce, two, 1024) == doctest::Approx(150));
    CHECK(extra(CollKind::allreduce, two, 4096) == doctest::Approx(150));
    // Bcast: the reader's, in the mean over two ranks.
    CHECK(extra(CollKind::bcast, two, 4096) == doctest::Approx(75));
    // 16 ranks: 15 writers at once, whose wait prefetches nothing.
    const CommTopology one = machine(1, 16);
    CHECK(extra(CollKind::allreduce, one, 8) == doctest::Approx(0));
    CHECK(extra(CollKind::allreduce, one, 64) == doctest::Approx(150));
}

TEST_CASE("fold_rewrite_knee: past it a fold's stores into lines others read cost fold_rewrite_line_beyond") {
    ModelParams held = made_up_params();
    held.fold_rewrite_line = 9;
    ModelParams knee = held;
    knee.fold_rewrite_knee = 1024;  // lines: 64 KiB
    knee.fold_rewrite_line_beyond = 2;
    // Up to the knee (m = 1024 lines) nothing changes; past it every line
    // of the vector costs 2 instead of 9: tree and reduce_bcast fold all m
    // lines of the root's receive buffer, tiled's 16 members m/16 each.
    const CommTopology one = machine(1, 16);
    for (const char* name : {"tree", "reduce_bcast"}) {
        INFO(name);
        CHECK(predicted(CollKind::allreduce, knee, one, 64 << 10, name) ==
              doctest::Approx(predicted(CollKind::allreduce, held, one, 64 << 10, name)));
        CHECK(predicted(CollKind::allreduce, held, one, 256 << 10, name) -
                  predicted(CollKind::allreduce, knee, one, 256 << 10, name) ==
              doctest::Approx(4096 * (9 - 2)));
    }
    CHECK(predicted(CollKind::allreduce, held, one, 256 << 10, "tiled") -
              predicted(CollKind::allreduce, knee, one, 256 << 10, "tiled") ==
          doctest::Approx(4096 / 16 * (9 - 2)));
    // Without fold_rewrite_line the knee is not used: rewrite_line's rule.
    ModelParams unmeasured = knee;
    unmeasured.fold_rewrite_line = 0;
    ModelParams plain = made_up_params();
    CHECK(predicted(CollKind::allreduce, unmeasured, one, 256 << 10, "tree") ==
          doctest::Approx(predicted(CollKind::allreduce, plain, one, 256 << 10, "tree")));
}

TEST_CASE("fold_rewrite_line: a fold's stores into lines others read, at every size") {
    ModelParams old = made_up_params(), fold = made_up_params();
    fold.fold_rewrite_line = 9;
    // One domain of 16: tree and reduce_bcast fold all m lines of the
    // root's receive buffer, at fold_rewrite_line per line whatever the size
    // (rewrite_line only while 2 * 2 m fits the L2: 32 KiB, not 256 KiB);
    // tiled's members fold m/q lines each; a vector in the flags' payloads
    // (8 B) has no buffer; the pipelined hierarchical Allreduce keeps
    // rewrite_line.
    const CommTopology one = machine(1, 16);
    for (const char* name : {"tree", "reduce_bcast"}) {
        INFO(name);
        CHECK(predicted(CollKind::allreduce, fold, one, 32768, name) -
                  predicted(CollKind::allreduce, old, one, 32768, name) ==
              doctest::Approx(512 * (9 - 12)));
        CHECK(predicted(CollKind::allreduce, fold, one, 256 << 10, name) -
                  predicted(CollKind::allreduce, old, one, 256 << 10, name) ==
              doctest::Approx(4096 * 9));
    }
    CHECK(predicted(CollKind::allreduce, fold, one, 8, "tree") ==
          doctest::Approx(predicted(CollKind::allreduce, old, one, 8, "tree")));
    CHECK(predicted(CollKind::allreduce, fold, one, 256 << 10, "tiled") -
              predicted(CollKind::allreduce, old, one, 256 << 10, "tiled") ==
          doctest::Approx(4096 / 16 * 9));
    CHECK(predicted(CollKind::allreduce, fold, one, 32768, "hierarchical") ==
          doctest::Approx(predicted(CollKind::allreduce, old, one, 32768, "hierarchical")));
    // Two domains of one rank: tiled's "tile fold" is a copy (memcpy's
    // rewrite_line, while it fits), and so is the broadcast into the other
    // leader's buffer, which the top read: neither is a fold. rewrite_line
    // (12) is a local copy's whole cost a line into lines others read;
    // both copies are charged as copies already (Eq. 8's c; the copy step
    // across), so each adds what rewrite_line adds to alpha's c (3): 9
    // (the broadcast's copy was charged all 12 more until stop 42).
    const CommTopology two = machine(2, 1);
    CHECK(predicted(CollKind::allreduce, fold, two, 32768, "tiled") ==
          doctest::Approx(predicted(CollKind::allreduce, old, two, 32768, "tiled")));
    ModelParams none = old;
    none.rewrite_line = 0;
    CHECK(predicted(CollKind::allreduce, old, two, 32768, "tiled") -
              predicted(CollKind::allreduce, none, two, 32768, "tiled") ==
          doctest::Approx(512 * (12 - 3) + 512 * (12 - 3)));
    // A rewrite_line under c (a string move's stores on the EPYC guest)
    // adds nothing to either copy.
    ModelParams cheap = old;
    cheap.rewrite_line = 2;
    CHECK(predicted(CollKind::allreduce, cheap, two, 32768, "tiled") ==
          doctest::Approx(predicted(CollKind::allreduce, none, two, 32768, "tiled")));
    CHECK(predicted(CollKind::allreduce, fold, two, 256 << 10, "tree") -
              predicted(CollKind::allreduce, old, two, 256 << 10, "tree") ==
          doctest::Approx(4096 * 9));
}

TEST_CASE("copy_rewrite: a copy's stores into lines others read, from the measured copy size on") {
    ModelParams old = made_up_params(), copy = made_up_params();
    copy.copy_rewrite_bytes = 1 << 20;
    copy.copy_rewrite_line = 10;
    const CommTopology two = machine(2, 1);
    // Tiled Allreduce on two one-rank domains: the broadcast copies the
    // whole vector into the other leader's buffer in one call (2 MiB:
    // 32768 lines at 10 more; rewrite_line's rule charged nothing, 2 * 2 m
    // being past the 512 KiB L2); the tile "fold" copies 32 KiB strips,
    // below the threshold. At 512 KiB neither copy reaches it.
    CHECK(predicted(CollKind::allreduce, copy, two, 2 << 20, "tiled") -
              predicted(CollKind::allreduce, old, two, 2 << 20, "tiled") ==
          doctest::Approx(32768 * 10));
    CHECK(predicted(CollKind::allreduce, copy, two, 512 << 10, "tiled") ==
          doctest::Approx(predicted(CollKind::allreduce, old, two, 512 << 10, "tiled")));
    // Allgather forwarding blocks out of receive buffers: (p - 1) m lines
    // rewritten in block copies of m bytes.
    for (const char* name : {"ring", "recursive_doubling"}) {
        INFO(name);
        CHECK(predicted(CollKind::allgather, copy, two, 2 << 20, name) -
                  predicted(CollKind::allgather, old, two, 2 << 20, name) ==
              doctest::Approx(32768 * 10));
        CHECK(predicted(CollKind::allgather, copy, two, 32768, name) ==
              doctest::Approx(predicted(CollKind::allgather, old, two, 32768, name)));
    }
    // Tree and direct copy into lines nobody reads: nothing.
    for (auto [k, name] : {std::pair{CollKind::allreduce, "tree"}, std::pair{CollKind::allgather, "direct"}}) {
        INFO(name);
        CHECK(predicted(k, copy, two, 2 << 20, name) == doctest::Approx(predicted(k, old, two, 2 << 20, name)));
    }
}

TEST_CASE("predictions equal up to rounding rank in the table's order") {
    // On two one-rank domains, without copy_rewrite, the direct, ring and
    // recursive-doubling Allgather each copy one block: the same terms,
    // summed in different orders. The tie goes to the table's first of them (direct),
    // at every size; before, the last bits picked recursive doubling at some
    // sizes (stop 33: a fast-state profile, 1 MiB, where it measured 3x
    // slower than direct in the slow state).
    const CommTopology two = machine(2, 1);
    // The parameters of that profile (the EPYC guest's fast state), whose
    // sums differ in their last bits.
    ModelParams params = made_up_params();
    params.alpha = params.beta = {55.5825, 1.15936, 0.622425, 3.12234, 2.53523, 1.03165, 0.622425, 3.12234, 2.53523,
                                  1.41357, 1.32275, 4.88922, 3.38167};
    params.alpha.R_slices = params.beta.R_slices = 0.833627;
    params.alpha.R_slices_mem = params.beta.R_slices_mem = 4.1254;
    params.copy_bandwidth = 16.1845;
    params.nt_copy_bandwidth = 18.7486;
    params.call_overhead = 11.6;
    params.rewrite_line = 0.862814;
    params.source_line = 0.901296;
    params.step_overhead = 64.5175;
    params.push_line = 0.427563;
    params.peer_args = 90;
    params.core_cache_bytes = 20709376;
    int ties = 0;
    for (std::size_t bytes = 64 << 10; bytes <= (16u << 20); bytes *= 2) {
        INFO(bytes, " bytes");
        const std::vector<Prediction> ranked =
            predict(CollKind::allgather, CostQuery{params, two, CollKind::allgather, bytes, true});
        std::vector<std::string> order;
        for (const Prediction& p : ranked)
            if (std::isfinite(p.ns) && !is_intercomm_algorithm(CollKind::allgather, *p.algorithm))
                order.push_back(p.algorithm->name);
        const double direct = predicted(CollKind::allgather, params, two, bytes, "direct");
        const double ring = predicted(CollKind::allgather, params, two, bytes, "ring");
        const double doubling = predicted(CollKind::allgather, params, two, bytes, "recursive_doubling");
        if (std::abs(ring - direct) > kTieRelative * direct || std::abs(doubling - direct) > kTieRelative * direct)
            continue;
        ++ties;
        // Push (stop 35) is priced as direct beyond the L2 and below it
        // inside: first either way, then the three that tie in table order.
        REQUIRE(order.size() >= 4);
        CHECK(order[0] == "push");
        CHECK(order[1] == "direct");
        CHECK(order[2] == "ring");
        CHECK(order[3] == "recursive_doubling");
        CHECK(std::string(model_choice(CollKind::allgather, params, two, bytes, true)->name) == "push");
    }
    CHECK(ties >= 4);  // the premise: these sizes tie
}

TEST_CASE("busy_step: steps every rank takes at once pay it, tiled's Eq. 8 does not") {
    ModelParams off = made_up_params(), on = made_up_params();
    on.busy_step = 10;
    const CommTopology sixteen = machine(1, 16), two = machine(1, 2);
    const double per_step = 10.0 * (16 - 2);  // busy_a - a at p = 16
    // Dissemination barrier: 4 rounds.
    CHECK(predicted(CollKind::barrier, on, sixteen, 0, "dissemination") -
              predicted(CollKind::barrier, off, sixteen, 0, "dissemination") ==
          doctest::Approx(4 * per_step));
    // Movement-avoiding Allreduce at 32 KiB: one round, a chain of p = 16 steps.
    CHECK(predicted(CollKind::allreduce, on, sixteen, 32768, "movement_avoiding") -
              predicted(CollKind::allreduce, off, sixteen, 32768, "movement_avoiding") ==
          doctest::Approx(16 * per_step));
    // Dissemination Allreduce: log2 16 = 4 rounds.
    CHECK(predicted(CollKind::allreduce, on, sixteen, 4096, "dissemination") -
              predicted(CollKind::allreduce, off, sixteen, 4096, "dissemination") ==
          doctest::Approx(4 * per_step));
    // The tree's reduction steps pay it too; tiled (Eq. 8's q a) and the
    // inline step do not.
    CHECK(predicted(CollKind::allreduce, on, sixteen, 4096, "tree") >
          predicted(CollKind::allreduce, off, sixteen, 4096, "tree") + per_step);
    for (const char* name : {"tiled", "inline"})
        CHECK(predicted(CollKind::allreduce, on, sixteen, 4096, name) ==
              doctest::Approx(predicted(CollKind::allreduce, off, sixteen, 4096, name)));
    // With two ranks no rank is beyond two: nothing changes.
    for (const char* name : {"movement_avoiding", "dissemination", "tree"})
        CHECK(predicted(CollKind::allreduce, on, two, 32768, name) ==
              doctest::Approx(predicted(CollKind::allreduce, off, two, 32768, name)));
}

TEST_CASE("push_line: push Alltoall pays it while a rank's data fits its L2, and is then chosen") {
    ModelParams off = made_up_params(), on = made_up_params();
    on.push_line = 0.5;  // against alpha's C = 1.5
    const CommTopology sixteen = machine(1, 16);
    // 4 KiB blocks: m = 64 lines to each of 15 peers, 16 pushers at once;
    // a rank's send and receive buffers, 2 x 16 x 4 KiB = 128 KiB, fit the
    // 512 KiB L2. Push is pairwise less the cheaper lines: (0.5 - 1.5) 16 15 64.
    CHECK(predicted(CollKind::alltoall, on, sixteen, 4096, "push") -
              predicted(CollKind::alltoall, on, sixteen, 4096, "pairwise") ==
          doctest::Approx(-1.0 * 16 * 15 * 64));
    // Without the measurement push pays C: the same as pairwise, which,
    // registered first, wins the tie (below).
    CHECK(predicted(CollKind::alltoall, off, sixteen, 4096, "push") ==
          doctest::Approx(predicted(CollKind::alltoall, off, sixteen, 4096, "pairwise")));
    // 32 KiB blocks: 1 MiB of a rank's own data leaves the L2; C again.
    CHECK(predicted(CollKind::alltoall, on, sixteen, 32768, "push") ==
          doctest::Approx(predicted(CollKind::alltoall, off, sixteen, 32768, "push")));
    // The decisions: push where its lines are cheaper, pairwise without the
    // measurement or beyond the L2.
    CHECK(std::string(model_choice(CollKind::alltoall, on, sixteen, 4096, true)->name) == "push");
    CHECK(std::string(model_choice(CollKind::alltoall, off, sixteen, 4096, true)->name) == "pairwise");
    CHECK(std::string(model_choice(CollKind::alltoall, on, sixteen, 32768, true)->name) == "pairwise");
}

TEST_CASE("push_line_beyond: every rank pushing past its L2 pays it within the cache, a lone pusher C") {
    ModelParams off = made_up_params(), on = made_up_params();
    off.push_line = on.push_line = 0.5;
    on.push_line_beyond = 1.0;  // against alpha's C = 1.5
    const CommTopology sixteen = machine(1, 16);
    // 32 KiB blocks: a rank's 1 MiB leaves the 512 KiB L2; the 8 MiB
    // working set stays in the cache. 512 lines to each of 15 peers, 16
    // pushers at once: (1.0 - 1.5) 16 15 512 below pairwise (Alltoall), and
    // the same below what push paid without the measurement (Allgather).
    CHECK(predicted(CollKind::alltoall, on, sixteen, 32768, "push") -
              predicted(CollKind::alltoall, on, sixteen, 32768, "pairwise") ==
          doctest::Approx(-0.5 * 16 * 15 * 512));
    CHECK(predicted(CollKind::allgather, on, sixteen, 32768, "push") -
              predicted(CollKind::allgather, off, sixteen, 32768, "push") ==
          doctest::Approx(-0.5 * 16 * 15 * 512));
    CHECK(std::string(model_choice(CollKind::alltoall, on, sixteen, 32768, true)->name) == "push");
    CHECK(std::string(model_choice(CollKind::alltoall, off, sixteen, 32768, true)->name) == "pairwise");
    // In the L2 push_line still rules; past the cache (1 MiB blocks, a
    // 256 MiB working set) C_mem, measured or not.
    for (std::size_t bytes : {std::size_t{4096}, std::size_t{1} << 20})
        CHECK(predicted(CollKind::alltoall, on, sixteen, bytes, "push") ==
              doctest::Approx(predicted(CollKind::alltoall, off, sixteen, bytes, "push")));
    // A step with fewer pushers than ranks keeps C past the L2: the chained
    // Exscan's one pusher, Gather's p - 1 into the root.
    const CommTopology two = machine(2, 1);
    for (std::size_t bytes : {std::size_t{1} << 20, std::size_t{4} << 20}) {
        CHECK(predicted(CollKind::exscan, on, two, bytes, "chained") ==
              doctest::Approx(predicted(CollKind::exscan, off, two, bytes, "chained")));
        CHECK(predicted(CollKind::gather, on, two, bytes, "parallel") ==
              doctest::Approx(predicted(CollKind::gather, off, two, bytes, "parallel")));
    }
}

TEST_CASE("tiled_push: its pushes cost nothing while a rank's 2 m fit its L2, push_line past it") {
    ModelParams off = made_up_params(), on = made_up_params();
    on.push_line = 0.5;
    const CommTopology two = machine(2, 1);  // 512 KiB L2 a core
    // 128 KiB: a rank touches 2 m = 256 KiB, held in its L2: no charge.
    CHECK(predicted(CollKind::allreduce, on, two, 128 << 10, "tiled_push") ==
          doctest::Approx(predicted(CollKind::allreduce, off, two, 128 << 10, "tiled_push")));
    // 256 KiB: 2 m = 512 KiB no longer fits beside anything else; each of
    // the 2048 lines of its slice pushed to the one other rank pays 0.5.
    CHECK(predicted(CollKind::allreduce, on, two, 256 << 10, "tiled_push") -
              predicted(CollKind::allreduce, off, two, 256 << 10, "tiled_push") ==
          doctest::Approx(0.5 * 2048));
    // Beyond the cache (32 MiB: 2 p m = 128 MiB against two 32 MiB L3s and
    // the L2s) the pushes are non-temporal stores at nt_copy_bandwidth,
    // whatever push_line says.
    CHECK(predicted(CollKind::allreduce, on, two, 32u << 20, "tiled_push") ==
          doctest::Approx(predicted(CollKind::allreduce, off, two, 32u << 20, "tiled_push")));
    // 16 ranks: 15 pushes of a 1/16 slice each; at 128 KiB 2 m fits.
    const CommTopology sixteen = machine(1, 16);
    CHECK(predicted(CollKind::allreduce, on, sixteen, 128 << 10, "tiled_push") ==
          doctest::Approx(predicted(CollKind::allreduce, off, sixteen, 128 << 10, "tiled_push")));
    CHECK(predicted(CollKind::allreduce, on, sixteen, 1 << 20, "tiled_push") -
              predicted(CollKind::allreduce, off, sixteen, 1 << 20, "tiled_push") ==
          doctest::Approx(0.5 * 15 * 1024));
    // Where the profile has push_line_beyond, pushes past the L2 pay it
    // instead (as push Alltoall's do, since stop 61); in the L2 and past
    // the cache nothing changes.
    ModelParams beyond = on;
    beyond.push_line_beyond = 0.75;
    CHECK(predicted(CollKind::allreduce, beyond, two, 256 << 10, "tiled_push") -
              predicted(CollKind::allreduce, off, two, 256 << 10, "tiled_push") ==
          doctest::Approx(0.75 * 2048));
    CHECK(predicted(CollKind::allreduce, beyond, sixteen, 1 << 20, "tiled_push") -
              predicted(CollKind::allreduce, off, sixteen, 1 << 20, "tiled_push") ==
          doctest::Approx(0.75 * 15 * 1024));
    for (std::size_t bytes : {std::size_t{128} << 10, std::size_t{32} << 20})
        CHECK(predicted(CollKind::allreduce, beyond, two, bytes, "tiled_push") ==
              doctest::Approx(predicted(CollKind::allreduce, on, two, bytes, "tiled_push")));
}

TEST_CASE("push_held_line: tiled_push's pushes in the L2 pay it where measured, nothing else does") {
    ModelParams off = made_up_params(), on = made_up_params();
    off.push_line = on.push_line = 0.5;
    on.push_held_line = 1.25;
    const CommTopology two = machine(2, 1);  // 512 KiB L2 a core
    // 128 KiB: 2 m held in the L2; the 1024 lines of the slice pushed to
    // the other rank pay 1.25 each.
    CHECK(predicted(CollKind::allreduce, on, two, 128 << 10, "tiled_push") -
              predicted(CollKind::allreduce, off, two, 128 << 10, "tiled_push") ==
          doctest::Approx(1.25 * 1024));
    // 16 ranks, 128 KiB: 15 pushes of a 128-line slice.
    const CommTopology sixteen = machine(1, 16);
    CHECK(predicted(CollKind::allreduce, on, sixteen, 128 << 10, "tiled_push") -
              predicted(CollKind::allreduce, off, sixteen, 128 << 10, "tiled_push") ==
          doctest::Approx(1.25 * 15 * 128));
    // Past the L2 push_line, beyond the cache non-temporal stores: as before.
    for (std::size_t bytes : {std::size_t{256} << 10, std::size_t{32} << 20})
        CHECK(predicted(CollKind::allreduce, on, two, bytes, "tiled_push") ==
              doctest::Approx(predicted(CollKind::allreduce, off, two, bytes, "tiled_push")));
    // The other allreduces and the pushing Alltoall and Allgather do not read it.
    for (const char* a : {"tiled", "tree", "movement_avoiding", "dissemination"})
        CHECK(predicted(CollKind::allreduce, on, two, 128 << 10, a) ==
              doctest::Approx(predicted(CollKind::allreduce, off, two, 128 << 10, a)));
    CHECK(predicted(CollKind::alltoall, on, two, 16 << 10, "push") ==
          doctest::Approx(predicted(CollKind::alltoall, off, two, 16 << 10, "push")));
    CHECK(predicted(CollKind::allgather, on, two, 16 << 10, "push") ==
          doctest::Approx(predicted(CollKind::allgather, off, two, 16 << 10, "push")));
}

TEST_CASE("tiled_push: a vector of one line has one slice, whose rank skips a closing wait") {
    ModelParams p = made_up_params();
    p.step_overhead = 50;
    // 64 B and 65 B give every rank a slice of one line (ceil(m / p)), the
    // same folds and pushes; 64 B has one slice: the mean over ranks is one
    // closing wait (a + step_overhead) less by 1/p.
    for (const CommTopology& topo : {machine(1, 2), machine(1, 4)}) {
        const int ranks = static_cast<int>(topo.places.size());
        INFO(ranks);
        CHECK(predicted(CollKind::allreduce, p, topo, 65, "tiled_push") -
                  predicted(CollKind::allreduce, p, topo, 64, "tiled_push") ==
              doctest::Approx((200 + 50) / static_cast<double>(ranks)));
    }
    // Two domains of one rank: the wait is across, beta's a.
    CHECK(predicted(CollKind::allreduce, p, machine(2, 1), 65, "tiled_push") -
              predicted(CollKind::allreduce, p, machine(2, 1), 64, "tiled_push") ==
          doctest::Approx((400 + 50) / 2.0));
}

TEST_CASE("step_overhead: every step busy_a charges pays it, from two ranks on") {
    ModelParams off = made_up_params(), on = made_up_params();
    on.step_overhead = 150;
    const CommTopology sixteen = machine(1, 16), two = machine(1, 2);
    // Dissemination barrier: 4 rounds at 16 ranks, 1 at 2.
    CHECK(predicted(CollKind::barrier, on, sixteen, 0, "dissemination") -
              predicted(CollKind::barrier, off, sixteen, 0, "dissemination") ==
          doctest::Approx(4 * 150.0));
    CHECK(predicted(CollKind::barrier, on, two, 0, "dissemination") -
              predicted(CollKind::barrier, off, two, 0, "dissemination") ==
          doctest::Approx(150.0));
    // Movement-avoiding Allreduce at 32 KiB: one round, a chain of 16 steps.
    CHECK(predicted(CollKind::allreduce, on, sixteen, 32768, "movement_avoiding") -
              predicted(CollKind::allreduce, off, sixteen, 32768, "movement_avoiding") ==
          doctest::Approx(16 * 150.0));
    // Tiled: Eq. 8's q a became two flat waits of all 16 (flat_wait_cost),
    // each paying step_overhead once.
    CHECK(predicted(CollKind::allreduce, on, sixteen, 4096, "tiled") -
              predicted(CollKind::allreduce, off, sixteen, 4096, "tiled") ==
          doctest::Approx(2 * 150.0));
    // The inline Allreduce's readers wait for all 15 writers at once: the
    // flat barrier's wait, step_overhead (+ poll_line, 0 here) once.
    CHECK(predicted(CollKind::allreduce, on, sixteen, 4096, "inline") -
              predicted(CollKind::allreduce, off, sixteen, 4096, "inline") ==
          doctest::Approx(150.0));
}

TEST_CASE("tiled's levels across cache domains are HMPI steps like the tree's: step_overhead and busy_step") {
    ModelParams off = made_up_params(), with_step = made_up_params(), with_busy = made_up_params();
    with_step.step_overhead = 150;
    with_busy.busy_step = 10;
    // Two ranks in two domains (q = 1, s = 2): one level, the child domain's
    // flag waited for and its partial folded; the tree's level pays the
    // same, and its broadcast's step (its own task, result_bcast) once more.
    const CommTopology two_domains = machine(2, 1);
    auto stepped = [&](std::size_t bytes, const char* name) {
        return predicted(CollKind::allreduce, with_step, two_domains, bytes, name) -
               predicted(CollKind::allreduce, off, two_domains, bytes, name);
    };
    CHECK(stepped(4096, "tiled") == doctest::Approx(150.0));
    CHECK(stepped(4096, "tree") == doctest::Approx(2 * 150.0));
    // So does a result in flag payloads (8 bytes).
    CHECK(stepped(8, "tree") == doctest::Approx(2 * 150.0));
    // 16 ranks in two domains of 8: the level is a step every rank is in
    // (busy_a), 10 ns for each of the 14 ranks beyond two; the flat waits
    // within the domains pay step_overhead but not busy_step.
    const CommTopology two_sockets = machine(2, 8);
    CHECK(predicted(CollKind::allreduce, with_busy, two_sockets, 4096, "tiled") -
              predicted(CollKind::allreduce, off, two_sockets, 4096, "tiled") ==
          doctest::Approx(10.0 * 14));
    // One domain: no level across, nothing more than the flat waits.
    const CommTopology one_domain = machine(1, 16);
    CHECK(predicted(CollKind::allreduce, with_busy, one_domain, 4096, "tiled") ==
          doctest::Approx(predicted(CollKind::allreduce, off, one_domain, 4096, "tiled")));
}

TEST_CASE("Reduce at two ranks: tree, binomial and linear take the same steps and pay the same waits") {
    // The root waits for the other rank's flag, folds, publishes "folded";
    // the other rank waits for that (half of a handoff in the mean over
    // ranks). Each algorithm pays 1.5 a and one step_overhead for them.
    ModelParams off = made_up_params(), more_a = made_up_params(), with_step = made_up_params();
    more_a.alpha.a += 100;
    with_step.step_overhead = 150;
    const CommTopology two = machine(1, 2);
    for (const char* name : {"tree", "binomial", "linear"}) {
        CAPTURE(name);
        CHECK(predicted(CollKind::reduce, more_a, two, 4096, name) - predicted(CollKind::reduce, off, two, 4096, name) ==
              doctest::Approx(150.0));
        CHECK(predicted(CollKind::reduce, with_step, two, 4096, name) -
                  predicted(CollKind::reduce, off, two, 4096, name) ==
              doctest::Approx(150.0));
    }
    // Linear's root waits for all 16 arrivals at once: the flat barrier's
    // wait, poll_line for each of the 14 ranks beyond two (in place of a
    // line's b each, what flat_wait_cost charges without poll_line).
    ModelParams with_poll = made_up_params();
    with_poll.poll_line = 20;
    const CommTopology sixteen = machine(1, 16);
    CHECK(predicted(CollKind::reduce, with_poll, sixteen, 4096, "linear") -
              predicted(CollKind::reduce, off, sixteen, 4096, "linear") ==
          doctest::Approx((20.0 - off.alpha.b) * 14));
}

TEST_CASE("Reduce tree: partials in flag payloads wait for no \"folded\"") {
    // Up to 56 bytes a child's partial travels in its flag's payload and
    // the child leaves once it has published it: in the mean over ranks
    // the root's one handoff counts half at two ranks, where a vector in a
    // buffer pays it whole and the other rank's wait for "folded" besides.
    ModelParams off = made_up_params(), more_a = made_up_params();
    more_a.alpha.a += 100;
    const CommTopology two = machine(1, 2);
    auto added = [&](const CommTopology& t, std::size_t bytes) {
        return predicted(CollKind::reduce, more_a, t, bytes, "tree") -
               predicted(CollKind::reduce, off, t, bytes, "tree");
    };
    CHECK(added(two, 8) == doctest::Approx(50.0));
    CHECK(added(two, 64) == doctest::Approx(150.0));
    // 16 ranks in one domain (made-up b = 6, B = 3: Eq. 1 keeps d = 6):
    // the 6 survivors fold the other 10 in the first phase, then take
    // three binary levels, whose parents are 3, 1.5 and 0.75 of the 16.
    const CommTopology sixteen = machine(1, 16);
    CHECK(added(sixteen, 8) == doctest::Approx(100.0 * (6.0 / 16 + 3.0 / 16 + 3.0 / 32 + 3.0 / 64)));
    // A child runs a step of HMPI's own code before it publishes: each
    // step's parent waits for it on top of its own (busy_a's
    // step_overhead), and every rank but the root spends it, (p-1)/p in
    // the mean. Two ranks: half a step of 2 x 100, plus 100 / 2.
    ModelParams with_step = made_up_params();
    with_step.step_overhead = 100;
    auto stepped = [&](const CommTopology& t) {
        return predicted(CollKind::reduce, with_step, t, 8, "tree") - predicted(CollKind::reduce, off, t, 8, "tree");
    };
    CHECK(stepped(two) == doctest::Approx(150.0));
    CHECK(stepped(sixteen) == doctest::Approx(200.0 * (6.0 / 16 + 3.0 / 16 + 3.0 / 32 + 3.0 / 64) + 100.0 * 15 / 16));
    // The payload path never costs more than the buffer path's root.
    for (const CommTopology& t : {two, sixteen, machine(2, 8)}) {
        CAPTURE(t.p);
        CHECK(predicted(CollKind::reduce, off, t, 56, "tree") < predicted(CollKind::reduce, off, t, 64, "tree"));
    }
}

TEST_CASE("Allreduce tree: a result in a flag payload waits for no acknowledgements") {
    // Past 56 bytes the top waits for its readers' "copied" (a / p in the
    // mean over ranks); a result in its flag-2 payload needs none.
    ModelParams off = made_up_params(), more_a = made_up_params();
    more_a.alpha.a += 100;
    for (const CommTopology& t : {machine(1, 2), machine(1, 16)}) {
        CAPTURE(t.p);
        auto added = [&](std::size_t bytes) {
            return predicted(CollKind::allreduce, more_a, t, bytes, "tree") -
                   predicted(CollKind::allreduce, off, t, bytes, "tree");
        };
        CHECK(added(64) - added(56) == doctest::Approx(100.0 / t.p));
    }
}

TEST_CASE("inline and hierarchical waits pay HMPI's step costs") {
    ModelParams off = made_up_params(), on = made_up_params();
    on.step_overhead = 100;
    on.busy_step = 10;
    on.poll_line = 40;
    const CommTopology sixteen = machine(1, 16);
    const double all_poll = 100 + 40.0 * 14;  // a wait for 15 writers' flags
    const double busy = 100 + 10.0 * 14;      // a step 16 ranks take at once
    auto added = [&](CollKind k, std::size_t bytes, const char* name) {
        return predicted(k, on, sixteen, bytes, name) - predicted(k, off, sixteen, bytes, name);
    };
    // Every reader waits for every writer (Allreduce, Allgather, Alltoall,
    // Reduce_scatter): the flat barrier's wait.
    CHECK(added(CollKind::allreduce, 64, "inline") == doctest::Approx(all_poll));
    CHECK(added(CollKind::allgather, 64, "inline") == doctest::Approx(all_poll));
    CHECK(added(CollKind::alltoall, 64, "inline") == doctest::Approx(all_poll));
    CHECK(added(CollKind::reduce_scatter_block, 1024, "inline") == doctest::Approx(all_poll));
    // One reader, the root, waits for 15 writers; the mean over 16 ranks.
    CHECK(added(CollKind::gather, 64, "inline") == doctest::Approx(all_poll / 16));
    CHECK(added(CollKind::reduce, 64, "inline") == doctest::Approx(all_poll / 16));
    // Scan: reader r waits for r writers, 8 on average (a wait of 9 ranks).
    CHECK(added(CollKind::scan, 64, "inline") == doctest::Approx((100 + 40.0 * 7) * 15 / 16));
    // 15 readers of one writer (Bcast, Scatter): a step of all 16 ranks.
    CHECK(added(CollKind::bcast, 64, "inline") == doctest::Approx(busy * 15 / 16));
    CHECK(added(CollKind::scatter, 2, "inline") == doctest::Approx(busy * 15 / 16));
    // Hierarchical Allreduce, one level of 16: the leader's wait for its 15
    // members on the way up, a step of all 16 on the way down; for a tiny
    // vector (in the flags) and for the first chunk of a larger one.
    CHECK(added(CollKind::allreduce, 8, "hierarchical") == doctest::Approx(all_poll + busy));
    CHECK(added(CollKind::allreduce, 32768, "hierarchical") == doctest::Approx(all_poll + busy));
    // reduce_bcast: rank 0's wait for every arrival, the copies' step of
    // all 16, and rank 0's wait for the acknowledgements (mean over ranks).
    CHECK(added(CollKind::allreduce, 8, "reduce_bcast") == doctest::Approx(all_poll * 17 / 16 + busy));
    // The decision: an 8 B Scatter's 15 readers of one root took 1.41 us
    // inline and 0.93 us direct at 16 ranks (stop 25); once the step's
    // costs are charged, inline no longer wins on its one flag line.
    CHECK(std::string(model_choice(CollKind::scatter, off, sixteen, 8, true)->name) == "inline");
    CHECK(std::string(model_choice(CollKind::scatter, on, sixteen, 8, true)->name) == "direct");
}

TEST_CASE("poll_line: a wait for every rank's flag pays step_overhead + poll_line (p - 2)") {
    ModelParams off = made_up_params(), on = made_up_params();
    on.step_overhead = 100;
    on.poll_line = 40;
    const CommTopology sixteen = machine(1, 16);
    const double wait = 100 + 40.0 * 14;
    // The flat barrier is that wait: a + step_overhead + poll_line (p - 2)
    // (without poll_line, a + (q - 2) b).
    CHECK(predicted(CollKind::barrier, on, sixteen, 0, "flat") == doctest::Approx(200 + wait + 150));
    CHECK(predicted(CollKind::barrier, off, sixteen, 0, "flat") == doctest::Approx(200 + 14 * 6 + 150));
    // Two such waits: tiled Reduce and the direct and tiled Reduce_scatter
    // (all arrived, and all done reading).
    for (auto [k, name] : {std::pair{CollKind::reduce, "tiled"}, std::pair{CollKind::reduce_scatter_block, "direct"},
                           std::pair{CollKind::reduce_scatter_block, "tiled"}}) {
        INFO(coll_name(k), " ", name);
        CHECK(predicted(k, on, sixteen, 4096, name) - predicted(k, off, sixteen, 4096, name) ==
              doctest::Approx(2 * wait));
    }
    // One: direct Allgather, pairwise and push Alltoall, whose arrival
    // sweep polls each peer between copies; only the closing wait is bare.
    for (auto [k, name] : {std::pair{CollKind::allgather, "direct"}, std::pair{CollKind::alltoall, "pairwise"},
                           std::pair{CollKind::alltoall, "push"}}) {
        INFO(coll_name(k), " ", name);
        CHECK(predicted(k, on, sixteen, 4096, name) - predicted(k, off, sixteen, 4096, name) ==
              doctest::Approx(wait));
    }
}

TEST_CASE("movement_avoiding across cache domains: the link between two domains carries both sides' lines") {
    const ModelParams params = made_up_params();
    // 32 KiB: m = 512 lines, one round. 16 ranks in two domains of 8: a
    // rank's 15 m / 16 lines split into 7 m / 16 near (alpha, B 3, C 1.5),
    // the domain's link shared by its 8 ranks, and 8 m / 16 far (beta, B 6,
    // C 3), the link between the domains crossed by all 16 at once (as in
    // hmpi-calibrate's beta ring, cores taken alternately from both sides):
    // (3 + 1.5) 8 7 m / 16 + (6 + 3) 16 8 m / 16 = 87.75 m, against one
    // domain's (3 + 1.5) 15 m = 67.5 m. The other terms are the same.
    const double m = 512;
    CHECK(predicted(CollKind::allreduce, params, machine(2, 8), 32768, "movement_avoiding") -
              predicted(CollKind::allreduce, params, machine(1, 16), 32768, "movement_avoiding") ==
          doctest::Approx((87.75 - 67.5) * m));
    // Two ranks in two domains, with a beta as cheap as alpha: both ranks'
    // m / 2 lines cross the one link at once, max(b, 2B) = 6 and max(c, 2C)
    // = 3 per line (Eq. 1: t threads never move a line faster than one),
    // as the two sharing one domain's link: the same.
    ModelParams flat = params;
    flat.beta = flat.alpha;
    CHECK(predicted(CollKind::allreduce, flat, machine(2, 1), 32768, "movement_avoiding") -
              predicted(CollKind::allreduce, flat, machine(1, 2), 32768, "movement_avoiding") ==
          doctest::Approx(0));
    // With a B over b / 2 both pay 2B = 8 per folded line, in one domain or
    // two. Up to stop 29 each of two domains' one rank was charged a link
    // of its own (b = 6): 2 ranks on the 2-core EPYC, whose calibration
    // measured R t = 2.77 ns a line against r = 1.48 with both crossing,
    // and dissemination's exchange 2.8 ns a line.
    ModelParams shared = flat;
    shared.alpha.B = shared.beta.B = 4;
    CHECK(predicted(CollKind::allreduce, shared, machine(2, 1), 32768, "movement_avoiding") -
              predicted(CollKind::allreduce, shared, machine(1, 2), 32768, "movement_avoiding") ==
          doctest::Approx(0));
}

TEST_CASE("peer_args: each algorithm that reads peers' buffers pays it once per distinct peer on its path") {
    ModelParams off = made_up_params(), on = made_up_params();
    on.peer_args = 1000;
    // Peers whose arguments the critical path reaches (docs/model.md,
    // "Reaching a peer's arguments"), 16 ranks in one cache domain
    // (pipelined and hierarchical: the one level of 16).
    const std::map<std::string, double> sixteen_reads = {
        {"barrier/flat", 0},
        {"barrier/dissemination", 0},
        {"barrier/tree", 0},
        {"bcast/one_stage", 1},
        {"bcast/inline", 0},
        {"bcast/split", 2},
        {"bcast/binomial", 4},
        {"bcast/pipelined", 1},
        {"reduce/tree", 4},
        {"reduce/tiled", 15},
        {"reduce/binomial", 4},
        {"reduce/linear", 15},
        {"reduce/inline", 0},
        {"allreduce/tree", 5},
        {"allreduce/tiled", 16},
        {"allreduce/tiled_push", 15},
        {"allreduce/dissemination", 4},
        {"allreduce/reduce_bcast", 16},
        {"allreduce/inline", 0},
        {"allreduce/inline_split", 0},
        {"allreduce/movement_avoiding", 15},
        {"allreduce/hierarchical", 16},
        {"reduce_scatter_block/direct", 15},
        {"reduce_scatter_block/reduce_then_scatter", 15},
        {"reduce_scatter_block/tiled", 15},
        {"reduce_scatter_block/movement_avoiding", 15},
        {"reduce_scatter_block/inline", 0},
        {"allgather/direct", 15},
        {"allgather/push", 15},
        {"allgather/ring", 1},
        {"allgather/recursive_doubling", 4},
        {"allgather/inline", 0},
        {"gather/parallel", 1},
        {"gather/direct", 15},
        {"gather/inline", 0},
        {"scatter/direct", 1},
        {"scatter/push", 15},
        {"scatter/inline", 0},
        {"alltoall/pairwise", 15},
        {"alltoall/push", 15},
        {"alltoall/inline", 0},
        {"scan/linear", 15},
        {"scan/chained", 15},
        {"scan/inline", 0},
        {"exscan/linear", 15},
        {"exscan/chained", 15},
        {"exscan/inline", 0},
    };
    // Of those, the peers whose data's first line a zero-copy fold then
    // reaches through the arguments, one more round trip each (docs/model.md,
    // "A fold's first line of each peer"): the folds of one peer at a time.
    // A fold that sweeps 15 peers asks for their first lines in the sweep
    // (nothing more), and copies are not charged it.
    const std::map<std::string, double> sixteen_first_lines = {
        {"reduce/tree", 4},
        {"reduce/binomial", 4},
        {"allreduce/tree", 4},
        {"allreduce/dissemination", 4},
        {"allreduce/movement_avoiding", 15},
        {"allreduce/hierarchical", 16},
        {"scan/chained", 15},
        {"exscan/chained", 15},
    };
    const CommTopology sixteen = machine(1, 16), two = machine(1, 2), sockets = machine(2, 8);
    std::set<std::string> seen_names;
    for (const auto& [k, commutative] : kColls) {
        if (!commutative) continue;
        const std::size_t bytes = k == CollKind::barrier ? 0 : 64;
        for (const Prediction& p : predict(k, CostQuery{on, sixteen, k, bytes, true})) {
            // Intercommunicator algorithms are not ranked for these; the
            // two-stage forms need two domains.
            if (is_intercomm_algorithm(k, *p.algorithm) || !std::isfinite(p.ns)) continue;
            const std::string name = std::string(coll_name(k)) + "/" + p.algorithm->name;
            INFO(name);
            const auto it = sixteen_reads.find(name);
            REQUIRE_MESSAGE(it != sixteen_reads.end(), "an algorithm this test does not know: add its count");
            const auto first_lines = sixteen_first_lines.find(name);
            CHECK((p.ns - predicted(k, off, sixteen, bytes, p.algorithm->name)) / on.peer_args ==
                  doctest::Approx(it->second + (first_lines == sixteen_first_lines.end() ? 0 : first_lines->second)));
            seen_names.insert(name);
        }
        // With two ranks every algorithm that reads a buffer reaches its one
        // peer's arguments at least once, the inline ones (inline_split's
        // stamped blocks too) and barriers never; on two domains the
        // two-stage forms read the root's and a leader's.
        for (const CommTopology* topo : {&two, &sockets})
            for (const Prediction& p : predict(k, CostQuery{on, *topo, k, bytes, true})) {
                if (is_intercomm_algorithm(k, *p.algorithm) || !std::isfinite(p.ns)) continue;
                const double extra = p.ns - predicted(k, off, *topo, bytes, p.algorithm->name);
                const std::string name = std::string(coll_name(k)) + "/" + p.algorithm->name;
                INFO(name, " on ", topo->p, " ranks");
                const std::string alg = p.algorithm->name;
                if (k == CollKind::barrier || alg == "inline" || alg == "inline_split") CHECK(extra == 0);
                else CHECK(extra >= on.peer_args);
            }
    }
    for (const auto& [name, reads] : sixteen_reads) {
        INFO(name, " was not predicted");
        CHECK(seen_names.count(name) == 1);
    }
    CHECK(predicted(CollKind::bcast, on, sockets, 512, "two_stage") -
              predicted(CollKind::bcast, off, sockets, 512, "two_stage") ==
          doctest::Approx(2 * on.peer_args));
}

TEST_CASE("peer_args: the tree's partials and result in flag payloads reach no arguments") {
    // Up to small_bytes (56) the tree's partials and its result travel in
    // flag lines (fits_payload): no rank reads another's CollCall or buffer,
    // so peer_args adds nothing; from 64 B on, the reduction's children and
    // the broadcast's source (2 ranks, two domains: one each); the child's
    // twice, a fold reaching its data's first line through its arguments.
    ModelParams on = made_up_params(), off = made_up_params();
    on.peer_args = 100;
    off.peer_args = 0;
    const CommTopology two = machine(2, 1);
    for (std::size_t bytes : {8u, 32u, 56u}) {
        INFO(bytes, " bytes");
        CHECK(predicted(CollKind::allreduce, on, two, bytes, "tree") ==
              doctest::Approx(predicted(CollKind::allreduce, off, two, bytes, "tree")));
        CHECK(predicted(CollKind::reduce, on, two, bytes, "tree") ==
              doctest::Approx(predicted(CollKind::reduce, off, two, bytes, "tree")));
    }
    CHECK(predicted(CollKind::allreduce, on, two, 64, "tree") - predicted(CollKind::allreduce, off, two, 64, "tree") ==
          doctest::Approx(3 * on.peer_args));
    CHECK(predicted(CollKind::reduce, on, two, 64, "tree") - predicted(CollKind::reduce, off, two, 64, "tree") ==
          doctest::Approx(2 * on.peer_args));
}

TEST_CASE("peer_args with poll_line: of peers swept in one loop the first costs peer_args, each further one poll_line") {
    ModelParams polled = made_up_params(), reached = made_up_params();
    polled.poll_line = 40;
    reached.poll_line = 40;
    reached.peer_args = 1000;
    const CommTopology sixteen = machine(1, 16);
    // Tiled Reduce sweeps 15 peers' arguments in one loop, asking for their
    // data's first lines in the same loop.
    CHECK(predicted(CollKind::reduce, reached, sixteen, 4096, "tiled") -
              predicted(CollKind::reduce, polled, sixteen, 4096, "tiled") ==
          doctest::Approx(1000 + 14 * 40.0));
    // At 2 ranks its fold of two chases the one peer's data after its
    // arguments.
    const CommTopology two = machine(1, 2);
    CHECK(predicted(CollKind::reduce, reached, two, 4096, "tiled") -
              predicted(CollKind::reduce, polled, two, 4096, "tiled") ==
          doctest::Approx(2 * 1000));
    // One peer, a copy: peer_args alone.
    CHECK(predicted(CollKind::bcast, reached, sixteen, 4096, "one_stage") -
              predicted(CollKind::bcast, polled, sixteen, 4096, "one_stage") ==
          doctest::Approx(1000));
    // Without poll_line every peer costs peer_args (the test above).
    ModelParams unpolled = made_up_params();
    unpolled.peer_args = 1000;
    CHECK(peer_args_sweep_cost(CostQuery{unpolled, sixteen, CollKind::reduce, 4096, true}, 15) ==
          doctest::Approx(15000));
    CHECK(peer_args_sweep_cost(CostQuery{reached, sixteen, CollKind::reduce, 4096, true}, 15) ==
          doctest::Approx(1000 + 14 * 40.0));
    // Peers reached one per step (a dissemination round, a chain's link)
    // cost peer_args each, poll_line or not, and a fold's first line of
    // each as much again.
    CHECK(peer_args_cost(CostQuery{reached, sixteen, CollKind::reduce, 4096, true}, 4) == doctest::Approx(4000));
    CHECK(predicted(CollKind::allreduce, reached, sixteen, 4096, "dissemination") -
              predicted(CollKind::allreduce, polled, sixteen, 4096, "dissemination") ==
          doctest::Approx(2 * 4000));
    // Tiled Allreduce: its domain's 15 inputs in one loop, then the root's.
    CHECK(predicted(CollKind::allreduce, reached, sixteen, 4096, "tiled") -
              predicted(CollKind::allreduce, polled, sixteen, 4096, "tiled") ==
          doctest::Approx(1000 + 14 * 40.0 + 1000));
    CHECK(peer_data_sweep_cost(CostQuery{reached, sixteen, CollKind::reduce, 4096, true}, 15) == 0);
    CHECK(peer_data_sweep_cost(CostQuery{reached, two, CollKind::reduce, 4096, true}, 1) == doctest::Approx(1000));
    // Past the swept operands' limit the fold resolves them one at a time.
    CHECK(peer_data_sweep_cost(CostQuery{reached, sixteen, CollKind::reduce, 4096, true}, 64) ==
          doctest::Approx(1000 + 63 * 40.0));
    CHECK(peer_data_cost(CostQuery{reached, sixteen, CollKind::reduce, 4096, true}, 4) == doctest::Approx(4000));
}

TEST_CASE("slice_near_line: every rank folding at once pays it for its first lines, once per fold or step") {
    ModelParams off = made_up_params(), on = made_up_params();
    on.slice_near_line = 3;
    on.slice_near_lines = 100;
    const CommTopology two = machine(1, 2), sixteen = machine(1, 16);
    // Tiled Reduce, Reduce_scatter_block: one slice fold of m/p lines a rank.
    for (std::size_t bytes : {4096u, 65536u}) {
        INFO(bytes, " bytes");
        const double slice = std::min(100.0, std::ceil(bytes / 64.0 / 2));
        CHECK(predicted(CollKind::reduce, on, two, bytes, "tiled") - predicted(CollKind::reduce, off, two, bytes, "tiled") ==
              doctest::Approx(3 * slice));
        CHECK(predicted(CollKind::reduce_scatter_block, on, two, bytes, "tiled") -
                  predicted(CollKind::reduce_scatter_block, off, two, bytes, "tiled") ==
              doctest::Approx(3 * slice));
        // Tiled Allreduce's reduce-scatter within the domain: one tile a member.
        CHECK(predicted(CollKind::allreduce, on, two, bytes, "tiled") -
                  predicted(CollKind::allreduce, off, two, bytes, "tiled") ==
              doctest::Approx(3 * std::min(100.0, bytes / 64.0 / 2)));
        // Movement-avoiding: p chained steps of a slice each.
        CHECK(predicted(CollKind::reduce_scatter_block, on, two, bytes, "movement_avoiding") -
                  predicted(CollKind::reduce_scatter_block, off, two, bytes, "movement_avoiding") ==
              doctest::Approx(2 * 3 * slice));
    }
    // Inline Allreduce: every rank reads the others' m lines at once.
    CHECK(predicted(CollKind::allreduce, on, two, 4096, "inline") - predicted(CollKind::allreduce, off, two, 4096, "inline") ==
          doctest::Approx(3 * 64));
    CHECK(predicted(CollKind::allreduce, on, sixteen, 1024, "inline") -
              predicted(CollKind::allreduce, off, sixteen, 1024, "inline") ==
          doctest::Approx(3 * 100));
    // One reader (inline Reduce's root, the tree's levels): none.
    CHECK(predicted(CollKind::reduce, on, two, 4096, "inline") == predicted(CollKind::reduce, off, two, 4096, "inline"));
    CHECK(predicted(CollKind::reduce, on, two, 4096, "tree") == predicted(CollKind::reduce, off, two, 4096, "tree"));
    // reduce_then_scatter's root folds each peer's input as linear Reduce
    // does, one reader of a waiting source: near_line, as linear's.
    ModelParams near = made_up_params();
    near.near_line = 2;
    near.near_lines = 50;
    CHECK(predicted(CollKind::reduce_scatter_block, near, two, 4096, "reduce_then_scatter") -
              predicted(CollKind::reduce_scatter_block, off, two, 4096, "reduce_then_scatter") ==
          doctest::Approx(2 * 50));
}

TEST_CASE("rewrite_all_line: copy-ins of every rank at once pay it per sharer where two or more read each line") {
    ModelParams off = made_up_params(), on = made_up_params();
    on.rewrite_all_line = 2.0;  // against rewrite_line = 12: dearer from 7 sharers on
    const CommTopology sixteen = machine(1, 16), two = machine(1, 2);
    // 1 KiB, 16 lines a rank. Allgather: 15 sharers a line, 2 x 15 = 30
    // against 12.
    CHECK(predicted(CollKind::allgather, on, sixteen, 1024, "inline") -
              predicted(CollKind::allgather, off, sixteen, 1024, "inline") ==
          doctest::Approx((30.0 - 12.0) * 16));
    CHECK(predicted(CollKind::allreduce, on, sixteen, 1024, "inline") -
              predicted(CollKind::allreduce, off, sixteen, 1024, "inline") ==
          doctest::Approx((30.0 - 12.0) * 16));
    // Scan: rank r's vector is read by the 15 - r after it, 7.5 on average.
    CHECK(predicted(CollKind::scan, on, sixteen, 1024, "inline") -
              predicted(CollKind::scan, off, sixteen, 1024, "inline") ==
          doctest::Approx((15.0 - 12.0) * 16));
    // One sharer a line (Alltoall's blocks, Reduce's and Gather's root),
    // one writer (Bcast), two ranks, or data in the flag's line: as before.
    for (const auto& [k, bytes] : std::vector<std::pair<CollKind, std::size_t>>{
             {CollKind::alltoall, 64}, {CollKind::reduce, 1024}, {CollKind::gather, 1024}, {CollKind::bcast, 1024}})
        CHECK(predicted(k, on, sixteen, bytes, "inline") ==
              doctest::Approx(predicted(k, off, sixteen, bytes, "inline")));
    CHECK(predicted(CollKind::allgather, on, two, 1024, "inline") ==
          doctest::Approx(predicted(CollKind::allgather, off, two, 1024, "inline")));
    CHECK(predicted(CollKind::allgather, on, sixteen, 8, "inline") ==
          doctest::Approx(predicted(CollKind::allgather, off, sixteen, 8, "inline")));
    // Ranks sharing CPUs share their caches: no storm of invalidations.
    const CommTopology shared = oversubscribed_machine(2, 16);
    CHECK(predicted(CollKind::allgather, on, shared, 1024, "inline") ==
          doctest::Approx(predicted(CollKind::allgather, off, shared, 1024, "inline")));
    // The decisions: Allgather leaves inline for push at 512 B and 1 KiB.
    for (std::size_t bytes : {std::size_t{512}, std::size_t{1024}}) {
        CHECK(std::string(model_choice(CollKind::allgather, off, sixteen, bytes, true)->name) == "inline");
        CHECK(std::string(model_choice(CollKind::allgather, on, sixteen, bytes, true)->name) == "push");
    }
}

TEST_CASE("claim_line: split Bcast pays its shared counter's claims, completions and empty claims") {
    ModelParams off = made_up_params(), on = made_up_params();
    on.claim_line = 50;
    const CommTopology sixteen = machine(1, 16), two = machine(1, 2);
    // 8 bytes: one 64 KiB chunk for each of 15 destinations: 15 claims, 15
    // completions and 16 claims that find none left.
    CHECK(predicted(CollKind::bcast, on, sixteen, 8, "split") - predicted(CollKind::bcast, off, sixteen, 8, "split") ==
          doctest::Approx(50.0 * (2 * 15 + 16)));
    // 1 MiB: 16 chunks a destination, 240 in all.
    CHECK(predicted(CollKind::bcast, on, sixteen, 1 << 20, "split") -
              predicted(CollKind::bcast, off, sixteen, 1 << 20, "split") ==
          doctest::Approx(50.0 * (2 * 240 + 16)));
    CHECK(predicted(CollKind::bcast, on, two, 1 << 20, "split") -
              predicted(CollKind::bcast, off, two, 1 << 20, "split") ==
          doctest::Approx(50.0 * (2 * 16 + 2)));
    // The other broadcasts take no claims.
    CHECK(predicted(CollKind::bcast, on, sixteen, 1 << 20, "one_stage") ==
          doctest::Approx(predicted(CollKind::bcast, off, sixteen, 1 << 20, "one_stage")));
}

// split's busiest rank (made-up alpha: c = 3, C = 1.5 ns a line, so
// max(c, C p) = 3 at 2 ranks and 24 at 16): at 2 ranks a 4 KiB message is
// one chunk, which one rank copies whole (64 lines), and an 8 KiB one two
// halves, one a rank (64 lines each); 64 KiB is two 32 KiB halves (512
// lines each) and 96 KiB two of 48 KiB (768). At 16 ranks 64 KiB makes one
// chunk for each of 15 destinations, so a rank copies at most one (1024
// lines), and 128 KiB 30 chunks, so some copy two (2048).
TEST_CASE("split: the busiest rank's chunks, halves at 2 ranks") {
    const ModelParams params = made_up_params();
    const CommTopology two = machine(1, 2), sixteen = machine(1, 16);
    const auto split = [&](const CommTopology& topo, std::size_t bytes) {
        return predicted(CollKind::bcast, params, topo, bytes, "split");
    };
    CHECK(split(two, 8 << 10) == doctest::Approx(split(two, 4 << 10)));
    CHECK(split(two, 96 << 10) - split(two, 64 << 10) == doctest::Approx(256 * 3.0));
    CHECK(split(sixteen, 128 << 10) - split(sixteen, 64 << 10) == doctest::Approx(1024 * 24.0));
}

// inline_split's blocks: the area (4 KiB from 8 ranks on) holds p + 1 equal
// blocks, 16-byte head included: at 16 ranks 17 blocks of 3 lines, 176
// bytes of data each, so a share of 22 doubles (2816 B in all) is the
// largest that runs and 2824 B (23 a share) is not offered; at 2 ranks 3
// blocks of 85 lines (16 KiB areas), 5424 bytes each.
TEST_CASE("inline_split: offered while a rank's share fits one of the area's p + 1 blocks") {
    const ModelParams params = made_up_params();
    const auto cost = [&](const CommTopology& topo, std::size_t bytes) {
        return predicted(CollKind::allreduce, params, topo, bytes, "inline_split");
    };
    const CommTopology sixteen = machine(1, 16), two = machine(1, 2);
    CHECK(std::isfinite(cost(sixteen, 8)));
    CHECK(std::isfinite(cost(sixteen, 2816)));
    CHECK(!std::isfinite(cost(sixteen, 2824)));
    CHECK(std::isfinite(cost(two, 2 * 5424)));
    CHECK(!std::isfinite(cost(two, 2 * 5424 + 8)));
    // One step more than inline's: at 2 ranks, where inline's readers take
    // one vector each, inline stays the cheaper at every size both run
    // (2 ranks on the 2-core guest, stop 49: inline 0.22-0.86 us from 8 B
    // to 2 KiB, inline_split 0.33-1.19).
    for (std::size_t bytes = 8; bytes <= 4096; bytes *= 2) {
        INFO(bytes, " B");
        CHECK(predicted(CollKind::allreduce, params, two, bytes, "inline") < cost(two, bytes));
    }
    // Lines and owners cost, not bytes: up to 48 B one owner and one line
    // (8 B and 48 B cost the same); more owners, more blocks for every rank
    // to write and read (96 B: 2 owners, 768 B: 16); two lines a block
    // (1 KiB) one more round trip.
    CHECK(cost(sixteen, 48) == doctest::Approx(cost(sixteen, 8)));
    CHECK(cost(sixteen, 768) > cost(sixteen, 96));
    CHECK(cost(sixteen, 1024) > cost(sixteen, 768));
}

TEST_CASE("near_line: one-reader steps whose source waits pay it; plain steps and congested ones do not") {
    // Format 18: the first near_lines lines of such a step cost near_line
    // more each (docs/model.md, "Where a step's lines are").
    ModelParams off = made_up_params(), on = made_up_params();
    on.near_line = 5;
    on.near_lines = 100;
    const CommTopology two = machine(1, 2), sixteen = machine(1, 16);
    auto more = [&](CollKind k, const CommTopology& t, std::size_t bytes, const char* name) {
        return predicted(k, on, t, bytes, name) - predicted(k, off, t, bytes, name);
    };
    // 4 KiB = 64 lines: 5 x 64 a step; 32 KiB = 512 lines: 5 x 100.
    CHECK(more(CollKind::reduce, two, 4096, "tree") == doctest::Approx(5.0 * 64));
    CHECK(more(CollKind::reduce, two, 32768, "tree") == doctest::Approx(5.0 * 100));
    CHECK(more(CollKind::reduce, two, 32768, "binomial") == doctest::Approx(5.0 * 100));
    CHECK(more(CollKind::reduce, two, 32768, "linear") == doctest::Approx(5.0 * 100));
    CHECK(more(CollKind::bcast, two, 32768, "one_stage") == doctest::Approx(5.0 * 100));
    CHECK(more(CollKind::scan, two, 32768, "chained") == doctest::Approx(5.0 * 100));
    // 16 ranks: the tree's three levels after Eq. 1's congested first phase
    // (b/B = 2: d = 6 survivors, none for that phase), binomial Bcast's four
    // steps, linear Reduce's 15 sources, chained Scan's 15 links.
    CHECK(more(CollKind::reduce, sixteen, 32768, "tree") == doctest::Approx(3 * 5.0 * 100));
    CHECK(more(CollKind::bcast, sixteen, 32768, "binomial") == doctest::Approx(4 * 5.0 * 100));
    CHECK(more(CollKind::reduce, sixteen, 32768, "linear") == doctest::Approx(15 * 5.0 * 100));
    CHECK(more(CollKind::scan, sixteen, 32768, "chained") == doctest::Approx(15 * 5.0 * 100));
    // Direct Scatter's root copies its own block meanwhile; one-stage Bcast's
    // 15 readers are the congested fit's; tiled folds every rank at once.
    CHECK(more(CollKind::scatter, two, 32768, "direct") == doctest::Approx(0.0));
    CHECK(more(CollKind::bcast, sixteen, 32768, "one_stage") == doctest::Approx(0.0));
    CHECK(more(CollKind::reduce, two, 32768, "tiled") == doctest::Approx(0.0));
    // Split Bcast at 2 ranks: from 8 KiB the reader's half is the root's
    // last-written half (8 KiB: 64 of its lines, 32 KiB: 256, capped at
    // 100); below, one chunk, the root's. Pipelined Bcast's lone reader pays
    // for its m lines as one-stage's does. Not at 16 ranks (chunks claimed
    // by all, 15 readers of the root).
    CHECK(more(CollKind::bcast, two, 4096, "split") == doctest::Approx(0.0));
    CHECK(more(CollKind::bcast, two, 8192, "split") == doctest::Approx(5.0 * 64));
    CHECK(more(CollKind::bcast, two, 32768, "split") == doctest::Approx(5.0 * 100));
    CHECK(more(CollKind::bcast, two, 32768, "pipelined") == doctest::Approx(5.0 * 100));
    CHECK(more(CollKind::bcast, sixteen, 32768, "split") == doctest::Approx(0.0));
    CHECK(more(CollKind::bcast, sixteen, 32768, "pipelined") == doctest::Approx(0.0));
}

TEST_CASE("own block: a rank's copy of its own block costs c_alpha a line once the working set leaves the L2s") {
    // Every Allgather and Alltoall rank, and the root of direct Gather and
    // push Scatter, copy their own block before their other copies
    // (docs/model.md, "The own block's copy"): c_alpha a line of the block
    // past the L2s, nothing within them. Counted as the prediction's
    // derivative in c_alpha, in lines of the block: the own block's 1 past
    // the L2s, plus the peer's block where a formula moves it at c_alpha too
    // (direct and ring Allgather and pairwise Alltoall, max(c, C t) = c with
    // these parameters; the roots' copies of direct Gather and push
    // Scatter; recursive_doubling and the pushes move it at other rates).
    ModelParams base = made_up_params(), more = made_up_params();
    more.alpha.c += 1.0;
    const CommTopology two = machine(1, 2);  // L2 512 KiB
    const std::size_t big = 4u << 20, small = 16384;  // past the L2s; within them
    auto lines_at_c = [&](CollKind k, std::size_t bytes, const char* name) {
        return (predicted(k, more, two, bytes, name) - predicted(k, base, two, bytes, name)) /
               static_cast<double>(bytes / 64);
    };
    struct Case {
        CollKind kind;
        const char* name;
        double peer;  // lines of the peer's block at c_alpha, per line of a block
    };
    for (const Case& c : {Case{CollKind::allgather, "direct", 1}, Case{CollKind::allgather, "ring", 1},
                          Case{CollKind::allgather, "recursive_doubling", 0}, Case{CollKind::allgather, "push", 0},
                          Case{CollKind::alltoall, "pairwise", 1}, Case{CollKind::alltoall, "push", 0},
                          Case{CollKind::gather, "direct", 1}, Case{CollKind::scatter, "push", 1}}) {
        INFO(coll_name(c.kind), " ", c.name);
        CHECK(lines_at_c(c.kind, big, c.name) == doctest::Approx(c.peer + 1));
        CHECK(lines_at_c(c.kind, small, c.name) == doctest::Approx(c.peer));
    }
    // Direct Scatter's root copies its own block while its reader pulls:
    // not serial, not charged (docs/model.md, "Where the excess is charged").
    CHECK(lines_at_c(CollKind::scatter, big, "direct") == doctest::Approx(1.0));
}

TEST_CASE("a broadcast across one-rank domains is one stage, whatever it is called") {
    // With one rank per domain every leader reads the root itself
    // (result_bcast, Bcast two_stage): the same steps as one-stage, so the
    // same price, near excess included (a two-stage price without it once
    // made the tree Allreduce charge two sources' arguments for one).
    ModelParams on = made_up_params(), off = made_up_params();
    on.near_line = 5;
    on.near_lines = 100;
    on.peer_args = 100;
    off.near_line = 5;
    off.near_lines = 100;
    off.peer_args = 0;
    const CommTopology one_each = machine(2, 1);
    for (std::size_t bytes : {64u, 4096u, 32768u}) {
        INFO(bytes, " bytes");
        const CostQuery q{on, one_each, CollKind::bcast, bytes, true};
        bool two_stage = true;
        const double m = q.m(), ws = 2.0 * bytes;
        CHECK(li_bcast(q, 1, 2, m, static_cast<std::size_t>(ws), &two_stage) ==
              doctest::Approx(li_one_stage_bcast(q, 1, 2, m, static_cast<std::size_t>(ws))));
        CHECK_FALSE(two_stage);
        // The tree Allreduce's readers: the child's arguments and its data's
        // first line (the fold), the root's arguments (the broadcast).
        CHECK(predicted(CollKind::allreduce, on, one_each, bytes, "tree") -
                  predicted(CollKind::allreduce, off, one_each, bytes, "tree") ==
              doctest::Approx(3 * on.peer_args));
    }
}

TEST_CASE("b_l2: one-thread steps in the L2s cost b_l2, past them b") {
    ModelParams off = made_up_params(), on = made_up_params();
    on.alpha.b_l2 = 4;  // b = 6
    on.alpha.c_l2 = 2;  // c = 3
    on.alpha.r_l2 = 5;  // r: none, b's
    const CommTopology two = machine(1, 2);  // L2 512 KiB: in the L2s up to 256 KiB a rank
    // Binomial Reduce at 2 ranks: one fold, a third-buffer one (r, here b's:
    // the made-up profile has no r), working set 3m over 2 ranks.
    const std::size_t in = 128u << 10, past = 512u << 10;  // 1.5 m: 192 KiB and 768 KiB a rank
    CHECK(predicted(CollKind::reduce, on, two, in, "binomial") - predicted(CollKind::reduce, off, two, in, "binomial") ==
          doctest::Approx((4.0 - 6.0) * (in / 64)));
    CHECK(predicted(CollKind::reduce, on, two, past, "binomial") ==
          doctest::Approx(predicted(CollKind::reduce, off, two, past, "binomial")));
    // One-stage Bcast at 2 ranks: one reader copying (c), working set 2m.
    CHECK(predicted(CollKind::bcast, on, two, in, "one_stage") - predicted(CollKind::bcast, off, two, in, "one_stage") ==
          doctest::Approx((2.0 - 3.0) * (in / 64)));
}

TEST_CASE("b_l1: one-thread steps in the L1s cost b_l1, the slice folds R_slices_l1; the pick follows") {
    ModelParams off = made_up_params(), on = made_up_params();
    on.alpha.b_l2 = 4;  // b = 6
    on.alpha.c_l2 = 2;  // c = 3
    on.alpha.r_l2 = 5;  // r: none, b's
    off = on;
    on.alpha.b_l1 = 1;
    on.alpha.r_l1 = 1.5;
    CommTopology two = machine(1, 2);
    two.l1_bytes = 32u << 10;  // in the L1s up to 16 KiB a rank
    // Binomial Reduce at 2 ranks: one fold (b's, the made-up profile has no
    // r), working set 3m over 2 ranks: 1.5 m a rank.
    const std::size_t in = 8u << 10, past = 16u << 10;  // 12 KiB and 24 KiB a rank
    CHECK(predicted(CollKind::reduce, on, two, in, "binomial") - predicted(CollKind::reduce, off, two, in, "binomial") ==
          doctest::Approx((1.0 - 4.0) * (in / 64)));
    CHECK(predicted(CollKind::reduce, on, two, past, "binomial") ==
          doctest::Approx(predicted(CollKind::reduce, off, two, past, "binomial")));
    // The copy has no L1 cost: one-stage Bcast stays.
    CHECK(predicted(CollKind::bcast, on, two, in, "one_stage") ==
          doctest::Approx(predicted(CollKind::bcast, off, two, in, "one_stage")));
    // Without an L1 size from hwloc nothing changes.
    const CommTopology none = machine(1, 2);
    CHECK(predicted(CollKind::reduce, on, none, in, "binomial") ==
          doctest::Approx(predicted(CollKind::reduce, off, none, in, "binomial")));
}

TEST_CASE("machine states: the pick is the algorithm least behind the cheapest of any state") {
    // Two made-up states shaped like the 2-core EPYC guest's: a flag
    // handoff of 40 ns and of 290, copies of 1.0 and 1.8 ns a line.
    ModelParams fast = made_up_params(), slow = made_up_params();
    fast.alpha.a = 40;
    fast.alpha.c = 1.0;
    fast.alpha.C = 0.5;
    slow.alpha.a = 290;
    slow.alpha.c = 1.8;
    slow.alpha.C = 1.0;
    slow.push_line = 0.9;
    ModelParams both = fast;
    both.other_states = {slow};
    ModelParams twice = fast;
    twice.other_states = {fast};
    int differ = 0;
    for (const CommTopology& topo : {machine(2, 1), machine(2, 4)})
        for (const auto& [k, commutative] : kColls)
            for (std::size_t bytes : kSizes) {
                INFO(coll_name(k), " ", bytes, " bytes, ", topo.p, " ranks");
                const std::size_t b = k == CollKind::barrier ? 0 : bytes;
                const CollAlgorithm* pick = model_choice(k, both, topo, b, commutative);
                const CollAlgorithm* alone = model_choice(k, fast, topo, b, commutative);
                REQUIRE(pick);
                // The same state twice: the first state's pick.
                CHECK(model_choice(k, twice, topo, b, commutative) == alone);
                differ += pick != alone;
                // Worst ratio to each state's cheapest intracommunicator algorithm.
                auto worst = [&](const CollAlgorithm* a) {
                    double w = 1;
                    for (const ModelParams* s : {&fast, &slow}) {
                        double best = std::numeric_limits<double>::infinity(), mine = best;
                        for (const Prediction& p : predict(k, CostQuery{*s, topo, k, b, commutative})) {
                            if (is_intercomm_algorithm(k, *p.algorithm)) continue;
                            best = std::min(best, p.ns);
                            if (p.algorithm == a) mine = p.ns;
                        }
                        w = std::max(w, mine / best);
                    }
                    return w;
                };
                for (const CollAlgorithm& a : algorithms_of(k))
                    if (!is_intercomm_algorithm(k, a)) CHECK(worst(pick) <= worst(&a) * (1 + 1e-9));
            }
    CHECK(differ > 0);  // the premise: the second state changes some picks
    // A pick that is neither state's own: Alltoall of 512 B at 2 ranks
    // (the fast state's pairwise is far behind in the slow one, the slow
    // state's inline in the fast one; push is close to both), and
    // Allreduce of 8 B at 8 ranks.
    auto name = [](CollKind k, const ModelParams& p, const CommTopology& t, std::size_t b) {
        return std::string(model_choice(k, p, t, b, true)->name);
    };
    const CommTopology two = machine(2, 1), eight = machine(2, 4);
    CHECK(name(CollKind::alltoall, fast, two, 512) == "pairwise");
    CHECK(name(CollKind::alltoall, slow, two, 512) == "inline");
    CHECK(name(CollKind::alltoall, both, two, 512) == "push");
    CHECK(name(CollKind::allreduce, fast, eight, 8) == "movement_avoiding");
    CHECK(name(CollKind::allreduce, slow, eight, 8) == "inline");
    CHECK(name(CollKind::allreduce, both, eight, 8) == "reduce_bcast");
}
