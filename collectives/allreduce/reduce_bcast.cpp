// Allreduce as a reduction to rank 0 followed by a broadcast: rank 0 folds
// every input in rank order into its receive buffer (the linear reduction,
// collectives/reduce/linear.cpp), then every other rank copies the result
// straight from rank 0's receive buffer into its own.
//
// Cost (Li, Hoefler et al., Section 2.4 composed with 2.2, one-stage forms):
// (P - 1) * (b + g) * m at rank 0, then P - 1 concurrent readers of m bytes:
// ~ 2a + (P - 1) * (b + g) * m + B * (P - 1) * m. The simple form for small
// vectors; tiled.cpp spreads the work for large ones.
//
// MPI_IN_PLACE: a rank's input is its receive buffer, which it overwrites
// only after rank 0 has said it read every input (the reduction's flag).
//
// Flags: flag 1 step 1 = rank 0 has read every input and holds the result
// (reduce_linear_at); flag 2 step 1 = "I have copied the result" (rank 0
// waits for all before returning, its receive buffer being read until then).
#include "collectives/allreduce/allreduce.hpp"
#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduce.hpp"

namespace hmpi::coll {

CollTask allreduce_reduce_bcast(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    int rc = MPI_SUCCESS;
    CO_RUN(rc, reduce_linear_at(ctx, 0));
    if (ctx.rank() == 0) {
        for (int r = 1; r < ctx.size(); ++r) CO_WAIT_UNTIL(ctx.reached(r, 2, 1));
        co_return rc;
    }
    const CollCall& at_root = ctx.args_of(0);
    rc = copy_data(at_root.recvbuf, at_root.recvcount, *at_root.recvtype, me.recvbuf, me.recvcount, *me.recvtype);
    ctx.publish_to(2, 1, 0);
    co_return rc;
}

}  // namespace hmpi::coll
