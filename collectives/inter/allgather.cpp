// Intercommunicator allgather and allgatherv (MPI 3.1, 5.7): every member
// sends its buffer to every member of the other group and receives member
// j's into block j of its receive buffer (allgather: recvcount elements,
// j * recvcount on; allgatherv: recvcounts[j] elements at displs[j]). Each
// group thus gathers the OTHER group's contributions.
//
// Source: the direct allgather, MPI 3.1's definition (5.7: as if every
// process ran a gather with every process of the other group as root),
// one message per pair of members across the groups. Each member starts
// with the remote member of its own rank (mod m), so the first messages do
// not all queue up at remote rank 0.
// Cost: per member, m sends and m receives (m: the remote group's size),
// each block copied once from its sender's buffer: ~ a + m * b * s.
//
// Model cost (inter messages: latency terms only, the query's size is 0): n
// sends and n receives per member: 2 n a_alpha
#include "collectives/framework/data.hpp"
#include "collectives/inter/inter.hpp"

namespace hmpi::coll {

CollTask inter_allgather(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int m = ctx.comm().peer_count();
    const bool vector_form = me.kind == CollKind::allgatherv;
    MessageBatch batch(2 * m);
    for (int k = 0; k < m; ++k) {
        const int j = (ctx.rank() + k) % m;
        const std::int64_t count = vector_form ? me.recvcounts[j] : me.recvcount;
        const std::int64_t at = vector_form ? me.rdispls[j] : std::int64_t{j} * me.recvcount;
        batch.recv(ctx, j, 1, element_at(me.recvbuf, at, *me.recvtype), count, *me.recvtype);
    }
    for (int k = 0; k < m; ++k) batch.send(ctx, (ctx.rank() + k) % m, 1, me.sendbuf, me.sendcount, *me.sendtype);
    CO_WAIT_UNTIL(batch.done());
    co_return batch.error();
}

double inter_allgather_cost(const CostQuery& q) {
    const double a = q.params.alpha.a;
    return 2 * q.p() * a;
}

}  // namespace hmpi::coll
