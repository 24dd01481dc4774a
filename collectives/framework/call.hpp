// CollCall: the arguments of one collective call, after the API layer has
// checked them and translated the handles.
//
// One struct serves every collective; each uses the fields its MPI
// signature has (the comments say which). A rank publishes a pointer to its
// CollCall when it enters a collective (CollCtx::args_of), so peers read
// each other's buffers and counts directly; the CollCall therefore lives as
// long as the collective does on its rank (the blocking call's frame, or
// the nonblocking request's operation).
#pragma once
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "collectives/framework/kinds.hpp"

namespace hmpi {
struct Datatype;
struct Op;
struct Topology;
}  // namespace hmpi

namespace hmpi::coll {

struct CollCall {
    CollKind kind = CollKind::barrier;

    // Send side. Reductions: sendcount == recvcount, sendtype == recvtype.
    // Bcast: unused (the data is the receive side on every rank, the root's
    // included). `in_place` is this rank's MPI_IN_PLACE (sendbuf is then
    // null; where the standard puts MPI_IN_PLACE in the receive buffer
    // argument, as for the root of MPI_Scatter, the API layer has swapped
    // it into `in_place` too).
    const void* sendbuf = nullptr;
    bool in_place = false;
    std::int64_t sendcount = 0;
    const Datatype* sendtype = nullptr;

    // Receive side.
    void* recvbuf = nullptr;
    std::int64_t recvcount = 0;
    const Datatype* recvtype = nullptr;

    // Vector forms (MPI 3.1 names; null where the form has none or where
    // the standard says the argument is significant at the root only and
    // this rank is not the root). Valid until the collective completes
    // (MPI 3.1, 5.12: the user may not change them meanwhile).
    const int* sendcounts = nullptr;
    const int* sdispls = nullptr;   // in elements of sendtype
    const int* recvcounts = nullptr;
    const int* rdispls = nullptr;   // in elements of recvtype (displs of Gatherv/Allgatherv)
    // Alltoallw (int byte displacements) and Neighbor_alltoallw (MPI_Aint).
    const int* sdispls_bytes = nullptr;
    const int* rdispls_bytes = nullptr;
    const MPI_Aint* sdispls_aint = nullptr;
    const MPI_Aint* rdispls_aint = nullptr;
    std::vector<const Datatype*> sendtypes;  // one per peer (w forms)
    std::vector<const Datatype*> recvtypes;

    // Reductions.
    const Op* op = nullptr;

    // Neighborhood collectives: the caller's process topology (alive as long
    // as the communicator, which the collective holds), so a peer can pair
    // its edges with the caller's.
    const Topology* topology = nullptr;

    // Rooted collectives: the root's rank in the communicator; on an
    // intercommunicator MPI_ROOT, MPI_PROC_NULL or a rank of the remote group.
    int root = 0;
};

}  // namespace hmpi::coll
