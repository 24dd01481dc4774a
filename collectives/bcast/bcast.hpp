// Bcast algorithms (collectives/bcast/*.cpp), listed in table.cpp, each
// with its cost formula (collectives/model/cost.hpp) next to it.
#pragma once
#include "collectives/framework/context.hpp"
#include "collectives/framework/task.hpp"
#include "collectives/model/cost.hpp"

namespace hmpi::coll {

CollTask bcast_inline(CollCtx& ctx);
bool bcast_inline_applies(const CollCtx& ctx, const char** why);
double bcast_inline_cost(const CostQuery& q);

CollTask bcast_one_stage(CollCtx& ctx);
double bcast_one_stage_cost(const CostQuery& q);

CollTask bcast_two_stage(CollCtx& ctx);
double bcast_two_stage_cost(const CostQuery& q);

CollTask bcast_split(CollCtx& ctx);
double bcast_split_cost(const CostQuery& q);

CollTask bcast_binomial(CollCtx& ctx);
double bcast_binomial_cost(const CostQuery& q);

CollTask bcast_pipelined(CollCtx& ctx);  // pipelined.cpp (XHC IV-B)
double bcast_pipelined_cost(const CostQuery& q);

}  // namespace hmpi::coll
