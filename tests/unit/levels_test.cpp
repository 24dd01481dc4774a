// Unit tests of the communicator topology levels (collectives/framework/
// levels.cpp) with made-up places: which levels are kept, their groups and
// leaders, the Li-Hoefler shape (s, q, domain_level) and YHCCL's cache
// capacity C; and of the NUMA placement helpers (placement.hpp).
#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "base/config.hpp"
#include "base/topology.hpp"
#include "collectives/framework/levels.hpp"
#include "collectives/framework/placement.hpp"

using namespace hmpi::coll;

namespace {

constexpr std::size_t kL2 = 2u << 20;
constexpr std::size_t kL3 = 32u << 20;

// A machine of 2 sockets x 2 NUMA nodes x 4 cores, private L2s; the L3 is
// per socket (Intel with sub-NUMA clustering) or per NUMA node (l3_per_numa).
RankPlace machine_core(int core, bool l3_per_numa = false) {
    RankPlace p;
    p.core = core;
    p.l2 = core;
    p.numa = core / 4;
    p.socket = core / 8;
    p.l3 = l3_per_numa ? p.numa : p.socket;
    return p;
}

std::vector<LevelKind> kinds(const CommTopology& t) {
    std::vector<LevelKind> v;
    for (const TopoLevel& l : t.levels) v.push_back(l.kind);
    return v;
}

std::vector<std::vector<int>> groups(const TopoLevel& l) {
    std::vector<std::vector<int>> v;
    for (const LevelGroup& g : l.groups) v.push_back(g.members);
    return v;
}

// What every topology must satisfy, whatever the places.
void check_invariants(const CommTopology& t) {
    REQUIRE(!t.levels.empty());
    CHECK(t.levels.back().kind == LevelKind::node);
    CHECK(t.levels.back().groups.size() == 1);
    CHECK(static_cast<int>(t.places.size()) == t.p);
    std::size_t previous_groups = static_cast<std::size_t>(t.p) + 1;
    for (std::size_t li = 0; li < t.levels.size(); ++li) {
        const TopoLevel& l = t.levels[li];
        REQUIRE(static_cast<int>(l.group_of.size()) == t.p);
        CHECK(l.groups.size() < previous_groups);  // each level splits less than the one inside it
        previous_groups = l.groups.size();
        std::set<int> seen;
        for (std::size_t gi = 0; gi < l.groups.size(); ++gi) {
            const LevelGroup& g = l.groups[gi];
            REQUIRE(!g.members.empty());
            if (gi > 0) CHECK(l.groups[gi - 1].members[0] < g.members[0]);  // ordered by leader
            CHECK(g.numa == t.places[static_cast<std::size_t>(g.members[0])].numa);
            for (std::size_t m = 0; m < g.members.size(); ++m) {
                if (m > 0) CHECK(g.members[m - 1] < g.members[m]);
                CHECK(l.group_of[static_cast<std::size_t>(g.members[m])] == static_cast<int>(gi));
                CHECK(seen.insert(g.members[m]).second);
            }
        }
        CHECK(static_cast<int>(seen.size()) == t.p);
        // Nesting: ranks together at level li stay together at li + 1.
        if (li + 1 < t.levels.size())
            for (int a = 0; a < t.p; ++a)
                for (int b = 0; b < t.p; ++b)
                    if (l.group_of[static_cast<std::size_t>(a)] == l.group_of[static_cast<std::size_t>(b)])
                        CHECK(t.levels[li + 1].group_of[static_cast<std::size_t>(a)] ==
                              t.levels[li + 1].group_of[static_cast<std::size_t>(b)]);
    }
    if (t.domain_level >= 0) {
        REQUIRE(t.domain_level < static_cast<int>(t.levels.size()) - 1);
        CHECK(t.s == static_cast<int>(t.levels[static_cast<std::size_t>(t.domain_level)].groups.size()));
        CHECK(t.s > 1);
    } else {
        CHECK(t.s == 1);
        CHECK(t.q == t.p);
    }
}

}  // namespace

