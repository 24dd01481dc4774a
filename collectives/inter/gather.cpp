// Intercommunicator gather and gatherv (MPI 3.1, 5.5): every member of the
// non-root group sends its buffer straight to the root (MPI_ROOT), which
// receives remote rank j's message into block j of its receive buffer
// (gather: j * recvcount elements on; gatherv: recvcounts[j] elements at
// displs[j]); the root's group's other members (MPI_PROC_NULL) take no
// part.
//
// Source: the direct (linear) gather, MPI 3.1's own definition of gather
// as n sends and n receives at the root (5.5), across the groups.
// Cost: the root receives m messages (m: the remote group's size), each
// copied once from the sender's buffer into its block: ~ a + m * b * s for
// s bytes each; the senders work in parallel.
//
// Model cost (inter messages: latency terms only, the query's size is 0):
// the root receives about n messages (n: the local group's size, standing in
// for the remote one): (n + 1) a_alpha
#include "collectives/framework/data.hpp"
#include "collectives/inter/inter.hpp"

namespace hmpi::coll {

CollTask inter_gather(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    if (me.root == MPI_PROC_NULL) co_return MPI_SUCCESS;
    if (me.root != MPI_ROOT) {
        MessageBatch out(1);
        out.send(ctx, me.root, 1, me.sendbuf, me.sendcount, *me.sendtype);
        CO_WAIT_UNTIL(out.done());
        co_return out.error();
    }
    const int m = ctx.comm().peer_count();
    const bool vector_form = me.kind == CollKind::gatherv;
    MessageBatch in(m);
    for (int j = 0; j < m; ++j) {
        const std::int64_t count = vector_form ? me.recvcounts[j] : me.recvcount;
        const std::int64_t at = vector_form ? me.rdispls[j] : std::int64_t{j} * me.recvcount;
        in.recv(ctx, j, 1, element_at(me.recvbuf, at, *me.recvtype), count, *me.recvtype);
    }
    CO_WAIT_UNTIL(in.done());
    co_return in.error();
}

double inter_gather_cost(const CostQuery& q) {
    const double a = q.params.alpha.a;
    return (q.p() + 1) * a;
}

}  // namespace hmpi::coll
