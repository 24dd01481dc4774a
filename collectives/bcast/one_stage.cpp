// One-stage broadcast: every non-root rank copies the root's buffer into
// its own, straight from the root's layout to its own (one copy, no
// intermediate buffer), then acknowledges; the root returns once every
// rank has acknowledged, since until then its buffer is being read.
//
// Li, Hoefler et al., Section 2.2, Eq. 4 (one-stage form): P - 1 concurrent
// readers of one buffer. Cost (li_one_stage_bcast, cost.cpp) plus the
// acknowledgement round the root alone waits for (predictions are the mean
// over ranks):
//   s == 1: a_alpha + C_alpha (P - 1) m + a_alpha / P
//   s  > 1: a_beta + C_beta q m + a_alpha / P
// (with P = 2 the one reader is not congested: a + c m + N(m) + a_alpha / 2,
// N(m) = near_excess, cost.hpp: the root waits while it is read),
// with the working set P * bytes deciding in-cache or memory line costs.
//
// Flags: flag 1 step 1 = "I have copied" (read by the root only).
#include "collectives/bcast/bcast.hpp"
#include "collectives/framework/data.hpp"

namespace hmpi::coll {

CollTask bcast_one_stage(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int root = me.root;
    if (ctx.rank() == root) {
        CO_WAIT_UNTIL(ctx.all_reached_in(0, ctx.size(), 1, 1, root));
        co_return MPI_SUCCESS;
    }
    CO_WAIT_UNTIL(ctx.arrived(root));
    const CollCall& src = ctx.args_of(root);
    const int rc = copy_data(src.recvbuf, src.recvcount, *src.recvtype, me.recvbuf, me.recvcount, *me.recvtype,
                             store_kind_for(data_bytes(me.recvcount, *me.recvtype) * 2, ctx.topology(), false));
    ctx.publish_to(1, 1, root);
    co_return rc;
}

double bcast_one_stage_cost(const CostQuery& q) {
    if (q.p() <= 1) return 0;
    const std::size_t ws = q.bytes * static_cast<std::size_t>(q.p());
    // One reader alone is not congested (b, not B).
    // Readers reach the root's arguments first (peer_args_cost).
    const double ack = q.params.alpha.a / q.p() + peer_args_cost(q, 1);
    // The root waits while its one reader copies.
    if (q.p() == 2) return waited_copy_step_cost(q, q.s() > 1 ? q.params.beta : q.params.alpha, q.m(), ws) + ack;
    return li_one_stage_bcast(q, q.s() > 1 ? q.q() : q.p(), q.s(), q.m(), ws) + ack;
}

}  // namespace hmpi::coll
