// MPI_Reduce_scatter's and MPI_Reduce_scatter_block's algorithms, in order
// of preference (registry.hpp). Each serves both forms.
#include "collectives/allreduce/yhccl.hpp"
#include "collectives/framework/inline.hpp"
#include "collectives/framework/registry.hpp"
#include "collectives/framework/tables.hpp"
#include "collectives/reduce_scatter/reduce_scatter.hpp"

namespace hmpi::coll {

namespace {
// All but movement_avoiding take any op, commutative or not, and any type
// the op is defined on; movement_avoiding folds in a rotated rank order, as
// direct and tiled do for a commutative op (reduce_staggered).
const CollAlgorithm kReduceScatter[] = {
    {"direct", "each rank folds its own block of every input, from its own on for a commutative op (Li-Hoefler 2.4, "
               "reduce-scatter)",
     intra_only, reduce_scatter_direct, reduce_scatter_direct_cost},
    {"reduce_then_scatter", "rank 0 folds every input, then writes each rank's block (Li-Hoefler 2.4, one-stage)",
     intra_only, reduce_scatter_then_scatter, reduce_scatter_then_scatter_cost},
    {"tiled", "each rank folds its own block of every input, from its own on for a commutative op, one "
              "cache-sized tile at a time (Li-Hoefler 2.4, tiled)",
     intra_only, reduce_scatter_tiled, reduce_scatter_tiled_cost},
    {"movement_avoiding", "staggered: each rank folds only its own input into the blocks' owners, one after another "
                          "(YHCCL 3.3; commutative ops)",
     commutative_only, reduce_scatter_movement_avoiding, reduce_scatter_movement_avoiding_cost},
    {"inline", "every rank leaves its vector in its inline area, then folds its own block of all of them in rank "
               "order; no acknowledgement (copy-in/copy-out, up to 4 KiB of a contiguous type)",
     inline_reduction_applies, reduce_scatter_inline, reduce_scatter_inline_cost, Arrival::ignored},
};
}  // namespace

std::span<const CollAlgorithm> reduce_scatter_algorithms() { return kReduceScatter; }
std::span<const CollAlgorithm> reduce_scatter_block_algorithms() { return kReduceScatter; }

}  // namespace hmpi::coll
