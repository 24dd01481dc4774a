// Pairwise alltoall (ranks pull): rank r copies block r of every peer's
// send buffer straight into block q of its own receive buffer, peers taken
// in the staggered order r+1, r+2, ... (mod P) as they arrive, so that at
// any moment the P ranks mostly read P different buffers; then it says it
// is done and returns once everyone is (its send buffer is read until then).
//
// The pairwise-exchange alltoall of Thakur, Rabenseifner and Gropp
// ("Optimization of Collective Communication Operations in MPICH", IJHPCA
// 2005): P - 1 steps, in step k rank r exchanges with r + k and r - k.
// Shared memory needs no exchange per step, only the staggered order, and
// a step that is not ready yet is skipped and retried. Cost per rank:
// a + (P - 1) * c * m, all ranks in parallel, one flag round at the end.
//
// MPI_IN_PLACE (which the standard requires on every rank together): the
// buffer a peer would read is being overwritten, so the in-place call runs
// the push form (push.cpp), whose sources are private snapshots.
//
// Model cost: the P ranks each read P - 1 blocks at once (staggered, so
// one reader per buffer at a time), then one flag round:
// a + C P (P - 1) m + a_alpha ((a, C) = alpha, or beta when s > 1), + c_alpha m
// for the rank's own block, copied first, past the L2s (own_block_copy_cost).
// The copies store non-temporal inside the cache where hmpi-calibrate
// measured them cheaper (result_store_kind_for, data.hpp), their lines
// priced at nt_copy_ratio (result_copy_scale, cost.hpp).
//
// Flags: flag 1 step 1 = "I have read every peer's block".
#include "collectives/alltoall/alltoall.hpp"

namespace hmpi::coll {

namespace {
// The working set the store choice weighs: p blocks sent and p received
// by each of p ranks.
std::size_t store_working_set(std::size_t block, int p) noexcept {
    return 2 * block * static_cast<std::size_t>(p) * static_cast<std::size_t>(p);
}
}  // namespace

CollTask alltoall_pairwise(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    int rc = MPI_SUCCESS;
    if (me.in_place) {
        CO_RUN(rc, alltoall_push(ctx));
        co_return rc;
    }
    const int r = ctx.rank(), p = ctx.size();
    auto keep_error = [&rc](int e) {
        if (rc == MPI_SUCCESS) rc = e;
    };
    // YHCCL Alg. 1: streaming stores once the buffers outgrow the cache.
    const StoreKind kind =
        result_store_kind_for(store_working_set(message_bytes(ctx), p), ctx.topology(), false, me.in_place);
    keep_error(copy_block(send_block(me, r), recv_block(me, r), kind));
    PeerSweep peers(r, p);
    CO_WAIT_UNTIL(peers.sweep([&](int q) { return ctx.arrived(q); },
                              [&](int q) { keep_error(copy_block(outgoing(ctx.args_of(q), r), recv_block(me, q), kind)); }));
    ctx.publish(1, 1);
    CO_WAIT_UNTIL(ctx.all_reached(1, 1));
    co_return rc;
}

double alltoall_pairwise_cost(const CostQuery& q) {
    if (q.p() <= 1) return 0;
    const LinkCost& link = q.s() > 1 ? q.params.beta : q.params.alpha;
    const std::size_t ws = q.bytes * static_cast<std::size_t>(q.p()) * static_cast<std::size_t>(q.p());
    // The closing wait for every rank is bare (all_poll_excess, cost.hpp);
    // the arrival sweep's polls hide between the copies.
    // Non-temporal where result_store_kind_for says so.
    const double share = result_copy_scale(q, store_working_set(q.bytes, q.p()));
    return congested_copy_step_cost(q, link, q.m() * (q.p() - 1) * share, q.p(), ws) +
           own_block_copy_cost(q, ws) * share + q.params.alpha.a + all_poll_excess(q, q.p()) +
           peer_args_sweep_cost(q, q.p() - 1);
}

}  // namespace hmpi::coll
