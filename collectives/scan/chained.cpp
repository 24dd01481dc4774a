// Chained scan and exscan: the prefix travels from rank to rank, each rank
// applying one reduction (the sequential, linear-chain prefix computation
// of G. E. Blelloch, "Prefix Sums and Their Applications", 1990, laid over
// the ranks, with shared memory for the links).
//
// Scan: once rank r-1 says its receive buffer holds x_0 .. x_{r-1}, rank r
// folds it with x_r in one pass straight into its receive buffer: recvbuf
// = (x_0 .. x_{r-1}) op x_r (in place: applied to the buffer from the
// left). Rank 0's result is its input, so it says so on arrival and rank 1
// reads x_0 where it is while rank 0 copies it into its receive buffer.
// Rank r-1 waits for r to have read it before returning. Up to stop 29
// every rank first copied x_r into its receive buffer and then folded the
// prefix into it, after rank r-1's own copy: at 2 ranks on the 2-core EPYC
// that took 176 us at 1 MiB against 40 now (and linear's 40-49), and on
// the 2-core Xeon's runs 2-4x linear's time from 4 KiB to 256 KiB.
//
// Exscan: rank r's result x_0 .. x_{r-1} is not what r+1 needs, so the
// rank ahead pushes instead: once rank r's receive buffer holds its result
// and rank r+1 says its receive buffer may be written, rank r writes
// x_r, then applies its own result from the left, into rank r+1's receive
// buffer. An in-place rank first saves its input (its receive buffer, about
// to be overwritten) into a scratch. Rank 0's buffer is left untouched.
//
// Cost (our formula, Li-Hoefler parameters): a chain of p - 1 dependent
// steps, s - 1 of them crossing a domain boundary, each a flag handoff
// between two ranks through the runtime's wait (a' = a + busy_excess(2),
// cost.hpp). Scan: each step one pass over m lines that reads the
// neighbour's result and the rank's input and writes its result (r, the
// third-buffer reduction's cost; rank 0's copy is off the chain):
//   T = (p-s)(a'_a + r_a m + N(m)) + (s-1)(a'_b + r_b m + N(m))
// (N(m) = near_excess, cost.hpp: each link's source waits while it is
// read; working set 2 p m, the inputs and the results)
// Exscan: each step is a push: rank r stores m lines of its own into rank
// r+1's receive buffer (P: push_line, cost.hpp's congested_push_step_cost
// with one thread, C beyond the L2) and folds m more (its own result,
// which rank r-1 stored: a read across, b) except rank 0's; rank 0 first
// waits for rank 1's "may write" (one more handoff; the later ones were
// published long before they are needed):
//   T = a_1 + (p-s)(a'_a + P_a m) + (s-1)(a'_b + P_b m) + (p-2) (b_a m + N(m))
// (each fold reads the prefix its waiting neighbour pushed)
// (working set p * m lines). O(m) work per rank. At 2 ranks on a 2-core
// EPYC (stop 17's run) the push measured 1.28 ns per line at 4 MiB, C's
// 1.29, against the pull's 2.2 the earlier formula charged, which kept
// chained out although it was 1.5-3x faster than linear above 1 KiB.
//
// Flags (scan): flag 1 step 1 = "my receive buffer holds my result" (read by
// r+1); flag 2 step 1 = "I have read yours" (r to r-1).
// Flags (exscan): flag 1 step 1 = "my receive buffer may be written" (r to
// r-1); flag 2 step 1 = "your receive buffer holds your result" (r to r+1,
// which waits for it in any case).
#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduction.hpp"
#include "collectives/scan/scan.hpp"

