// Allgather and Allgatherv algorithms (collectives/allgather/*.cpp), listed
// in table.cpp. Each serves both forms: the blocks of the receive buffers
// come from gather/blocks.hpp, which knows the plain and the v layout.
#pragma once
#include "collectives/framework/context.hpp"
#include "collectives/framework/task.hpp"

namespace hmpi::coll {

CollTask allgather_direct(CollCtx& ctx);
CollTask allgather_ring(CollCtx& ctx);
CollTask allgather_recursive_doubling(CollCtx& ctx);

// The ring publishes one flag step per block it holds (steps 1..P).
inline constexpr int kAllgatherRingMaxRanks = 255;

}  // namespace hmpi::coll
