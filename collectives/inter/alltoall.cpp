// Intercommunicator alltoall, alltoallv and alltoallw (MPI 3.1, 5.8):
// member i of one group sends its block j to member j of the other group,
// which receives it into its block i. Blocks: alltoall, count elements j *
// count on; alltoallv, counts[j] elements at displs[j] (in elements of the
// type); alltoallw, counts[j] elements of types[j] at displs[j] bytes.
//
// Source: the direct (pairwise-posted) alltoall, MPI 3.1's definition
// (5.8: one send and one receive per pair), across the groups; member r
// starts with remote member r mod m so that the first messages spread
// over the remote group.
// Cost: per member, m sends and m receives (m: the remote group's size),
// each block copied once from its sender's buffer: ~ a + m * b * s.
//
// Model cost (inter messages: latency terms only, the query's size is 0): n
// sends and n receives per member: 2 n a_alpha
#include "collectives/framework/data.hpp"
#include "collectives/inter/inter.hpp"

namespace hmpi::coll {

namespace {

struct Block {
    std::int64_t count;
    const Datatype* type;
    std::int64_t byte_offset;  // from the buffer's start
};

Block send_block(const CollCall& c, int j) {
    switch (c.kind) {
        case CollKind::alltoallv: return {c.sendcounts[j], c.sendtype, std::int64_t{c.sdispls[j]} * c.sendtype->extent};
        case CollKind::alltoallw:
            return {c.sendcounts[j], c.sendtypes[static_cast<std::size_t>(j)], c.sdispls_bytes[j]};
        default: return {c.sendcount, c.sendtype, std::int64_t{j} * c.sendcount * c.sendtype->extent};
    }
}

Block recv_block(const CollCall& c, int j) {
    switch (c.kind) {
        case CollKind::alltoallv: return {c.recvcounts[j], c.recvtype, std::int64_t{c.rdispls[j]} * c.recvtype->extent};
        case CollKind::alltoallw:
            return {c.recvcounts[j], c.recvtypes[static_cast<std::size_t>(j)], c.rdispls_bytes[j]};
        default: return {c.recvcount, c.recvtype, std::int64_t{j} * c.recvcount * c.recvtype->extent};
    }
}

}  // namespace

CollTask inter_alltoall(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int m = ctx.comm().peer_count();
    MessageBatch batch(2 * m);
    for (int k = 0; k < m; ++k) {
        const int j = (ctx.rank() + k) % m;
        const Block b = recv_block(me, j);
        batch.recv(ctx, j, 1, byte_offset(me.recvbuf, b.byte_offset), b.count, *b.type);
    }
    for (int k = 0; k < m; ++k) {
        const int j = (ctx.rank() + k) % m;
        const Block b = send_block(me, j);
        batch.send(ctx, j, 1, byte_offset(me.sendbuf, b.byte_offset), b.count, *b.type);
    }
    CO_WAIT_UNTIL(batch.done());
    co_return batch.error();
}

double inter_alltoall_cost(const CostQuery& q) {
    const double a = q.params.alpha.a;
    return 2 * q.p() * a;
}

}  // namespace hmpi::coll
