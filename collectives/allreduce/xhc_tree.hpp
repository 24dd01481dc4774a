// The XHC tree over a communicator's topology levels (XHC, Section IV-B):
// at each level every group has a leader, and the participants of a level
// are the leaders of the level below (every rank at the innermost level).
// A rank's parent is the leader of the first level where it participates
// without leading; its children are the other participants of the groups it
// leads. The root (the broadcast's root, rank 0 for allreduce) leads every
// group it belongs to; elsewhere a group's leader is its lowest rank
// (members[0]), as levels.hpp sets it.
//
// Shared by allreduce `hierarchical` and bcast `pipelined`; no allocation
// (children are enumerated on the fly).
#pragma once
#include <cstddef>

#include "collectives/framework/levels.hpp"

namespace hmpi::coll {

class XhcTree {
public:
    XhcTree(const CommTopology& topo, int root) noexcept : topo_(topo), root_(root) {}

    // The leader of rank r's group at level l.
    int leader(std::size_t l, int r) const noexcept {
        const TopoLevel& lv = topo_.levels[l];
        const int g = lv.group_of[static_cast<std::size_t>(r)];
        if (lv.group_of[static_cast<std::size_t>(root_)] == g) return root_;
        return lv.groups[static_cast<std::size_t>(g)].members[0];
    }
    bool participates(std::size_t l, int r) const noexcept { return l == 0 || leader(l - 1, r) == r; }

    // -1 for the root.
    int parent(int r) const noexcept {
        for (std::size_t l = 0; l < topo_.levels.size(); ++l) {
            if (!participates(l, r)) break;
            const int ld = leader(l, r);
            if (ld != r) return ld;
        }
        return -1;
    }

    // Calls f(child) for each child of r, innermost level first.
    template <class F>
    void for_each_child(int r, F&& f) const {
        for (std::size_t l = 0; l < topo_.levels.size(); ++l) {
            if (!participates(l, r) || leader(l, r) != r) return;
            const TopoLevel& lv = topo_.levels[l];
            for (int m : lv.groups[static_cast<std::size_t>(lv.group_of[static_cast<std::size_t>(r)])].members)
                if (m != r && participates(l, m)) f(m);
        }
    }
    template <class Pred>
    bool all_children(int r, Pred&& pred) const {
        bool ok = true;
        for_each_child(r, [&](int c) { ok = ok && pred(c); });
        return ok;
    }
    bool has_children(int r) const noexcept {
        bool any = false;
        for_each_child(r, [&](int) { any = true; });
        return any;
    }

    // The largest number of participants of one group at level l (the
    // fan-in/fan-out there), for the cost formulas.
    static int fan(const CommTopology& topo, std::size_t l) noexcept {
        int best = 1;
        for (const LevelGroup& g : topo.levels[l].groups) {
            int n = 0;
            for (int m : g.members)
                if (l == 0 || topo.levels[l - 1].groups[static_cast<std::size_t>(topo.levels[l - 1].group_of[static_cast<std::size_t>(m)])].members[0] == m) ++n;
            if (n > best) best = n;
        }
        return best;
    }

private:
    const CommTopology& topo_;
    int root_;
};

}  // namespace hmpi::coll
