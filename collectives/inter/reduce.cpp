// Intercommunicator reduce (MPI 3.1, 5.9.1): the non-root group reduces its
// members' buffers to its rank 0 inside the group (a nested reduce on
// Comm::local, in rank order, so non-commutative operations are applied
// in the order the standard fixes), and that leader sends the result to
// the root (MPI_ROOT); the root's group's other members (MPI_PROC_NULL)
// take no part.
//
// Source: the leader-based scheme of intercommunicator collectives (as in
// MPICH's intercommunicator reduce: a local reduce to rank 0 of the
// sending group, then one message to the root).
// Cost: a local reduce of s bytes among the n members of the sending group
// plus one message of s bytes (a + b * s).
//
// Model cost (inter messages: latency terms only, the query's size is 0): a
// local tree reduce, then one message: (ceil(log2 n) + 3) a_alpha
#include "collectives/framework/data.hpp"
#include "collectives/framework/driver.hpp"
#include "collectives/inter/inter.hpp"

namespace hmpi::coll {

CollTask inter_reduce(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    if (me.root == MPI_PROC_NULL) co_return MPI_SUCCESS;
    if (me.root == MPI_ROOT) {
        MessageBatch in(1);
        in.recv(ctx, 0, 1, me.recvbuf, me.recvcount, *me.recvtype);
        CO_WAIT_UNTIL(in.done());
        co_return in.error();
    }
    const bool leader = ctx.rank() == 0;
    const Datatype& type = reduction_type(me);
    const std::int64_t count = me.sendcount;
    TypedScratch partial = leader ? TypedScratch(count, type) : TypedScratch();
    CollCall local_reduce = local_reduce_call(me, count, leader ? partial.data() : nullptr);
    CollTask combine = nested_collective(ctx.self(), *ctx.comm().local, local_reduce);

    int rc = MPI_SUCCESS;
    CO_RUN(rc, std::move(combine));
    if (leader) {
        MessageBatch out(1);
        out.send(ctx, me.root, 1, partial.data(), count, type);
        CO_WAIT_UNTIL(out.done());
        keep_first_error(&rc, out.error());
    }
    co_return rc;
}

double inter_reduce_cost(const CostQuery& q) {
    const double a = q.params.alpha.a;
    return (ceil_log2(q.p()) + 3) * a;
}

}  // namespace hmpi::coll
