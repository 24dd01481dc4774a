// Direct reduce-scatter: every rank folds its own block of every rank's
// input, reading the inputs where they are (the
// reduce-scatter stage of Li, Hoefler et al., Section 2.4, with the blocks
// the caller chose instead of equal slices).
//
// Cost: rank r reads P blocks of m_r bytes and applies P - 1 reductions
// over its whole block, all ranks in parallel; the first fold takes two
// inputs at once into the result (reduction.hpp: a third buffer, r), each
// further one accumulates (b). Charged per fold, as Li-Hoefler's b is (one
// line folded into the result), with P ranks folding at once:
//   2 (a_alpha + Y(p)) + (max(r, R_slices p) + (p - 2) max(b, B p)) * m_b
// (R_slices: p ranks fold disjoint slices at once; R where the profile has
// none, before format 10; slice_fold_cost, cost.hpp)
// in one cache domain; across several, a_beta, and beta's costs for the
// p - q folds of lines from other domains (domain_fold_chain_line_cost);
// beyond the cache, where tiled.cpp keeps its tile's result in cache, the
// result is streamed through the folds: (p - 2) max(c_mem, C_mem p) more
// (m_b = the largest block in lines; the second a: the flag round so inputs
// outlive their readers; Y = all_poll_excess; memory costs once the
// inputs and results, (p + 1) m, leave the cache). Until stop 27 the
// formula counted every line touched at B p, (p + 1) of them per result
// line in cache and 3(p - 1) beyond: 2-3x the measured time at 2 ranks
// (docs/model.md, "Reducing into a third buffer"). A commutative op's
// fold starts at the rank's own input and goes on from there
// (reduce_staggered), so the ranks reading at once read from different
// sources. A non-commutative op's fold keeps rank
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
    const OwnBlock mine = own_block(me, p, rank);
    const std::int64_t n = mine.count, first = mine.first;
    const Datatype& type = *me.sendtype;
    auto my_block = [&](int r) { return at(input_of(ctx.args_of(r)), first); };
    CO_WAIT_UNTIL(ctx.all_reached(0, 1));
    if (!me.in_place || first == 0) {
        // Nobody else reads [0, n) of an in-place input whose block starts at 0.
        const int rc = reduce_staggered_swept(*me.op, type, n, 0, p, my_block, me.recvbuf, *me.recvtype,
                                        me.in_place ? rank : -1, rank);
        ctx.publish(1, 1);
        CO_WAIT_UNTIL(ctx.all_reached(1, 1));
        co_return rc;
    }
    TypedScratch result(n, type);
    int rc = reduce_staggered_swept(*me.op, type, n, 0, p, my_block, result.data(), type, -1, rank);
    ctx.publish(1, 1);
    CO_WAIT_UNTIL(ctx.all_reached(1, 1));
    if (int e = copy_data(result.data(), n, type, me.recvbuf, n, *me.recvtype)) rc = e;
    co_return rc;
}

double reduce_scatter_direct_cost(const CostQuery& q) { return slice_fold_cost(q, false); }

}  // namespace hmpi::coll
