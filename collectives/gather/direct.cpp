// Direct gather (root pulls): the root copies every rank's send buffer
// straight into its block of the root's receive buffer, taking the ranks in
// the order they arrive (a late rank never holds up the copies of the
// others), then tells everyone it is done; a non-root rank only waits for
// that acknowledgement, since until then its send buffer is being read.
//
// This is the one-stage (flat) gather, the mirror of the one-stage
// broadcast of Li, Hoefler et al. (Section 2.2): one copy per block, no
// intermediate buffer. Cost: the root's P - 1 copies serialized on one
// core, then its "done" flag round:
//   a + (P - 1) c m + a_alpha (+ c_alpha m for the root's own block, copied
// first, once the working set leaves the L2s: own_block_copy_cost, cost.hpp)
// with (a, c) = alpha when s == 1, beta across cache domains; working set
// P m bytes. Non-roots pay one flag write and one flag read.
//
// Flags: flag 1 step 1 = "the root has copied every block" (root only).
#include "collectives/framework/blocks.hpp"
#include "collectives/gather/gather.hpp"

namespace hmpi::coll {

CollTask gather_direct(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int root = me.root;
    if (ctx.rank() != root) {
        CO_WAIT_UNTIL(ctx.reached(root, 1, 1));
        co_return MPI_SUCCESS;
    }
    int rc = MPI_SUCCESS;
    auto keep_error = [&rc](int e) {
        if (rc == MPI_SUCCESS) rc = e;
    };
    if (!me.in_place) keep_error(copy_block(send_whole(me), recv_block(me, root)));
    PeerSweep peers(root, ctx.size());
    CO_WAIT_UNTIL(peers.sweep([&](int q) { return ctx.arrived(q); },
                              [&](int q) { keep_error(copy_block(send_whole(ctx.args_of(q)), recv_block(me, q))); }));
    ctx.publish(1, 1);
    co_return rc;
}

double gather_direct_cost(const CostQuery& q) {
    if (q.p() <= 1) return 0;
    const LinkCost& link = q.s() > 1 ? q.params.beta : q.params.alpha;
    const std::size_t ws = q.bytes * static_cast<std::size_t>(q.p());
    // The root reads every other rank's arguments, one after another.
    return link.a + (q.p() - 1) * copy_line_cost(q, link, ws) * q.m() + own_block_copy_cost(q, ws) +
           peer_args_sweep_cost(q, q.p() - 1) + q.params.alpha.a;
}

}  // namespace hmpi::coll
