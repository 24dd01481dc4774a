// MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter, MPI_Reduce_scatter_block,
// MPI_Scan, MPI_Exscan and their nonblocking forms (MPI 3.1, 5.9-5.12).
//
// What each fills in the CollCall (collectives/framework/call.hpp), on
// every rank that takes part:
//   sendbuf, sendcount, sendtype: the input vector (sendbuf null and
//     in_place set for MPI_IN_PLACE, whose input is then the receive buffer);
//     sendcount is the whole vector: count, or the sum of the blocks for the
//     reduce-scatter forms;
//   recvbuf, recvcount, recvtype: the result (recvbuf null where it is not
//     significant: MPI_Reduce's non-roots, MPI_Exscan's rank 0 unless in
//     place); recvcount is count, or this rank's block for the
//     reduce-scatter forms (recvcounts[rank] / recvcount);
//   recvcounts: MPI_Reduce_scatter's (the local group's size entries);
//   op; root (MPI_Reduce). sendtype and recvtype are the same datatype.
// On an intercommunicator (MPI_Reduce, MPI_Allreduce, the reduce-scatter
// forms; MPI_IN_PLACE is not allowed there), MPI_Reduce's root passes
// MPI_ROOT and fills the receive side only, the rest of its group passes
// MPI_PROC_NULL and fills nothing but root, and the other group fills the
// send side only. MPI_Scan and MPI_Exscan refuse intercommunicators (MPI
// 3.1, 5.11: they are defined on intracommunicators only).
#include "api/coll_api.hpp"
#include "core/op.hpp"

using namespace hmpi;
using namespace hmpi::api;

