// The data-movement collectives and their nonblocking forms (MPI 3.1, 5.5-5.8,
// 5.12): MPI_Gather(v), MPI_Scatter(v), MPI_Allgather(v), MPI_Alltoall(v,w)
// and MPI_I<each>.
//
// Each checks its arguments (the order of coll_api.hpp: communicator, root,
// buffers/types/counts, MPI_IN_PLACE rules, request) and fills a CollCall
// for the algorithms (collectives/{gather,scatter,allgather,alltoall}) or,
// on an intercommunicator, for collectives/inter. Only the arguments the
// standard makes significant on the calling rank are checked and passed:
//
//   - intracommunicator, rooted (Gather, Scatter and their v forms): the
//     root's side (receive for gathers, send for scatters) at the root
//     only; the other side on every rank, except at a root that passes
//     MPI_IN_PLACE (Gather: as sendbuf; Scatter: as recvbuf; either way
//     CollCall::in_place is set and that side is left empty);
//   - intercommunicator, rooted: root = MPI_ROOT is the root (its side,
//     with counts arrays sized by the remote group), MPI_PROC_NULL passes
//     nothing, a rank of the remote group passes the other side;
//   - the all-to-all forms: both sides everywhere (arrays sized by the
//     remote group on an intercommunicator); MPI_IN_PLACE as sendbuf on an
//     intracommunicator leaves the send side empty.
// MPI_IN_PLACE is refused (MPI_ERR_BUFFER) wherever the standard does not
// allow it, on intercommunicators always.
#include <cstdio>

#include "api/coll_api.hpp"

using namespace hmpi;
using namespace hmpi::api;
using coll::CollKind;

namespace {

bool is_vector(CollKind k) {
    return k == CollKind::gatherv || k == CollKind::scatterv || k == CollKind::allgatherv || k == CollKind::alltoallv;
}

// The buffer of a vector argument: counts[0..n) elements of t in all
// (checked as one buffer: it may be NULL only if it holds no data).
int vector_buffer(const Call& c, const Comm* cm, const char* arg, const void* buf, const int* counts, int n,
                  const Datatype* t) {
    std::int64_t total = 0;
    for (int i = 0; i < n; ++i) total += counts[i];
    return c.buffer(cm, arg, buf, total, t);
}

// One side of a v form, (buf, counts[n], displs[n], type): `which` is "send"
// or "recv" and names the arguments in messages.
int vector_side(const Call& c, const Comm* cm, const char* which, const void* buf, const int* counts,
                const int* displs, MPI_Datatype type, int n, const Datatype** out) {
    const bool send = which[0] == 's';
    if (int e = coll_type(c, cm, send ? "sendtype" : "recvtype", type, out)) return e;
    if (int e = coll_counts(c, cm, send ? "sendcounts" : "recvcounts", counts, n)) return e;
    if (int e = coll_displs(c, cm, "displs", displs, n)) return e;
    return vector_buffer(c, cm, send ? "sendbuf" : "recvbuf", buf, counts, n, *out);
}

// The per-peer datatypes of a w form: a non-NULL array of n committed
// types (MPI_ERR_ARG, MPI_ERR_TYPE), each buffer able to hold its block.
int w_types(const Call& c, const Comm* cm, const char* which, const void* buf, const int* counts,
            const MPI_Datatype* types, int n, std::vector<const Datatype*>* out) {
    const bool send = which[0] == 's';
    if (int e = coll_displs(c, cm, send ? "sendtypes" : "recvtypes", types, n)) return e;
    out->resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        char arg[32];
        std::snprintf(arg, sizeof arg, "%s[%d]", send ? "sendtypes" : "recvtypes", i);
        const Datatype** t = &(*out)[static_cast<std::size_t>(i)];
        if (int e = coll_type(c, cm, arg, types[i], t)) return e;
        if (int e = c.buffer(cm, send ? "sendbuf" : "recvbuf", buf, counts[i], *t)) return e;
    }
    return MPI_SUCCESS;
}

// ---- Gather, Gatherv (recvcounts/displs null for Gather).

