// The release of a barrier whose top has seen everyone arrive: a one-stage
// broadcast of a flag (every rank polls the top's) or a two-stage one
// (domain leaders poll the top's and relay it, their members poll their
// leader's), whichever Li-Hoefler Eq. 4 predicts cheaper at m = 0. Used by
// the tree and fan-in barriers; their formulas add li_bcast(q, q, s, 0, 0).
#pragma once
#include <cstddef>

#include "collectives/allreduce/tree_shape.hpp"
#include "collectives/framework/context.hpp"
#include "collectives/model/cost.hpp"

namespace hmpi::coll {

struct FlagRelease {
    int source = 0;      // whose release flag this rank polls (unused by the top)
    bool relay = false;  // a domain leader that publishes its own release flag after the top's
};

// This rank's part in the release from `top`, which must lead its domain
// (rank 0, the members[0] of its group, does).
inline FlagRelease flag_release(const CollCtx& ctx, int top) {
    FlagRelease r{top, false};
    const CostQuery q = query_of(ctx);
    bool two_stage = false;
    li_bcast(q, q.q(), q.s(), 0, 0, &two_stage);
    const CommTopology& topo = ctx.topology();
    if (!two_stage || topo.domain_level < 0) return r;
    const TopoLevel& dom = topo.levels[static_cast<std::size_t>(topo.domain_level)];
    const int rank = ctx.rank();
    const LevelGroup& g = dom.groups[static_cast<std::size_t>(dom.group_of[static_cast<std::size_t>(rank)])];
    if (g.members[0] == rank) r.relay = rank != top;
    else if (g.members[0] != top) r.source = g.members[0];
    return r;
}

}  // namespace hmpi::coll
