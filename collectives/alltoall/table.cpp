// MPI_Alltoall's, MPI_Alltoallv's and MPI_Alltoallw's algorithms, in order
// of preference (registry.hpp). pairwise and push serve all three forms.
#include "collectives/alltoall/alltoall.hpp"
#include "collectives/framework/tables.hpp"

namespace hmpi::coll {

namespace {
// Pairwise (pull) first: each rank's reads land in its own cache, where
// the receive buffer is used next; push writes into the peers' caches.
// First only where the model prices them alike (past the cache, or past
// the L2 where the profile has no push_line_beyond): at 2 ranks on the
// 2-core EPYC guest push took 20-48 us at 512 KiB-1 MiB against pairwise's
// 29-74, also with the results read after each call (stops 43 and 45).
const CollAlgorithm kPairwise = {"pairwise", "every rank copies its block from every peer, staggered (Thakur et al. 2005)",
                                 intra_only, alltoall_pairwise, alltoall_pairwise_cost};
const CollAlgorithm kPush = {"push", "every rank copies its blocks into every peer's buffer, staggered", intra_only,
                             alltoall_push, alltoall_push_cost};
const CollAlgorithm kAlltoall[] = {
    kPairwise, kPush,
    {"inline", "every rank leaves its blocks in its inline area, then copies its own block of every other rank's "
               "out; no acknowledgement (copy-in/copy-out, up to 4 KiB in all)",
     alltoall_inline_applies, alltoall_inline, alltoall_inline_cost, Arrival::ignored},
};
// The v and w forms: blocks differ per rank, so no inline form.
const CollAlgorithm kAlltoallvw[] = {kPairwise, kPush};
}  // namespace

std::span<const CollAlgorithm> alltoall_algorithms() { return kAlltoall; }
std::span<const CollAlgorithm> alltoallv_algorithms() { return kAlltoallvw; }
std::span<const CollAlgorithm> alltoallw_algorithms() { return kAlltoallvw; }

}  // namespace hmpi::coll
