// Direct allgather: every rank copies every other rank's contribution (its
// send buffer, or with MPI_IN_PLACE its own block of its receive buffer,
// which it never writes) straight into its own receive buffer, taking the
// ranks in staggered order (r+1, r+2, ...) as they arrive; then it waits
// until everyone has finished reading it before returning.
//
// The one-stage allgather: P concurrent one-stage gathers (Li, Hoefler et
// al., Section 2.2), no intermediate buffer, one copy per block. Cost per
// rank: a + (P - 1) * c * m, all ranks in parallel; every buffer has P - 1
// readers, spread in time by the staggered order. The closing wait is the
// lifetime rule's acknowledgement (one flag per rank).
//
// Model cost: the P ranks copy P - 1 blocks each at once, then one flag
// round: a + C P (P - 1) m + a_alpha ((a, C) = alpha, or beta when s > 1;
// working set P^2 m bytes); + c_alpha m for the rank's copy of its own block
// first, once the working set leaves the L2s (own_block_copy_cost, cost.hpp).
// The copies store non-temporal inside the cache where hmpi-calibrate
// measured them cheaper (result_store_kind_for, data.hpp), their lines
// priced at nt_copy_ratio (result_copy_scale, cost.hpp).
//
// Flags: flag 1 step 1 = "I have read every contribution".
#include "collectives/allgather/allgather.hpp"
#include "collectives/framework/blocks.hpp"

namespace hmpi::coll {

CollTask allgather_direct(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int r = ctx.rank(), p = ctx.size();
    int rc = MPI_SUCCESS;
    auto keep_error = [&rc](int e) {
        if (rc == MPI_SUCCESS) rc = e;
    };
    // Every rank's receive buffer holds p blocks (YHCCL Alg. 1: streaming
    // stores once the p receive buffers outgrow the cache).
    const std::size_t ws = message_bytes(ctx) * static_cast<std::size_t>(p) * static_cast<std::size_t>(p);
    const StoreKind kind = result_store_kind_for(ws, ctx.topology(), false, me.in_place);
    if (!me.in_place) keep_error(copy_block(send_whole(me), recv_block(me, r), kind));
    PeerSweep peers(r, p);
    CO_WAIT_UNTIL(peers.sweep([&](int q) { return ctx.arrived(q); },
                              [&](int q) { keep_error(copy_block(contribution(ctx.args_of(q), q), recv_block(me, q), kind)); }));
    ctx.publish(1, 1);
    CO_WAIT_UNTIL(ctx.all_reached(1, 1));
    co_return rc;
}

double allgather_direct_cost(const CostQuery& q) {
    if (q.p() <= 1) return 0;
    const LinkCost& link = q.s() > 1 ? q.params.beta : q.params.alpha;
    const std::size_t ws = q.bytes * static_cast<std::size_t>(q.p()) * static_cast<std::size_t>(q.p());
    // The closing wait for every rank is bare (all_poll_excess, cost.hpp);
    // the arrival sweep's polls hide between the copies.
    // Non-temporal where result_store_kind_for says so (the same working set).
    const double share = result_copy_scale(q, ws);
    return congested_copy_step_cost(q, link, q.m() * (q.p() - 1) * share, q.p(), ws) +
           own_block_copy_cost(q, ws) * share + q.params.alpha.a + all_poll_excess(q, q.p()) +
           peer_args_sweep_cost(q, q.p() - 1);
}

}  // namespace hmpi::coll
