// Argument checks and dispatch shared by the collective API functions
// (api/coll_*.cpp): each MPI_<Coll> / MPI_I<coll> checks its arguments with
// these, fills a coll::CollCall and hands it to coll_dispatch, which runs
// it (blocking) or starts it (nonblocking) in collectives/framework/driver.
#pragma once
#include <mpi.h>

#include "api/api.hpp"
#include "collectives/framework/call.hpp"

namespace hmpi::api {

// The checks of every collective call are inline: a tiny call's
// instructions count (docs/performance-collectives.md, stop 60). The whole
// check, which names a bad argument, stays out of line (the *_checked
// functions, reject_in_place) and runs only when a quick test fails.

// A valid communicator (MPI_ERR_COMM otherwise).
inline int coll_comm(const Call& c, MPI_Comm h, Comm** out) {
    if (int e = c.require_initialized()) return e;
    return c.comm(h, out);
}
// A communicator with a process topology, for the neighborhood collectives
// (MPI_ERR_TOPOLOGY otherwise).
int coll_topology_comm(const Call& c, MPI_Comm h, Comm** out);
// A valid root: 0..size-1 on an intracommunicator; MPI_ROOT, MPI_PROC_NULL
// or a remote rank on an intercommunicator (MPI_ERR_ROOT otherwise).
int coll_root_checked(const Call& c, const Comm* cm, int root);
inline int coll_root(const Call& c, const Comm* cm, int root) {
    if (!cm->is_inter() && root >= 0 && root < cm->size()) [[likely]]
        return MPI_SUCCESS;
    return coll_root_checked(c, cm, root);
}
// One (buffer, count, datatype) argument triple: count >= 0 (MPI_ERR_COUNT),
// a committed datatype (MPI_ERR_TYPE), a buffer that may hold the data
// (MPI_ERR_BUFFER). `which` names the triple in messages: "send" (sendbuf, sendcount,
// sendtype), "recv", or "" (buffer, count, datatype: MPI_Bcast).
int coll_buffer_checked(const Call& c, const Comm* cm, const char* which, const void* buf, std::int64_t count,
                        MPI_Datatype type, const Datatype** out);
inline int coll_buffer(const Call& c, const Comm* cm, const char* which, const void* buf, std::int64_t count,
                       MPI_Datatype type, const Datatype** out) {
    const Datatype* t = datatype_from_handle(type);
    std::int64_t bytes;
    if (t && t->committed && count >= 0 && !__builtin_mul_overflow(count, static_cast<std::int64_t>(t->size), &bytes) &&
        (buf || bytes == 0)) [[likely]] {
        *out = t;
        return MPI_SUCCESS;
    }
    return coll_buffer_checked(c, cm, which, buf, count, type, out);
}
// Only the datatype of a triple (for vector forms, whose counts are checked apart).
int coll_type(const Call& c, const Comm* cm, const char* arg, MPI_Datatype type, const Datatype** out);
// An array of n counts, each >= 0 (MPI_ERR_COUNT; MPI_ERR_ARG if the array is NULL and n > 0).
int coll_counts(const Call& c, const Comm* cm, const char* arg, const int* counts, int n);
// A displacement array (MPI_ERR_ARG if NULL and n > 0).
int coll_displs(const Call& c, const Comm* cm, const char* arg, const void* displs, int n);
// An operation defined on the datatype (MPI_ERR_OP).
int coll_op(const Call& c, const Comm* cm, MPI_Op h, const Datatype* type, const Op** out);
// MPI_IN_PLACE where the standard does not allow it (MPI_ERR_BUFFER).
int reject_in_place(const Call& c, const Comm* cm, const char* arg);
inline int coll_no_in_place(const Call& c, const Comm* cm, const char* arg, const void* buf) {
    return buf != MPI_IN_PLACE ? MPI_SUCCESS : reject_in_place(c, cm, arg);
}
// A request argument of a nonblocking form that is not NULL (MPI_ERR_ARG).
int coll_request(const Call& c, const Comm* cm, const MPI_Request* request);

// Runs the collective: blocking when `request` is null, else starts it and
// returns its request (I-forms check their request with coll_request first,
// so a null one is refused before this). Raises a failure through the communicator's handler.
int coll_dispatch(const Call& c, Comm* cm, coll::CollCall&& call, MPI_Request* request);

}  // namespace hmpi::api
