// Shared argument checks and dispatch of the collective API functions.
#include "api/coll_api.hpp"

#include "collectives/framework/driver.hpp"
#include "core/op.hpp"
#include "core/topology.hpp"

namespace hmpi::api {

int coll_topology_comm(const Call& c, MPI_Comm h, Comm** out) {
    if (int e = coll_comm(c, h, out)) return e;
    if (!(*out)->topology || (*out)->is_inter())
        return c.fail(*out, MPI_ERR_TOPOLOGY, "argument comm (%s) has no process topology (Cartesian, graph or distributed graph)",
                      comm_name(*out));
    return MPI_SUCCESS;
}

int coll_root_checked(const Call& c, const Comm* cm, int root) {
    if (cm->is_inter()) {
        if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < cm->peer_count())) return MPI_SUCCESS;
        return c.fail(cm, MPI_ERR_ROOT,
                      "argument root = %d is neither MPI_ROOT, MPI_PROC_NULL nor a rank of the remote group (size %d) of %s",
                      root, cm->peer_count(), comm_name(cm));
    }
    if (root >= 0 && root < cm->size()) return MPI_SUCCESS;
    return c.fail(cm, MPI_ERR_ROOT, "argument root = %d is not a rank of %s (size %d)", root, comm_name(cm), cm->size());
}

int coll_type(const Call& c, const Comm* cm, const char* arg, MPI_Datatype type, const Datatype** out) {
    return c.type(cm, arg, type, out);
}

int coll_buffer_checked(const Call& c, const Comm* cm, const char* which, const void* buf, std::int64_t count,
                        MPI_Datatype type, const Datatype** out) {
    // MPI_Bcast's triple is (buffer, count, datatype); the others' are send* or recv*.
    const bool send = which[0] == 's', recv = which[0] == 'r';
    if (int e = c.count(cm, send ? "sendcount" : recv ? "recvcount" : "count", count)) return e;
    if (int e = c.type(cm, send ? "sendtype" : recv ? "recvtype" : "datatype", type, out)) return e;
    return c.buffer(cm, send ? "sendbuf" : recv ? "recvbuf" : "buffer", buf, count, *out);
}

int coll_counts(const Call& c, const Comm* cm, const char* arg, const int* counts, int n) {
    if (n > 0 && !counts) return c.fail(cm, MPI_ERR_ARG, "argument %s is NULL", arg);
    for (int i = 0; i < n; ++i)
        if (counts[i] < 0)
            return c.fail(cm, MPI_ERR_COUNT, "argument %s[%d] = %d is negative", arg, i, counts[i]);
    return MPI_SUCCESS;
}

int coll_displs(const Call& c, const Comm* cm, const char* arg, const void* displs, int n) {
    if (n > 0 && !displs) return c.fail(cm, MPI_ERR_ARG, "argument %s is NULL", arg);
    return MPI_SUCCESS;
}

int coll_op(const Call& c, const Comm* cm, MPI_Op h, const Datatype* type, const Op** out) {
    *out = op_from_handle(h);
    if (!*out) return c.fail(cm, MPI_ERR_OP, "argument op = %p is not a valid operation", static_cast<void*>(h));
    if (op_check(**out, *type) != MPI_SUCCESS)
        return c.fail(cm, MPI_ERR_OP, "operation %s is not defined on datatype %s", (*out)->name, type->name);
    return MPI_SUCCESS;
}

int reject_in_place(const Call& c, const Comm* cm, const char* arg) {
    return c.fail(cm, MPI_ERR_BUFFER, "argument %s is MPI_IN_PLACE, which %s does not allow there", arg, c.name());
}

int coll_request(const Call& c, const Comm* cm, const MPI_Request* request) {
    return c.not_null(cm, "request", request);
}

int coll_dispatch(const Call& c, Comm* cm, coll::CollCall&& call, MPI_Request* request) {
    Rank& self = *c.rank();
    if (request) {
        auto* r = new Request;
        r->comm = cm;
        request_hold_objects(*r);
        coll::start_collective(self, *cm, std::move(call), *r);
        *request = to_handle(r);
        return MPI_SUCCESS;
    }
    int rc = coll::run_collective(self, *cm, call);
    if (rc != MPI_SUCCESS) return c.fail(cm, rc, "the collective on %s failed", comm_name(cm));
    return MPI_SUCCESS;
}

}  // namespace hmpi::api
