// Unit tests of the Li-Hoefler reduction tree's shape
// (collectives/framework/tree_place.cpp) on made-up topologies: every rank
// but the top has exactly one parent that lists it as a child, the tree is
// connected, inter-domain edges only join domain leaders, and with
// rank_order every subtree covers a contiguous range of ranks with the
// children in ascending order (what non-commutative ops need).
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "collectives/allreduce/tree_shape.hpp"
#include "collectives/framework/levels.hpp"

using namespace hmpi::coll;

namespace {

// Rank r on core core_of(r) of a machine of `sockets` sockets with `per` cores each (L3 per socket).
CommTopology machine(int p, int per, const std::function<int(int)>& core_of) {
    std::vector<RankPlace> places;
    for (int r = 0; r < p; ++r) {
        RankPlace pl;
        pl.core = core_of(r);
        pl.l2 = pl.core;
        pl.socket = pl.core / per;
        pl.numa = pl.socket;
        pl.l3 = pl.socket;
        places.push_back(pl);
    }
    return build_comm_topology(places, 2u << 20, 32u << 20, false);
}

void check_tree(const CommTopology& t, const TreeOptions& o) {
    const int p = t.p;
    std::vector<TreePlace> places;
    for (int r = 0; r < p; ++r) places.push_back(tree_place(t, r, o));
    int tops = 0;
    for (int r = 0; r < p; ++r) {
        CHECK(places[static_cast<std::size_t>(r)].top == places[0].top);
        const int parent = places[static_cast<std::size_t>(r)].parent;
        if (parent < 0) {
            ++tops;
            CHECK(r == places[0].top);
            continue;
        }
        const TreePlace& pp = places[static_cast<std::size_t>(parent)];
        int found = 0;
        for (int i = 0; i < pp.children.size(); ++i) found += pp.children[i] == r;
        CHECK(found == 1);
        // Children listed by their parent have that parent.
        for (int i = 0; i < places[static_cast<std::size_t>(r)].children.size(); ++i)
            CHECK(places[static_cast<std::size_t>(places[static_cast<std::size_t>(r)].children[i])].parent == r);
        // An inter-domain edge joins two domain leaders.
        if (t.domain_level >= 0) {
            const TopoLevel& d = t.levels[static_cast<std::size_t>(t.domain_level)];
            const int gr = d.group_of[static_cast<std::size_t>(r)], gp = d.group_of[static_cast<std::size_t>(parent)];
            if (gr != gp && o.lead < 0 && !o.rank_order) {
                CHECK(d.groups[static_cast<std::size_t>(gr)].members[0] == r);
                CHECK(d.groups[static_cast<std::size_t>(gp)].members[0] == parent);
            }
        }
    }
    CHECK(tops == 1);
    // Subtrees: ranges; with rank_order contiguous and ascending.
    std::function<std::vector<int>(int)> subtree = [&](int r) {
        std::vector<int> v{r};
        for (int i = 0; i < places[static_cast<std::size_t>(r)].children.size(); ++i) {
            auto c = subtree(places[static_cast<std::size_t>(r)].children[i]);
            v.insert(v.end(), c.begin(), c.end());
        }
        return v;
    };
    std::vector<int> all = subtree(places[0].top);
    std::vector<int> sorted = all;
    std::sort(sorted.begin(), sorted.end());
    REQUIRE(static_cast<int>(sorted.size()) == p);
    for (int r = 0; r < p; ++r) CHECK(sorted[static_cast<std::size_t>(r)] == r);
    if (o.rank_order)
        for (int r = 0; r < p; ++r) CHECK(all[static_cast<std::size_t>(r)] == r);  // pre-order is rank order
}

}  // namespace

TEST_CASE("tree_shape: trees over made-up topologies") {
    for (int p : {1, 2, 3, 5, 8, 12, 16, 19}) {
        for (int per : {4, 8}) {
            const CommTopology contiguous = machine(p, per, [](int r) { return r; });
            const CommTopology interleaved = machine(p, per, [per](int r) { return (r % 2) * per + (r / 2) % per + (r / (2 * per)) * 2 * per; });
            for (const CommTopology* t : {&contiguous, &interleaved})
                for (int radix : {2, 3})
                    for (int survivors : {0, 3, 5})
                        for (bool rank_order : {false, true})
                            for (int lead : {-1, p - 1}) {
                                if (rank_order && lead >= 0) continue;
                                TreeOptions o;
                                o.radix = radix;
                                o.survivors = survivors;
                                o.rank_order = rank_order;
                                o.lead = lead;
                                CAPTURE(p);
                                CAPTURE(per);
                                CAPTURE(radix);
                                CAPTURE(survivors);
                                CAPTURE(rank_order);
                                CAPTURE(lead);
                                check_tree(*t, o);
                            }
        }
    }
}

namespace {

bool same_place(const TreePlace& a, const TreePlace& b) {
    if (a.parent != b.parent || a.top != b.top || a.children.size() != b.children.size()) return false;
    for (int i = 0; i < a.children.size(); ++i)
        if (a.children[i] != b.children[i]) return false;
    return true;
}

}  // namespace

// The cache is direct-mapped on the options: options that share an entry
// (the 8 entries cannot hold the 2 x 3 x 2 x (p + 1) asked for here) must
// evict each other, never hand out another tree's place. 100 ranks in one
// domain with 3 survivors: a run's first rank folds 32 others and then two
// survivors, past RankList's 32 inline entries.
TEST_CASE("tree_shape: the tree place cache hands out what tree_place builds") {
    for (int p : {2, 5, 100}) {
        const CommTopology t = machine(p, 8, [](int r) { return r; });
        const CommTopology flat = machine(p, 64, [](int r) { return r; });
        for (const CommTopology* topo : {&t, &flat})
            for (int rank : {0, p / 2, p - 1}) {
                TreePlaceCache cache;
                for (int pass = 0; pass < 3; ++pass)
                    for (int radix : {2, 3})
                        for (int survivors : {0, 3, 5})
                            for (bool rank_order : {false, true})
                                for (int lead = -1; lead < p; ++lead) {
                                    TreeOptions o;
                                    o.radix = radix;
                                    o.survivors = survivors;
                                    o.rank_order = rank_order;
                                    o.lead = rank_order ? -1 : lead;
                                    CAPTURE(p);
                                    CAPTURE(rank);
                                    CAPTURE(pass);
                                    CAPTURE(radix);
                                    CAPTURE(survivors);
                                    CAPTURE(lead);
                                    CHECK(same_place(cache.get(*topo, rank, o), tree_place(*topo, rank, o)));
                                }
            }
    }
}
