// MPI_Barrier, MPI_Bcast and their nonblocking forms (MPI 3.1, 5.3-5.4, 5.12).
#include "api/coll_api.hpp"

using namespace hmpi;
using namespace hmpi::api;

namespace {

// `nonblocking`: the I-form, whose request pointer must not be null.
int barrier(const char* name, MPI_Comm comm, bool nonblocking, MPI_Request* request) {
    Call c(name);
    Comm* cm;
    if (int e = coll_comm(c, comm, &cm)) return e;
    if (nonblocking)
        if (int e = coll_request(c, cm, request)) return e;
    coll::CollCall call;
    call.kind = coll::CollKind::barrier;
    return coll_dispatch(c, cm, std::move(call), request);
}

int bcast(const char* name, void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, bool nonblocking,
          MPI_Request* request) {
    Call c(name);
    Comm* cm;
    if (int e = coll_comm(c, comm, &cm)) return e;
    if (int e = coll_root(c, cm, root)) return e;
    coll::CollCall call;
    call.kind = coll::CollKind::bcast;
    call.root = root;
    // On an intercommunicator, ranks of the root's group other than the
    // root (MPI_PROC_NULL) pass nothing significant.
    if (root != MPI_PROC_NULL) {
        if (int e = coll_buffer(c, cm, "", buffer, count, datatype, &call.recvtype)) return e;
        if (int e = coll_no_in_place(c, cm, "buffer", buffer)) return e;
        call.recvbuf = buffer;
        call.recvcount = count;
    }
    if (nonblocking)
        if (int e = coll_request(c, cm, request)) return e;
    return coll_dispatch(c, cm, std::move(call), request);
}

}  // namespace

HMPI_API(int, Barrier, (MPI_Comm comm)) { return barrier("MPI_Barrier", comm, false, nullptr); }
HMPI_API(int, Ibarrier, (MPI_Comm comm, MPI_Request *request)) { return barrier("MPI_Ibarrier", comm, true, request); }

HMPI_API(int, Bcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)) {
    return bcast("MPI_Bcast", buffer, count, datatype, root, comm, false, nullptr);
}
HMPI_API(int, Ibcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)) {
    return bcast("MPI_Ibcast", buffer, count, datatype, root, comm, true, request);
}
