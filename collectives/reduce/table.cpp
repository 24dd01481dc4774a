// MPI_Reduce's algorithms, in order of preference (registry.hpp).
#include "collectives/framework/tables.hpp"
#include "collectives/reduce/reduce.hpp"

namespace hmpi::coll {

namespace {
// All three take any op, commutative or not, and any type the op is defined on.
const CollAlgorithm kReduce[] = {
    {"tiled", "each rank folds one slice of every input into the root's buffer (Li-Hoefler 2.4, reduce-scatter)",
     intra_only, reduce_tiled},
    {"binomial", "binomial tree of contiguous rank ranges, partials read in place (Li-Hoefler 2.4, tree)", intra_only,
     reduce_binomial},
    {"linear", "the root folds every input in rank order (Li-Hoefler 2.4, one-stage)", intra_only, reduce_linear},
};
}  // namespace

std::span<const CollAlgorithm> reduce_algorithms() { return kReduce; }

}  // namespace hmpi::coll
