// MPI_Scatter's and MPI_Scatterv's algorithms, in order of preference
// (registry.hpp). The one- and two-stage algorithms serve both forms.
#include "collectives/framework/tables.hpp"
#include "collectives/scatter/scatter.hpp"

namespace hmpi::coll {

namespace {
const CollAlgorithm kDirect = {"direct", "every rank copies its block from the root's buffer (one-stage)", intra_only,
                               scatter_direct, scatter_direct_cost};
const CollAlgorithm kPush = {"push", "the root copies every block into its receiver's buffer (one-stage, linear)",
                             intra_only, scatter_push, scatter_push_cost};
const CollAlgorithm kTwoStage = {"two_stage",
                                 "domain leaders copy their domain's blocks from the root, members from them (Li-Hoefler 2.6)",
                                 scatter_two_stage_applies, scatter_two_stage, scatter_two_stage_cost};
const CollAlgorithm kScatter[] = {
    kDirect, kPush, kTwoStage,
    {"inline", "the root leaves all blocks in its inline area and returns; each rank copies its own out "
               "(copy-in/copy-out, up to 4 KiB in all)",
     scatter_inline_applies, scatter_inline, scatter_inline_cost, Arrival::ignored},
};
// The v form: blocks differ per rank, so no inline form.
const CollAlgorithm kScatterv[] = {kDirect, kPush, kTwoStage};
}  // namespace

std::span<const CollAlgorithm> scatter_algorithms() { return kScatter; }
std::span<const CollAlgorithm> scatterv_algorithms() { return kScatterv; }

}  // namespace hmpi::coll
