// Linear scan and exscan: rank r folds x_0 .. x_r (exscan: x_0 .. x_{r-1})
// in rank order, reading every input where it is (collectives/reduce/
// reduction.hpp); all ranks work at once, none waits for another's result.
//
// Cost (our formula, Li-Hoefler parameters): two synchronized steps of all
// ranks (each waits for its inputs' arrival, then for its readers'
// "done"; a' = a + busy_excess(p), cost.hpp; beta's a where the ranks span
// domains); the last rank reads p - 1 inputs of others (scan: and its own,
// locally), one thread's per-line cost b averaged over its domain and the
// others, while all ranks read at once p(p-1)/2 vectors of others in all
// (scan's own inputs, read locally, are not charged: until stop 51 they
// were, p(p+1)/2, and at 16 ranks linear Scan measured 0.63-0.77 of its
// prediction from 8 KiB to 256 KiB), which share a domain's bandwidth
// 1/B_a; the slower of the two bounds:
//   T = 2 a' + max((p - 1) b_avg, B_a * total / s) m,
//   b_avg = ((q-1) b_a + (p-q) b_b) / (p-1)     (working set 2 p m lines)
// No chain of dependent steps (chained.cpp trades the work for one). Both
// handoffs are on rank 0's path: at 2 ranks on a 2-core EPYC (stop 17's
// run) linear exscan took 0.81 us at 8 B, 2 (a + step_overhead).
//
// MPI_IN_PLACE: a rank's input is its receive buffer, which higher ranks
// read. So an in-place rank folds the lower ranks' inputs into a scratch
// and writes its receive buffer only once every higher rank has said it
// read all inputs: scan then applies the scratch to the buffer from the
// left (x_0..x_{r-1} op x_r, no copy), exscan copies the scratch in.
//
// Exscan leaves rank 0's receive buffer untouched (MPI 3.1, 5.11.2: its
// result is undefined).
//
// Flags: flag 1 step 1 = "I read no input any more"; rank r waits for those
// of ranks r+1 .. P-1 (its input's readers) before returning.
#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduction.hpp"
#include "collectives/scan/scan.hpp"

namespace hmpi::coll {

namespace {

// `inclusive`: scan (x_0 .. x_r), else exscan (x_0 .. x_{r-1}).
CollTask prefix_linear(CollCtx& ctx, bool inclusive) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), rank = ctx.rank();
    const std::int64_t n = me.sendcount;
    const Datatype& type = *me.sendtype;
    const int last = inclusive ? rank + 1 : rank;  // fold ranks [0, last)
    for (int r = 0; r < last; ++r) CO_WAIT_UNTIL(ctx.arrived(r));
    auto input = [&](int r) { return input_of(ctx.args_of(r)); };
    int rc = MPI_SUCCESS;
    auto wait_for_readers = [&] {
        for (int r = rank + 1; r < p; ++r)
            if (!ctx.reached(r, 1, 1)) return false;
        return true;
    };
    if (!me.in_place) {
        rc = reduce_in_order_swept(*me.op, type, n, 0, last, input, me.recvbuf, *me.recvtype, -1);
        ctx.publish(1, 1);
        CO_WAIT_UNTIL(wait_for_readers());
        co_return rc;
    }
    // In place: fold ranks [0, rank) apart; this rank's input stays put.
    TypedScratch lower(rank > 0 ? n : 0, type);
    rc = reduce_in_order_swept(*me.op, type, n, 0, rank, input, lower.data(), type, -1);
    ctx.publish(1, 1);
    CO_WAIT_UNTIL(wait_for_readers());
    if (rank > 0) {
        if (inclusive)
            reduce_data(*me.op, lower.data(), me.recvbuf, n, type);
        else
            rc = copy_data(lower.data(), n, type, me.recvbuf, n, *me.recvtype);
    }
    co_return rc;
}

}  // namespace

CollTask scan_linear(CollCtx& ctx) { return prefix_linear(ctx, true); }
CollTask exscan_linear(CollCtx& ctx) { return prefix_linear(ctx, false); }

namespace {
double prefix_linear_cost(const CostQuery& q) {
    const int p = q.p();
    if (p <= 1) return 0;
    const std::size_t ws = 2 * static_cast<std::size_t>(p) * q.bytes;  // the inputs and the results
    const double b_avg = ((q.q() - 1) * line_cost(q, q.params.alpha, ws) + (p - q.q()) * line_cost(q, q.params.beta, ws)) /
                         (p - 1);
    // Vectors read across the link: a rank's own input (scan) is local.
    const double total = p * (p - 1) / 2.0;
    const double one = (p - 1) * b_avg, shared = congested_line_cost(q, q.params.alpha, ws) * total / q.s();
    const double a = busy_a(q, q.s() > 1 ? q.params.beta : q.params.alpha, p);
    // The last rank reads every other rank's arguments.
    return 2 * a + (one > shared ? one : shared) * q.m() + peer_args_sweep_cost(q, p - 1) +
           peer_data_sweep_cost(q, p - 1);
}
}  // namespace

double scan_linear_cost(const CostQuery& q) { return prefix_linear_cost(q); }
double exscan_linear_cost(const CostQuery& q) { return prefix_linear_cost(q); }

}  // namespace hmpi::coll
