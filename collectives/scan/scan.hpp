// MPI_Scan's and MPI_Exscan's algorithms (collectives/scan/*.cpp), listed
// in table.cpp.
#pragma once
#include "collectives/framework/context.hpp"
#include "collectives/framework/task.hpp"
#include "collectives/model/cost.hpp"

namespace hmpi::coll {

CollTask scan_inline(CollCtx& ctx);
CollTask exscan_inline(CollCtx& ctx);
double scan_inline_cost(const CostQuery& q);
double exscan_inline_cost(const CostQuery& q);
CollTask scan_linear(CollCtx& ctx);
CollTask scan_chained(CollCtx& ctx);
CollTask exscan_linear(CollCtx& ctx);
CollTask exscan_chained(CollCtx& ctx);
double scan_linear_cost(const CostQuery& q);
double scan_chained_cost(const CostQuery& q);
double exscan_linear_cost(const CostQuery& q);
double exscan_chained_cost(const CostQuery& q);

}  // namespace hmpi::coll
