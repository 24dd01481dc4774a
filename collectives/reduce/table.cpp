// MPI_Reduce's algorithms, in order of preference (registry.hpp).
#include "collectives/framework/inline.hpp"
#include "collectives/framework/tables.hpp"
#include "collectives/reduce/reduce.hpp"

namespace hmpi::coll {

namespace {
// All take any op, commutative or not, and any type the op is defined on (inline: contiguous ones).
// Inline first: where it applies and ties another formula, it takes the
// same steps with less work per call (the tree's payload path at two ranks,
// 8-56 B: 0.12-0.14 us against 0.19, stop 46).
const CollAlgorithm kReduce[] = {
    {"inline", "non-roots leave their vectors in their inline areas and return; the root folds them in rank order "
               "(copy-in/copy-out, up to 4 KiB of a contiguous type)",
     inline_reduction_applies, reduce_inline, reduce_inline_cost, Arrival::ignored},
    {"tree", "n-ary tree over the topology with Eq. 1's first phase, tiny vectors in flag payloads "
             "(Li-Hoefler 2.6 / 2.2, Eq. 3)",
     intra_only, reduce_tree, reduce_tree_cost},
    {"tiled", "each rank folds one slice of every input into the root's buffer (Li-Hoefler 2.4, reduce-scatter)",
     intra_only, reduce_tiled, reduce_tiled_cost},
    {"binomial", "binomial tree of contiguous rank ranges, partials read in place (classic binomial tree)",
     intra_only, reduce_binomial, reduce_binomial_cost},
    {"linear", "the root folds every input in rank order (flat)", intra_only, reduce_linear, reduce_linear_cost},
};
}  // namespace

std::span<const CollAlgorithm> reduce_algorithms() { return kReduce; }

}  // namespace hmpi::coll