namespace {

// The count and datatype of a reduction: count >= 0, a committed datatype.
int count_and_type(const Call& c, const Comm* cm, const char* count_arg, std::int64_t count, MPI_Datatype datatype,
                   const Datatype** out) {
    if (int e = c.count(cm, count_arg, count)) return e;
    return c.type(cm, "datatype", datatype, out);
}

// sendbuf and recvbuf must not be the same memory (MPI 3.1, 2.3: an OUT
// argument is not aliased; MPI_IN_PLACE is how to reuse the buffer).
int distinct_buffers(const Call& c, const Comm* cm, const void* sendbuf, const void* recvbuf, std::int64_t count,
                     const Datatype* type) {
    if (sendbuf != recvbuf || count == 0 || type->size == 0) return MPI_SUCCESS;
    return c.fail(cm, MPI_ERR_BUFFER,
                  "arguments sendbuf and recvbuf are the same buffer (%p); pass MPI_IN_PLACE as sendbuf", recvbuf);
}

void fill_vectors(coll::CollCall& call, const void* sendbuf, void* recvbuf, std::int64_t sendcount,
                  std::int64_t recvcount, const Datatype* type) {
    call.in_place = sendbuf == MPI_IN_PLACE;
    call.sendbuf = call.in_place ? nullptr : sendbuf;
    call.recvbuf = recvbuf;
    call.sendcount = sendcount;
    call.recvcount = recvcount;
    call.sendtype = type;
    call.recvtype = type;
}

int reduce(const char* name, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
           MPI_Comm comm, bool nonblocking, MPI_Request* request) {
    Call c(name);
    Comm* cm;
    if (int e = coll_comm(c, comm, &cm)) return e;
    if (int e = coll_root(c, cm, root)) return e;
    coll::CollCall call;
    call.kind = coll::CollKind::reduce;
    call.root = root;
    const bool inter = cm->is_inter();
    // Which arguments are significant on this rank (MPI 3.1, 5.9.1).
    const bool receives = inter ? root == MPI_ROOT : cm->rank == root;
    const bool sends = inter ? root >= 0 : true;
    if (receives || sends) {
        const Datatype* type;
        if (int e = count_and_type(c, cm, "count", count, datatype, &type)) return e;
        if (sends && sendbuf != MPI_IN_PLACE)
            if (int e = c.buffer(cm, "sendbuf", sendbuf, count, type)) return e;
        if (receives)
            if (int e = c.buffer(cm, "recvbuf", recvbuf, count, type)) return e;
        if (int e = coll_op(c, cm, op, type, &call.op)) return e;
        if (receives)
            if (int e = coll_no_in_place(c, cm, "recvbuf", recvbuf)) return e;
        if (sends && sendbuf == MPI_IN_PLACE && (inter || !receives))
            return c.fail(cm, MPI_ERR_BUFFER,
                          "argument sendbuf is MPI_IN_PLACE, which %s allows at the root of an intracommunicator only",
                          name);
        if (sends && receives)
            if (int e = distinct_buffers(c, cm, sendbuf, recvbuf, count, type)) return e;
        fill_vectors(call, sends ? sendbuf : nullptr, receives ? recvbuf : nullptr, count, count, type);
    }
    if (nonblocking)
        if (int e = coll_request(c, cm, request)) return e;
    return coll_dispatch(c, cm, std::move(call), request);
}

int allreduce(const char* name, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, bool nonblocking, MPI_Request* request) {
    Call c(name);
    Comm* cm;
    if (int e = coll_comm(c, comm, &cm)) return e;
    coll::CollCall call;
    call.kind = coll::CollKind::allreduce;
    const Datatype* type;
    if (int e = count_and_type(c, cm, "count", count, datatype, &type)) return e;
    if (sendbuf != MPI_IN_PLACE)
        if (int e = c.buffer(cm, "sendbuf", sendbuf, count, type)) return e;
    if (int e = c.buffer(cm, "recvbuf", recvbuf, count, type)) return e;
    if (int e = coll_op(c, cm, op, type, &call.op)) return e;
    if (int e = coll_no_in_place(c, cm, "recvbuf", recvbuf)) return e;
    if (cm->is_inter())
        if (int e = coll_no_in_place(c, cm, "sendbuf", sendbuf)) return e;
    if (int e = distinct_buffers(c, cm, sendbuf, recvbuf, count, type)) return e;
    fill_vectors(call, sendbuf, recvbuf, count, count, type);
    if (nonblocking)
        if (int e = coll_request(c, cm, request)) return e;
    return coll_dispatch(c, cm, std::move(call), request);
}

// Reduce_scatter (recvcounts non-null) and Reduce_scatter_block (recvcount).
int reduce_scatter(const char* name, const void* sendbuf, void* recvbuf, const int* recvcounts, int recvcount,
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, bool block, bool nonblocking,
                   MPI_Request* request) {
    Call c(name);
    Comm* cm;
    if (int e = coll_comm(c, comm, &cm)) return e;
    coll::CollCall call;
    call.kind = block ? coll::CollKind::reduce_scatter_block : coll::CollKind::reduce_scatter;
    const int size = cm->size();  // of the local group on an intercommunicator
    std::int64_t total = 0, mine = 0;
    const Datatype* type;
    if (block) {
        if (int e = count_and_type(c, cm, "recvcount", recvcount, datatype, &type)) return e;
        mine = recvcount;
        total = static_cast<std::int64_t>(recvcount) * size;
    } else {
        if (int e = coll_counts(c, cm, "recvcounts", recvcounts, size)) return e;
        if (int e = c.type(cm, "datatype", datatype, &type)) return e;
        for (int r = 0; r < size; ++r) total += recvcounts[r];
        mine = recvcounts[cm->rank];
    }
    if (sendbuf != MPI_IN_PLACE)
        if (int e = c.buffer(cm, "sendbuf", sendbuf, total, type)) return e;
    // In place, the receive buffer holds the whole input vector.
    if (int e = c.buffer(cm, "recvbuf", recvbuf, sendbuf == MPI_IN_PLACE ? total : mine, type)) return e;
    if (int e = coll_op(c, cm, op, type, &call.op)) return e;
    if (int e = coll_no_in_place(c, cm, "recvbuf", recvbuf)) return e;
    if (cm->is_inter())
        if (int e = coll_no_in_place(c, cm, "sendbuf", sendbuf)) return e;
    if (int e = distinct_buffers(c, cm, sendbuf, recvbuf, total, type)) return e;
    fill_vectors(call, sendbuf, recvbuf, total, mine, type);
    call.recvcounts = block ? nullptr : recvcounts;
    if (nonblocking)
        if (int e = coll_request(c, cm, request)) return e;
    return coll_dispatch(c, cm, std::move(call), request);
}

// Scan and Exscan (`exclusive`).
int scan(const char* name, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
         MPI_Comm comm, bool exclusive, bool nonblocking, MPI_Request* request) {
    Call c(name);
    Comm* cm;
    if (int e = coll_comm(c, comm, &cm)) return e;
    if (cm->is_inter())
        return c.fail(cm, MPI_ERR_COMM,
                      "argument comm (%s) is an intercommunicator; %s is defined on intracommunicators only",
                      comm_name(cm), name);
    coll::CollCall call;
    call.kind = exclusive ? coll::CollKind::exscan : coll::CollKind::scan;
    // MPI 3.1, 5.11.2: Exscan's recvbuf is not significant on rank 0 (unless
    // it holds the input, in place).
    const bool receives = !exclusive || cm->rank != 0 || sendbuf == MPI_IN_PLACE;
    const Datatype* type;
    if (int e = count_and_type(c, cm, "count", count, datatype, &type)) return e;
    if (sendbuf != MPI_IN_PLACE)
        if (int e = c.buffer(cm, "sendbuf", sendbuf, count, type)) return e;
    if (receives)
        if (int e = c.buffer(cm, "recvbuf", recvbuf, count, type)) return e;
    if (int e = coll_op(c, cm, op, type, &call.op)) return e;
    if (receives) {
        if (int e = coll_no_in_place(c, cm, "recvbuf", recvbuf)) return e;
        if (int e = distinct_buffers(c, cm, sendbuf, recvbuf, count, type)) return e;
    }
    fill_vectors(call, sendbuf, receives ? recvbuf : nullptr, count, count, type);
    if (nonblocking)
        if (int e = coll_request(c, cm, request)) return e;
    return coll_dispatch(c, cm, std::move(call), request);
}

}  // namespace

