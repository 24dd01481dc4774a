// Groups: member lists and the set operations on them.
#include "core/group.hpp"

#include <algorithm>
#include <unordered_set>

namespace hmpi {

namespace {
Group& empty_group() {
    static Group* g = new Group;  // shared by all ranks; never changes, never freed
    return *g;
}

std::unordered_set<int> members_of(const Group& g) { return std::unordered_set<int>(g.world_ranks.begin(), g.world_ranks.end()); }
}  // namespace

int Group::rank_of_world(int w) const noexcept {
    auto it = std::find(world_ranks.begin(), world_ranks.end(), w);
    return it == world_ranks.end() ? MPI_UNDEFINED : static_cast<int>(it - world_ranks.begin());
}

Group* group_from_handle(MPI_Group h) noexcept {
    if (h == MPI_GROUP_EMPTY) return &empty_group();
    if (h == MPI_GROUP_NULL || reinterpret_cast<std::uintptr_t>(h) < 0x1000) return nullptr;
    auto* g = reinterpret_cast<Group*>(h);
    return g->magic == Group::kMagic ? g : nullptr;
}

MPI_Group group_new(std::vector<int> world_ranks) {
    if (world_ranks.empty()) return MPI_GROUP_EMPTY;
    auto* g = new Group;
    g->world_ranks = std::move(world_ranks);
    return reinterpret_cast<MPI_Group>(g);
}

void group_free(Group* g) noexcept {
    if (g == &empty_group()) return;
    g->magic = 0;
    if (g->refs.release()) delete g;
}

std::vector<int> group_union(const Group& a, const Group& b) {
    std::vector<int> out = a.world_ranks;
    std::unordered_set<int> in_a = members_of(a);
    for (int w : b.world_ranks)
        if (!in_a.count(w)) out.push_back(w);
    return out;
}

std::vector<int> group_intersection(const Group& a, const Group& b) {
    std::unordered_set<int> in_b = members_of(b);
    std::vector<int> out;
    for (int w : a.world_ranks)
        if (in_b.count(w)) out.push_back(w);
    return out;
}

std::vector<int> group_difference(const Group& a, const Group& b) {
    std::unordered_set<int> in_b = members_of(b);
    std::vector<int> out;
    for (int w : a.world_ranks)
        if (!in_b.count(w)) out.push_back(w);
    return out;
}

int group_compare(const Group& a, const Group& b) {
    if (a.world_ranks == b.world_ranks) return MPI_IDENT;
    if (a.size() != b.size()) return MPI_UNEQUAL;
    std::vector<int> sa = a.world_ranks, sb = b.world_ranks;
    std::sort(sa.begin(), sa.end());
    std::sort(sb.begin(), sb.end());
    return sa == sb ? MPI_SIMILAR : MPI_UNEQUAL;
}

}  // namespace hmpi
