// MPI_Reduce's algorithms (collectives/reduce/*.cpp), listed in table.cpp.
// reduce_linear_at is also the first stage of allreduce's reduce_bcast.
#pragma once
#include "collectives/framework/context.hpp"
#include "collectives/framework/task.hpp"
#include "collectives/model/cost.hpp"

namespace hmpi::coll {

CollTask reduce_inline(CollCtx& ctx);
CollTask reduce_linear(CollCtx& ctx);
CollTask reduce_binomial(CollCtx& ctx);
CollTask reduce_tiled(CollCtx& ctx);
CollTask reduce_tree(CollCtx& ctx);
double reduce_inline_cost(const CostQuery& q);
double reduce_linear_cost(const CostQuery& q);
double reduce_binomial_cost(const CostQuery& q);
double reduce_tiled_cost(const CostQuery& q);
double reduce_tree_cost(const CostQuery& q);

// The linear reduction to `root` (which need not be the call's root
// field). Uses flag 1 step 1 (the root's "done reading every input").
CollTask reduce_linear_at(CollCtx& ctx, int root);
// Its root's folds per line of the message (reduce_in_order: the first of
// them into the receive buffer, a third buffer, the others accumulating).
double reduce_linear_fold_line_cost(const CostQuery& q, std::size_t ws);

}  // namespace hmpi::coll
