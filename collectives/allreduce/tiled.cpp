// Tiled allreduce: Li, Hoefler, Hu, Snir (2014), Section 2.4 ("tiled-
// reduce-broadcast", Fig. 9). Within each cache domain the vector is cut
// into one tile per member, at cache-line granularity (tile boundaries on
// multiples of 64 bytes from the buffer start, so no two ranks write one
// line); member i folds tile i of every domain member's input into its
// domain leader's receive buffer (a commutative op from member i's own input
// on, so the members read from different sources at once; any other in
// rank order), a strip of
// strip_bytes (knobs.hpp) at a time so the partial stays in cache while the
// inputs stream past. Across domains the domain partials are combined by an
// n-ary tree of domains, every member carrying its own tile (so q reductions
// run in parallel, Eq. 9); then the result is broadcast in one or two
// stages (Eq. 4, whichever the model predicts cheaper).
//
// Cost, Eq. 11 = Eq. 10 + Eq. 4:
//   T = a_a q + B_a q m + (a_b + Z + B_b m) ceil(log2 s)
//     + min(a_a + B_a (q-1) m + a_b + b_b m, a_b + B_b q m)
// (with one domain and the working set in the L2s, the broadcast's m is
// (q-1)m/q: each reader folded 1/q of the result's lines itself)
// (Eq. 8's B_a q m as each member's m/q lines at max(r_a, R_slices_a q)
// and max(b_a, B_a q): no faster a line than one thread alone, Eq. 1, as
// tiled Reduce's fold; the folds' spill test on their own working set,
// (p + s) m: every input and the leaders' receive buffers)
// (with q = 1, Eq. 8's a_a + B_a m is the copy of a rank's input into its
// receive buffer, its domain's partial: c_a m, every rank at once)
// (Z = busy_excess(p): each level across is a step of HMPI's like the
// tree's levels across, li_inter_tree_reduce; docs/model.md, "Tiled's
// levels across domains")
// with Eq. 8's a_a q, a handoff per tile read, charged as the two waits of
// all q members this code has (arrivals; tiles folded): 2 flat_wait_cost(q)
// (cost.hpp; docs/model.md, "Tiled Allreduce's waits")
// (li_tiled_reduce + li_bcast; working set 2 p m: every input and every
// receive buffer); plus a_a / p for
// the top's wait for the broadcast's acknowledgements (the mean over ranks);
// plus the rewrites of lines read in the previous call: every leader's
// receive buffer is (the top's by the broadcast's readers, the others' by
// their parent domain's members), so the members' tile folds store m/q
// lines each into lines others hold (a memcpy where q = 1: what it costs
// beyond Eq. 8's c m), and across
// domains the broadcast copies m lines into the other leaders' buffers
// (what that costs beyond the copy step's c m)
// (fold_rewrite_cost, copy_rewrite_excess, cost.hpp; docs/model.md, "A fold's stores
// into lines others read", "Tiled's broadcast copy"); with one member per domain, + 2 rewrite_first
// (a_b without it) for the first store of each of a leader's two copies
// into lines its parent holds.
// A non-commutative op's members sweep the inputs in rank order, so q - 1
// of them meet at one source: fold_sweep_excess (cost.hpp) on each of the
// m (q-1)/q lines a member reads from the others.
//
// Any op: non-commutative ops fold in rank order, domains in rank order (a
// topology whose domains are not rank ranges runs with one domain of all
// ranks); a cross-domain step of a non-commutative op computes acc op P(c)
// into the child domain's partial (consumed by then) and copies it back.
// MPI_IN_PLACE: tile i of a leader's receive buffer (its input) is read and
// written by member i only. One scratch of a strip for a non-commutative
// in-place leader.
//
// Flags: flag 1 step 1 = "my domain tile is folded"; flag 1 step 2 = "my
// share of my domain's partial is complete" (after my cross-domain folds);
// then result_bcast's flags 2 and 3 from the top domain's leader (rank 0).
#include <algorithm>
#include <numeric>
#include <vector>

#include "collectives/allreduce/allreduce.hpp"
#include "collectives/allreduce/knobs.hpp"
#include "collectives/allreduce/tiles.hpp"
#include "collectives/allreduce/tree_shape.hpp"
#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduction.hpp"
#include "core/op.hpp"

namespace hmpi::coll {

namespace {

// The domains the algorithm uses, each in rank order, ordered by leader.
std::vector<std::vector<int>> tile_domains(const CommTopology& topo, int p, bool rank_order) {
    std::vector<std::vector<int>> out;
    if (topo.domain_level >= 0 && topo.domain_level < static_cast<int>(topo.levels.size())) {
        for (const LevelGroup& g : topo.levels[static_cast<std::size_t>(topo.domain_level)].groups)
            out.push_back(g.members);
        std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x[0] < y[0]; });
        bool contiguous = true;
        for (const auto& g : out) contiguous = contiguous && g.back() - g.front() + 1 == static_cast<int>(g.size());
        if (!rank_order || contiguous) return out;
        out.clear();
    }
    out.emplace_back(static_cast<std::size_t>(p));
    std::iota(out[0].begin(), out[0].end(), 0);
    return out;
}