int gather(const char* name, CollKind kind, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
           int recvcount, const int* recvcounts, const int* displs, MPI_Datatype recvtype, int root, MPI_Comm comm,
           bool nonblocking, MPI_Request* request) {
    Call c(name);
    Comm* cm;
    if (int e = coll_comm(c, comm, &cm)) return e;
    if (int e = coll_root(c, cm, root)) return e;
    const bool inter = cm->is_inter();
    const bool at_root = inter ? root == MPI_ROOT : cm->rank == root;
    const bool in_place = !inter && at_root && sendbuf == MPI_IN_PLACE;
    const bool sends = inter ? root >= 0 : !in_place;
    coll::CollCall call;
    call.kind = kind;
    call.root = root;
    call.in_place = in_place;
    if (sends) {
        if (int e = coll_buffer(c, cm, "send", sendbuf, sendcount, sendtype, &call.sendtype)) return e;
        call.sendbuf = sendbuf;
        call.sendcount = sendcount;
    }
    if (at_root) {
        const int n = cm->peer_count();
        if (is_vector(kind)) {
            if (int e = vector_side(c, cm, "recv", recvbuf, recvcounts, displs, recvtype, n, &call.recvtype)) return e;
            call.recvcounts = recvcounts;
            call.rdispls = displs;
        } else {
            if (int e = coll_buffer(c, cm, "recv", recvbuf, recvcount, recvtype, &call.recvtype)) return e;
            call.recvcount = recvcount;
        }
        call.recvbuf = recvbuf;
    }
    if (sends)
        if (int e = coll_no_in_place(c, cm, "sendbuf", sendbuf)) return e;
    if (at_root)
        if (int e = coll_no_in_place(c, cm, "recvbuf", recvbuf)) return e;
    if (nonblocking)
        if (int e = coll_request(c, cm, request)) return e;
    return coll_dispatch(c, cm, std::move(call), request);
}

// ---- Scatter, Scatterv (sendcounts/displs null for Scatter).

int scatter(const char* name, CollKind kind, const void* sendbuf, int sendcount, const int* sendcounts,
            const int* displs, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
            MPI_Comm comm, bool nonblocking, MPI_Request* request) {
    Call c(name);
    Comm* cm;
    if (int e = coll_comm(c, comm, &cm)) return e;
    if (int e = coll_root(c, cm, root)) return e;
    const bool inter = cm->is_inter();
    const bool at_root = inter ? root == MPI_ROOT : cm->rank == root;
    const bool in_place = !inter && at_root && recvbuf == MPI_IN_PLACE;
    const bool receives = inter ? root >= 0 : !in_place;
    coll::CollCall call;
    call.kind = kind;
    call.root = root;
    call.in_place = in_place;
    if (at_root) {
        const int n = cm->peer_count();
        if (is_vector(kind)) {
            if (int e = vector_side(c, cm, "send", sendbuf, sendcounts, displs, sendtype, n, &call.sendtype)) return e;
            call.sendcounts = sendcounts;
            call.sdispls = displs;
        } else {
            if (int e = coll_buffer(c, cm, "send", sendbuf, sendcount, sendtype, &call.sendtype)) return e;
            call.sendcount = sendcount;
        }
        call.sendbuf = sendbuf;
    }
    if (receives) {
        if (int e = coll_buffer(c, cm, "recv", recvbuf, recvcount, recvtype, &call.recvtype)) return e;
        call.recvbuf = recvbuf;
        call.recvcount = recvcount;
    }
    if (at_root)
        if (int e = coll_no_in_place(c, cm, "sendbuf", sendbuf)) return e;
    if (receives)
        if (int e = coll_no_in_place(c, cm, "recvbuf", recvbuf)) return e;
    if (nonblocking)
        if (int e = coll_request(c, cm, request)) return e;
    return coll_dispatch(c, cm, std::move(call), request);
}

// ---- Allgather, Allgatherv (recvcounts/displs null for Allgather).

int allgather(const char* name, CollKind kind, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
              void* recvbuf, int recvcount, const int* recvcounts, const int* displs, MPI_Datatype recvtype,
              MPI_Comm comm, bool nonblocking, MPI_Request* request) {
    Call c(name);
    Comm* cm;
    if (int e = coll_comm(c, comm, &cm)) return e;
    const bool in_place = !cm->is_inter() && sendbuf == MPI_IN_PLACE;
    coll::CollCall call;
    call.kind = kind;
    call.in_place = in_place;
    if (!in_place) {
        if (int e = coll_buffer(c, cm, "send", sendbuf, sendcount, sendtype, &call.sendtype)) return e;
        call.sendbuf = sendbuf;
        call.sendcount = sendcount;
    }
    const int n = cm->peer_count();
    if (is_vector(kind)) {
        if (int e = vector_side(c, cm, "recv", recvbuf, recvcounts, displs, recvtype, n, &call.recvtype)) return e;
        call.recvcounts = recvcounts;
        call.rdispls = displs;
    } else {
        if (int e = coll_buffer(c, cm, "recv", recvbuf, recvcount, recvtype, &call.recvtype)) return e;
        call.recvcount = recvcount;
    }
    call.recvbuf = recvbuf;
    if (!in_place)
        if (int e = coll_no_in_place(c, cm, "sendbuf", sendbuf)) return e;
    if (int e = coll_no_in_place(c, cm, "recvbuf", recvbuf)) return e;
    if (nonblocking)
        if (int e = coll_request(c, cm, request)) return e;
    return coll_dispatch(c, cm, std::move(call), request);
}

