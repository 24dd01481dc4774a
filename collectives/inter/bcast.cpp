// Intercommunicator broadcast (MPI 3.1, 5.4): the root (MPI_ROOT) sends its
// buffer to rank 0 of the other group, which broadcasts it inside its
// group on Comm::local; the other members of the root's group
// (MPI_PROC_NULL) take no part.
//
// Source: the leader-based scheme of intercommunicator collectives (as in
// MPICH's intercommunicator broadcast: root to the remote rank 0, then the
// intracommunicator broadcast inside the receiving group).
// Cost: one message of s bytes (a + b * s) plus a local broadcast of s
// bytes among the receiving group's ranks.
//
// Model cost (inter messages: latency terms only, the query's size is 0):
// one message to the remote leader and a local one-stage broadcast: 4
// a_alpha
#include "collectives/framework/driver.hpp"
#include "collectives/inter/inter.hpp"

namespace hmpi::coll {

CollTask inter_bcast(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    if (me.root == MPI_PROC_NULL) co_return MPI_SUCCESS;
    if (me.root == MPI_ROOT) {
        MessageBatch out(1);
        out.send(ctx, 0, 1, me.recvbuf, me.recvcount, *me.recvtype);
        CO_WAIT_UNTIL(out.done());
        co_return out.error();
    }
    // The receiving group: its leader takes the data from the root, then
    // passes it on inside the group.
    CollCall local_bcast;
    local_bcast.kind = CollKind::bcast;
    local_bcast.root = 0;
    local_bcast.recvbuf = me.recvbuf;
    local_bcast.recvcount = me.recvcount;
    local_bcast.recvtype = me.recvtype;
    CollTask pass_on = nested_collective(ctx.self(), *ctx.comm().local, local_bcast);

    int rc = MPI_SUCCESS, step_rc = MPI_SUCCESS;
    if (ctx.rank() == 0) {
        MessageBatch in(1);
        in.recv(ctx, me.root, 1, me.recvbuf, me.recvcount, *me.recvtype);
        CO_WAIT_UNTIL(in.done());
        rc = in.error();
    }
    CO_RUN(step_rc, std::move(pass_on));
    keep_first_error(&rc, step_rc);
    co_return rc;
}

double inter_bcast_cost(const CostQuery& q) {
    const double a = q.params.alpha.a;
    return 4 * a;
}

}  // namespace hmpi::coll