// Eq. 4's one or two stages for the result's broadcast (working set 2 p m:
// every input and every receive buffer).
const CollPlan bcast_plan([](const CostQuery& q) -> std::uint32_t {
    bool two_stage = false;
    li_bcast(q, q.q(), q.s(), q.m(), 2 * static_cast<std::size_t>(q.p()) * q.bytes, &two_stage);
    return two_stage;
}, [](std::uint32_t v) { return std::string(v ? "tiled: two-stage broadcast" : "tiled: one-stage broadcast"); });
}  // namespace

CollTask allreduce_tiled(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const Op& op = *me.op;
    const std::int64_t count = me.sendcount;
    const Datatype& type = *me.sendtype;
    const int rank = ctx.rank();
    const std::vector<std::vector<int>> domains = tile_domains(ctx.topology(), ctx.size(), !op.commutative);
    const int s = static_cast<int>(domains.size());
    int my_domain = 0, pos = 0;
    for (int d = 0; d < s; ++d)
        for (std::size_t i = 0; i < domains[static_cast<std::size_t>(d)].size(); ++i)
            if (domains[static_cast<std::size_t>(d)][i] == rank) my_domain = d, pos = static_cast<int>(i);
    const std::vector<int>& group = domains[static_cast<std::size_t>(my_domain)];
    const int qd = static_cast<int>(group.size());
    const std::int64_t granule = tile_granule(type);
    const std::int64_t strip = strip_elements(type, granule);
    int rc = MPI_SUCCESS;

    // ---- Within the domain: tile `pos` of every member's input into the leader's receive buffer.
    CO_WAIT_UNTIL(ctx.all_reached_of(group, 0, 1));
    const CollCall& leader = ctx.args_of(group[0]);
    const bool leader_in_place = leader.in_place;
    TypedScratch strip_scratch;
    if (!op.commutative && leader_in_place && qd > 1) strip_scratch = TypedScratch(strip, type);
    {
        const std::int64_t lo = tile_begin(count, pos, qd, granule), hi = tile_begin(count, pos + 1, qd, granule);
        for (std::int64_t a = lo; a < hi; a += strip) {
            const std::int64_t len = std::min(strip, hi - a);
            void* dst = element_at(leader.recvbuf, a, *leader.recvtype);
            auto x = [&](int i) { return at(input_of(ctx.args_of(group[static_cast<std::size_t>(i)])), a); };
            if (!leader_in_place || op.commutative) {
                reduce_staggered_swept(op, type, len, 0, qd, x, dst, *leader.recvtype, leader_in_place ? 0 : -1, pos);
            } else if (qd > 1) {
                // dst holds x_0: fold x_1 .. x_{q-1} apart, then apply x_0 from the left.
                void* right = strip_scratch.data();
                const Operand last = x(qd - 1);
                copy_data(last.buf, len, *last.type, right, len, type);
                for (int i = qd - 2; i >= 1; --i) reduce_data(op, x(i).buf, right, len, type);
                reduce_data(op, dst, right, len, type);
                copy_data(right, len, type, dst, len, *leader.recvtype);
            }
        }
    }
    ctx.publish(1, 1);

    // ---- Across domains: an n-ary tree of domains, member `pos` carrying cross tile `pos`.
    int qmin = qd;
    for (const auto& g : domains) qmin = std::min(qmin, static_cast<int>(g.size()));
    const int n = std::max(2, kReductionKnobs.tree_radix);
    if (pos < qmin && s > 1) {
        CO_WAIT_UNTIL(ctx.all_reached_of(group, 1, 1));
        const std::int64_t lo = tile_begin(count, pos, qmin, granule), hi = tile_begin(count, pos + 1, qmin, granule);
        for (std::int64_t j = 1; j < s; j *= n) {
            if (my_domain % (j * n) != 0) break;
            for (int i = 1; i < n && my_domain + i * j < s; ++i) {
                const std::vector<int>& child = domains[static_cast<std::size_t>(my_domain + i * j)];
                CO_WAIT_UNTIL(ctx.all_reached_of(child, 1, 2));
                const CollCall& theirs = ctx.args_of(child[0]);
                for (std::int64_t a = lo; a < hi; a += strip) {
                    const std::int64_t len = std::min(strip, hi - a);
                    void* acc = element_at(leader.recvbuf, a, *leader.recvtype);
                    void* part = element_at(theirs.recvbuf, a, *theirs.recvtype);
                    if (op.commutative) {
                        reduce_data(op, part, acc, len, type);
                    } else {
                        reduce_data(op, acc, part, len, type);  // part = acc op part
                        copy_data(part, len, *theirs.recvtype, acc, len, *leader.recvtype);
                    }
                }
            }
        }
    }
    ctx.publish(1, 2);

    // ---- The result is complete in rank 0's receive buffer once its domain's members are done.
    const int root = domains[0][0];
    if (rank == root)
        CO_WAIT_UNTIL(ctx.all_reached_of(domains[0], 1, 2));
    const bool two_stage = ctx.plan(bcast_plan) != 0;
    int rc2 = MPI_SUCCESS;
    CO_RUN(rc2, result_bcast(ctx, root, two_stage, false));
    co_return rc != MPI_SUCCESS ? rc : rc2;
}