// ---- Alltoall, Alltoallv, Alltoallw. The arguments of all three; a form
// uses its own (counts/displs null for Alltoall, types null except for
// Alltoallw, whose displacements are in bytes).

struct AlltoallArgs {
    const void* sendbuf;
    int sendcount;
    const int* sendcounts;
    const int* sdispls;
    MPI_Datatype sendtype;
    const MPI_Datatype* sendtypes;
    void* recvbuf;
    int recvcount;
    const int* recvcounts;
    const int* rdispls;
    MPI_Datatype recvtype;
    const MPI_Datatype* recvtypes;
};

int alltoall(const char* name, CollKind kind, const AlltoallArgs& a, MPI_Comm comm, bool nonblocking,
             MPI_Request* request) {
    Call c(name);
    Comm* cm;
    if (int e = coll_comm(c, comm, &cm)) return e;
    const bool in_place = !cm->is_inter() && a.sendbuf == MPI_IN_PLACE;
    const int n = cm->peer_count();
    coll::CollCall call;
    call.kind = kind;
    call.in_place = in_place;
    // Send side (ignored entirely with MPI_IN_PLACE: the data is the receive buffer).
    if (!in_place) {
        if (kind == CollKind::alltoall) {
            if (int e = coll_buffer(c, cm, "send", a.sendbuf, a.sendcount, a.sendtype, &call.sendtype)) return e;
            call.sendcount = a.sendcount;
        } else {
            if (int e = coll_counts(c, cm, "sendcounts", a.sendcounts, n)) return e;
            if (int e = coll_displs(c, cm, "sdispls", a.sdispls, n)) return e;
            if (kind == CollKind::alltoallv) {
                if (int e = coll_type(c, cm, "sendtype", a.sendtype, &call.sendtype)) return e;
                if (int e = vector_buffer(c, cm, "sendbuf", a.sendbuf, a.sendcounts, n, call.sendtype)) return e;
                call.sdispls = a.sdispls;
            } else {
                if (int e = w_types(c, cm, "send", a.sendbuf, a.sendcounts, a.sendtypes, n, &call.sendtypes)) return e;
                call.sdispls_bytes = a.sdispls;
            }
            call.sendcounts = a.sendcounts;
        }
        call.sendbuf = a.sendbuf;
    }
    // Receive side.
    if (kind == CollKind::alltoall) {
        if (int e = coll_buffer(c, cm, "recv", a.recvbuf, a.recvcount, a.recvtype, &call.recvtype)) return e;
        call.recvcount = a.recvcount;
    } else {
        if (int e = coll_counts(c, cm, "recvcounts", a.recvcounts, n)) return e;
        if (int e = coll_displs(c, cm, "rdispls", a.rdispls, n)) return e;
        if (kind == CollKind::alltoallv) {
            if (int e = coll_type(c, cm, "recvtype", a.recvtype, &call.recvtype)) return e;
            if (int e = vector_buffer(c, cm, "recvbuf", a.recvbuf, a.recvcounts, n, call.recvtype)) return e;
            call.rdispls = a.rdispls;
        } else {
            if (int e = w_types(c, cm, "recv", a.recvbuf, a.recvcounts, a.recvtypes, n, &call.recvtypes)) return e;
            call.rdispls_bytes = a.rdispls;
        }
        call.recvcounts = a.recvcounts;
    }
    call.recvbuf = a.recvbuf;
    if (!in_place)
        if (int e = coll_no_in_place(c, cm, "sendbuf", a.sendbuf)) return e;
    if (int e = coll_no_in_place(c, cm, "recvbuf", a.recvbuf)) return e;
    if (nonblocking)
        if (int e = coll_request(c, cm, request)) return e;
    return coll_dispatch(c, cm, std::move(call), request);
}

}  // namespace

// ---- Gather

