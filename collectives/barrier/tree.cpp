// Tree barrier: Li, Hoefler, Hu, Snir (2014), Section 2.6 ("an intranode
// barrier is implemented as a reduce-broadcast allreduce with zero
// workload"): arrival climbs the n-ary tree over the topology
// (collectives/framework/tree_place.hpp: cache domains first, then across
// them), each node setting its flag once its children have; the top then
// releases everyone with a one-stage broadcast of a flag (everyone polls the
// top's) or a two-stage one (domain leaders poll the top's, their members
// their leader's), whichever the model predicts cheaper at m = 0 (Eq. 4).
//
// Cost (Eq. 5 at m = 0; n = the tree radix, knobs.hpp; no Eq. 1 first phase,
// which only matters for data):
//   T = (n-1) a_a ceil(log_n q) + (n-1) a_b ceil(log_n s) + min(a_a + a_b, a_b)
// (with one domain, the release is a_a). The climb's a are busy_a(p) = a +
// step_overhead + busy_step (p - 2): every rank is in the steps at once
// (params.hpp).
//
// Flags: flag 1 step 1 = "my subtree has arrived" (to the parent); flag 2
// step 1 = "released" (the top's, and a domain leader's in two stages).
// Stamps only grow, so nobody needs to acknowledge a release.
#include "collectives/allreduce/knobs.hpp"
#include "collectives/allreduce/tree_shape.hpp"
#include "collectives/barrier/barrier.hpp"

namespace hmpi::coll {

namespace {
// Eq. 4 at m = 0: the release in one stage or two.
const CollPlan release_plan([](const CostQuery& q) -> std::uint32_t {
    bool two_stage = false;
    li_bcast(q, q.q(), q.s(), 0, 0, &two_stage);
    return two_stage;
}, [](std::uint32_t v) { return std::string(v ? "tree: two-stage release" : "tree: one-stage release"); });
}  // namespace

CollTask barrier_tree(CollCtx& ctx) {
    const int rank = ctx.rank();
    TreeOptions o;
    o.radix = kReductionKnobs.tree_radix;
    o.rank_order = false;
    const TreePlace tp = ctx.tree_place(o);
    CO_WAIT_UNTIL(ctx.all_reached_of(tp.children, 1, 1));
    if (tp.parent >= 0) ctx.publish_to(1, 1, tp.parent);

    const bool two_stage = ctx.plan(release_plan) != 0;
    const CommTopology& topo = ctx.topology();
    int src = tp.top;
    bool leader = false;
    if (two_stage && topo.domain_level >= 0) {
        const TopoLevel& dom = topo.levels[static_cast<std::size_t>(topo.domain_level)];
        const LevelGroup& g = dom.groups[static_cast<std::size_t>(dom.group_of[static_cast<std::size_t>(rank)])];
        // The top (rank 0) leads its domain; other domains' leaders relay.
        if (g.members[0] == rank) leader = true;
        else if (g.members[0] != tp.top) src = g.members[0];
    }
    if (rank != tp.top) CO_WAIT_UNTIL(ctx.reached(src, 2, 1));
    if (rank == tp.top || leader) ctx.publish(2, 1);
    co_return MPI_SUCCESS;
}

double barrier_tree_cost(const CostQuery& q) {
    const int n = kReductionKnobs.tree_radix;
    return (n - 1) * busy_a(q, q.params.alpha, q.p()) * ceil_log(q.q(), n) +
           (n - 1) * busy_a(q, q.params.beta, q.p()) * ceil_log(q.s(), n) +
           li_bcast(q, q.q(), q.s(), 0, 0);
}

}  // namespace hmpi::coll
