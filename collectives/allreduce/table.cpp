// MPI_Allreduce's algorithms, in order of preference (registry.hpp).
#include "collectives/allreduce/allreduce.hpp"
#include "collectives/framework/tables.hpp"

namespace hmpi::coll {

namespace {
// Both take any op, commutative or not, and any type the op is defined on.
const CollAlgorithm kAllreduce[] = {
    {"tiled", "reduce-scatter of slices then allgather through shared memory (Li-Hoefler 2.4, two-stage)",
     intra_only, allreduce_tiled},
    {"reduce_bcast", "linear reduction to rank 0, then every rank copies the result (Li-Hoefler 2.4 + 2.2)",
     intra_only, allreduce_reduce_bcast},
};
}  // namespace

std::span<const CollAlgorithm> allreduce_algorithms() { return kAllreduce; }

}  // namespace hmpi::coll