HMPI_API(int, Gather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm)) {
    return gather("MPI_Gather", CollKind::gather, sendbuf, sendcount, sendtype, recvbuf, recvcount, nullptr, nullptr,
                  recvtype, root, comm, false, nullptr);
}
HMPI_API(int, Igather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)) {
    return gather("MPI_Igather", CollKind::gather, sendbuf, sendcount, sendtype, recvbuf, recvcount, nullptr, nullptr,
                  recvtype, root, comm, true, request);
}
HMPI_API(int, Gatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)) {
    return gather("MPI_Gatherv", CollKind::gatherv, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs,
                  recvtype, root, comm, false, nullptr);
}
HMPI_API(int, Igatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                         MPI_Request *request)) {
    return gather("MPI_Igatherv", CollKind::gatherv, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs,
                  recvtype, root, comm, true, request);
}

// ---- Scatter

HMPI_API(int, Scatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm)) {
    return scatter("MPI_Scatter", CollKind::scatter, sendbuf, sendcount, nullptr, nullptr, sendtype, recvbuf,
                   recvcount, recvtype, root, comm, false, nullptr);
}
HMPI_API(int, Iscatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)) {
    return scatter("MPI_Iscatter", CollKind::scatter, sendbuf, sendcount, nullptr, nullptr, sendtype, recvbuf,
                   recvcount, recvtype, root, comm, true, request);
}
HMPI_API(int, Scatterv, (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                         void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)) {
    return scatter("MPI_Scatterv", CollKind::scatterv, sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount,
                   recvtype, root, comm, false, nullptr);
}
HMPI_API(int, Iscatterv, (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                          void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                          MPI_Request *request)) {
    return scatter("MPI_Iscatterv", CollKind::scatterv, sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount,
                   recvtype, root, comm, true, request);
}

// ---- Allgather

HMPI_API(int, Allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm)) {
    return allgather("MPI_Allgather", CollKind::allgather, sendbuf, sendcount, sendtype, recvbuf, recvcount, nullptr,
                     nullptr, recvtype, comm, false, nullptr);
}
HMPI_API(int, Iallgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)) {
    return allgather("MPI_Iallgather", CollKind::allgather, sendbuf, sendcount, sendtype, recvbuf, recvcount, nullptr,
                     nullptr, recvtype, comm, true, request);
}
HMPI_API(int, Allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)) {
    return allgather("MPI_Allgatherv", CollKind::allgatherv, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts,
                     displs, recvtype, comm, false, nullptr);
}
HMPI_API(int, Iallgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)) {
    return allgather("MPI_Iallgatherv", CollKind::allgatherv, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts,
                     displs, recvtype, comm, true, request);
}

// ---- Alltoall

HMPI_API(int, Alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm)) {
    const AlltoallArgs a{sendbuf, sendcount, nullptr, nullptr, sendtype, nullptr,
                         recvbuf, recvcount, nullptr, nullptr, recvtype, nullptr};
    return alltoall("MPI_Alltoall", CollKind::alltoall, a, comm, false, nullptr);
}
HMPI_API(int, Ialltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)) {
    const AlltoallArgs a{sendbuf, sendcount, nullptr, nullptr, sendtype, nullptr,
                         recvbuf, recvcount, nullptr, nullptr, recvtype, nullptr};
    return alltoall("MPI_Ialltoall", CollKind::alltoall, a, comm, true, request);
}
HMPI_API(int, Alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                          void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                          MPI_Comm comm)) {
    const AlltoallArgs a{sendbuf, 0, sendcounts, sdispls, sendtype, nullptr,
                         recvbuf, 0, recvcounts, rdispls, recvtype, nullptr};
    return alltoall("MPI_Alltoallv", CollKind::alltoallv, a, comm, false, nullptr);
}
HMPI_API(int, Ialltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                           void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                           MPI_Comm comm, MPI_Request *request)) {
    const AlltoallArgs a{sendbuf, 0, sendcounts, sdispls, sendtype, nullptr,
                         recvbuf, 0, recvcounts, rdispls, recvtype, nullptr};
    return alltoall("MPI_Ialltoallv", CollKind::alltoallv, a, comm, true, request);
}
HMPI_API(int, Alltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                          const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm)) {
    const AlltoallArgs a{sendbuf, 0, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes,
                         recvbuf, 0, recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes};
    return alltoall("MPI_Alltoallw", CollKind::alltoallw, a, comm, false, nullptr);
}
HMPI_API(int, Ialltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                           const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
                           const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)) {
    const AlltoallArgs a{sendbuf, 0, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes,
                         recvbuf, 0, recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes};
    return alltoall("MPI_Ialltoallw", CollKind::alltoallw, a, comm, true, request);
}