TEST_CASE("levels: 16 ranks in order on 2 sockets x 2 NUMA x 4 cores, L3 per socket") {
    std::vector<RankPlace> places;
    for (int r = 0; r < 16; ++r) places.push_back(machine_core(r));
    const CommTopology t = build_comm_topology(places, kL2, kL3, false);
    check_invariants(t);
    CHECK(t.p == 16);
    // One rank per core and per L2: those split nothing. NUMA nodes sit
    // inside the socket's L3 here, so NUMA comes first.
    CHECK(kinds(t) == std::vector<LevelKind>{LevelKind::numa, LevelKind::l3, LevelKind::node});
    CHECK(groups(t.levels[0]) ==
          std::vector<std::vector<int>>{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15}});
    CHECK(groups(t.levels[1]) == std::vector<std::vector<int>>{{0, 1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}});
    CHECK(t.levels[0].groups[2].numa == 2);
    CHECK(t.levels[1].groups[1].numa == 2);  // the leader's (rank 8's) node
    CHECK(t.s == 2);
    CHECK(t.q == 8);
    CHECK(t.domain_level == 1);
    // Non-inclusive L3: C = both sockets' L3s plus the 16 private L2s.
    CHECK(t.cache_bytes == 2 * kL3 + 16 * kL2);
    CHECK(build_comm_topology(places, kL2, kL3, true).cache_bytes == 2 * kL3);

    const std::string d = describe(t);
    CHECK(d.find("L3: {0-7} {8-15}") != std::string::npos);
    CHECK(d.find("NUMA: {0-3}@0 {4-7}@1 {8-11}@2 {12-15}@3") != std::string::npos);
    CHECK(d.find("s=2 q=8") != std::string::npos);
    CHECK(d.find("node: {0-15}") != std::string::npos);
}

TEST_CASE("levels: a measured per-core cache smaller than hwloc's LLC shrinks C; a larger one changes nothing") {
    std::vector<RankPlace> places;
    for (int r = 0; r < 16; ++r) places.push_back(machine_core(r));
    const CommTopology t = build_comm_topology(places, kL2, kL3, false);
    // Non-inclusive: one core's measured capacity holds its L2, so the LLC
    // is taken as the rest; C = 2 such LLCs + 16 L2s.
    const std::size_t core = kL3 / 4;
    CHECK(CommTopology::effective_llc_bytes(kL3, kL2, false, core) == core - kL2);
    CHECK(t.cache_bytes_with(core) == 2 * (core - kL2) + 16 * kL2);
    // Inclusive: the L2s are inside the LLC; C = 2 LLCs of the measured size.
    const CommTopology inc = build_comm_topology(places, kL2, kL3, true);
    CHECK(inc.cache_bytes_with(core) == 2 * core);
    // Not measured (0), or at least hwloc's: hwloc's C.
    CHECK(t.cache_bytes_with(0) == t.cache_bytes);
    CHECK(t.cache_bytes_with(kL3 + kL2) == t.cache_bytes);
    CHECK(t.cache_bytes_with(4 * kL3) == t.cache_bytes);
    // A capacity below one L2 (the non-inclusive LLC would be nothing): hwloc's.
    CHECK(t.cache_bytes_with(kL2 / 2) == t.cache_bytes);
    // And describe() says so only where it changes C.
    CHECK(describe(t, core).find("measured: one core keeps") != std::string::npos);
    CHECK(describe(t, 0).find("measured") == std::string::npos);
    CHECK(describe(t, 4 * kL3).find("measured") == std::string::npos);
}

TEST_CASE("levels: L3 per NUMA node (one domain per NUMA node)") {
    std::vector<RankPlace> places;
    for (int r = 0; r < 16; ++r) places.push_back(machine_core(r, true));
    const CommTopology t = build_comm_topology(places, kL2, kL3, true);
    check_invariants(t);
    // NUMA has the same groups as L3: kept once, as L3 (the inner name).
    CHECK(kinds(t) == std::vector<LevelKind>{LevelKind::l3, LevelKind::socket, LevelKind::node});
    CHECK(t.s == 4);
    CHECK(t.q == 4);
    CHECK(t.domain_level == 0);
    CHECK(t.cache_bytes == 4 * kL3);
}

