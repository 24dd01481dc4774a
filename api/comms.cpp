// Communicators: dup, split, create, intercommunicators, free, compare,
// names and hints (MPI 3.1, 6.4-6.6). The agreements behind them are in
// runtime/core/comm_create.cpp.
#include <cstdio>
#include <cstring>
#include <vector>

#include "api/api.hpp"
#include "core/group.hpp"
#include "core/info.hpp"

using namespace hmpi;
using namespace hmpi::api;

namespace {

int check_comm(const Call& c, MPI_Comm comm, Comm** cm) {
    if (int e = c.require_initialized()) return e;
    return c.comm(comm, cm);
}

int require_intra(const Call& c, Comm* cm, const char* arg) {
    if (!cm->is_inter()) return MPI_SUCCESS;
    return c.fail(cm, MPI_ERR_COMM, "argument %s (%s) is an intercommunicator; %s takes an intracommunicator", arg,
                  comm_name(cm), c.name());
}

int require_inter(const Call& c, Comm* cm) {
    if (cm->is_inter()) return MPI_SUCCESS;
    return c.fail(cm, MPI_ERR_COMM, "argument comm (%s) is not an intercommunicator", comm_name(cm));
}

// A valid info handle, or MPI_INFO_NULL when `null_ok`.
int check_info(const Call& c, const Comm* cm, MPI_Info h, bool null_ok, Info** out) {
    *out = h == MPI_INFO_NULL ? nullptr : info_from_handle(h);
    if (*out || (h == MPI_INFO_NULL && null_ok)) return MPI_SUCCESS;
    if (h == MPI_INFO_NULL) return c.fail(cm, MPI_ERR_INFO, "argument info is MPI_INFO_NULL");
    return c.fail(cm, MPI_ERR_INFO, "argument info = %p is not a valid info object", static_cast<void*>(h));
}

MPI_Comm comm_handle(Comm* c) { return c ? c->handle : MPI_COMM_NULL; }

// Hands a new communicator to the user, or fails the call and frees it if
// the parent's attribute copy callbacks failed.
int finish_dup(const Call& c, Comm* parent, Comm* newc, MPI_Comm* newcomm) {
    int rc = parent->attrs.copy_into(newc->attrs, parent->handle);
    if (rc != MPI_SUCCESS) {
        newc->attrs.delete_all(newc->handle);
        comm_free(newc);
        *newcomm = MPI_COMM_NULL;
        return c.fail(parent, rc, "an attribute copy callback of %s returned error code %d", comm_name(parent), rc);
    }
    *newcomm = newc->handle;
    return MPI_SUCCESS;
}

int dup(const char* name, MPI_Comm comm, MPI_Info info, bool with_info, MPI_Comm* newcomm) {
    Call c(name);
    Comm* cm;
    Info* hints = nullptr;
    if (int e = check_comm(c, comm, &cm)) return e;
    if (with_info)
        if (int e = check_info(c, cm, info, true, &hints)) return e;
    if (int e = c.not_null(cm, "newcomm", newcomm)) return e;
    Comm* newc = comm_dup_shell(*cm);
    if (with_info) newc->info = hints ? hints->entries : decltype(newc->info){};
    comm_dup(*c.rank(), *cm, newc);
    return finish_dup(c, cm, newc, newcomm);
}

}  // namespace

HMPI_API(int, Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm)) {
    return dup("MPI_Comm_dup", comm, MPI_INFO_NULL, false, newcomm);
}

HMPI_API(int, Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)) {
    return dup("MPI_Comm_dup_with_info", comm, info, true, newcomm);
}

HMPI_API(int, Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)) {
    Call c("MPI_Comm_idup");
    Comm* cm;
    if (int e = check_comm(c, comm, &cm)) return e;
    if (int e = c.not_null(cm, "newcomm", newcomm)) return e;
    if (int e = c.not_null(cm, "request", request)) return e;
    Comm* newc = comm_dup_shell(*cm);
    // Attributes are copied now, while the user's callbacks can run in a
    // call of their own (not from inside some later call's progress).
    int rc = cm->attrs.copy_into(newc->attrs, cm->handle);
    if (rc != MPI_SUCCESS) newc->attrs.delete_all(newc->handle);
    auto* r = new Request;
    r->comm = cm;  // kept alive until the request is freed
    request_hold_objects(*r);
    // The handle is valid at once; the communicator may be used once the request completes.
    *newcomm = newc->handle;
    comm_idup_start(*c.rank(), *cm, newc, *r);
    *request = hmpi::api::to_handle(r);
    if (rc != MPI_SUCCESS)
        return c.fail(cm, rc, "an attribute copy callback of %s returned error code %d", comm_name(cm), rc);
    return MPI_SUCCESS;
}

