// Tiled allreduce: a reduce-scatter followed by an allgather, both through
// shared memory (Li, Hoefler et al., Section 2.4, the two-stage
// reduce-scatter + allgather form). The vector is cut into P slices of
// nearly equal element counts; rank k folds slice k of every rank's input,
// in rank order, into slice k of its own receive buffer, then every rank
// copies the other P - 1 slices from their owners' receive buffers.
//
// Cost: each rank reads P slices of m/P bytes and applies P - 1 reductions
// on them, then copies (P - 1) * m/P bytes, all ranks in parallel:
// ~ 2a + (P - 1) * (b + g) * m / P + (P - 1) * b * m / P; no temporary
// buffer except for a rank whose MPI_IN_PLACE input sits in the middle of a
// non-commutative fold (one scratch of a slice).
//
// MPI_IN_PLACE: slice k of every buffer is touched only by rank k during the
// first stage, and rank j overwrites slice k of its receive buffer (its
// input) only after rank k has said its slice is done, so results never
// overwrite an input somebody still reads.
//
// Flags: flag 1 step 1 = "my slice is reduced (and I read no input any
// more)"; flag 2 step 1 = "I have copied every slice"; every rank waits for
// all flags 2 before returning (the lifetime rule).
#include "collectives/allreduce/allreduce.hpp"
#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduction.hpp"

namespace hmpi::coll {

CollTask allreduce_tiled(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), rank = ctx.rank();
    const std::int64_t count = me.sendcount;
    CO_WAIT_UNTIL(ctx.all_reached(0, 1));
    const std::int64_t lo = slice_begin(count, rank, p), hi = slice_begin(count, rank + 1, p);
    int rc = reduce_in_order(
        *me.op, *me.sendtype, hi - lo, 0, p, [&](int r) { return at(input_of(ctx.args_of(r)), lo); },
        element_at(me.recvbuf, lo, *me.recvtype), *me.recvtype, me.in_place ? rank : -1);
    ctx.publish(1, 1);
    // Start with the next rank's slice so the owners' buffers are not all
    // read in the same order.
    for (int i = 1; i < p; ++i) {
        const int owner = (rank + i) % p;
        CO_WAIT_UNTIL(ctx.reached(owner, 1, 1));
        const CollCall& from = ctx.args_of(owner);
        const std::int64_t first = slice_begin(count, owner, p), n = slice_begin(count, owner + 1, p) - first;
        if (n <= 0) continue;
        if (int e = copy_data(element_at(from.recvbuf, first, *from.recvtype), n, *from.recvtype,
                              element_at(me.recvbuf, first, *me.recvtype), n, *me.recvtype))
            rc = e;
    }
    ctx.publish(2, 1);
    CO_WAIT_UNTIL(ctx.all_reached(2, 1));
    co_return rc;
}

}  // namespace hmpi::coll
