// Collectives on a communicator of one rank (one_member.hpp).
#include "collectives/framework/one_member.hpp"

#include "collectives/framework/data.hpp"

namespace hmpi::coll {

namespace {

// The own contribution, unless it is already in place: sendbuf's
// (sendcount, sendtype) into element `index` of the receive side (whose
// type is null in place at a Scatter root, where the API leaves it empty).
int own_block(const CollCall& c, std::int64_t index, std::int64_t rcount) noexcept {
    if (c.in_place) return MPI_SUCCESS;
    return copy_data(c.sendbuf, c.sendcount, *c.sendtype, element_at(c.recvbuf, index, *c.recvtype), rcount,
                     *c.recvtype);
}

// A reduction's result over one rank is that rank's input (MPI 3.1, 5.9.1;
// the operation is never applied).
int own_operand(const CollCall& c, std::int64_t count) noexcept {
    if (c.in_place) return MPI_SUCCESS;
    return copy_data(c.sendbuf, count, *c.sendtype, c.recvbuf, count, *c.recvtype);
}

}  // namespace

bool has_one_member_form(CollKind kind) noexcept {
    switch (kind) {
        case CollKind::neighbor_allgather:
        case CollKind::neighbor_allgatherv:
        case CollKind::neighbor_alltoall:
        case CollKind::neighbor_alltoallv:
        case CollKind::neighbor_alltoallw:
        case CollKind::count_:
            return false;
        default:
            return true;
    }
}

int run_one_member(const CollCall& c) noexcept {
    switch (c.kind) {
        case CollKind::barrier:
        case CollKind::bcast:   // the root's buffer is the only one
        case CollKind::exscan:  // rank 0's receive buffer is undefined (5.11.2)
            return MPI_SUCCESS;
        case CollKind::gather:
        case CollKind::allgather:
        case CollKind::alltoall:
        case CollKind::scatter:
            return own_block(c, 0, c.recvcount);
        case CollKind::gatherv:
        case CollKind::allgatherv:
            return c.in_place ? MPI_SUCCESS : own_block(c, c.rdispls[0], c.recvcounts[0]);
        case CollKind::scatterv:
            if (c.in_place) return MPI_SUCCESS;
            return copy_data(element_at(c.sendbuf, c.sdispls[0], *c.sendtype), c.sendcounts[0], *c.sendtype,
                             c.recvbuf, c.recvcount, *c.recvtype);
        case CollKind::alltoallv:
            if (c.in_place) return MPI_SUCCESS;
            return copy_data(element_at(c.sendbuf, c.sdispls[0], *c.sendtype), c.sendcounts[0], *c.sendtype,
                             element_at(c.recvbuf, c.rdispls[0], *c.recvtype), c.recvcounts[0], *c.recvtype);
        case CollKind::alltoallw:
            if (c.in_place) return MPI_SUCCESS;
            return copy_data(byte_offset(c.sendbuf, c.sdispls_bytes[0]), c.sendcounts[0], *c.sendtypes[0],
                             byte_offset(c.recvbuf, c.rdispls_bytes[0]), c.recvcounts[0], *c.recvtypes[0]);
        case CollKind::reduce:
        case CollKind::allreduce:
        case CollKind::scan:
            return own_operand(c, c.sendcount);
        case CollKind::reduce_scatter_block:
        case CollKind::reduce_scatter:  // recvcount: the one block, recvcounts[0]
            return own_operand(c, c.recvcount);
        default:
            return MPI_ERR_INTERN;
    }
}

}  // namespace hmpi::coll
