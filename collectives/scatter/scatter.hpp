// Scatter and Scatterv algorithms (collectives/scatter/*.cpp), listed in
// table.cpp, each with its cost formula (collectives/model/cost.hpp). The
// one-stage ones serve both forms (blocks from framework/blocks.hpp).
#pragma once
#include "collectives/framework/context.hpp"
#include "collectives/framework/task.hpp"
#include "collectives/model/cost.hpp"

namespace hmpi::coll {

CollTask scatter_direct(CollCtx& ctx);
double scatter_direct_cost(const CostQuery& q);
CollTask scatter_push(CollCtx& ctx);
double scatter_push_cost(const CostQuery& q);
CollTask scatter_inline(CollCtx& ctx);
bool scatter_inline_applies(const CollCtx& ctx, const char** why);
double scatter_inline_cost(const CostQuery& q);
CollTask scatter_two_stage(CollCtx& ctx);
bool scatter_two_stage_applies(const CollCtx& ctx, const char** why);
double scatter_two_stage_cost(const CostQuery& q);

}  // namespace hmpi::coll
