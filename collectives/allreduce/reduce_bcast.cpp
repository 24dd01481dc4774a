// Allreduce as a reduction to rank 0 followed by a broadcast: rank 0 folds
// every input in rank order into its receive buffer (the linear reduction,
// collectives/reduce/linear.cpp), then every other rank copies the result
// straight from rank 0's receive buffer into its own.
//
// Cost (our formula, built from the Li-Hoefler parameters): rank 0 reads
// and folds the q - 1 other inputs of its domain and the p - q of other
// domains alone, one step (the first fold into its receive buffer, a third
// buffer: r for its link, reduce_linear_fold_line_cost), then every rank
// copies at once (Eq. 4's one-stage broadcast):
//   T = a_a + ((q-1) b_a + (p-q) b_b - b_first + r_first) m
//       + li_one_stage_bcast(q, s, m) + a_a / p
//       + all_poll_excess(p) (1 + 1/p) + busy_excess(p)
//       + rewrite(m) (rank 0 folds into the lines the readers copied out
//         last call; result_source_rewrite_cost: fold_rewrite_line m, or
//         rewrite_line m while 4 m fits the L2 without it)
// (the last terms HMPI's flag waits: rank 0's for every arrival and, alone,
// for every acknowledgement; the copies' step of all p ranks)
// (working set 2 p m: inputs and receive buffers; the last term: rank 0 alone waits for the
// copies' acknowledgements, and predictions are the mean over ranks). The simple form for small p; tree.cpp and
// tiled.cpp spread the work.
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
        CO_WAIT_UNTIL(ctx.all_reached_in(1, ctx.size(), 2, 1));
        co_return rc;
    }
    const CollCall& at_root = ctx.args_of(0);
    // The tree's broadcast copy (tree_shape.cpp): a string move where
    // temporal, whose stores write whole lines, and non-temporal stores
    // past the cache. 2 ranks on the EPYC guest, memcpy before and this
    // after, 3 rounds alternating (stop 42): 256 KiB 51 -> 41 us, 1 MiB
    // 187 -> 123, 4 MiB 773 -> 516 (the tree's 124 and 517); 16 MiB 2321
    // -> 2462 (the tree's 2479: its non-temporal stores lose there too).
    const std::size_t ws = 2 * static_cast<std::size_t>(ctx.size()) * data_bytes(me.recvcount, *me.recvtype);
    rc = copy_data(at_root.recvbuf, at_root.recvcount, *at_root.recvtype, me.recvbuf, me.recvcount, *me.recvtype,
                   result_store_kind_for(ws, ctx.topology(), true, me.in_place));
    ctx.publish_to(2, 1, 0);
    co_return rc;
}

double allreduce_reduce_bcast_cost(const CostQuery& q) {
    const std::size_t ws = 2 * static_cast<std::size_t>(q.p()) * q.bytes;
    const double m = q.m();
    if (q.p() <= 1) return 0.0;
    const double fold = q.params.alpha.a + reduce_linear_fold_line_cost(q, ws) * m;
    // The root reads every other rank's arguments, then they read the root's.
    // HMPI's costs beyond a: rank 0 waits for every arrival at once (the
    // flat barrier's wait), then all ranks step at once for the copies,
    // and rank 0 alone waits for every acknowledgement.
    const double waits = all_poll_excess(q, q.p()) * (1.0 + 1.0 / q.p()) + busy_excess(q, q.p());
    return fold + li_one_stage_bcast(q, q.q(), q.s(), m, ws) + peer_args_sweep_cost(q, q.p() - 1) +
           peer_data_sweep_cost(q, q.p() - 1) + peer_args_cost(q, 1) + q.params.alpha.a / q.p() + waits +
           result_source_rewrite_cost(q);
}

}  // namespace hmpi::coll
