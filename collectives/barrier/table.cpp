// MPI_Barrier's algorithms, in order of preference (registry.hpp).
#include "collectives/barrier/barrier.hpp"
#include "collectives/framework/tables.hpp"

namespace hmpi::coll {

namespace {
// Each has a cost (m = 0: a-terms and flag lines only); the model picks.
const CollAlgorithm kBarrier[] = {
    {"flat", "every rank polls every arrival flag", intra_only, barrier_flat, barrier_flat_cost},
    {"dissemination", "dissemination rounds of single-writer flags (Li-Hoefler 2.3)", intra_only,
     barrier_dissemination, barrier_dissemination_cost, Arrival::ignored},
    {"tree", "arrival up an n-ary tree of flags over the topology, release by a one- or two-stage broadcast of a "
             "flag (Li-Hoefler 2.6)",
     intra_only, barrier_tree, barrier_tree_cost, Arrival::ignored},
};
}  // namespace

std::span<const CollAlgorithm> barrier_algorithms() { return kBarrier; }

}  // namespace hmpi::coll
