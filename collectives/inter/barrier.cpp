// Intercommunicator barrier (MPI 3.1, 5.3 on intercommunicators: nobody
// leaves before every member of BOTH groups has entered), from the
// leaders: a barrier inside each group (its leader, local rank 0, then
// knows the whole group has entered), the two leaders exchange a zero-byte
// message, and a second barrier inside each group holds the members until
// their leader has heard from the other side.
//
// Source: the leader-based scheme of intercommunicator collectives (as in
// MPICH's intercommunicator algorithms: an operation inside each group, an
// exchange between the groups' rank 0s, an operation inside each group).
// Cost: two local barriers (each per the intracommunicator barrier chosen
// for Comm::local) plus one message latency between the leaders.
//
// Model cost (inter messages: latency terms only, the query's size is 0):
// two local barriers and the leaders' exchange: 2 (ceil(log2 n) + 1) a_alpha
// + 2 a_alpha
#include "collectives/framework/driver.hpp"
#include "collectives/inter/inter.hpp"
#include "core/datatype.hpp"

namespace hmpi::coll {

CollTask inter_barrier(CollCtx& ctx) {
    Comm& local = *ctx.comm().local;
    CollCall entered, released;  // outlive their tasks (this frame)
    entered.kind = released.kind = CollKind::barrier;
    CollTask all_entered = nested_collective(ctx.self(), local, entered);
    CollTask release = nested_collective(ctx.self(), local, released);

    int rc = MPI_SUCCESS, step_rc = MPI_SUCCESS;
    CO_RUN(step_rc, std::move(all_entered));
    keep_first_error(&rc, step_rc);
    if (ctx.rank() == 0) {
        const Datatype& bytes = *predefined_datatype(MPI_BYTE);
        MessageBatch leaders(2);
        leaders.recv(ctx, 0, 1, nullptr, 0, bytes);
        leaders.send(ctx, 0, 1, nullptr, 0, bytes);
        CO_WAIT_UNTIL(leaders.done());
        keep_first_error(&rc, leaders.error());
    }
    CO_RUN(step_rc, std::move(release));
    keep_first_error(&rc, step_rc);
    co_return rc;
}

double inter_barrier_cost(const CostQuery& q) {
    const double a = q.params.alpha.a;
    return 2 * (ceil_log2(q.p()) + 1) * a + 2 * a;
}

}  // namespace hmpi::coll
