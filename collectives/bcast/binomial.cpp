// Binomial-tree broadcast: in ranks relative to the root (v = (r - root) mod
// P), rank v copies from its parent v - 2^floor(log2 v) once the parent has
// the data, then serves its own children v + 2^k (2^k > v). Every copy goes
// straight from the parent's buffer into the child's.
//
// Cost (Li, Hoefler et al., Section 2.2, the tree broadcast with fan-out 2):
// ceil(log2 P) levels of one copy each, no more than one reader per buffer
// at a time; the first ceil(log2 s) levels cross cache domains:
//   ceil(log2 s) (a_beta + c_beta m + N) + ceil(log2 q) (a_alpha + c_alpha m + N) + a_alpha
// (N = near_excess(m), cost.hpp: each level's sender waits while it is read)
// The a of these steps is busy_a(p) = a + step_overhead + busy_step
// (p - 2) (params.hpp): every rank takes them at the same time.
// (the last term: the acknowledgements the leaves' parents wait for). It
// beats the one-stage form when P - 1 readers would congest the root.
//
// Flags: flag 2 step 1 = "my buffer holds the data" (read by my children);
// flag 1 step 1 = "I have copied from my parent" (read by the parent, which
// may return only once all its children have copied).
#include <algorithm>

#include "collectives/bcast/bcast.hpp"
#include "collectives/framework/data.hpp"

namespace hmpi::coll {

CollTask bcast_binomial(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), root = me.root;
    const int v = (ctx.rank() - root + p) % p;
    auto real = [&](int rel) { return (rel + root) % p; };
    int rc = MPI_SUCCESS;
    int top = 1;  // smallest power of two above v: v's children are v + top, v + 2*top, ...
    if (v > 0) {
        while (top <= v) top <<= 1;
        const int parent = real(v - (top >> 1));
        CO_WAIT_UNTIL(ctx.reached(parent, 2, 1));
        const CollCall& src = ctx.args_of(parent);
        rc = copy_data(src.recvbuf, src.recvcount, *src.recvtype, me.recvbuf, me.recvcount, *me.recvtype);
        ctx.publish_to(1, 1, parent);
    }
    ctx.publish(2, 1);
    for (int d = top; v + d < p; d <<= 1) CO_WAIT_UNTIL(ctx.reached(real(v + d), 1, 1));
    co_return rc;
}

double bcast_binomial_cost(const CostQuery& q) {
    if (q.p() <= 1) return 0;
    const std::size_t ws = q.bytes * static_cast<std::size_t>(q.p());
    const int across = q.s() > 1 ? ceil_log2(q.s()) : 0;
    const int within = std::max(0, ceil_log2(q.p()) - across);
    const double busy = busy_excess(q, q.p());
    // Each level reads its parent's arguments.
    // Each level's sender waits while it is read.
    return across * (waited_copy_step_cost(q, q.params.beta, q.m(), ws) + busy) +
           within * (waited_copy_step_cost(q, q.params.alpha, q.m(), ws) + busy) + peer_args_cost(q, across + within) +
           q.params.alpha.a;
}

}  // namespace hmpi::coll
