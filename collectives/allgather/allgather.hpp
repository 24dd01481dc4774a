// Allgather and Allgatherv algorithms (collectives/allgather/*.cpp), listed
// in table.cpp. Each serves both forms: the blocks of the receive buffers
// come from framework/blocks.hpp, which knows the plain and the v layout.
#pragma once
#include "collectives/framework/context.hpp"
#include "collectives/framework/task.hpp"
#include "collectives/model/cost.hpp"

namespace hmpi::coll {

CollTask allgather_direct(CollCtx& ctx);
double allgather_direct_cost(const CostQuery& q);
CollTask allgather_push(CollCtx& ctx);
double allgather_push_cost(const CostQuery& q);
CollTask allgather_inline(CollCtx& ctx);
bool allgather_inline_applies(const CollCtx& ctx, const char** why);
double allgather_inline_cost(const CostQuery& q);
CollTask allgather_ring(CollCtx& ctx);
double allgather_ring_cost(const CostQuery& q);
CollTask allgather_recursive_doubling(CollCtx& ctx);
double allgather_recursive_doubling_cost(const CostQuery& q);

// The ring publishes one flag step per block it holds (steps 1..P).
inline constexpr int kAllgatherRingMaxRanks = 255;

}  // namespace hmpi::coll