namespace hmpi::coll {

CollTask scan_chained(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), rank = ctx.rank();
    const std::int64_t n = me.sendcount;
    const Datatype& type = *me.sendtype;
    int rc = MPI_SUCCESS;
    if (rank == 0) {
        // My result is my input: rank 1 folds it from where it is, while I
        // copy it into my receive buffer.
        if (p > 1) ctx.publish_to(1, 1, 1);
        if (!me.in_place) rc = copy_data(me.sendbuf, n, *me.sendtype, me.recvbuf, n, *me.recvtype);
        if (p > 1) CO_WAIT_UNTIL(ctx.reached(1, 2, 1));
        co_return rc;
    }
    CO_WAIT_UNTIL(ctx.reached(rank - 1, 1, 1));
    const CollCall& prev = ctx.args_of(rank - 1);
    const void* prefix = rank == 1 ? input_of(prev).buf : prev.recvbuf;
    // One pass: prefix op x_r straight into my receive buffer.
    if (me.in_place)
        reduce_data(*me.op, prefix, me.recvbuf, n, type);
    else
        reduce_data3(*me.op, prefix, me.sendbuf, me.recvbuf, n, type);
    ctx.publish_to(2, 1, rank - 1);
    if (rank + 1 < p) {
        ctx.publish_to(1, 1, rank + 1);
        CO_WAIT_UNTIL(ctx.reached(rank + 1, 2, 1));
    }
    co_return rc;
}

namespace {
// The chain's p - 1 steps; `step(link)` is one step's cost without the
// handoff's excess.
template <class Step>
double chain_cost(const CostQuery& q, Step step) {
    const int s = q.s() < q.p() ? q.s() : q.p();
    // Each link of the chain reads its neighbour's arguments.
    const double handoff = busy_excess(q, 2) + peer_args_cost(q, 1) + peer_data_cost(q, 1);
    return (q.p() - s) * (step(q.params.alpha) + handoff) + (s - 1) * (step(q.params.beta) + handoff);
}
}  // namespace

double scan_chained_cost(const CostQuery& q) {
    if (q.p() <= 1) return 0;
    const std::size_t ws = 2 * static_cast<std::size_t>(q.p()) * q.bytes;  // the inputs and the results
    // One thread per link of the chain: its third-buffer cost r, uncongested.
    // Each link's source waits while it is read (near_excess).
    return chain_cost(q, [&](const LinkCost& l) {
        return l.a + reduce3_line_cost(q, l, ws) * q.m() + near_excess(q, q.m());
    });
}

double exscan_chained_cost(const CostQuery& q) {
    if (q.p() <= 1) return 0;
    const std::size_t ws = 2 * static_cast<std::size_t>(q.p()) * q.bytes;  // the inputs and the results
    // A pusher's own data: its input, its result and the next rank's buffer.
    const std::size_t own = 3 * q.bytes;
    const double first_handoff = q.s() > 1 && q.q() == 1 ? q.params.beta.a : q.params.alpha.a;
    // Each fold reads the prefix the previous rank pushed, from that rank's
    // cache, while it waits (near_excess).
    const double fold = (q.p() - 2) * (line_cost(q, q.params.alpha, ws) * q.m() + near_excess(q, q.m()));
    return first_handoff + fold +
           chain_cost(q, [&](const LinkCost& l) { return congested_push_step_cost(q, l, q.m(), 1, own, ws); });
}

CollTask exscan_chained(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), rank = ctx.rank();
    const std::int64_t n = me.sendcount;
    const Datatype& type = *me.sendtype;
    int rc = MPI_SUCCESS;
    const bool pushes = rank + 1 < p;
    // This rank's input, as it will be when pushing.
    Operand mine = input_of(me);
    TypedScratch saved;
    if (pushes && rank > 0 && me.in_place) {
        saved = TypedScratch(n, type);
        copy_data(me.recvbuf, n, *me.recvtype, saved.data(), n, type);
        mine = {saved.data(), &type};
    }
    if (rank > 0) {
        ctx.publish_to(1, 1, rank - 1);
        CO_WAIT_UNTIL(ctx.reached(rank - 1, 2, 1));  // my receive buffer holds x_0 .. x_{r-1}
    }
    if (pushes) {
        CO_WAIT_UNTIL(ctx.reached(rank + 1, 1, 1));
        const CollCall& next = ctx.args_of(rank + 1);
        rc = copy_data(mine.buf, n, *mine.type, next.recvbuf, n, *next.recvtype);
        if (rank > 0) reduce_data(*me.op, me.recvbuf, next.recvbuf, n, type);
        ctx.publish_to(2, 1, rank + 1);
    }
    co_return rc;
}

}  // namespace hmpi::coll
