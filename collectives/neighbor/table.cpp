// The neighbourhood collectives' algorithms, in order of preference
// (registry.hpp). Both run every form on every kind of process topology;
// the API layer (api/coll_neighbor.cpp) refuses communicators without one.
#include "collectives/framework/tables.hpp"
#include "collectives/neighbor/neighbor.hpp"

namespace hmpi::coll {

namespace {
const CollAlgorithm kNeighbor[] = {
    {"pull", "each rank copies its in-neighbours' blocks from their send buffers (MPI 3.1 7.6, single copy)",
     intra_only, neighbor_pull, neighbor_pull_cost},
    {"push", "each rank copies its blocks into its out-neighbours' receive buffers (MPI 3.1 7.6, single copy)",
     intra_only, neighbor_push, neighbor_push_cost},
};
}  // namespace

std::span<const CollAlgorithm> neighbor_allgather_algorithms() { return kNeighbor; }
std::span<const CollAlgorithm> neighbor_allgatherv_algorithms() { return kNeighbor; }
std::span<const CollAlgorithm> neighbor_alltoall_algorithms() { return kNeighbor; }
std::span<const CollAlgorithm> neighbor_alltoallv_algorithms() { return kNeighbor; }
std::span<const CollAlgorithm> neighbor_alltoallw_algorithms() { return kNeighbor; }

}  // namespace hmpi::coll
