// Direct reduce-scatter: every rank folds its own block of every rank's
// input, reading the inputs where they are (the
// reduce-scatter stage of Li, Hoefler et al., Section 2.4, with the blocks
// the caller chose instead of equal slices).
//
// Cost: rank r reads P blocks of m_r bytes and applies P - 1 reductions
// over its whole block, all ranks in parallel; the first fold takes two
// inputs at once (reduction.hpp), so each fold reads two operands and writes
// one. While the ranks' blocks stay in cache that is tiled.cpp's traffic,
// p m_b lines read plus the block written once; a block larger than the
// cache is streamed through the P - 1 folds instead:
//   2 a_alpha + B_alpha * p * (p + 1) * m_b     (in cache)
//   2 a_alpha + B_alpha * p * 3(p - 1) * m_b    (beyond it)
// (m_b = the largest block in lines; the second a: the flag round so inputs
// outlive their readers). A commutative op's fold starts at the rank's own
// input and goes on from there (reduce_staggered), so the ranks reading at
// once read from different sources. A non-commutative op's fold keeps rank
// order, so p - 1 readers meet at each source: plus fold_sweep_excess
// (cost.hpp) for each of the (p - 1) m_b lines read from others.
//
// MPI_IN_PLACE: the input is the whole receive buffer, and the result goes
// to its first m_r bytes, which may hold other ranks' blocks of this rank's
// input. So the result is folded into a scratch and copied into place once
// every rank has said it read all inputs; rank 0 (whose block is the one at
// the start) folds in place directly.
//
// Flags: flag 1 step 1 = "I read no input any more"; every rank waits for
// all of them before returning (and, in place, before writing its result).
#include <algorithm>

#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduction.hpp"
#include "collectives/reduce_scatter/reduce_scatter.hpp"

namespace hmpi::coll {

CollTask reduce_scatter_direct(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), rank = ctx.rank();
    const ScatterBlocks blocks(me, p);
    const auto i = static_cast<std::size_t>(rank);
    const std::int64_t n = blocks.count[i], first = blocks.first[i];
    const Datatype& type = *me.sendtype;
    auto my_block = [&](int r) { return at(input_of(ctx.args_of(r)), first); };
    CO_WAIT_UNTIL(ctx.all_reached(0, 1));
    if (!me.in_place || first == 0) {
        // Nobody else reads [0, n) of an in-place input whose block starts at 0.
        const int rc = reduce_staggered(*me.op, type, n, 0, p, my_block, me.recvbuf, *me.recvtype,
                                        me.in_place ? rank : -1, rank);
        ctx.publish(1, 1);
        CO_WAIT_UNTIL(ctx.all_reached(1, 1));
        co_return rc;
    }
    TypedScratch result(n, type);
    int rc = reduce_staggered(*me.op, type, n, 0, p, my_block, result.data(), type, -1, rank);
    ctx.publish(1, 1);
    CO_WAIT_UNTIL(ctx.all_reached(1, 1));
    if (int e = copy_data(result.data(), n, type, me.recvbuf, n, *me.recvtype)) rc = e;
    co_return rc;
}

double reduce_scatter_direct_cost(const CostQuery& q) {
    // Two waits for every rank (all arrived, all done reading): all_poll_excess, cost.hpp.
    const int p = q.p();
    const double mb = std::ceil(q.m() / std::max(1, p));
    const std::size_t ws = (static_cast<std::size_t>(p) + 1) * q.bytes;  // the inputs and the results
    const double touches = q.spills(ws) ? 3.0 * (p - 1) : p + 1.0;
    return 2 * (q.params.alpha.a + all_poll_excess(q, p)) + congested_line_cost(q, q.params.alpha, ws) * p * touches * mb +
           fold_sweep_excess(q, p, p - 1, ws) * (p - 1) * mb + peer_args_sweep_cost(q, p - 1);
}

}  // namespace hmpi::coll
