// The movement-avoiding (YHCCL) and hierarchical (XHC) allreduce algorithms
// (movement_avoiding.cpp, hierarchical.cpp) and their cost formulas, listed
// in table.cpp next to allreduce.hpp's.
#pragma once
#include "collectives/framework/context.hpp"
#include "collectives/framework/task.hpp"
#include "collectives/model/cost.hpp"

namespace hmpi::coll {

CollTask allreduce_movement_avoiding(CollCtx& ctx);
CollTask allreduce_movement_avoiding_socket(CollCtx& ctx);
CollTask allreduce_hierarchical(CollCtx& ctx);
double allreduce_movement_avoiding_cost(const CostQuery& q);
double allreduce_movement_avoiding_socket_cost(const CostQuery& q);
double allreduce_hierarchical_cost(const CostQuery& q);

// Intracommunicators, commutative ops and at most 255 ranks (one flag step
// per rank): the algorithms whose folds visit ranks out of rank order.
bool commutative_only(const CollCtx& ctx, const char** why);

}  // namespace hmpi::coll
