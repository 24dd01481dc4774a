// MPI_Gather's and MPI_Gatherv's algorithms, in order of preference
// (registry.hpp). The one- and two-stage algorithms serve both forms.
#include "collectives/framework/tables.hpp"
#include "collectives/gather/gather.hpp"

namespace hmpi::coll {

namespace {
// Parallel first: non-roots leave as soon as their own copy is done and the
// copies run on all cores; direct serializes them on the root.
const CollAlgorithm kParallel = {"parallel", "every rank copies its block into the root's buffer (one-stage, copies spread)",
                                 intra_only, gather_parallel, gather_parallel_cost};
const CollAlgorithm kDirect = {"direct", "the root copies every rank's block, in arrival order (one-stage, flat)",
                               intra_only, gather_direct, gather_direct_cost};
const CollAlgorithm kTwoStage = {"two_stage",
                                 "domain leaders collect their domain's blocks, then copy them to the root (Li-Hoefler 2.6)",
                                 gather_two_stage_applies, gather_two_stage, gather_two_stage_cost};
const CollAlgorithm kGather[] = {
    kParallel, kDirect, kTwoStage,
    {"inline", "non-roots leave their blocks in their inline areas and return; the root copies them out "
               "(copy-in/copy-out, blocks up to 4 KiB)",
     gather_inline_applies, gather_inline, gather_inline_cost, Arrival::ignored},
};
// The v form: blocks differ per rank, so no inline form.
const CollAlgorithm kGatherv[] = {kParallel, kDirect, kTwoStage};
}  // namespace

std::span<const CollAlgorithm> gather_algorithms() { return kGather; }
std::span<const CollAlgorithm> gatherv_algorithms() { return kGatherv; }

}  // namespace hmpi::coll
