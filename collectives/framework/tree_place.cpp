// The Li-Hoefler tree's shape: where a rank sits (tree_place.hpp).
#include "collectives/framework/tree_place.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace hmpi::coll {

namespace {

// Whether every group of the levels from `from` up is a contiguous range
// of ranks (so a tree over them folds in rank order).
bool contiguous_from(const CommTopology& t, std::size_t from) {
    for (std::size_t l = from; l < t.levels.size(); ++l)
        for (const LevelGroup& g : t.levels[l].groups)
            if (!g.members.empty() && g.members.back() - g.members.front() + 1 != static_cast<int>(g.members.size()))
                return false;
    return true;
}

}  // namespace

TreePlace tree_place(const CommTopology& topo, int rank, const TreeOptions& o) {
    TreePlace tp;
    const int n = std::max(2, o.radix);
    const int last = static_cast<int>(topo.levels.size()) - 1;
    int first = last >= 0 ? (topo.domain_level >= 0 ? topo.domain_level : last) : -1;
    // Non-commutative ops need lists in rank order: a topology whose groups
    // are not rank ranges gets the flat tree over 0 .. p-1.
    const bool flat = first < 0 || (o.rank_order && !contiguous_from(topo, static_cast<std::size_t>(first)));
    if (flat) first = -1;
    const int tiers = flat ? 1 : last - first + 1;
    tp.top = o.lead >= 0 ? o.lead : (flat ? 0 : topo.levels[static_cast<std::size_t>(last)].groups[0].members[0]);

    // The representative (top) of group g of level l.
    auto rep = [&](int l, int g) {
        const TopoLevel& lv = topo.levels[static_cast<std::size_t>(l)];
        if (o.lead >= 0 && lv.group_of[static_cast<std::size_t>(o.lead)] == g) return o.lead;
        return lv.groups[static_cast<std::size_t>(g)].members[0];
    };

    RankList<64> list;
    for (int t = 0; t < tiers; ++t) {
        list = RankList<64>();
        if (flat) {
            for (int r = 0; r < topo.p; ++r) list.push_back(r);
        } else if (t == 0) {
            const TopoLevel& lv = topo.levels[static_cast<std::size_t>(first)];
            for (int r : lv.groups[static_cast<std::size_t>(lv.group_of[static_cast<std::size_t>(rank)])].members)
                list.push_back(r);
        } else {
            const int l = first + t;
            const TopoLevel& lv = topo.levels[static_cast<std::size_t>(l)];
            const TopoLevel& below = topo.levels[static_cast<std::size_t>(l - 1)];
            for (int r : lv.groups[static_cast<std::size_t>(lv.group_of[static_cast<std::size_t>(rank)])].members)
                if (rep(l - 1, below.group_of[static_cast<std::size_t>(r)]) == r) list.push_back(r);
        }
        const int k = list.size();
        int pos = -1;
        for (int i = 0; i < k; ++i)
            if (list[i] == rank) pos = i;
        if (o.lead >= 0)
            for (int i = 1; i < k; ++i)
                if (list[i] == o.lead) {
                    std::swap(list[0], list[i]);
                    if (pos == i) pos = 0;
                    else if (pos == 0) pos = i;
                }
        if (pos < 0) return tp;  // not reachable with consistent levels

        // Eq. 1's first phase (tier 0): d contiguous runs, each folded by its first rank.
        const int d = t == 0 && o.survivors > 0 && o.survivors < k ? o.survivors : k;
        auto run_begin = [&](int u) { return static_cast<int>(static_cast<std::int64_t>(u) * k / d); };
        int u = pos;
        if (d < k) {
            u = static_cast<int>(static_cast<std::int64_t>(pos) * d / k);
            while (u + 1 < d && run_begin(u + 1) <= pos) ++u;
            while (u > 0 && run_begin(u) > pos) --u;
            if (run_begin(u) != pos) {
                tp.parent = list[run_begin(u)];
                return tp;
            }
            const int end = u + 1 < d ? run_begin(u + 1) : k;
            for (int x = pos + 1; x < end; ++x) tp.children.push_back(list[x]);
        }
        auto survivor = [&](int i) { return list[run_begin(i)]; };
        // The n-ary (k-nomial) tree over the survivors.
        for (std::int64_t j = 1; j < d; j *= n) {
            const std::int64_t span = j * n;
            if (u % span != 0) {
                tp.parent = survivor(static_cast<int>(u - u % span));
                return tp;
            }
            for (int i = 1; i < n && u + i * j < d; ++i) tp.children.push_back(survivor(static_cast<int>(u + i * j)));
        }
    }
    return tp;
}

TreePlace TreePlaceCache::get(const CommTopology& topo, int rank, const TreeOptions& o) {
    const unsigned slot = static_cast<unsigned>(o.lead + 1 + 3 * o.survivors + 5 * o.radix + (o.rank_order ? 7 : 0)) %
                          static_cast<unsigned>(kEntries);
    Entry& e = entries_[slot];
    if (!e.valid || !(e.key == o)) {
        e.place = tree_place(topo, rank, o);
        e.key = o;
        e.valid = true;
    }
    return e.place;
}

}  // namespace hmpi::coll
