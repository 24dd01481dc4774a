// Direct scatter (ranks pull): every non-root rank waits for the root to
// arrive, copies its block of the root's send buffer straight into its own
// receive buffer and acknowledges; the root copies its own block (unless
// MPI_IN_PLACE) and returns once every rank has acknowledged, since until
// then its send buffer is being read. Non-roots leave right after their copy.
//
// The one-stage scatter of Li, Hoefler et al. (Section 2.2, scatter phase):
// P - 1 concurrent readers of disjoint parts of one buffer, one copy per
// block. Cost: a + b * m per rank, in parallel, plus read congestion on the
// root's memory: ~ 2a + B * (P - 1) * m.
//
// Flags: flag 1 step 1 = "I have copied my block" (read by the root).
#include "collectives/gather/blocks.hpp"
#include "collectives/scatter/scatter.hpp"

namespace hmpi::coll {

CollTask scatter_direct(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int root = me.root;
    if (ctx.rank() != root) {
        CO_WAIT_UNTIL(ctx.arrived(root));
        const int rc = copy_block(send_block(ctx.args_of(root), ctx.rank()), recv_whole(me));
        ctx.publish_to(1, 1, root);
        co_return rc;
    }
    int rc = MPI_SUCCESS;
    if (!me.in_place) rc = copy_block(send_block(me, root), recv_whole(me));
    PeerSweep peers(root, ctx.size());
    CO_WAIT_UNTIL(peers.sweep([&](int q) { return ctx.reached(q, 1, 1); }, [](int) {}));
    co_return rc;
}

}  // namespace hmpi::coll
