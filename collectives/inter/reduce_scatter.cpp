// Intercommunicator reduce_scatter and reduce_scatter_block (MPI 3.1,
// 5.10): the reduction of one group's vectors is scattered over the OTHER
// group, and vice versa. Each group reduces its members' vectors (count
// elements, the same in both groups) to its rank 0 (a nested reduce on
// Comm::local, in rank order); that leader then sends each member j of the
// other group its block straight from the reduced vector.
//  - reduce_scatter_block: the blocks are count / m elements each (m: the
//    remote group's size; the standard makes count = n * recvcount in both
//    groups, so the sender knows the receiver's block size).
//  - reduce_scatter: the blocks follow the RECEIVING group's recvcounts,
//    which the leaders exchange first (one message of n ints each way).
//
// Source: the leader-based scheme of intercommunicator collectives (as in
// MPICH's intercommunicator reduce_scatter: local reduce to rank 0, then
// the leader scatters to the other group), with the scatter sent straight
// across instead of through the other leader.
// Cost: a local reduce of count elements in each group (in parallel), then
// m messages from each leader (together count elements) plus, for
// reduce_scatter, one exchange of the counts between the leaders.
//
// Model cost (inter messages: latency terms only, the query's size is 0):
// local reduce, then the leader scatters n blocks: (ceil(log2 n) + n + 2)
// a_alpha
#include <numeric>
#include <vector>

#include "collectives/framework/data.hpp"
#include "collectives/framework/driver.hpp"
#include "collectives/inter/inter.hpp"
#include "core/datatype.hpp"

namespace hmpi::coll {

CollTask inter_reduce_scatter(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int n = ctx.size(), m = ctx.comm().peer_count();
    const bool leader = ctx.rank() == 0;
    const bool block_form = me.kind == CollKind::reduce_scatter_block;
    const Datatype& type = reduction_type(me);
    const std::int64_t count =
        block_form ? std::int64_t{n} * me.recvcount : std::accumulate(me.recvcounts, me.recvcounts + n, std::int64_t{0});
    const std::int64_t my_count = block_form ? me.recvcount : me.recvcounts[ctx.rank()];
    TypedScratch partial = leader ? TypedScratch(count, type) : TypedScratch();
    CollCall local_reduce = local_reduce_call(me, count, leader ? partial.data() : nullptr);
    CollTask combine = nested_collective(ctx.self(), *ctx.comm().local, local_reduce);

    int rc = MPI_SUCCESS;
    CO_RUN(rc, std::move(combine));

    // The receiving group's block sizes.
    std::vector<int> their_counts;
    if (leader) {
        if (block_form) {
            their_counts.assign(static_cast<std::size_t>(m), static_cast<int>(count / m));
        } else {
            their_counts.resize(static_cast<std::size_t>(m));
            const Datatype& ints = *predefined_datatype(MPI_INT);
            MessageBatch counts(2);
            counts.recv(ctx, 0, 1, their_counts.data(), m, ints);
            counts.send(ctx, 0, 1, me.recvcounts, n, ints);
            CO_WAIT_UNTIL(counts.done());
            keep_first_error(&rc, counts.error());
        }
    }
    MessageBatch blocks(leader ? m + 1 : 1);
    blocks.recv(ctx, 0, 2, me.recvbuf, my_count, *me.recvtype);
    if (leader) {
        std::int64_t at = 0;
        for (int j = 0; j < m; ++j) {
            std::int64_t c = their_counts[static_cast<std::size_t>(j)];
            if (c > count - at) {  // the groups' counts disagree (erroneous): send what there is
                c = count - at;
                keep_first_error(&rc, MPI_ERR_COUNT);
            }
            blocks.send(ctx, j, 2, element_at(partial.data(), at, type), c, type);
            at += c;
        }
    }
    CO_WAIT_UNTIL(blocks.done());
    keep_first_error(&rc, blocks.error());
    co_return rc;
}

double inter_reduce_scatter_cost(const CostQuery& q) {
    const double a = q.params.alpha.a;
    return (ceil_log2(q.p()) + q.p() + 2) * a;
}

}  // namespace hmpi::coll
