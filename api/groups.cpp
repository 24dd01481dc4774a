// Groups: MPI_Group_* and MPI_Comm_group (MPI 3.1, 6.3).
#include <cstdio>
#include <vector>

#include "api/api.hpp"
#include "core/group.hpp"

using namespace hmpi;
using namespace hmpi::api;

namespace {

int check_group(const Call& c, const char* arg, MPI_Group h, Group** out) {
    *out = group_from_handle(h);
    if (*out) return MPI_SUCCESS;
    if (h == MPI_GROUP_NULL) return c.fail(nullptr, MPI_ERR_GROUP, "argument %s is MPI_GROUP_NULL", arg);
    return c.fail(nullptr, MPI_ERR_GROUP, "argument %s = %p is not a valid group", arg, static_cast<void*>(h));
}

// The start of every group function: initialized, valid input group.
int check_start(const Call& c, MPI_Group h, Group** g) {
    if (int e = c.require_initialized()) return e;
    return check_group(c, "group", h, g);
}

int check_rank(const Call& c, const Group& g, const char* arg, int v) {
    if (v >= 0 && v < g.size()) return MPI_SUCCESS;
    return c.fail(nullptr, MPI_ERR_RANK, "argument %s = %d, but the group has %d members", arg, v, g.size());
}

// Ranks n listed in `ranks` for Group_incl/excl: valid and distinct.
int check_rank_list(const Call& c, const Group& g, int n, const int ranks[]) {
    if (n < 0 || n > g.size())
        return c.fail(nullptr, MPI_ERR_ARG, "argument n = %d is not between 0 and the group's size %d", n, g.size());
    if (n > 0 && !ranks) return c.fail(nullptr, MPI_ERR_ARG, "argument ranks is NULL but n = %d", n);
    std::vector<char> seen(static_cast<std::size_t>(g.size()), 0);
    for (int i = 0; i < n; ++i) {
        char arg[32];
        std::snprintf(arg, sizeof arg, "ranks[%d]", i);
        if (int e = check_rank(c, g, arg, ranks[i])) return e;
        if (seen[static_cast<std::size_t>(ranks[i])]++)
            return c.fail(nullptr, MPI_ERR_RANK, "argument ranks[%d] = %d appears twice", i, ranks[i]);
    }
    return MPI_SUCCESS;
}

// Expands Group_range_incl/excl triplets into a rank list, checking them.
int expand_ranges(const Call& c, const Group& g, int n, int ranges[][3], std::vector<int>* out) {
    if (n < 0) return c.fail(nullptr, MPI_ERR_ARG, "argument n = %d is negative", n);
    if (n > 0 && !ranges) return c.fail(nullptr, MPI_ERR_ARG, "argument ranges is NULL but n = %d", n);
    std::vector<char> seen(static_cast<std::size_t>(g.size()), 0);
    for (int i = 0; i < n; ++i) {
        const int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        char arg[40];
        if (stride == 0) return c.fail(nullptr, MPI_ERR_ARG, "argument ranges[%d] has stride 0", i);
        std::snprintf(arg, sizeof arg, "ranges[%d] first", i);
        if (int e = check_rank(c, g, arg, first)) return e;
        std::snprintf(arg, sizeof arg, "ranges[%d] last", i);
        if (int e = check_rank(c, g, arg, last)) return e;
        if ((stride > 0 && first > last) || (stride < 0 && first < last))
            return c.fail(nullptr, MPI_ERR_ARG, "argument ranges[%d] = (%d, %d, %d) runs away from its last rank", i, first,
                          last, stride);
        for (long long r = first; stride > 0 ? r <= last : r >= last; r += stride) {
            if (seen[static_cast<std::size_t>(r)]++)
                return c.fail(nullptr, MPI_ERR_RANK, "argument ranges[%d] names rank %lld, already named", i, r);
            out->push_back(static_cast<int>(r));
        }
    }
    return MPI_SUCCESS;
}

std::vector<int> world_ranks_of(const Group& g, const std::vector<int>& ranks) {
    std::vector<int> v;
    v.reserve(ranks.size());
    for (int r : ranks) v.push_back(g.world_ranks[static_cast<std::size_t>(r)]);
    return v;
}

std::vector<int> world_ranks_except(const Group& g, const std::vector<int>& ranks) {
    std::vector<char> drop(static_cast<std::size_t>(g.size()), 0);
    for (int r : ranks) drop[static_cast<std::size_t>(r)] = 1;
    std::vector<int> v;
    for (int r = 0; r < g.size(); ++r)
        if (!drop[static_cast<std::size_t>(r)]) v.push_back(g.world_ranks[static_cast<std::size_t>(r)]);
    return v;
}

// Two-group set operations.
template <class Op>
int set_operation(const char* name, MPI_Group group1, MPI_Group group2, MPI_Group* newgroup, Op op) {
    Call c(name);
    Group *a, *b;
    if (int e = c.require_initialized()) return e;
    if (int e = check_group(c, "group1", group1, &a)) return e;
    if (int e = check_group(c, "group2", group2, &b)) return e;
    if (int e = c.not_null(nullptr, "newgroup", newgroup)) return e;
    *newgroup = group_new(op(*a, *b));
    return MPI_SUCCESS;
}

}  // namespace

HMPI_API(int, Group_size, (MPI_Group group, int *size)) {
    Call c("MPI_Group_size");
    Group* g;
    if (int e = check_start(c, group, &g)) return e;
    if (int e = c.not_null(nullptr, "size", size)) return e;
    *size = g->size();
    return MPI_SUCCESS;
}