TEST_CASE("levels: round-robin mapping (rank i on socket i % 2)") {
    std::vector<RankPlace> places;
    for (int r = 0; r < 16; ++r) places.push_back(machine_core((r % 2) * 8 + r / 2));
    const CommTopology t = build_comm_topology(places, kL2, kL3, true);
    check_invariants(t);
    CHECK(kinds(t) == std::vector<LevelKind>{LevelKind::numa, LevelKind::l3, LevelKind::node});
    CHECK(groups(t.levels[0]) ==
          std::vector<std::vector<int>>{{0, 2, 4, 6}, {1, 3, 5, 7}, {8, 10, 12, 14}, {9, 11, 13, 15}});
    CHECK(t.levels[0].groups[1].numa == 2);  // rank 1 runs on core 8
    CHECK(groups(t.levels[1]) ==
          std::vector<std::vector<int>>{{0, 2, 4, 6, 8, 10, 12, 14}, {1, 3, 5, 7, 9, 11, 13, 15}});
    CHECK(t.levels[1].group_of[5] == 1);
    CHECK(t.s == 2);
    CHECK(t.q == 8);
    CHECK(describe(t).find("L3: {0,2,4,6,8,10,12,14} {1,3,5,7,9,11,13,15}") != std::string::npos);
}

TEST_CASE("levels: oversubscribed (8 ranks on 2 cores sharing one L3)") {
    std::vector<RankPlace> places;
    for (int r = 0; r < 8; ++r) places.push_back(RankPlace{r % 2, r % 2, 0, 0, 0});
    const CommTopology t = build_comm_topology(places, kL2, kL3, false);
    check_invariants(t);
    CHECK(kinds(t) == std::vector<LevelKind>{LevelKind::core, LevelKind::node});
    CHECK(groups(t.levels[0]) == std::vector<std::vector<int>>{{0, 2, 4, 6}, {1, 3, 5, 7}});
    CHECK(t.s == 1);
    CHECK(t.q == 8);
    CHECK(t.domain_level == -1);
    CHECK(t.cache_bytes == kL3 + 2 * kL2);  // two distinct L2s in use
}

TEST_CASE("levels: small communicators") {
    SUBCASE("one rank") {
        const CommTopology t = build_comm_topology({machine_core(5)}, kL2, kL3, true);
        check_invariants(t);
        CHECK(kinds(t) == std::vector<LevelKind>{LevelKind::node});
        CHECK(t.s == 1);
        CHECK(t.q == 1);
        CHECK(t.cache_bytes == kL3);
    }
    SUBCASE("two ranks on two cores under one L3: nothing splits them") {
        const CommTopology t = build_comm_topology({machine_core(0), machine_core(1)}, kL2, kL3, true);
        check_invariants(t);
        CHECK(kinds(t) == std::vector<LevelKind>{LevelKind::node});
        CHECK(t.s == 1);
        CHECK(t.q == 2);
        CHECK(t.domain_level == -1);
    }
    SUBCASE("two ranks on two sockets: each its own cache domain") {
        const CommTopology t = build_comm_topology({machine_core(0), machine_core(8)}, kL2, kL3, false);
        check_invariants(t);
        CHECK(kinds(t) == std::vector<LevelKind>{LevelKind::l3, LevelKind::node});
        CHECK(t.s == 2);
        CHECK(t.q == 1);
        CHECK(t.domain_level == 0);
        CHECK(t.cache_bytes == 2 * kL3 + 2 * kL2);
    }
}

TEST_CASE("levels: unknown places give one node level") {
    const CommTopology t = build_comm_topology(std::vector<RankPlace>(5), kL2, kL3, false);
    check_invariants(t);
    CHECK(kinds(t) == std::vector<LevelKind>{LevelKind::node});
    CHECK(t.s == 1);
    CHECK(t.q == 5);
    CHECK(t.levels[0].groups[0].numa == -1);
    CHECK(t.cache_bytes == kL3 + kL2);  // one LLC, one L2 beside it
    CHECK(describe(t).find("places unknown") != std::string::npos);
}

