// Communicator topology levels (levels.hpp): from each rank's place in the
// machine to the levels of groups the hierarchical algorithms walk.
//
// How the levels are built (docs/collectives.md, "Topology levels"):
//  1. For each kind (core, L2, L3, NUMA, socket) the ranks are partitioned by
//     that object of their place. A kind some rank's place does not know
//     (-1) gives no partition and is skipped: we never guess groups.
//  2. The candidate partitions are taken from finest to coarsest (most
//     groups first; equal counts in the canonical order core, L2, L3, NUMA,
//     socket). That is the canonical order on ordinary machines; it puts
//     NUMA below L3 where one L3 spans several NUMA nodes (Intel
//     sub-NUMA clustering).
//  3. Each candidate is coarsened so that its groups are unions of the
//     previous kept level's groups (levels must nest; hwloc's objects
//     always do, so this only matters on odd machines), and it is kept
//     when it has more than one group and fewer groups than the previous
//     kept level (the first level: fewer than p, since one rank per group
//     splits nothing). The one exception: the cache-domain partition is
//     kept even as singletons, so that domain_level names a real level
//     whenever s > 1 (each rank alone in its last-level cache).
//  4. `node` (one group of every rank) always ends the list.
//
// The cache domain (Li-Hoefler's "socket": the ranks sharing a last-level
// cache) is the L3 when every place knows its L3, else the socket. s = its
// number of groups, q = its largest group; when it does not split the ranks
// (or is unknown) s = 1, q = p and domain_level = -1.
//
// C (YHCCL Algorithm 1, Section 4.2) = the LLCs of the cache domains the
// ranks use, plus, when the LLC is not inclusive, the L2s of the cores they
// use (distinct L2 caches; one when places are unknown).
#include "collectives/framework/levels.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>

#include "base/config.hpp"
#include "base/topology.hpp"

