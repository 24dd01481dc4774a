// Neighbourhood collectives (MPI 3.1, 7.6-7.7): MPI_Neighbor_allgather,
// allgatherv, alltoall, alltoallv, alltoallw and their nonblocking forms.
//
// They run on a communicator with a process topology (Cartesian, graph or
// distributed graph; MPI_ERR_TOPOLOGY otherwise). Array arguments are sized
// by the caller's neighbour counts: the receive side by its in-degree, the
// send side by its out-degree (2 * ndims each on a Cartesian grid, the
// node's neighbour count on a graph). MPI_IN_PLACE is not allowed
// (MPI_ERR_BUFFER): the standard gives it no meaning here. Checks in the
// order comm, send side, receive side, request. The algorithms are in
// collectives/neighbor/.
#include <cstdio>

#include "api/coll_api.hpp"
#include "collectives/neighbor/neighbor.hpp"

using namespace hmpi;
using namespace hmpi::api;

namespace {

// The neighbourhood of the caller in comm's topology.
struct Degrees {
    int in = 0, out = 0;
};

Degrees degrees_of(const Comm& cm) {
    const Topology& t = *cm.topology;
    return {coll::neighbor_count(t, cm.rank, coll::EdgeDirection::in),
            coll::neighbor_count(t, cm.rank, coll::EdgeDirection::out)};
}

// A (buffer, count, datatype) triple used along `edges` edges: the buffer
// may be NULL when nothing goes through it.
int edge_triple(const Call& c, const Comm* cm, const char* which, const void* buf, int count, MPI_Datatype type,
                int edges, const Datatype** out) {
    const bool send = which[0] == 's';
    if (int e = c.count(cm, send ? "sendcount" : "recvcount", count)) return e;
    if (int e = coll_type(c, cm, send ? "sendtype" : "recvtype", type, out)) return e;
    if (int e = coll_no_in_place(c, cm, send ? "sendbuf" : "recvbuf", buf)) return e;
    return c.buffer(cm, send ? "sendbuf" : "recvbuf", buf, edges > 0 ? count : 0, *out);
}

// A buffer holding blocks of counts[0..n) elements of `type` (vector forms).
int vector_buffer(const Call& c, const Comm* cm, const char* arg, const void* buf, const int* counts, int n,
                  const Datatype* type) {
    if (int e = coll_no_in_place(c, cm, arg, buf)) return e;
    std::int64_t total = 0;
    for (int i = 0; i < n; ++i) total += counts[i];
    return c.buffer(cm, arg, buf, total, type);
}

// The datatypes of a w-form's n blocks, each valid and committed.
int type_array(const Call& c, const Comm* cm, const char* arg, const MPI_Datatype* types, int n,
               std::vector<const Datatype*>* out) {
    if (int e = coll_displs(c, cm, arg, types, n)) return e;  // NULL with n > 0: MPI_ERR_ARG
    out->resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "%s[%d]", arg, i);
        if (int e = coll_type(c, cm, name, types[i], &(*out)[static_cast<std::size_t>(i)])) return e;
    }
    return MPI_SUCCESS;
}

coll::CollCall neighbor_call(coll::CollKind kind, const Comm* cm) {
    coll::CollCall call;
    call.kind = kind;
    coll::set_call_topology(call, cm->topology.get());
    return call;
}

int finish(const Call& c, Comm* cm, coll::CollCall&& call, bool nonblocking, MPI_Request* request) {
    if (nonblocking)
        if (int e = coll_request(c, cm, request)) return e;
    return coll_dispatch(c, cm, std::move(call), nonblocking ? request : nullptr);
}

