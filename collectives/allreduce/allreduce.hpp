// MPI_Allreduce's algorithms (collectives/allreduce/*.cpp), listed in table.cpp.
#pragma once
#include "collectives/framework/context.hpp"
#include "collectives/framework/task.hpp"

namespace hmpi::coll {

CollTask allreduce_reduce_bcast(CollCtx& ctx);
CollTask allreduce_tiled(CollCtx& ctx);

}  // namespace hmpi::coll
