// MPI_Allreduce's algorithms (collectives/allreduce/*.cpp), listed in table.cpp.
#pragma once
#include "collectives/framework/context.hpp"
#include "collectives/framework/task.hpp"
#include "collectives/model/cost.hpp"

namespace hmpi::coll {

CollTask allreduce_inline(CollCtx& ctx);
CollTask allreduce_inline_split(CollCtx& ctx);
CollTask allreduce_reduce_bcast(CollCtx& ctx);
CollTask allreduce_tiled(CollCtx& ctx);
CollTask allreduce_tiled_push(CollCtx& ctx);
CollTask allreduce_tree(CollCtx& ctx);
CollTask allreduce_dissemination(CollCtx& ctx);
double allreduce_inline_cost(const CostQuery& q);
double allreduce_inline_split_cost(const CostQuery& q);
// Whether inline_split can run the call (inline_split.cpp).
bool inline_split_applies(const CollCtx& ctx, const char** why);
double allreduce_reduce_bcast_cost(const CostQuery& q);
double allreduce_tiled_cost(const CostQuery& q);
double allreduce_tiled_push_cost(const CostQuery& q);
double allreduce_tree_cost(const CostQuery& q);
double allreduce_dissemination_cost(const CostQuery& q);

}  // namespace hmpi::coll