HMPI_API(int, Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm)) {
    Call c("MPI_Comm_split");
    Comm* cm;
    if (int e = check_comm(c, comm, &cm)) return e;
    if (color < 0 && color != MPI_UNDEFINED)
        return c.fail(cm, MPI_ERR_ARG, "argument color = %d is negative and not MPI_UNDEFINED", color);
    if (int e = c.not_null(cm, "newcomm", newcomm)) return e;
    Comm* out;
    if (int e = comm_split(*c.rank(), *cm, color, key, &out)) return c.fail(cm, e, "the split failed");
    *newcomm = comm_handle(out);
    return MPI_SUCCESS;
}

HMPI_API(int, Comm_split_type, (MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)) {
    Call c("MPI_Comm_split_type");
    Comm* cm;
    Info* hints;
    if (int e = check_comm(c, comm, &cm)) return e;
    if (int e = require_intra(c, cm, "comm")) return e;
    if (int e = check_info(c, cm, info, true, &hints)) return e;
    if (int e = c.not_null(cm, "newcomm", newcomm)) return e;
    int color = MPI_UNDEFINED;
    if (split_type != MPI_UNDEFINED && comm_split_type_color(split_type, &color) != MPI_SUCCESS)
        return c.fail(cm, MPI_ERR_ARG,
                      "argument split_type = %d is not MPI_COMM_TYPE_SHARED, HMPI_COMM_TYPE_NUMA, HMPI_COMM_TYPE_SOCKET, "
                      "HMPI_COMM_TYPE_L3CACHE or MPI_UNDEFINED",
                      split_type);
    Comm* out;
    if (int e = comm_split(*c.rank(), *cm, color, key, &out)) return c.fail(cm, e, "the split failed");
    *newcomm = comm_handle(out);
    return MPI_SUCCESS;
}

namespace {

// The group argument of Comm_create / Comm_create_group: valid, and a subgroup of comm.
int check_subgroup(const Call& c, Comm* cm, MPI_Group group, Group** g) {
    *g = group_from_handle(group);
    if (!*g) {
        if (group == MPI_GROUP_NULL) return c.fail(cm, MPI_ERR_GROUP, "argument group is MPI_GROUP_NULL");
        return c.fail(cm, MPI_ERR_GROUP, "argument group = %p is not a valid group", static_cast<void*>(group));
    }
    const auto& members = cm->shared->world_rank_of;
    for (int i = 0; i < (*g)->size(); ++i) {
        int w = (*g)->world_ranks[static_cast<std::size_t>(i)];
        bool found = false;
        for (int m : members) found = found || m == w;
        if (!found)
            return c.fail(cm, MPI_ERR_GROUP, "member %d of argument group (world rank %d) is not in the %sgroup of %s", i,
                          w, cm->is_inter() ? "local " : "", comm_name(cm));
    }
    return MPI_SUCCESS;
}

}  // namespace

HMPI_API(int, Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)) {
    Call c("MPI_Comm_create");
    Comm* cm;
    Group* g;
    if (int e = check_comm(c, comm, &cm)) return e;
    if (int e = check_subgroup(c, cm, group, &g)) return e;
    if (int e = c.not_null(cm, "newcomm", newcomm)) return e;
    Comm* out;
    if (int e = comm_create(*c.rank(), *cm, g->world_ranks, &out)) return c.fail(cm, e, "the creation failed");
    *newcomm = comm_handle(out);
    return MPI_SUCCESS;
}

HMPI_API(int, Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)) {
    Call c("MPI_Comm_create_group");
    Comm* cm;
    Group* g;
    if (int e = check_comm(c, comm, &cm)) return e;
    if (int e = require_intra(c, cm, "comm")) return e;
    if (int e = check_subgroup(c, cm, group, &g)) return e;
    if (int e = c.send_tag(cm, tag)) return e;
    if (int e = c.not_null(cm, "newcomm", newcomm)) return e;
    Comm* out;
    if (int e = comm_create_group(*c.rank(), *cm, g->world_ranks, tag, &out)) return c.fail(cm, e, "the creation failed");
    *newcomm = comm_handle(out);
    return MPI_SUCCESS;
}

HMPI_API(int, Comm_free, (MPI_Comm *comm)) {
    Call c("MPI_Comm_free");
    Comm* cm;
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "comm", comm)) return e;
    if (int e = c.comm(*comm, &cm)) return e;
    if (cm->predefined) return c.fail(cm, MPI_ERR_COMM, "%s cannot be freed", comm_name(cm));
    int rc = cm->attrs.delete_all(cm->handle);
    if (rc != MPI_SUCCESS) {
        // Raised while the communicator still exists, through its handler;
        // it is freed all the same (its attributes are gone).
        int e = c.fail(cm, rc, "an attribute delete callback returned error code %d", rc);
        comm_free(cm);
        *comm = MPI_COMM_NULL;
        return e;
    }
    comm_free(cm);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

HMPI_API(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int *result)) {
    Call c("MPI_Comm_compare");
    Comm *a, *b;
    if (int e = c.require_initialized()) return e;
    if (int e = c.comm(comm1, &a)) return e;
    if (int e = c.comm(comm2, &b)) return e;
    if (int e = c.not_null(a, "result", result)) return e;
    *result = comm_compare(*a, *b);
    return MPI_SUCCESS;
}

