// MPI_Barrier's algorithms, in order of preference (registry.hpp).
#include "collectives/barrier/barrier.hpp"
#include "collectives/framework/tables.hpp"

namespace hmpi::coll {

namespace {
// Dissemination needs ceil(log2 P) rounds against the flat form's one round
// of P - 1 reads; below 8 ranks the flat form's single round is cheaper.
bool flat_applies(const CollCtx& ctx, const char** why) { return intra_only(ctx, why); }

const CollAlgorithm kBarrier[] = {
    {"flat", "every rank polls every arrival flag", flat_applies, barrier_flat},
    {"dissemination", "dissemination rounds of single-writer flags (Li-Hoefler 2.3)", intra_only, barrier_dissemination},
};
}  // namespace

std::span<const CollAlgorithm> barrier_algorithms() { return kBarrier; }

}  // namespace hmpi::coll
