// Linear scan and exscan: rank r folds x_0 .. x_r (exscan: x_0 .. x_{r-1})
// in rank order, reading every input where it is (collectives/reduce/
// reduction.hpp); all ranks work at once, none waits for another's result.
//
// Cost: rank r reads r + 1 inputs and applies r reductions: the last rank
// ~ a + (P - 1) * (b + g) * m, with no chain of dependent steps (the flat
// prefix reduction; chained.cpp trades the work for a chain of P steps).
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
        rc = reduce_in_order(*me.op, type, n, 0, last, input, me.recvbuf, *me.recvtype, -1);
        ctx.publish(1, 1);
        CO_WAIT_UNTIL(wait_for_readers());
        co_return rc;
    }
    // In place: fold ranks [0, rank) apart; this rank's input stays put.
    TypedScratch lower(rank > 0 ? n : 0, type);
    rc = reduce_in_order(*me.op, type, n, 0, rank, input, lower.data(), type, -1);
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

}  // namespace hmpi::coll