TEST_CASE("levels: no L3 reported: the socket is the cache domain") {
    std::vector<RankPlace> places;
    for (int r = 0; r < 8; ++r) places.push_back(RankPlace{r, r / 2, -1, r / 4, r / 4});
    const CommTopology t = build_comm_topology(places, kL2, kL2, true);
    check_invariants(t);
    // L2 shared by pairs of cores; NUMA = socket (kept once, as NUMA).
    CHECK(kinds(t) == std::vector<LevelKind>{LevelKind::l2, LevelKind::numa, LevelKind::node});
    CHECK(t.s == 2);
    CHECK(t.q == 4);
    CHECK(t.domain_level == 1);
    CHECK(t.cache_bytes == 4 * kL2);  // the LLC is the L2: one per L2 in use
}

TEST_CASE("levels: levels that do not nest are merged into nesting ones") {
    // NUMA pairs {0,1} {2,3}, L3 pairs {1,2} {0} {3}: never on a real hwloc
    // tree, but the result must still nest.
    std::vector<RankPlace> places = {{0, 0, 0, 0, 0}, {1, 1, 1, 0, 0}, {2, 2, 1, 1, 0}, {3, 3, 2, 1, 0}};
    const CommTopology t = build_comm_topology(places, kL2, kL3, true);
    check_invariants(t);
}

TEST_CASE("levels: this machine, outside a job") {
    // hmpi-info asks without a job: places follow from HMPI_BIND=core's mapping.
    const CommTopology t = comm_topology_of_world_ranks({0, 1, 2});
    check_invariants(t);
    CHECK(t.p == 3);
    if (hmpi::topology_caches().llc_bytes > 0) CHECK(t.cache_bytes >= hmpi::topology_caches().llc_bytes);
    const int cores = hmpi::topology_core_count();
    if (hmpi::config().bind != hmpi::BindPolicy::core) return;  // unbound: places unknown
    for (int r = 0; r < 3; ++r) {
        const hmpi::CorePlace c = hmpi::topology_place_of_core(r);
        CHECK(c.core == r % cores);
        CHECK(t.places[static_cast<std::size_t>(r)].core == c.core);
        CHECK(t.places[static_cast<std::size_t>(r)].numa == c.numa);
    }
    CHECK(!describe(t).empty());
}

TEST_CASE("placement: node arrays keep alignment, zero-initialize and keep elements apart") {
    struct alignas(128) Flags {
        std::uint64_t value[40] = {};
    };
    const int nodes = hmpi::topology_numa_count();
    std::vector<int> numa_of;
    for (int i = 0; i < 7; ++i) numa_of.push_back(i == 3 ? -1 : i % nodes);
    NodeArray<Flags> a(numa_of);
    REQUIRE(a.size() == 7);
    CHECK(a.stride() >= sizeof(Flags));
    for (std::size_t i = 0; i < a.size(); ++i) {
        CHECK(reinterpret_cast<std::uintptr_t>(&a[i]) % alignof(Flags) == 0);
        for (std::uint64_t v : a[i].value) CHECK(v == 0);
        for (std::uint64_t& v : a[i].value) v = i;
    }
    for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i].value[39] == i);
    NodeArray<Flags> moved(std::move(a));
    CHECK(moved.size() == 7);
    CHECK(moved[6].value[0] == 6);

    NodeMemory m(10000, 256, 0);
    REQUIRE(m.data() != nullptr);
    CHECK(m.size() == 10000);
    CHECK(reinterpret_cast<std::uintptr_t>(m.data()) % 256 == 0);
    const auto* bytes = static_cast<const unsigned char*>(m.data());
    for (std::size_t i = 0; i < m.size(); i += 97) CHECK(bytes[i] == 0);
    CHECK(m.bound() == (hmpi::coll::numa_binding_active()));
}
