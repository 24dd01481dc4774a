// Tiled reduction: the vector is cut into P slices of nearly equal element
// counts; rank k folds slice k of every rank's input straight into slice k
// of the root's receive buffer: a commutative op from its own input on
// (reduce_staggered, so the ranks read from different sources at once), any
// other in rank order. A reduce-scatter whose results
// land where MPI_Reduce wants them, through shared memory (the
// reduce-scatter stage of Li, Hoefler et al., Section 2.4, without the
// allgather: the root's buffer is the gather target).
//
// No temporary buffer except when the root's MPI_IN_PLACE input is in the
// middle of a non-commutative fold (one scratch of a slice).
//
// Cost: the reduce-scatter's (slice_fold_cost, cost.hpp; the same work,
// the root's receive buffer as the target): two waits of every rank, then
// per line of its slice of m/p lines a fold chain of the p inputs, the
// first into the result (a third buffer, max(r, R_slices p) with p ranks
// folding disjoint slices at once), the rest accumulating:
//   T = 2 (a + Y(p)) + (max(r, R_slices p) + (p-2) max(b, B p)) m/p
// (alpha's within the domain, beta's for the p - q inputs from others; a =
// a_b across domains) + X (p-1) m/p for a non-commutative op
// (fold_sweep_excess, cost.hpp). On the 2-core EPYC guest tiled Reduce
// measured 96.6 us at 4 MiB, tiled Reduce_scatter_block 103.9 (stop 31).
// Until stop 31 it had a formula of its own, Li-Hoefler Eq. 8's form over
// the whole communicator, which charged only the m (p-1)/p lines read from
// others, at B q, and no third buffer: 2x short from 64 KiB there.
// (working set (p + 1) m: the inputs and the result).
//
// Slices are disjoint, so each byte of the root's receive buffer (its input
// too under MPI_IN_PLACE) is read and written by one rank only.
//
// Flags: flag 1 step 1 = "my slice is done: I read no input any more"; every
// rank waits for all of them before returning (the lifetime rule).
#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduce.hpp"
#include "collectives/reduce/reduction.hpp"

namespace hmpi::coll {

CollTask reduce_tiled(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), root = me.root;
    CO_WAIT_UNTIL(ctx.all_reached(0, 1));
    const CollCall& at_root = ctx.args_of(root);
    const std::int64_t lo = slice_begin(me.sendcount, ctx.rank(), p);
    const std::int64_t hi = slice_begin(me.sendcount, ctx.rank() + 1, p);
    const int rc = reduce_staggered_swept(
        *me.op, *me.sendtype, hi - lo, 0, p, [&](int r) { return at(input_of(ctx.args_of(r)), lo); },
        element_at(at_root.recvbuf, lo, *at_root.recvtype), *at_root.recvtype, at_root.in_place ? root : -1,
        ctx.rank());
    ctx.publish(1, 1);
    CO_WAIT_UNTIL(ctx.all_reached(1, 1));
    co_return rc;
}

double reduce_tiled_cost(const CostQuery& q) { return slice_fold_cost(q, false); }

}  // namespace hmpi::coll
