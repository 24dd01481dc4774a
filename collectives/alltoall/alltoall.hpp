// Alltoall, Alltoallv and Alltoallw algorithms (collectives/alltoall/*.cpp),
// listed in table.cpp. Each serves all three forms: the blocks of the send
// and receive buffers come from framework/blocks.hpp, which knows the plain,
// v and w layouts.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "collectives/framework/blocks.hpp"
#include "collectives/framework/context.hpp"
#include "collectives/framework/task.hpp"
#include "collectives/model/cost.hpp"

namespace hmpi::coll {

CollTask alltoall_pairwise(CollCtx& ctx);
double alltoall_pairwise_cost(const CostQuery& q);
CollTask alltoall_push(CollCtx& ctx);
CollTask alltoall_inline(CollCtx& ctx);
bool alltoall_inline_applies(const CollCtx& ctx, const char** why);
double alltoall_inline_cost(const CostQuery& q);
double alltoall_push_cost(const CostQuery& q);

// MPI_IN_PLACE: the data a rank sends is its receive buffer as it was on
// entry, which its peers overwrite. A snapshot is a packed copy of every
// block of that buffer (as bytes), taken before the rank lets anyone write
// into it; its blocks then serve as the rank's send blocks.
class InPlaceSnapshot {
public:
    // Packs every block of c's receive buffer (c is the caller's own call).
    void take(const CollCall& c, int size);
    // Block j as it was on entry, as bytes.
    SrcBlock block(int j) const noexcept;

private:
    std::unique_ptr<unsigned char[]> bytes_;
    std::vector<std::size_t> offset_;  // size + 1 entries: block j is [offset_[j], offset_[j+1])
};

}  // namespace hmpi::coll
