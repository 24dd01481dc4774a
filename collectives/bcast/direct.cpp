// Direct broadcast: every non-root rank copies the root's buffer into its
// own, straight from the root's layout to its own (one copy, no
// intermediate buffer), then acknowledges; the root returns once every
// rank has acknowledged, since until then its buffer is being read.
//
// This is the one-stage broadcast of Li, Hoefler et al. (Section 2.2,
// Eq. 3): P - 1 concurrent readers of one buffer, cost a + B * (P - 1) * m
// under read congestion (B: the congested per-byte cost of the root's
// memory), the best choice while P is small or m is small.
//
// Flags: flag 1 step 1 = "I have copied" (read by the root only).
#include "collectives/bcast/bcast.hpp"
#include "collectives/framework/data.hpp"

namespace hmpi::coll {

CollTask bcast_direct(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int root = me.root;
    if (ctx.rank() == root) {
        for (int r = 0; r < ctx.size(); ++r)
            if (r != root) CO_WAIT_UNTIL(ctx.reached(r, 1, 1));
        co_return MPI_SUCCESS;
    }
    CO_WAIT_UNTIL(ctx.arrived(root));
    const CollCall& src = ctx.args_of(root);
    const int rc = copy_data(src.recvbuf, src.recvcount, *src.recvtype, me.recvbuf, me.recvcount, *me.recvtype);
    ctx.publish_to(1, 1, root);
    co_return rc;
}

}  // namespace hmpi::coll
