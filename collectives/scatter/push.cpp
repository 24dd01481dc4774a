// Push scatter (the root writes): the root copies each rank's block of its
// send buffer straight into that rank's receive buffer, taking the ranks in
// the order they become ready, then tells everyone it is done. A receiver
// first reads the root's arguments (to judge truncation, the receiver's
// error), then says it is ready, then waits for the root's "done".
//
// The one-stage scatter (Li, Hoefler et al., Section 2.2) with the copies
// on the root, like the flat scatter of the classic linear algorithm:
// cost a + (P - 1) * (a + b * m) on the root, the copies serialized on one
// core, each written into the receiver's memory (the receiver's cache
// takes the lines when it reads them). Better than the pulling form only
// when receivers are busy elsewhere (nonblocking scatter), since the
// root's core does all the work.
//
// Flags: flag 1 step 1 = "ready: write my receive buffer" (non-roots, read
// by the root); the root's flag 1 step 1 = "every block is delivered".
#include "collectives/gather/blocks.hpp"
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
                              [&](int q) { (void)copy_block(send_block(me, q), recv_whole(ctx.args_of(q))); }));
    ctx.publish(1, 1);
    co_return rc;
}

}  // namespace hmpi::coll
