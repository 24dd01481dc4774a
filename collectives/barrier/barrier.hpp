// Barrier algorithms (collectives/barrier/*.cpp), listed in table.cpp.
#pragma once
#include "collectives/framework/context.hpp"
#include "collectives/framework/task.hpp"

namespace hmpi::coll {

CollTask barrier_flat(CollCtx& ctx);
CollTask barrier_dissemination(CollCtx& ctx);

}  // namespace hmpi::coll
