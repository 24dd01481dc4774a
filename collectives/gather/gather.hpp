// Gather and Gatherv algorithms (collectives/gather/*.cpp), listed in
// table.cpp, each with its cost formula (collectives/model/cost.hpp). The
// one-stage ones serve both forms: the blocks of the root's receive buffer
// come from framework/blocks.hpp, which knows the plain and the v layout.
#pragma once
#include "collectives/framework/context.hpp"
#include "collectives/framework/task.hpp"
#include "collectives/model/cost.hpp"

namespace hmpi::coll {

CollTask gather_direct(CollCtx& ctx);
double gather_direct_cost(const CostQuery& q);
CollTask gather_parallel(CollCtx& ctx);
double gather_parallel_cost(const CostQuery& q);
CollTask gather_inline(CollCtx& ctx);
bool gather_inline_applies(const CollCtx& ctx, const char** why);
double gather_inline_cost(const CostQuery& q);
CollTask gather_two_stage(CollCtx& ctx);
bool gather_two_stage_applies(const CollCtx& ctx, const char** why);
double gather_two_stage_cost(const CostQuery& q);

}  // namespace hmpi::coll