HMPI_API(int, Group_rank, (MPI_Group group, int *rank)) {
    Call c("MPI_Group_rank");
    Group* g;
    if (int e = check_start(c, group, &g)) return e;
    if (int e = c.not_null(nullptr, "rank", rank)) return e;
    *rank = g->rank_of_world(c.rank()->world_rank);
    return MPI_SUCCESS;
}

HMPI_API(int, Group_translate_ranks, (MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[])) {
    Call c("MPI_Group_translate_ranks");
    Group *a, *b;
    if (int e = c.require_initialized()) return e;
    if (int e = check_group(c, "group1", group1, &a)) return e;
    if (int e = check_group(c, "group2", group2, &b)) return e;
    if (n < 0) return c.fail(nullptr, MPI_ERR_ARG, "argument n = %d is negative", n);
    if (n > 0 && !ranks1) return c.fail(nullptr, MPI_ERR_ARG, "argument ranks1 is NULL but n = %d", n);
    if (n > 0 && !ranks2) return c.fail(nullptr, MPI_ERR_ARG, "argument ranks2 is NULL but n = %d", n);
    for (int i = 0; i < n; ++i) {
        if (ranks1[i] == MPI_PROC_NULL) continue;
        char arg[32];
        std::snprintf(arg, sizeof arg, "ranks1[%d]", i);
        if (int e = check_rank(c, *a, arg, ranks1[i])) return e;
    }
    for (int i = 0; i < n; ++i)
        ranks2[i] = ranks1[i] == MPI_PROC_NULL ? MPI_PROC_NULL
                                               : b->rank_of_world(a->world_ranks[static_cast<std::size_t>(ranks1[i])]);
    return MPI_SUCCESS;
}

HMPI_API(int, Group_compare, (MPI_Group group1, MPI_Group group2, int *result)) {
    Call c("MPI_Group_compare");
    Group *a, *b;
    if (int e = c.require_initialized()) return e;
    if (int e = check_group(c, "group1", group1, &a)) return e;
    if (int e = check_group(c, "group2", group2, &b)) return e;
    if (int e = c.not_null(nullptr, "result", result)) return e;
    *result = group_compare(*a, *b);
    return MPI_SUCCESS;
}

HMPI_API(int, Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)) {
    return set_operation("MPI_Group_union", group1, group2, newgroup, group_union);
}
HMPI_API(int, Group_intersection, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)) {
    return set_operation("MPI_Group_intersection", group1, group2, newgroup, group_intersection);
}
HMPI_API(int, Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)) {
    return set_operation("MPI_Group_difference", group1, group2, newgroup, group_difference);
}

HMPI_API(int, Group_incl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)) {
    Call c("MPI_Group_incl");
    Group* g;
    if (int e = check_start(c, group, &g)) return e;
    if (int e = check_rank_list(c, *g, n, ranks)) return e;
    if (int e = c.not_null(nullptr, "newgroup", newgroup)) return e;
    *newgroup = group_new(world_ranks_of(*g, std::vector<int>(ranks, ranks + n)));
    return MPI_SUCCESS;
}

HMPI_API(int, Group_excl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)) {
    Call c("MPI_Group_excl");
    Group* g;
    if (int e = check_start(c, group, &g)) return e;
    if (int e = check_rank_list(c, *g, n, ranks)) return e;
    if (int e = c.not_null(nullptr, "newgroup", newgroup)) return e;
    *newgroup = group_new(world_ranks_except(*g, std::vector<int>(ranks, ranks + n)));
    return MPI_SUCCESS;
}

HMPI_API(int, Group_range_incl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)) {
    Call c("MPI_Group_range_incl");
    Group* g;
    std::vector<int> ranks;
    if (int e = check_start(c, group, &g)) return e;
    if (int e = expand_ranges(c, *g, n, ranges, &ranks)) return e;
    if (int e = c.not_null(nullptr, "newgroup", newgroup)) return e;
    *newgroup = group_new(world_ranks_of(*g, ranks));
    return MPI_SUCCESS;
}

HMPI_API(int, Group_range_excl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)) {
    Call c("MPI_Group_range_excl");
    Group* g;
    std::vector<int> ranks;
    if (int e = check_start(c, group, &g)) return e;
    if (int e = expand_ranges(c, *g, n, ranges, &ranks)) return e;
    if (int e = c.not_null(nullptr, "newgroup", newgroup)) return e;
    *newgroup = group_new(world_ranks_except(*g, ranks));
    return MPI_SUCCESS;
}

HMPI_API(int, Group_free, (MPI_Group *group)) {
    Call c("MPI_Group_free");
    Group* g;
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "group", group)) return e;
    if (int e = check_group(c, "*group", *group, &g)) return e;
    group_free(g);
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}

HMPI_API(int, Comm_group, (MPI_Comm comm, MPI_Group *group)) {
    Call c("MPI_Comm_group");
    Comm* cm;
    if (int e = c.require_initialized()) return e;
    if (int e = c.comm(comm, &cm)) return e;
    if (int e = c.not_null(cm, "group", group)) return e;
    *group = group_new(cm->shared->world_rank_of);
    return MPI_SUCCESS;
}

HMPI_API(int, Comm_remote_group, (MPI_Comm comm, MPI_Group *group)) {
    Call c("MPI_Comm_remote_group");
    Comm* cm;
    if (int e = c.require_initialized()) return e;
    if (int e = c.comm(comm, &cm)) return e;
    if (!cm->is_inter()) return c.fail(cm, MPI_ERR_COMM, "argument comm (%s) is not an intercommunicator", comm_name(cm));
    if (int e = c.not_null(cm, "group", group)) return e;
    *group = group_new(cm->shared->remote_world_rank_of);
    return MPI_SUCCESS;
}
