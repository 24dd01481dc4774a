// Intercommunicator scatter and scatterv (MPI 3.1, 5.6): the root
// (MPI_ROOT) sends block j of its send buffer (scatter: sendcount elements,
// j * sendcount on; scatterv: sendcounts[j] elements at displs[j]) straight
// to member j of the other group, which receives it into its receive
// buffer; the root's group's other members (MPI_PROC_NULL) take no part.
//
// Source: the direct (linear) scatter, MPI 3.1's own definition of scatter
// as n sends from the root (5.6), across the groups.
// Cost: the root starts m sends (m: the remote group's size); each
// receiver copies its block once from the root's buffer: ~ a + s * b per
// receiver, the m copies in parallel but all reading the root's memory.
//
// Model cost (inter messages: latency terms only, the query's size is 0):
// the root sends about n messages: (n + 1) a_alpha
#include "collectives/framework/data.hpp"
#include "collectives/inter/inter.hpp"

namespace hmpi::coll {

CollTask inter_scatter(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    if (me.root == MPI_PROC_NULL) co_return MPI_SUCCESS;
    if (me.root != MPI_ROOT) {
        MessageBatch in(1);
        in.recv(ctx, me.root, 1, me.recvbuf, me.recvcount, *me.recvtype);
        CO_WAIT_UNTIL(in.done());
        co_return in.error();
    }
    const int m = ctx.comm().peer_count();
    const bool vector_form = me.kind == CollKind::scatterv;
    MessageBatch out(m);
    for (int j = 0; j < m; ++j) {
        const std::int64_t count = vector_form ? me.sendcounts[j] : me.sendcount;
        const std::int64_t at = vector_form ? me.sdispls[j] : std::int64_t{j} * me.sendcount;
        out.send(ctx, j, 1, element_at(me.sendbuf, at, *me.sendtype), count, *me.sendtype);
    }
    CO_WAIT_UNTIL(out.done());
    co_return out.error();
}

double inter_scatter_cost(const CostQuery& q) {
    const double a = q.params.alpha.a;
    return (q.p() + 1) * a;
}

}  // namespace hmpi::coll
