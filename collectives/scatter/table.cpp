// MPI_Scatter's and MPI_Scatterv's algorithms, in order of preference
// (registry.hpp). Both algorithms serve both forms.
#include "collectives/framework/tables.hpp"
#include "collectives/scatter/scatter.hpp"

namespace hmpi::coll {

namespace {
// Direct first: the copies run on all cores and receivers leave as soon as
// theirs is done; push serializes them on the root.
const CollAlgorithm kScatter[] = {
    {"direct", "every rank copies its block from the root's buffer (one-stage)", intra_only, scatter_direct,
     scatter_direct_cost},
    {"push", "the root copies every block into its receiver's buffer (one-stage, linear)", intra_only, scatter_push,
     scatter_push_cost},
    {"two_stage", "domain leaders copy their domain's blocks from the root, members from them (Li-Hoefler 2.6)",
     scatter_two_stage_applies, scatter_two_stage, scatter_two_stage_cost},
};
}  // namespace

std::span<const CollAlgorithm> scatter_algorithms() { return kScatter; }
std::span<const CollAlgorithm> scatterv_algorithms() { return kScatter; }

}  // namespace hmpi::coll
