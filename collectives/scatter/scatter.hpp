// Scatter and Scatterv algorithms (collectives/scatter/*.cpp), listed in
// table.cpp. Each serves both forms: the blocks of the root's send buffer
// come from gather/blocks.hpp, which knows the plain and the v layout.
#pragma once
#include "collectives/framework/context.hpp"
#include "collectives/framework/task.hpp"

namespace hmpi::coll {

CollTask scatter_direct(CollCtx& ctx);
CollTask scatter_push(CollCtx& ctx);

}  // namespace hmpi::coll
