// Push scatter (the root writes): the root copies each rank's block of its
// send buffer straight into that rank's receive buffer, taking the ranks in
// the order they become ready, then tells everyone it is done. A receiver
// first reads the root's arguments (to judge truncation, the receiver's
// error), then says it is ready, then waits for the root's "done".
//
// The one-stage scatter (Li, Hoefler et al., Section 2.2) with the copies
// on the root, like the flat scatter of the classic linear algorithm:
// the root's P - 1 copies serialized on one core, each written into the
// receiver's memory (the receiver's cache takes the lines when it reads
// them), between the receivers' "ready" and the root's "done" rounds:
//   a + (P - 1) c m + 2 a_alpha (+ c_alpha m for the root's own block, copied
//   first, past the L2s: own_block_copy_cost, cost.hpp)
// with (a, c) = alpha when s == 1, beta across cache domains. Better than the pulling form only
// when receivers are busy elsewhere (nonblocking scatter), since the
// root's core does all the work.
//
// Flags: flag 1 step 1 = "ready: write my receive buffer" (non-roots, read
// by the root); the root's flag 1 step 1 = "every block is delivered".
#include "collectives/framework/blocks.hpp"
#include "collectives/scatter/scatter.hpp"

namespace hmpi::coll {

CollTask scatter_push(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int root = me.root;
    if (ctx.rank() != root) {
        CO_WAIT_UNTIL(ctx.arrived(root));
        // The root's CollCall stays valid until it has seen our "ready".
        const int rc = truncates(send_block(ctx.args_of(root), ctx.rank()), recv_whole(me)) ? MPI_ERR_TRUNCATE
                                                                                          : MPI_SUCCESS;
        ctx.publish_to(1, 1, root);
        CO_WAIT_UNTIL(ctx.reached(root, 1, 1));
        co_return rc;
    }
    int rc = MPI_SUCCESS;
    if (!me.in_place) rc = copy_block(send_block(me, root), recv_whole(me));
    PeerSweep peers(root, ctx.size());
    // A truncated copy is the receiver's error (it has judged it already).
    CO_WAIT_UNTIL(peers.sweep([&](int q) { return ctx.reached(q, 1, 1); },
                              [&](int q) {
                                  (void)copy_block(send_block(me, q), recv_whole(ctx.args_of(q)), StoreKind::rewrite);
                              }));
    ctx.publish(1, 1);
    co_return rc;
}

double scatter_push_cost(const CostQuery& q) {
    if (q.p() <= 1) return 0;
    const LinkCost& link = q.s() > 1 ? q.params.beta : q.params.alpha;
    const std::size_t ws = q.bytes * static_cast<std::size_t>(q.p());
    // The root reads every other rank's arguments, one after another.
    return link.a + (q.p() - 1) * copy_line_cost(q, link, ws) * q.m() + own_block_copy_cost(q, ws) +
           peer_args_sweep_cost(q, q.p() - 1) + 2 * q.params.alpha.a;
}

}  // namespace hmpi::coll
