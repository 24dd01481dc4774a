// MPI_Gather's and MPI_Gatherv's algorithms, in order of preference
// (registry.hpp). Both algorithms serve both forms.
#include "collectives/framework/tables.hpp"
#include "collectives/gather/gather.hpp"

namespace hmpi::coll {

namespace {
// Parallel first: non-roots leave as soon as their own copy is done and the
// copies run on all cores; direct serializes them on the root.
const CollAlgorithm kGather[] = {
    {"parallel", "every rank copies its block into the root's buffer (one-stage, copies spread)", intra_only,
     gather_parallel, gather_parallel_cost},
    {"direct", "the root copies every rank's block, in arrival order (one-stage, flat)", intra_only, gather_direct,
     gather_direct_cost},
    {"two_stage", "domain leaders collect their domain's blocks, then copy them to the root (Li-Hoefler 2.6)",
     gather_two_stage_applies, gather_two_stage, gather_two_stage_cost},
};
}  // namespace

std::span<const CollAlgorithm> gather_algorithms() { return kGather; }
std::span<const CollAlgorithm> gatherv_algorithms() { return kGather; }

}  // namespace hmpi::coll