HMPI_API(int, Comm_set_name, (MPI_Comm comm, const char *comm_name)) {
    Call c("MPI_Comm_set_name");
    Comm* cm;
    if (int e = check_comm(c, comm, &cm)) return e;
    if (int e = c.not_null(cm, "comm_name", comm_name)) return e;
    cm->set_name(comm_name);
    return MPI_SUCCESS;
}

HMPI_API(int, Comm_get_name, (MPI_Comm comm, char *comm_name, int *resultlen)) {
    Call c("MPI_Comm_get_name");
    Comm* cm;
    if (int e = check_comm(c, comm, &cm)) return e;
    if (int e = c.not_null(cm, "comm_name", comm_name)) return e;
    if (int e = c.not_null(cm, "resultlen", resultlen)) return e;
    std::size_t n = std::strlen(cm->name);
    std::memcpy(comm_name, cm->name, n + 1);
    *resultlen = static_cast<int>(n);
    return MPI_SUCCESS;
}

HMPI_API(int, Comm_set_info, (MPI_Comm comm, MPI_Info info)) {
    Call c("MPI_Comm_set_info");
    Comm* cm;
    Info* hints;
    if (int e = check_comm(c, comm, &cm)) return e;
    if (int e = check_info(c, cm, info, false, &hints)) return e;
    // New values replace old ones key by key; keys not given keep theirs.
    for (const auto& [key, value] : hints->entries) {
        bool replaced = false;
        for (auto& kv : cm->info)
            if (kv.first == key) kv.second = value, replaced = true;
        if (!replaced) cm->info.emplace_back(key, value);
    }
    return MPI_SUCCESS;
}

HMPI_API(int, Comm_get_info, (MPI_Comm comm, MPI_Info *info_used)) {
    Call c("MPI_Comm_get_info");
    Comm* cm;
    if (int e = check_comm(c, comm, &cm)) return e;
    if (int e = c.not_null(cm, "info_used", info_used)) return e;
    auto* info = new Info;
    info->entries = cm->info;
    *info_used = info_to_handle(info);
    return MPI_SUCCESS;
}

HMPI_API(int, Comm_test_inter, (MPI_Comm comm, int *flag)) {
    Call c("MPI_Comm_test_inter");
    Comm* cm;
    if (int e = check_comm(c, comm, &cm)) return e;
    if (int e = c.not_null(cm, "flag", flag)) return e;
    *flag = cm->is_inter() ? 1 : 0;
    return MPI_SUCCESS;
}

HMPI_API(int, Comm_remote_size, (MPI_Comm comm, int *size)) {
    Call c("MPI_Comm_remote_size");
    Comm* cm;
    if (int e = check_comm(c, comm, &cm)) return e;
    if (int e = require_inter(c, cm)) return e;
    if (int e = c.not_null(cm, "size", size)) return e;
    *size = cm->peer_count();
    return MPI_SUCCESS;
}

HMPI_API(int, Intercomm_create, (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                                 MPI_Comm *newintercomm)) {
    Call c("MPI_Intercomm_create");
    Comm* local;
    if (int e = check_comm(c, local_comm, &local)) return e;
    if (int e = require_intra(c, local, "local_comm")) return e;
    if (local_leader < 0 || local_leader >= local->size())
        return c.fail(local, MPI_ERR_RANK, "argument local_leader = %d, but local_comm has %d ranks", local_leader,
                      local->size());
    if (int e = c.not_null(local, "newintercomm", newintercomm)) return e;
    Comm* peer = nullptr;
    if (local->rank == local_leader) {
        // peer_comm, remote_leader and tag matter at the local leader only.
        if (int e = c.comm(peer_comm, &peer)) return e;
        if (remote_leader < 0 || remote_leader >= peer->peer_count())
            return c.fail(local, MPI_ERR_RANK, "argument remote_leader = %d, but peer_comm has %d ranks", remote_leader,
                          peer->peer_count());
        if (peer->world_rank(remote_leader) == c.rank()->world_rank)
            return c.fail(local, MPI_ERR_RANK, "argument remote_leader = %d is the local leader itself", remote_leader);
        if (int e = c.send_tag(local, tag)) return e;
    }
    Comm* out;
    if (int e = intercomm_create(*c.rank(), *local, local_leader, peer, remote_leader, tag, &out))
        return c.fail(local, e, "the local and remote groups overlap");
    *newintercomm = comm_handle(out);
    return MPI_SUCCESS;
}

HMPI_API(int, Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm *newintracomm)) {
    Call c("MPI_Intercomm_merge");
    Comm* cm;
    if (int e = check_comm(c, intercomm, &cm)) return e;
    if (int e = require_inter(c, cm)) return e;
    if (int e = c.not_null(cm, "newintracomm", newintracomm)) return e;
    Comm* out;
    if (int e = intercomm_merge(*c.rank(), *cm, high != 0, &out)) return c.fail(cm, e, "the merge failed");
    *newintracomm = comm_handle(out);
    return MPI_SUCCESS;
}
