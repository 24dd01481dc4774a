// Intercommunicator allreduce (MPI 3.1, 5.9.6): each group reduces its
// members' buffers to its rank 0 (a nested reduce on Comm::local, in rank
// order), the two leaders exchange their results, and each leader
// broadcasts the one it received inside its group (a nested bcast): every
// member of a group ends with the reduction of the OTHER group's data.
//
// Source: the leader-based scheme of intercommunicator collectives (as in
// MPICH's intercommunicator allreduce: local reduce, exchange between the
// leaders, local broadcast).
// Cost: a local reduce and a local broadcast of s bytes in each group (the
// groups in parallel) plus one exchange of s bytes between the leaders.
//
// Model cost (inter messages: latency terms only, the query's size is 0):
// local reduce, leaders' exchange, local broadcast: (2 ceil(log2 n) + 4)
// a_alpha
#include "collectives/framework/data.hpp"
#include "collectives/framework/driver.hpp"
#include "collectives/inter/inter.hpp"

namespace hmpi::coll {

CollTask inter_allreduce(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const bool leader = ctx.rank() == 0;
    const Datatype& type = reduction_type(me);
    const std::int64_t count = me.sendcount;
    TypedScratch partial = leader ? TypedScratch(count, type) : TypedScratch();
    CollCall local_reduce = local_reduce_call(me, count, leader ? partial.data() : nullptr);
    CollCall local_bcast;
    local_bcast.kind = CollKind::bcast;
    local_bcast.root = 0;
    local_bcast.recvbuf = me.recvbuf;
    local_bcast.recvcount = me.recvcount;
    local_bcast.recvtype = me.recvtype;
    // Both nested collectives take their sequence numbers now (driver.hpp).
    CollTask combine = nested_collective(ctx.self(), *ctx.comm().local, local_reduce);
    CollTask spread = nested_collective(ctx.self(), *ctx.comm().local, local_bcast);

    int rc = MPI_SUCCESS, step_rc = MPI_SUCCESS;
    CO_RUN(step_rc, std::move(combine));
    keep_first_error(&rc, step_rc);
    if (leader) {
        MessageBatch leaders(2);
        leaders.recv(ctx, 0, 1, me.recvbuf, me.recvcount, *me.recvtype);
        leaders.send(ctx, 0, 1, partial.data(), count, type);
        CO_WAIT_UNTIL(leaders.done());
        keep_first_error(&rc, leaders.error());
    }
    CO_RUN(step_rc, std::move(spread));
    keep_first_error(&rc, step_rc);
    co_return rc;
}

double inter_allreduce_cost(const CostQuery& q) {
    const double a = q.params.alpha.a;
    return (2 * ceil_log2(q.p()) + 4) * a;
}

}  // namespace hmpi::coll