namespace hmpi::coll {

const char* level_name(LevelKind k) noexcept {
    switch (k) {
        case LevelKind::core: return "core";
        case LevelKind::l2: return "L2";
        case LevelKind::l3: return "L3";
        case LevelKind::numa: return "NUMA";
        case LevelKind::socket: return "socket";
        case LevelKind::node: return "node";
    }
    return "?";
}

namespace {

int key_of(const RankPlace& p, LevelKind k) noexcept {
    switch (k) {
        case LevelKind::core: return p.core;
        case LevelKind::l2: return p.l2;
        case LevelKind::l3: return p.l3;
        case LevelKind::numa: return p.numa;
        case LevelKind::socket: return p.socket;
        case LevelKind::node: return 0;
    }
    return -1;
}

// A partition of ranks 0..p-1 as labels: label[r] = the lowest rank of r's
// group, so groups are identified by their leaders.
using Labels = std::vector<int>;

int group_count(const Labels& label) {
    int n = 0;
    for (std::size_t r = 0; r < label.size(); ++r) n += label[r] == static_cast<int>(r);
    return n;
}

bool all_known(const std::vector<RankPlace>& places, LevelKind k) {
    return std::all_of(places.begin(), places.end(), [k](const RankPlace& p) { return key_of(p, k) >= 0; });
}

// The partition by kind k's object; false when some place does not know it.
bool partition_by(const std::vector<RankPlace>& places, LevelKind k, Labels& label) {
    if (!all_known(places, k)) return false;
    std::map<int, int> leader_of_key;
    label.resize(places.size());
    for (std::size_t r = 0; r < places.size(); ++r)
        label[r] = leader_of_key.try_emplace(key_of(places[r], k), static_cast<int>(r)).first->second;
    return true;
}

// Merges groups of `label` that share a group of `inner`, so every group of
// the result is a union of inner groups (and of label's own groups).
void coarsen(Labels& label, const Labels& inner) {
    const std::size_t p = label.size();
    std::vector<int> parent(p);
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](int x) {
        while (parent[static_cast<std::size_t>(x)] != x)
            x = parent[static_cast<std::size_t>(x)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
        return x;
    };
    auto unite = [&](int a, int b) {
        a = find(a);
        b = find(b);
        if (a != b) parent[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
    };
    for (std::size_t r = 0; r < p; ++r) {
        unite(static_cast<int>(r), label[r]);
        unite(static_cast<int>(r), inner[r]);
    }
    // Roots are the lowest rank of each merged set (unite keeps the smaller).
    for (std::size_t r = 0; r < p; ++r) label[r] = find(static_cast<int>(r));
}

TopoLevel make_level(LevelKind k, const Labels& label, const std::vector<RankPlace>& places) {
    TopoLevel level;
    level.kind = k;
    level.group_of.assign(label.size(), -1);
    // Ranks ascending: groups appear in the order of their leaders, and each
    // group's members come out ascending with the leader first.
    for (std::size_t r = 0; r < label.size(); ++r) {
        const std::size_t leader = static_cast<std::size_t>(label[r]);
        if (leader == r) {
            level.group_of[r] = static_cast<int>(level.groups.size());
            LevelGroup g;
            g.numa = places[r].numa;
            level.groups.push_back(std::move(g));
        } else {
            level.group_of[r] = level.group_of[leader];
        }
        level.groups[static_cast<std::size_t>(level.group_of[r])].members.push_back(static_cast<int>(r));
    }
    return level;
}

std::size_t distinct(const std::vector<RankPlace>& places, LevelKind k) {
    std::vector<int> keys;
    for (const RankPlace& p : places) keys.push_back(key_of(p, k));
    std::sort(keys.begin(), keys.end());
    return static_cast<std::size_t>(std::unique(keys.begin(), keys.end()) - keys.begin());
}

// YHCCL Algorithm 1's C for these ranks.
// C = llc_count LLCs + l2_count L2s.
struct CacheCounts {
    std::size_t llcs = 0, l2s = 0;
};
CacheCounts cache_capacity(const std::vector<RankPlace>& places, bool llc_inclusive) {
    if (places.empty()) return {1, 0};
    if (all_known(places, LevelKind::l3)) {
        // The LLC is the L3: one per cache domain used, plus the private
        // L2s (their contents are not in a non-inclusive L3).
        CacheCounts c{distinct(places, LevelKind::l3), 0};
        if (!llc_inclusive)
            c.l2s = all_known(places, LevelKind::l2)     ? distinct(places, LevelKind::l2)
                    : all_known(places, LevelKind::core) ? distinct(places, LevelKind::core)
                                                         : 1;
        return c;
    }
    if (all_known(places, LevelKind::core)) {
        // Places are known but there is no L3: the LLC is the L2 (one per
        // L2 domain used); nothing below it is worth adding.
        return {all_known(places, LevelKind::l2) ? distinct(places, LevelKind::l2) : 1, 0};
    }
    // Places unknown (unbound ranks): one LLC, and one L2 beside it.
    return {1, llc_inclusive ? 0u : 1u};
}

}  // namespace

CommTopology build_comm_topology(std::vector<RankPlace> places, std::size_t l2_bytes, std::size_t llc_bytes,
                                 bool llc_inclusive) {
    CommTopology t;
    t.p = static_cast<int>(places.size());
    t.places = std::move(places);
    t.l2_bytes = l2_bytes;
    t.llc_bytes = llc_bytes;
    t.llc_inclusive = llc_inclusive;
    const CacheCounts counts = cache_capacity(t.places, llc_inclusive);
    t.llc_count = counts.llcs;
    t.l2_count = counts.l2s;
    t.cache_bytes = counts.llcs * llc_bytes + counts.l2s * l2_bytes;
    const std::size_t p = t.places.size();

    // Li-Hoefler's cache domain: the L3 when hwloc reports one, else the socket.
    const LevelKind domain_kind = all_known(t.places, LevelKind::l3) ? LevelKind::l3 : LevelKind::socket;

    struct Candidate {
        LevelKind kind;
        Labels label;
        int groups;
    };
    std::vector<Candidate> candidates;
    for (LevelKind k : {LevelKind::core, LevelKind::l2, LevelKind::l3, LevelKind::numa, LevelKind::socket}) {
        Candidate c{k, {}, 0};
        if (!partition_by(t.places, k, c.label)) continue;
        c.groups = group_count(c.label);
        candidates.push_back(std::move(c));
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.groups > b.groups; });

    Labels current(p);
    std::iota(current.begin(), current.end(), 0);
    int current_groups = t.p;
    int domain_groups = 0;
    Labels domain_label;
    for (Candidate& c : candidates) {
        coarsen(c.label, current);
        const int g = group_count(c.label);
        const bool is_domain = c.kind == domain_kind;
        const bool splits = g > 1 && g < current_groups;
        const bool singleton_domain = is_domain && g > 1 && g == t.p && t.levels.empty();
        if (splits || singleton_domain) {
            t.levels.push_back(make_level(c.kind, c.label, t.places));
            current = c.label;
            current_groups = g;
        }
        if (is_domain) {
            domain_groups = g;
            domain_label = c.label;
            // The kept level with the same partition: this one, or the inner
            // level it did not split any further.
            if (g > 1 && g == current_groups && !t.levels.empty()) t.domain_level = static_cast<int>(t.levels.size()) - 1;
        }
    }

    Labels everyone(p, 0);
    t.levels.push_back(make_level(LevelKind::node, everyone, t.places));