// Neighbor_allgather and Neighbor_alltoall share their signature.
int neighbor_uniform(const char* name, coll::CollKind kind, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                     void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, bool nonblocking,
                     MPI_Request* request) {
    Call c(name);
    Comm* cm;
    if (int e = coll_topology_comm(c, comm, &cm)) return e;
    const Degrees d = degrees_of(*cm);
    coll::CollCall call = neighbor_call(kind, cm);
    if (int e = edge_triple(c, cm, "send", sendbuf, sendcount, sendtype, d.out, &call.sendtype)) return e;
    if (int e = edge_triple(c, cm, "recv", recvbuf, recvcount, recvtype, d.in, &call.recvtype)) return e;
    call.sendbuf = sendbuf;
    call.sendcount = sendcount;
    call.recvbuf = recvbuf;
    call.recvcount = recvcount;
    return finish(c, cm, std::move(call), nonblocking, request);
}

int neighbor_allgatherv(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                        bool nonblocking, MPI_Request* request) {
    Call c(name);
    Comm* cm;
    if (int e = coll_topology_comm(c, comm, &cm)) return e;
    const Degrees d = degrees_of(*cm);
    coll::CollCall call = neighbor_call(coll::CollKind::neighbor_allgatherv, cm);
    if (int e = edge_triple(c, cm, "send", sendbuf, sendcount, sendtype, d.out, &call.sendtype)) return e;
    if (int e = coll_counts(c, cm, "recvcounts", recvcounts, d.in)) return e;
    if (int e = coll_displs(c, cm, "displs", displs, d.in)) return e;
    if (int e = coll_type(c, cm, "recvtype", recvtype, &call.recvtype)) return e;
    if (int e = vector_buffer(c, cm, "recvbuf", recvbuf, recvcounts, d.in, call.recvtype)) return e;
    call.sendbuf = sendbuf;
    call.sendcount = sendcount;
    call.recvbuf = recvbuf;
    call.recvcounts = recvcounts;
    call.rdispls = displs;
    return finish(c, cm, std::move(call), nonblocking, request);
}

int neighbor_alltoallv(const char* name, const void* sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                       MPI_Datatype recvtype, MPI_Comm comm, bool nonblocking, MPI_Request* request) {
    Call c(name);
    Comm* cm;
    if (int e = coll_topology_comm(c, comm, &cm)) return e;
    const Degrees d = degrees_of(*cm);
    coll::CollCall call = neighbor_call(coll::CollKind::neighbor_alltoallv, cm);
    if (int e = coll_counts(c, cm, "sendcounts", sendcounts, d.out)) return e;
    if (int e = coll_displs(c, cm, "sdispls", sdispls, d.out)) return e;
    if (int e = coll_type(c, cm, "sendtype", sendtype, &call.sendtype)) return e;
    if (int e = vector_buffer(c, cm, "sendbuf", sendbuf, sendcounts, d.out, call.sendtype)) return e;
    if (int e = coll_counts(c, cm, "recvcounts", recvcounts, d.in)) return e;
    if (int e = coll_displs(c, cm, "rdispls", rdispls, d.in)) return e;
    if (int e = coll_type(c, cm, "recvtype", recvtype, &call.recvtype)) return e;
    if (int e = vector_buffer(c, cm, "recvbuf", recvbuf, recvcounts, d.in, call.recvtype)) return e;
    call.sendbuf = sendbuf;
    call.sendcounts = sendcounts;
    call.sdispls = sdispls;
    call.recvbuf = recvbuf;
    call.recvcounts = recvcounts;
    call.rdispls = rdispls;
    return finish(c, cm, std::move(call), nonblocking, request);
}

