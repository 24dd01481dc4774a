// Names of the collectives.
#include "collectives/framework/kinds.hpp"

namespace hmpi::coll {

namespace {
constexpr const char* kNames[kCollKinds] = {
    "barrier",   "bcast",     "gather",         "gatherv",          "scatter",
    "scatterv",  "allgather", "allgatherv",     "alltoall",         "alltoallv",
    "alltoallw", "reduce",    "allreduce",      "reduce_scatter",   "reduce_scatter_block",
    "scan",      "exscan",    "neighbor_allgather", "neighbor_allgatherv", "neighbor_alltoall",
    "neighbor_alltoallv", "neighbor_alltoallw",
};
}  // namespace

const char* coll_name(CollKind k) noexcept { return kNames[static_cast<int>(k)]; }

bool coll_kind_from_name(std::string_view name, CollKind* out) noexcept {
    for (int i = 0; i < kCollKinds; ++i) {
        if (name == kNames[i]) {
            *out = static_cast<CollKind>(i);
            return true;
        }
    }
    return false;
}

}  // namespace hmpi::coll