    if (domain_groups > 1 && t.domain_level >= 0) {
        t.s = domain_groups;
        t.q = 0;
        for (const LevelGroup& g : t.levels[static_cast<std::size_t>(t.domain_level)].groups)
            t.q = std::max(t.q, static_cast<int>(g.members.size()));
    } else {
        t.domain_level = -1;
        t.s = 1;
        t.q = t.p;
    }
    return t;
}

CommTopology comm_topology_of_world_ranks(const std::vector<int>& world_ranks) {
    // Where each rank runs: with HMPI_BIND=core, runtime/core/job.cpp binds
    // world rank r to core r mod (core count) in hwloc's logical order, so the
    // place follows from the rank alone (inside a job or not: hmpi-info asks
    // without one). Unbound ranks (HMPI_BIND=none) move wherever the
    // operating system puts them: their places are unknown.
    std::vector<RankPlace> places(world_ranks.size());
    if (config().bind == BindPolicy::core) {
        for (std::size_t i = 0; i < world_ranks.size(); ++i) {
            const CorePlace c = topology_place_of_core(world_ranks[i]);
            places[i] = RankPlace{c.core, c.l2, c.l3, c.numa, c.package};
        }
    }
    // Made-up domains for tests (HMPI_TEST_DOMAIN_RANKS): one core per rank,
    // k consecutive world ranks per socket, NUMA node and L3. The NUMA
    // indices may name nodes the machine lacks; memory placement then
    // leaves those pages to first touch (placement.cpp).
    if (const int k = config().test_domain_ranks; k > 0) {
        for (std::size_t i = 0; i < world_ranks.size(); ++i) {
            const int w = world_ranks[i], d = w / k;
            places[i] = RankPlace{w, w, d, d, d};
        }
    }
    const CacheSizes& caches = topology_caches();
    CommTopology t = build_comm_topology(std::move(places), caches.l2_bytes, caches.llc_bytes, caches.llc_inclusive);
    t.llc_inclusive_known = caches.llc_inclusive_known;
    t.l1_bytes = caches.l1_bytes;
    t.ranks_per_cpu = config().ranks_per_cpu;
    return t;
}

namespace {

// "0-7", "0,2,4", "0-3,8-11": members ascending, runs of consecutive ranks folded.
std::string format_members(const std::vector<int>& m) {
    std::string s;
    for (std::size_t i = 0; i < m.size();) {
        std::size_t j = i;
        while (j + 1 < m.size() && m[j + 1] == m[j] + 1) ++j;
        if (!s.empty()) s += ',';
        s += std::to_string(m[i]);
        if (j > i) s += (j == i + 1 ? "," : "-") + std::to_string(m[j]);
        i = j + 1;
    }
    return s;
}

std::string format_size(std::size_t n) {
    char b[32];
    if (n == 0) return "unknown";
    if (n >= (1u << 20) && n % (1u << 20) == 0) std::snprintf(b, sizeof b, "%zu MiB", n >> 20);
    else if (n >= (1u << 20)) std::snprintf(b, sizeof b, "%.1f MiB", static_cast<double>(n) / (1u << 20));
    else if (n >= 1024 && n % 1024 == 0) std::snprintf(b, sizeof b, "%zu KiB", n >> 10);
    else std::snprintf(b, sizeof b, "%zu B", n);
    return b;
}

}  // namespace

std::string describe(const CommTopology& t, std::size_t core_cache) {
    std::string s = "levels:";
    for (const TopoLevel& l : t.levels) {
        s += ' ';
        s += level_name(l.kind);
        s += '(' + std::to_string(l.groups.size()) + ')';
    }
    s += "; p=" + std::to_string(t.p) + " s=" + std::to_string(t.s) + " q=" + std::to_string(t.q);
    if (t.domain_level >= 0)
        s += std::string(" (cache domain: ") + level_name(t.levels[static_cast<std::size_t>(t.domain_level)].kind) + ")";
    else
        s += " (one cache domain)";
    const bool unknown = std::all_of(t.places.begin(), t.places.end(), [](const RankPlace& p) { return p.core < 0; });
    if (unknown && t.p > 0) s += "; places unknown (ranks not bound)";
    for (const TopoLevel& l : t.levels) {
        s += "\n  ";
        s += level_name(l.kind);
        s += ':';
        for (const LevelGroup& g : l.groups) {
            s += " {" + format_members(g.members) + '}';
            if (l.kind == LevelKind::numa && g.numa >= 0) s += "@" + std::to_string(g.numa);
        }
    }
    const std::string l1 = t.l1_bytes ? "L1d " + format_size(t.l1_bytes) + ", " : std::string();
    s += "\n  caches: " + l1 + "L2 " + format_size(t.l2_bytes) + ", LLC " + format_size(t.llc_bytes) + ' ' +
         (t.llc_inclusive ? "inclusive" : "non-inclusive") + (t.llc_inclusive_known ? "" : " (assumed)") +
         "; C = " + format_size(t.cache_bytes);
    if (const std::size_t c = t.cache_bytes_with(core_cache); c != t.cache_bytes)
        s += "\n  measured: one core keeps " + format_size(core_cache) + " at cache speed: LLC taken as " +
             format_size(CommTopology::effective_llc_bytes(t.llc_bytes, t.l2_bytes, t.llc_inclusive, core_cache)) +
             ", C = " + format_size(c);
    if (t.ranks_per_cpu > 1)
        s += "\n  oversubscribed: up to " + std::to_string(t.ranks_per_cpu) +
             " ranks share a CPU (each handoff charged their switches)";
    return s;
}

}  // namespace hmpi::coll
