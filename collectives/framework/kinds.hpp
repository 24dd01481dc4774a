// The collective operations HMPI implements, by name.
#pragma once
#include <cstdint>
#include <string_view>

namespace hmpi::coll {

enum class CollKind : std::uint8_t {
    barrier,
    bcast,
    gather,
    gatherv,
    scatter,
    scatterv,
    allgather,
    allgatherv,
    alltoall,
    alltoallv,
    alltoallw,
    reduce,
    allreduce,
    reduce_scatter,
    reduce_scatter_block,
    scan,
    exscan,
    neighbor_allgather,
    neighbor_allgatherv,
    neighbor_alltoall,
    neighbor_alltoallv,
    neighbor_alltoallw,
    count_  // number of kinds
};

inline constexpr int kCollKinds = static_cast<int>(CollKind::count_);

// Lower-case name ("allreduce"), as in HMPI_ALLREDUCE_ALGORITHM and hmpi-info.
const char* coll_name(CollKind k) noexcept;
// The kind named `name` (lower case); false if there is none.
bool coll_kind_from_name(std::string_view name, CollKind* out) noexcept;

}  // namespace hmpi::coll