int neighbor_alltoallw(const char* name, const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                       const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                       const MPI_Datatype recvtypes[], MPI_Comm comm, bool nonblocking, MPI_Request* request) {
    Call c(name);
    Comm* cm;
    if (int e = coll_topology_comm(c, comm, &cm)) return e;
    const Degrees d = degrees_of(*cm);
    coll::CollCall call = neighbor_call(coll::CollKind::neighbor_alltoallw, cm);
    if (int e = coll_counts(c, cm, "sendcounts", sendcounts, d.out)) return e;
    if (int e = coll_displs(c, cm, "sdispls", sdispls, d.out)) return e;
    if (int e = type_array(c, cm, "sendtypes", sendtypes, d.out, &call.sendtypes)) return e;
    if (int e = coll_no_in_place(c, cm, "sendbuf", sendbuf)) return e;
    for (int j = 0; j < d.out; ++j)
        if (int e = c.buffer(cm, "sendbuf", sendbuf, sendcounts[j], call.sendtypes[static_cast<std::size_t>(j)])) return e;
    if (int e = coll_counts(c, cm, "recvcounts", recvcounts, d.in)) return e;
    if (int e = coll_displs(c, cm, "rdispls", rdispls, d.in)) return e;
    if (int e = type_array(c, cm, "recvtypes", recvtypes, d.in, &call.recvtypes)) return e;
    if (int e = coll_no_in_place(c, cm, "recvbuf", recvbuf)) return e;
    for (int i = 0; i < d.in; ++i)
        if (int e = c.buffer(cm, "recvbuf", recvbuf, recvcounts[i], call.recvtypes[static_cast<std::size_t>(i)])) return e;
    call.sendbuf = sendbuf;
    call.sendcounts = sendcounts;
    call.sdispls_aint = sdispls;
    call.recvbuf = recvbuf;
    call.recvcounts = recvcounts;
    call.rdispls_aint = rdispls;
    return finish(c, cm, std::move(call), nonblocking, request);
}

}  // namespace

HMPI_API(int, Neighbor_allgather, (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm)) {
    return neighbor_uniform("MPI_Neighbor_allgather", coll::CollKind::neighbor_allgather, sendbuf, sendcount, sendtype,
                            recvbuf, recvcount, recvtype, comm, false, nullptr);
}
HMPI_API(int, Ineighbor_allgather, (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)) {
    return neighbor_uniform("MPI_Ineighbor_allgather", coll::CollKind::neighbor_allgather, sendbuf, sendcount, sendtype,
                            recvbuf, recvcount, recvtype, comm, true, request);
}

HMPI_API(int, Neighbor_allgatherv, (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)) {
    return neighbor_allgatherv("MPI_Neighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                               recvtype, comm, false, nullptr);
}
HMPI_API(int, Ineighbor_allgatherv, (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                     MPI_Request* request)) {
    return neighbor_allgatherv("MPI_Ineighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                               recvtype, comm, true, request);
}

HMPI_API(int, Neighbor_alltoall, (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)) {
    return neighbor_uniform("MPI_Neighbor_alltoall", coll::CollKind::neighbor_alltoall, sendbuf, sendcount, sendtype,
                            recvbuf, recvcount, recvtype, comm, false, nullptr);
}
HMPI_API(int, Ineighbor_alltoall, (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)) {
    return neighbor_uniform("MPI_Ineighbor_alltoall", coll::CollKind::neighbor_alltoall, sendbuf, sendcount, sendtype,
                            recvbuf, recvcount, recvtype, comm, true, request);
}

HMPI_API(int, Neighbor_alltoallv, (const void* sendbuf, const int sendcounts[], const int sdispls[],
                                   MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                                   MPI_Datatype recvtype, MPI_Comm comm)) {
    return neighbor_alltoallv("MPI_Neighbor_alltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                              rdispls, recvtype, comm, false, nullptr);
}
HMPI_API(int, Ineighbor_alltoallv, (const void* sendbuf, const int sendcounts[], const int sdispls[],
                                    MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)) {
    return neighbor_alltoallv("MPI_Ineighbor_alltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                              rdispls, recvtype, comm, true, request);
}

HMPI_API(int, Neighbor_alltoallw, (const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                   const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)) {
    return neighbor_alltoallw("MPI_Neighbor_alltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                              rdispls, recvtypes, comm, false, nullptr);
}
HMPI_API(int, Ineighbor_alltoallw, (const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                    const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                    MPI_Request* request)) {
    return neighbor_alltoallw("MPI_Ineighbor_alltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                              rdispls, recvtypes, comm, true, request);
}
