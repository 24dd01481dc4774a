// MPI_Alltoall's, MPI_Alltoallv's and MPI_Alltoallw's algorithms, in order
// of preference (registry.hpp). Both algorithms serve all three forms.
#include "collectives/alltoall/alltoall.hpp"
#include "collectives/framework/tables.hpp"

namespace hmpi::coll {

namespace {
// Pairwise (pull) first: each rank's reads land in its own cache, where
// the receive buffer is used next; push writes into the peers' caches.
const CollAlgorithm kAlltoall[] = {
    {"pairwise", "every rank copies its block from every peer, staggered (Thakur et al. 2005)", intra_only,
     alltoall_pairwise, alltoall_pairwise_cost},
    {"push", "every rank copies its blocks into every peer's buffer, staggered", intra_only, alltoall_push,
     alltoall_push_cost},
};
}  // namespace

std::span<const CollAlgorithm> alltoall_algorithms() { return kAlltoall; }
std::span<const CollAlgorithm> alltoallv_algorithms() { return kAlltoall; }
std::span<const CollAlgorithm> alltoallw_algorithms() { return kAlltoall; }

}  // namespace hmpi::coll
