// Reduce-scatter as a reduction then a scatter: rank 0 folds every rank's
// whole input vector, in rank order, into a scratch buffer, then writes each
// rank's block straight into that rank's receive buffer.
//
// Cost (Li, Hoefler et al., Section 2.4 one-stage reduction, then the
// direct scatter), all at rank 0, the others idle; one scratch of m bytes
// at rank 0. In the model's terms (one thread, m lines; the first fold
// into the scratch a third-buffer one, r; then p - 2 folds, b; then the
// p - 1 other ranks' blocks copied out, c):
//   2 a_alpha + (r + (p - 2) b + c (p - 1) / p) * m + (p - 1) N(m)
// (N = near_excess: rank 0 reads each peer's freshly written input while
// the peer waits, as linear Reduce's root does)
// (b (3p - 1) m, every line touched, until stop 27); across several cache
// domains a_beta, and beta's costs for the lines of the p - q ranks outside
// rank 0's. The simple form for
// small vectors; direct.cpp spreads the work.
//
// MPI_IN_PLACE: a rank's input is its receive buffer; rank 0 writes the
// results only after it has folded every input, so nothing still to be read
// is overwritten.
//
// Flags: flag 1 step 1 = rank 0 has read every input and written every
// block (the others wait for it before returning).
#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduction.hpp"
#include "collectives/reduce_scatter/reduce_scatter.hpp"

namespace hmpi::coll {

CollTask reduce_scatter_then_scatter(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size();
    if (ctx.rank() != 0) {
        CO_WAIT_UNTIL(ctx.reached(0, 1, 1));
        co_return MPI_SUCCESS;
    }
    const ScatterBlocks blocks(me, p);
    const Datatype& type = *me.sendtype;
    CO_WAIT_UNTIL(ctx.all_reached(0, 1));
    TypedScratch result(blocks.total, type);
    int rc = reduce_in_order_swept(
        *me.op, type, blocks.total, 0, p, [&](int r) { return input_of(ctx.args_of(r)); }, result.data(), type, -1);
    for (int r = 0; r < p; ++r) {
        const auto i = static_cast<std::size_t>(r);
        if (blocks.count[i] == 0) continue;
        const CollCall& dest = ctx.args_of(r);
        if (int e = copy_data(element_at(result.data(), blocks.first[i], type), blocks.count[i], type, dest.recvbuf,
                              blocks.count[i], *dest.recvtype))
            rc = e;
    }
    ctx.publish(1, 1);
    co_return rc;
}

double reduce_scatter_then_scatter_cost(const CostQuery& q) {
    const int p = q.p();
    const std::size_t ws = static_cast<std::size_t>(p + 1) * q.bytes;
    // The root reads every other rank's arguments (their inputs, then their
    // receive buffers: the second time from its cache).
    const LinkCost &al = q.params.alpha, &be = q.params.beta;
    const int near = std::max(0, q.q() - 1), far = std::max(0, p - 1 - near);
    const double copies = (near * copy_line_cost(q, al, ws) + far * copy_line_cost(q, be, ws)) / std::max(1, p);
    return 2 * (q.s() > 1 ? be.a : al.a) + (domain_fold_chain_line_cost(q, 1, ws) + copies) * q.m() +
           peer_args_sweep_cost(q, p - 1) + peer_data_sweep_cost(q, p - 1) + (p - 1) * near_excess(q, q.m());
}

}  // namespace hmpi::coll
