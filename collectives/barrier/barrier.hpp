// Barrier algorithms (collectives/barrier/*.cpp), listed in table.cpp.
#pragma once
#include "collectives/framework/context.hpp"
#include "collectives/framework/task.hpp"
#include "collectives/model/cost.hpp"

namespace hmpi::coll {

CollTask barrier_flat(CollCtx& ctx);
CollTask barrier_dissemination(CollCtx& ctx);
CollTask barrier_tree(CollCtx& ctx);
double barrier_flat_cost(const CostQuery& q);
double barrier_dissemination_cost(const CostQuery& q);
double barrier_tree_cost(const CostQuery& q);

}  // namespace hmpi::coll
