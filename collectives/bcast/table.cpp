// MPI_Bcast's algorithms, in order of preference (registry.hpp).
#include "collectives/bcast/bcast.hpp"
#include "collectives/framework/tables.hpp"

namespace hmpi::coll {

namespace {
const CollAlgorithm kBcast[] = {
    {"direct", "every rank copies from the root's buffer (Li-Hoefler 2.2, one-stage)", intra_only, bcast_direct},
    {"binomial", "binomial tree of direct copies (Li-Hoefler 2.2, tree)", intra_only, bcast_binomial},
};
}  // namespace

std::span<const CollAlgorithm> bcast_algorithms() { return kBcast; }

}  // namespace hmpi::coll
