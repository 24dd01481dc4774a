// Linear reduction: the root waits for every rank to arrive, then folds all
// inputs, read straight from their owners' buffers, into its receive buffer
// in rank order: recvbuf = x_{p-1}, then recvbuf = x_r op recvbuf for
// r = p-2 .. 0 (collectives/reduce/reduction.hpp). Non-roots only wait for
// the root's "done reading" flag, since their send buffers are read until then.
//
// The flat reduction: the root reads every input and applies P - 1
// reductions, all on one core. No temporary buffer unless the root's own
// input (MPI_IN_PLACE) sits in the middle of a non-commutative fold (one
// scratch of m bytes).
//
// Cost (our formula, Li-Hoefler parameters): one synchronized step in which
// the root alone reads q - 1 inputs of its domain and p - q of others, then
// the p - 1 others wait one more handoff for its "done" (predictions are
// the mean over ranks):
//   T = a_a + Y(p) + ((q-1) b_a + (p-q) b_b) m + (p-1) N(m) + (p-1)/p a_a
// (working set (p + 1) m: the inputs and the result; N(m) = near_excess,
// cost.hpp: each source waits while the root reads it)
// (a_a + Y(p) = flat_wait_cost(p), the root's wait for every arrival, as
// the flat barrier's; docs/model.md, "Reduce's waits at two ranks")
// where the first fold, x_{p-2} op x_{p-1} into the receive buffer, reduces
// into a third buffer: one of the p - 1 per-line costs is r (beta's where
// the ranks span domains, the last ranks being outside the root's; alpha's
// otherwise) instead of b.
//
// Flags: flag 1 step 1 = the root has read every input (non-roots wait for it).
#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduce.hpp"
#include "collectives/reduce/reduction.hpp"

namespace hmpi::coll {

CollTask reduce_linear_at(CollCtx& ctx, int root) {
    const CollCall& me = ctx.call();
    if (ctx.rank() != root) {
        CO_WAIT_UNTIL(ctx.reached(root, 1, 1));
        co_return MPI_SUCCESS;
    }
    CO_WAIT_UNTIL(ctx.all_reached(0, 1));
    const int rc = reduce_in_order_swept(
        *me.op, *me.sendtype, me.sendcount, 0, ctx.size(), [&](int r) { return input_of(ctx.args_of(r)); },
        me.recvbuf, *me.recvtype, me.in_place ? root : -1);
    ctx.publish(1, 1);
    co_return rc;
}

CollTask reduce_linear(CollCtx& ctx) { return reduce_linear_at(ctx, ctx.call().root); }

double reduce_linear_fold_line_cost(const CostQuery& q, std::size_t ws) {
    if (q.p() <= 1) return 0;
    const LinkCost& first = q.p() > q.q() ? q.params.beta : q.params.alpha;
    return (q.q() - 1) * line_cost(q, q.params.alpha, ws) + (q.p() - q.q()) * line_cost(q, q.params.beta, ws) -
           line_cost(q, first, ws) + reduce3_line_cost(q, first, ws);
}

double reduce_linear_cost(const CostQuery& q) {
    if (q.p() <= 1) return 0;
    const std::size_t ws = (static_cast<std::size_t>(q.p()) + 1) * q.bytes;  // the inputs and the results
    // The root's wait for every rank's arrival is the flat barrier's wait
    // (flat_wait_cost: step_overhead, poll_line for each rank beyond two),
    // as tiled Reduce's; then it reads every other rank's arguments, one
    // after another.
    return flat_wait_cost(q, q.p()) + input_released_wait_cost(q) + peer_args_sweep_cost(q, q.p() - 1) +
           peer_data_sweep_cost(q, q.p() - 1) +
           reduce_linear_fold_line_cost(q, ws) * q.m() + (q.p() - 1) * near_excess(q, q.m());
}

}  // namespace hmpi::coll