double allreduce_tiled_cost(const CostQuery& q) {
    const std::size_t ws = 2 * static_cast<std::size_t>(q.p()) * q.bytes;
    const double m = q.m();
    const int qq = q.q();
    if (q.p() <= 1) return 0;
    bool two_stage = false;
    // With one domain, each reader folded 1/q of the result's lines itself:
    // while they stay in its L2, the broadcast brings only the other
    // (q - 1)/q from the root's cache.
    const double bcast_lines = q.s() > 1 || !l2_resident(q, ws) ? m : m * (qq - 1) / qq;
    const double bcast = li_bcast(q, qq, q.s(), bcast_lines, ws, &two_stage);
    // Each rank reads the arguments of its domain's other ranks (a tile of
    // each input, in one loop), then the domains' tree its children's, the
    // broadcast's readers the root's (and, two-stage, their leader's).
    // The domains' tree folds what it reads (each child's first line one
    // more round trip, peer_data_cost); the broadcast copies.
    const double tree_reads = ceil_log2(q.s());
    const double later_reads = tree_reads + (two_stage ? 2 : 1);
    // Every domain leader's receive buffer was read last call (the top's by
    // the broadcast's readers, the others' by their parent domain's
    // members): the members' tile folds store into those lines again (a
    // copy where a domain has one member), and across domains the
    // broadcast copies the result into the other leaders' buffers.
    // (The tile fold's copy goes a strip at a time; the broadcast copies a
    // leader's vector in one call, temporal: result_bcast.)
    const std::size_t strip = std::min(q.bytes, kReductionKnobs.strip_bytes);
    const std::size_t buffer = 2 * q.bytes;
    // A domain of one member copies its input into its receive buffer, a
    // memcpy into lines others read: rewrite_line is that copy's whole
    // cost a line (measured so, for the inline copy-in), and Eq. 8's c m
    // (li_tiled_reduce) has charged the copy already, so only what
    // rewrite_line adds to it counts (2 ranks, the runs of stops 35-38:
    // charging both put tiled 12-37% over its measured time from 32 to
    // 256 KiB; docs/model.md, "Tiled's tile copy and tiled_push's pushes
    // past the L2"). The broadcast's copy across, charged c_b m in the
    // broadcast, likewise (since stop 42).
    const double own_copy_rewrite = copy_rewrite_excess(q, m, strip, buffer, ws);
    // Where a domain has one member, both of its copies store into lines
    // the parent domain's leader has just read, one after the other on the
    // call's path: its input into its receive buffer (the parent read the
    // partial there last call) and the broadcast's result over it (the
    // parent folded it this call). The first such store waits for the
    // line's round trip whatever the size: rewrite_first each (format 13;
    // else a_b, a flag handoff across). 2 ranks on the EPYC guest (stop
    // 41), against profiles of the same machine state: 8 B-2 KiB 24-26%
    // short in the slow state, 26-32% in the fast one, without it
    // (docs/model.md, "Tiled's one-member domains").
    const double first_rewrites = qq == 1 && q.s() > 1 ? 2 * rewrite_first_cost(q, q.params.beta) : 0.0;
    const double rewrites = (qq > 1 ? fold_rewrite_cost(q, m / qq) : own_copy_rewrite) +
                            (q.s() > 1 ? copy_rewrite_excess(q, m, q.bytes, buffer, ws) : 0.0) + first_rewrites;
    // The folds touch every input and the domain leaders' receive buffers
    // (the broadcast, after them, the others'): (p + s) m, as tiled Reduce's
    // (p + 1) m.
    const std::size_t fold_ws = static_cast<std::size_t>(q.p() + q.s()) * q.bytes;
    return li_tiled_reduce(q, qq, q.s(), m, fold_ws) + fold_sweep_excess(q, qq, qq - 1, ws) * m * (qq - 1) / qq + bcast +
           rewrites + peer_args_sweep_cost(q, qq - 1) + peer_data_sweep_cost(q, qq - 1) +
           peer_args_cost(q, later_reads) + peer_data_cost(q, tree_reads) + q.params.alpha.a / q.p();
}

}  // namespace hmpi::coll
