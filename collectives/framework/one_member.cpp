// Collectives on a communicator of one rank (one_member.hpp).
#include "collectives/framework/one_member.hpp"

#include "collectives/framework/blocks.hpp"
#include "collectives/framework/data.hpp"

namespace hmpi::coll {

namespace {

// A reduction's result over one rank is that rank's input (MPI 3.1, 5.9.1;
// the operation is never applied).
int own_operand(const CollCall& c, std::int64_t count) noexcept {
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
    // Barrier, Bcast (the root's buffer is the only one) and Exscan (rank
    // 0's receive buffer is undefined, 5.11.2) move nothing; in place, the
    // rank's own block or operand is already where the result goes.
    if (c.kind == CollKind::barrier || c.kind == CollKind::bcast || c.kind == CollKind::exscan || c.in_place)
        return MPI_SUCCESS;
    switch (c.kind) {
        case CollKind::gather:
        case CollKind::gatherv:
        case CollKind::allgather:
        case CollKind::allgatherv:
            return copy_block(send_whole(c), recv_block(c, 0));
        case CollKind::scatter:
        case CollKind::scatterv:
            return copy_block(send_block(c, 0), recv_whole(c));
        case CollKind::alltoall:
        case CollKind::alltoallv:
        case CollKind::alltoallw:
            return copy_block(send_block(c, 0), recv_block(c, 0));
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
