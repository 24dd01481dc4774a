// MPI_Reduce_scatter's and MPI_Reduce_scatter_block's algorithms
// (collectives/reduce_scatter/*.cpp), listed in table.cpp. One algorithm
// serves both forms: block r has recvcounts[r] elements (Reduce_scatter)
// or recvcount elements (Reduce_scatter_block, whose CollCall has no
// recvcounts), blocks laid out one after another in the input vector.
#pragma once
#include <cstdint>
#include <vector>

#include "collectives/framework/call.hpp"
#include "collectives/framework/context.hpp"
#include "collectives/framework/task.hpp"
#include "collectives/model/cost.hpp"

namespace hmpi::coll {

CollTask reduce_scatter_inline(CollCtx& ctx);
CollTask reduce_scatter_then_scatter(CollCtx& ctx);
CollTask reduce_scatter_direct(CollCtx& ctx);
CollTask reduce_scatter_tiled(CollCtx& ctx);
CollTask reduce_scatter_movement_avoiding(CollCtx& ctx);
double reduce_scatter_inline_cost(const CostQuery& q);
double reduce_scatter_then_scatter_cost(const CostQuery& q);
double reduce_scatter_direct_cost(const CostQuery& q);
double reduce_scatter_tiled_cost(const CostQuery& q);
double reduce_scatter_movement_avoiding_cost(const CostQuery& q);

// The blocks of a call on p ranks: element count and first element of each.
struct ScatterBlocks {
    std::vector<std::int64_t> count, first;
    std::int64_t total = 0;

    ScatterBlocks(const CollCall& call, int p)
        : count(static_cast<std::size_t>(p)), first(static_cast<std::size_t>(p)) {
        for (std::size_t r = 0; r < count.size(); ++r) {
            count[r] = call.recvcounts ? call.recvcounts[r] : call.recvcount;
            first[r] = total;
            total += count[r];
        }
    }
};

// One rank's block and the vector's length, in elements, without
// ScatterBlocks' allocations: for an algorithm that needs only its own
// (the inline one's poll computes it at every step).
struct OwnBlock {
    std::int64_t count, first, total;
};
inline OwnBlock own_block(const CollCall& call, int p, int rank) noexcept {
    if (!call.recvcounts) return {call.recvcount, call.recvcount * rank, call.recvcount * p};
    std::int64_t first = 0, total = 0;
    for (int r = 0; r < p; ++r) {
        if (r == rank) first = total;
        total += call.recvcounts[r];
    }
    return {call.recvcounts[rank], first, total};
}

}  // namespace hmpi::coll
