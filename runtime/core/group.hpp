// Groups (MPI 3.1, chapter 6.3): ordered sets of processes, named here by
// world rank.
//
// A group is immutable once made and belongs to the rank that made it; it
// is reference-counted like the other objects users free. MPI_GROUP_EMPTY
// is a constant handle for the one empty group of the process.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "base/refcount.hpp"

namespace hmpi {

struct Group {
    static constexpr std::uint32_t kMagic = 0x47525550;  // "GRUP"; 0 once freed
    std::uint32_t magic = kMagic;
    RefCount refs;
    std::vector<int> world_ranks;  // rank in the group -> world rank

    int size() const noexcept { return static_cast<int>(world_ranks.size()); }
    // Rank in this group of world rank w, or MPI_UNDEFINED.
    int rank_of_world(int w) const noexcept;
};

// The group behind a handle (MPI_GROUP_EMPTY included), or nullptr.
Group* group_from_handle(MPI_Group h) noexcept;
// A handle for a new group of these members (MPI_GROUP_EMPTY when empty).
MPI_Group group_new(std::vector<int> world_ranks);
// MPI_Group_free: the handle stops naming the group.
void group_free(Group* g) noexcept;

// Set operations on member lists (MPI_Group_union/intersection/difference).
std::vector<int> group_union(const Group& a, const Group& b);
std::vector<int> group_intersection(const Group& a, const Group& b);
std::vector<int> group_difference(const Group& a, const Group& b);
// MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL.
int group_compare(const Group& a, const Group& b);

}  // namespace hmpi
