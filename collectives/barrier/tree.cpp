// Tree barrier: Li, Hoefler, Hu, Snir (2014), Section 2.6 ("an intranode
// barrier is implemented as a reduce-broadcast allreduce with zero
// workload"): arrival climbs the n-ary tree over the topology
// (collectives/allreduce/tree_shape.hpp: cache domains first, then across
// them), each node setting its flag once its children have; the top then
// releases everyone with a one-stage broadcast of a flag (everyone polls the
// top's) or a two-stage one (domain leaders poll the top's, their members
// their leader's), whichever the model predicts cheaper at m = 0 (Eq. 4;
// release.hpp).
//
// Cost (Eq. 5 at m = 0; n = the tree radix, knobs.hpp; no Eq. 1 first phase,
// which only matters for data):
//   T = (n-1) a_a ceil(log_n q) + (n-1) a_b ceil(log_n s) + min(a_a + a_b, a_b)
// (with one domain, the release is a_a).
//
// Flags: flag 1 step 1 = "my subtree has arrived" (to the parent); flag 2
// step 1 = "released" (the top's, and a domain leader's in two stages).
// Stamps only grow, so nobody needs to acknowledge a release.
#include "collectives/allreduce/knobs.hpp"
#include "collectives/allreduce/tree_shape.hpp"
#include "collectives/barrier/barrier.hpp"
#include "collectives/barrier/release.hpp"

namespace hmpi::coll {

CollTask barrier_tree(CollCtx& ctx) {
    const int rank = ctx.rank();
    TreeOptions o;
    o.radix = kReductionKnobs.tree_radix;
    o.rank_order = false;
    const TreePlace tp = tree_place(ctx.topology(), rank, o);
    CO_WAIT_UNTIL(ctx.all_reached_of(tp.children, 1, 1));
    if (tp.parent >= 0) ctx.publish_to(1, 1, tp.parent);

    const FlagRelease rel = flag_release(ctx, tp.top);
    if (rank != tp.top) CO_WAIT_UNTIL(ctx.reached(rel.source, 2, 1));
    if (rank == tp.top || rel.relay) ctx.publish(2, 1);
    co_return MPI_SUCCESS;
}

double barrier_tree_cost(const CostQuery& q) {
    const int n = kReductionKnobs.tree_radix;
    return (n - 1) * q.params.alpha.a * ceil_log(q.q(), n) + (n - 1) * q.params.beta.a * ceil_log(q.s(), n) +
           li_bcast(q, q.q(), q.s(), 0, 0);
}

}  // namespace hmpi::coll
