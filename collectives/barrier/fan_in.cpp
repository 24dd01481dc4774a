// Fan-in barrier: each cache domain's leader polls its members' arrival
// flags in one poll (every line has one reader), rank 0 polls the other
// leaders' "domain arrived" flags the same way, and then releases everyone
// with a one- or two-stage broadcast of a flag (release.hpp). It is the
// Li-Hoefler tree barrier (Section 2.6) with the radix as wide as a domain
// (and as the number of domains), which our polls make cheap: a poll reads
// all its children's lines at once, so n children cost one handoff and n - 1
// further lines, not the n - 1 handoffs of Eq. 5's (n-1) a per level.
// Against the flat barrier it takes one more handoff and avoids its
// all-to-all poll, in which every flag line has p - 1 readers: at 16 ranks
// that step costs about 1 us on a 16-core Xeon, against 0.5 us at 4.
//
// Cost (our formula; one handoff and q - 2 further lines for the leaders'
// poll, the same across domains for rank 0's, then the release):
//   T = a_a + (q-2) b_a + [a_b + (s-2) b_b] + li_bcast(q, s, m = 0)
// (the bracket only with several domains; li_bcast is Eq. 4 at m = 0).
//
// Flags: flag 0 step 1 is the driver's arrival; flag 1 step 1 = "my domain
// has arrived" (leaders but rank 0); flag 2 step 1 = "released".
#include "collectives/barrier/barrier.hpp"
#include "collectives/barrier/release.hpp"

namespace hmpi::coll {

namespace {
// The leaders of a level's groups (members[0]) but rank 0's, as a list
// all_reached_of can poll.
struct OtherLeaders {
    const std::vector<LevelGroup>& groups;
    int skip;  // the group of rank 0
    int size() const noexcept { return static_cast<int>(groups.size()) - 1; }
    int operator[](int i) const noexcept { return groups[static_cast<std::size_t>(i < skip ? i : i + 1)].members[0]; }
};
}  // namespace

CollTask barrier_fan_in(CollCtx& ctx) {
    const int rank = ctx.rank();
    const CommTopology& topo = ctx.topology();
    if (topo.domain_level < 0) {
        if (rank == 0) {
            CO_WAIT_UNTIL(ctx.all_reached(0, 1));
            ctx.publish(2, 1);
        } else {
            CO_WAIT_UNTIL(ctx.reached(0, 2, 1));
        }
        co_return MPI_SUCCESS;
    }
    const TopoLevel& dom = topo.levels[static_cast<std::size_t>(topo.domain_level)];
    const int group = dom.group_of[static_cast<std::size_t>(rank)];
    const LevelGroup& g = dom.groups[static_cast<std::size_t>(group)];
    if (g.members[0] == rank) {
        CO_WAIT_UNTIL(ctx.all_reached_of(g.members, 0, 1));
        if (rank != 0) ctx.publish_to(1, 1, 0);
        else CO_WAIT_UNTIL(ctx.all_reached_of(OtherLeaders{dom.groups, group}, 1, 1));
    }
    const FlagRelease rel = flag_release(ctx, 0);
    if (rank != 0) CO_WAIT_UNTIL(ctx.reached(rel.source, 2, 1));
    if (rank == 0 || rel.relay) ctx.publish(2, 1);
    co_return MPI_SUCCESS;
}

double barrier_fan_in_cost(const CostQuery& q) {
    if (q.p() <= 1) return 0;
    const LinkCost& al = q.params.alpha;
    const LinkCost& be = q.params.beta;
    double t = q.q() > 1 ? al.a + (q.q() - 2) * al.b : 0;
    if (q.s() > 1) t += be.a + (q.s() - 2) * be.b;
    return t + li_bcast(q, q.q(), q.s(), 0, 0);
}

}  // namespace hmpi::coll
