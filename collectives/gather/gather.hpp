// Gather and Gatherv algorithms (collectives/gather/*.cpp), listed in
// table.cpp. Each serves both forms: the blocks of the root's receive
// buffer come from blocks.hpp, which knows the plain and the v layout.
#pragma once
#include "collectives/framework/context.hpp"
#include "collectives/framework/task.hpp"

namespace hmpi::coll {

CollTask gather_direct(CollCtx& ctx);
CollTask gather_parallel(CollCtx& ctx);

}  // namespace hmpi::coll
