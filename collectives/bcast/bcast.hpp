// Bcast algorithms (collectives/bcast/*.cpp), listed in table.cpp.
#pragma once
#include "collectives/framework/context.hpp"
#include "collectives/framework/task.hpp"

namespace hmpi::coll {

CollTask bcast_direct(CollCtx& ctx);
CollTask bcast_binomial(CollCtx& ctx);

}  // namespace hmpi::coll
