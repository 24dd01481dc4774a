// Tiled reduction: the vector is cut into P slices of nearly equal element
// counts; rank k folds slice k of every rank's input straight into slice k
// of the root's receive buffer: a commutative op from its own input on
// (reduce_staggered, so the ranks read from different sources at once), any
// other in rank order. A reduce-scatter whose results
// land where MPI_Reduce wants them, through shared memory (the
// reduce-scatter stage of Li, Hoefler et al., Section 2.4, without the
// allgather: the root's buffer is the gather target).
//
// No temporary buffer except when the root's MPI_IN_PLACE input is in the
// middle of a non-commutative fold (one scratch of a slice).
//
// Cost (Li-Hoefler Eq. 8's form over the whole communicator): every rank
// reads m lines (P slices of m/P), its own slice of its own input locally,
// (q-1)/p of them from its domain where q ranks share the bandwidth, the
// rest across; then the flag round that lets the inputs go:
//   T = 2 a_a + (B_a q + X) m (q-1)/p + [s > 1] (a_b + B_b q m (p-q)/p)
// with X = fold_sweep_excess(p readers, p - 1 at a source), cost.hpp, for
// a non-commutative op, whose ranks all sweep the inputs in rank order.
// (working set (p + 1) m: the inputs and the result).
//
// Slices are disjoint, so each byte of the root's receive buffer (its input
// too under MPI_IN_PLACE) is read and written by one rank only.
//
// Flags: flag 1 step 1 = "my slice is done: I read no input any more"; every
// rank waits for all of them before returning (the lifetime rule).
#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduce.hpp"
#include "collectives/reduce/reduction.hpp"

namespace hmpi::coll {

CollTask reduce_tiled(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), root = me.root;
    CO_WAIT_UNTIL(ctx.all_reached(0, 1));
    const CollCall& at_root = ctx.args_of(root);
    const std::int64_t lo = slice_begin(me.sendcount, ctx.rank(), p);
    const std::int64_t hi = slice_begin(me.sendcount, ctx.rank() + 1, p);
    const int rc = reduce_staggered(
        *me.op, *me.sendtype, hi - lo, 0, p, [&](int r) { return at(input_of(ctx.args_of(r)), lo); },
        element_at(at_root.recvbuf, lo, *at_root.recvtype), *at_root.recvtype, at_root.in_place ? root : -1,
        ctx.rank());
    ctx.publish(1, 1);
    CO_WAIT_UNTIL(ctx.all_reached(1, 1));
    co_return rc;
}

double reduce_tiled_cost(const CostQuery& q) {
    // Two waits for every rank (all arrived, all done reading): all_poll_excess, cost.hpp.
    if (q.p() <= 1) return 0;
    const std::size_t ws = (static_cast<std::size_t>(q.p()) + 1) * q.bytes;  // the inputs and the results
    const double p = q.p(), qq = q.q(), m = q.m();
    const double per_line =
        congested_line_cost(q, q.params.alpha, ws) * qq + fold_sweep_excess(q, q.p(), q.p() - 1, ws);
    // Every rank reads every other rank's arguments (its slice of each input).
    double t = 2 * (q.params.alpha.a + all_poll_excess(q, q.p())) + per_line * m * (qq - 1) / p +
               peer_args_sweep_cost(q, p - 1);
    if (q.s() > 1) t += q.params.beta.a + congested_line_cost(q, q.params.beta, ws) * qq * m * (p - qq) / p;
    return t;
}

}  // namespace hmpi::coll
