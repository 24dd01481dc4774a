// Tiled reduce-scatter (Li, Hoefler et al., Section 2.4, the tiled
// reduction applied to each rank's own block): like direct.cpp, rank r
// folds block r of every rank's input (a commutative op from its own
// input on, staggered; any other in rank order), but tile by tile
// (knobs::kReduceScatterTileBytes): all p inputs of one tile are folded
// before the next tile starts, so the destination tile stays in L1/L2
// instead of being streamed through p times.
//
// Cost (Eq. 8 per tile, all ranks at once; m_b = the largest block in
// lines): direct.cpp's, per fold,
//   2 (a_alpha + Y(p)) + (max(r, R_slices p) + (p - 2) max(b, B p)) * m_b
// (R_slices: p ranks fold disjoint slices at once; R where the profile has
// none, before format 10; slice_fold_cost, cost.hpp)
// (in one cache domain; across several, a_beta and beta's costs for the
// lines from other domains)
// plus, as there and for a non-commutative op only, fold_sweep_excess for
// the (p - 1) m_b lines read from others. The tile keeps the result in
// cache where direct streams it through every fold; beyond the cache both
// pay the memory costs (measured alike at 2 and 16 ranks: stops 24-27).
//
// MPI_IN_PLACE: as direct.cpp (a rank whose block does not start at 0
// folds into a scratch and copies it into place once everyone has said it
// read all inputs).
//
// Any op, commutative or not.
//
// Flags: flag 1 step 1 = "I read no input any more"; every rank waits for
// all of them before returning (and, in place, before writing its result).
#include <algorithm>

#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduction.hpp"
#include "collectives/reduce_scatter/knobs.hpp"
#include "collectives/reduce_scatter/reduce_scatter.hpp"

namespace hmpi::coll {

CollTask reduce_scatter_tiled(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), rank = ctx.rank();
    const OwnBlock mine = own_block(me, p, rank);
    const std::int64_t n = mine.count, first = mine.first;
    const Datatype& type = *me.sendtype;
    const std::int64_t tile =
        std::max<std::int64_t>(1, static_cast<std::int64_t>(knobs::kReduceScatterTileBytes / std::max<std::size_t>(1, type.size)));
    CO_WAIT_UNTIL(ctx.all_reached(0, 1));
    const bool direct_in_place = !me.in_place || first == 0;
    TypedScratch scratch;
    if (!direct_in_place) scratch = TypedScratch(n, type);
    void* dst = direct_in_place ? me.recvbuf : scratch.data();
    const Datatype& dst_type = direct_in_place ? *me.recvtype : type;
    int rc = MPI_SUCCESS;
    for (std::int64_t lo = 0; lo < n; lo += tile) {
        const std::int64_t len = std::min(tile, n - lo);
        auto tile_of = [&](int r) { return at(input_of(ctx.args_of(r)), first + lo); };
        if (int e = reduce_staggered_swept(*me.op, type, len, 0, p, tile_of, element_at(dst, lo, dst_type), dst_type,
                                     me.in_place && direct_in_place ? rank : -1, rank))
            rc = e;
    }
    ctx.publish(1, 1);
    CO_WAIT_UNTIL(ctx.all_reached(1, 1));
    if (!direct_in_place)
        if (int e = copy_data(scratch.data(), n, type, me.recvbuf, n, *me.recvtype)) rc = e;
    co_return rc;
}

double reduce_scatter_tiled_cost(const CostQuery& q) { return slice_fold_cost(q, true); }

}  // namespace hmpi::coll