HMPI_API(int, Reduce,
         (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)) {
    return reduce("MPI_Reduce", sendbuf, recvbuf, count, datatype, op, root, comm, false, nullptr);
}
HMPI_API(int, Ireduce,
         (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
          MPI_Request *request)) {
    return reduce("MPI_Ireduce", sendbuf, recvbuf, count, datatype, op, root, comm, true, request);
}

HMPI_API(int, Allreduce,
         (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)) {
    return allreduce("MPI_Allreduce", sendbuf, recvbuf, count, datatype, op, comm, false, nullptr);
}
HMPI_API(int, Iallreduce,
         (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
          MPI_Request *request)) {
    return allreduce("MPI_Iallreduce", sendbuf, recvbuf, count, datatype, op, comm, true, request);
}

HMPI_API(int, Reduce_scatter,
         (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
          MPI_Comm comm)) {
    return reduce_scatter("MPI_Reduce_scatter", sendbuf, recvbuf, recvcounts, 0, datatype, op, comm, false, false,
                          nullptr);
}
HMPI_API(int, Ireduce_scatter,
         (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
          MPI_Request *request)) {
    return reduce_scatter("MPI_Ireduce_scatter", sendbuf, recvbuf, recvcounts, 0, datatype, op, comm, false, true,
                          request);
}

HMPI_API(int, Reduce_scatter_block,
         (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)) {
    return reduce_scatter("MPI_Reduce_scatter_block", sendbuf, recvbuf, nullptr, recvcount, datatype, op, comm, true,
                          false, nullptr);
}
HMPI_API(int, Ireduce_scatter_block,
         (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
          MPI_Request *request)) {
    return reduce_scatter("MPI_Ireduce_scatter_block", sendbuf, recvbuf, nullptr, recvcount, datatype, op, comm, true,
                          true, request);
}

HMPI_API(int, Scan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)) {
    return scan("MPI_Scan", sendbuf, recvbuf, count, datatype, op, comm, false, false, nullptr);
}
HMPI_API(int, Iscan,
         (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
          MPI_Request *request)) {
    return scan("MPI_Iscan", sendbuf, recvbuf, count, datatype, op, comm, false, true, request);
}

HMPI_API(int, Exscan,
         (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)) {
    return scan("MPI_Exscan", sendbuf, recvbuf, count, datatype, op, comm, true, false, nullptr);
}
HMPI_API(int, Iexscan,
         (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
          MPI_Request *request)) {
    return scan("MPI_Iexscan", sendbuf, recvbuf, count, datatype, op, comm, true, true, request);
}
