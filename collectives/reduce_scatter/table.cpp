// MPI_Reduce_scatter's and MPI_Reduce_scatter_block's algorithms, in order
// of preference (registry.hpp). The same two serve both forms.
#include "collectives/framework/tables.hpp"
#include "collectives/reduce_scatter/reduce_scatter.hpp"

namespace hmpi::coll {

namespace {
// Both take any op, commutative or not, and any type the op is defined on.
const CollAlgorithm kReduceScatter[] = {
    {"direct", "each rank folds its own block of every input in rank order (Li-Hoefler 2.4, reduce-scatter)",
     intra_only, reduce_scatter_direct},
    {"reduce_then_scatter", "rank 0 folds every input, then writes each rank's block (Li-Hoefler 2.4, one-stage)",
     intra_only, reduce_scatter_then_scatter},
};
}  // namespace

std::span<const CollAlgorithm> reduce_scatter_algorithms() { return kReduceScatter; }
std::span<const CollAlgorithm> reduce_scatter_block_algorithms() { return kReduceScatter; }

}  // namespace hmpi::coll
