// The Li-Hoefler reduction tree's shape, the n-ary cost forms and the
// one-/two-stage result broadcast (tree_shape.hpp).
#include "collectives/allreduce/tree_shape.hpp"

#include <algorithm>
#include <cstring>

#include "collectives/allreduce/knobs.hpp"
#include "collectives/framework/data.hpp"
#include "collectives/model/params.hpp"
#include "core/datatype.hpp"
#include "core/op.hpp"

namespace hmpi::coll {

int eq1_survivors(const CostQuery& c, int q, std::size_t ws) {
    // d >= 3 below, so up to 3 ranks keep them all without asking the model
    // (which the tree algorithms do every call).
    if (q <= 3) return q;
    const LinkCost& al = c.params.alpha;
    const double b = line_cost(c, al, ws), B = congested_line_cost(c, al, ws);
    // The same d as li_intra_tree_reduce (cost.cpp), Eq. 1.
    const int cc = std::max(1, static_cast<int>(B > 0 ? b / B : q));
    return std::min(q, (2 << ceil_log2(cc)) + cc);
}

int ceil_log(int x, int n) noexcept {
    int k = 0;
    for (std::int64_t v = 1; v < x; v *= std::max(2, n)) ++k;
    return k;
}

bool copy_hides_wait(const CostQuery& c) {
    const LinkCost& al = c.params.alpha;
    return copy_line_cost(c, al, 2 * static_cast<std::size_t>(c.p()) * c.bytes) * c.m() <= al.a;
}

double tree_first_fold_excess(const CostQuery& c, int q, int s, double m, std::size_t ws) {
    if (copy_hides_wait(c)) return 0.0;
    if (q > 1) {
        const LinkCost& al = c.params.alpha;
        const int d = eq1_survivors(c, q, ws);
        if (d < q)
            return std::min(d, q - d) *
                   (congested_slice_reduce3_line_cost(c, al, ws) - congested_line_cost(c, al, ws)) * m;
        return (reduce3_line_cost(c, al, ws) - line_cost(c, al, ws)) * m;
    }
    if (s > 1) return (reduce3_line_cost(c, c.params.beta, ws) - line_cost(c, c.params.beta, ws)) * m;
    return 0.0;
}

double nary_intra_tree_reduce(const CostQuery& c, int q, double m, std::size_t ws, int n) {
    if (n <= 2) return li_intra_tree_reduce(c, q, m, ws);
    if (q <= 1) return 0;
    const LinkCost& al = c.params.alpha;
    const int d = eq1_survivors(c, q, ws);
    const double first = d < q ? al.a + (q - d) * congested_line_cost(c, al, ws) * m : 0.0;
    return first + (n - 1) * waited_step_cost(c, al, m, ws) * ceil_log(d, n);
}

double nary_inter_tree_reduce(const CostQuery& c, int s, double m, std::size_t ws, int n) {
    if (n <= 2) return li_inter_tree_reduce(c, s, m, ws);
    return s <= 1 ? 0.0 : (n - 1) * waited_step_cost(c, c.params.beta, m, ws) * ceil_log(s, n);
}

bool payload_sized(const CostQuery& c) noexcept { return c.bytes <= kReductionKnobs.small_bytes; }

double tree_reduce_peer_args(const CostQuery& c, int n) {
    if (payload_sized(c)) return 0.0;
    const int radix = std::max(2, n);
    const double children = (radix - 1) * (ceil_log(c.q(), radix) + ceil_log(c.s(), radix));
    return peer_args_cost(c, children) + peer_data_cost(c, children);
}

std::uint32_t TreeChoices::pack() const noexcept {
    // Survivors are ranks of one domain: far below 2^22.
    return static_cast<std::uint32_t>(survivors) << 2 | (two_stage ? 2u : 0u) | (copy_first ? 1u : 0u);
}

TreeChoices TreeChoices::unpack(std::uint32_t v) noexcept {
    return TreeChoices{static_cast<int>(v >> 2), (v & 2) != 0, (v & 1) != 0};
}

std::string TreeChoices::describe(std::uint32_t v, bool broadcast) {
    const TreeChoices c = unpack(v);
    std::string s = "tree: Eq. 1 keeps " + std::to_string(c.survivors) + " of a domain's ranks";
    if (broadcast) s += c.two_stage ? ", two-stage broadcast" : ", one-stage broadcast";
    s += c.copy_first ? ", input copied while the first child is awaited"
                      : ", first child folded with the input into a third buffer";
    return s;
}

bool fits_payload(std::int64_t count, const Datatype& t) noexcept {
    return t.contiguous && count >= 0 && static_cast<std::size_t>(count) * t.size <= kReductionKnobs.small_bytes;
}

CollTask result_bcast(CollCtx& ctx, int root, bool two_stage, bool small) {
    const CollCall& me = ctx.call();
    const CommTopology& topo = ctx.topology();
    const int rank = ctx.rank(), p = ctx.size();
    const std::int64_t n = me.recvcount;
    const Datatype& type = *me.recvtype;
    const TopoLevel* dom = topo.domain_level >= 0 && topo.domain_level < static_cast<int>(topo.levels.size())
                               ? &topo.levels[static_cast<std::size_t>(topo.domain_level)]
                               : nullptr;
    auto group_of = [&](int r) -> const LevelGroup& {
        return dom->groups[static_cast<std::size_t>(dom->group_of[static_cast<std::size_t>(r)])];
    };
    if (!dom || dom->groups.size() <= 1 || group_of(root).members[0] != root) two_stage = false;

    if (rank == root) {
        ctx.publish(2, 1);
        if (small) co_return MPI_SUCCESS;
        if (!two_stage) {
            for (int r = 0; r < p; ++r)
                if (r != root) CO_WAIT_UNTIL(ctx.reached(r, 3, 1));
        } else {
            for (const LevelGroup& g : dom->groups) {
                if (&g != &group_of(root)) {
                    CO_WAIT_UNTIL(ctx.reached(g.members[0], 3, 1));
                    continue;
                }
                for (int r : g.members)
                    if (r != root) CO_WAIT_UNTIL(ctx.reached(r, 3, 1));
            }
        }
        co_return MPI_SUCCESS;
    }
    bool leader = false;
    int src = root;
    if (two_stage) {
        const LevelGroup& g = group_of(rank);
        leader = g.members[0] == rank;
        if (!leader) src = g.members[0];
    }
    CO_WAIT_UNTIL(ctx.reached(src, 2, 1));
    int rc = MPI_SUCCESS;
    if (small) {
        // The payload holds the packed elements of a contiguous type.
        rc = copy_data(ctx.payload_of(src, 2), n, type, me.recvbuf, n, type);
        if (leader) std::memcpy(ctx.payload(2), ctx.payload_of(src, 2), data_bytes(n, type));
    } else {
        const CollCall& from = ctx.args_of(src);
        // The reduction read this rank's receive buffer (a partial result
        // or a tile) within the call: its lines are held by others.
        const std::size_t ws = 2 * static_cast<std::size_t>(p) * data_bytes(n, type);
        rc = copy_data(from.recvbuf, from.recvcount, *from.recvtype, me.recvbuf, n, type,
                       held_store_kind_for(ws, topo, leader));
    }
    if (leader) ctx.publish(2, 1);
    if (small) co_return rc;
    ctx.publish_to(3, 1, src);
    if (leader)
        for (int r : group_of(rank).members)
            if (r != rank) CO_WAIT_UNTIL(ctx.reached(r, 3, 1));
    co_return rc;
}

}  // namespace hmpi::coll
