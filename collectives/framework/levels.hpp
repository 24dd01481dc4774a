// Where a communicator's ranks sit in the machine, and the levels of
// groups the hierarchical algorithms use.
//
// Each rank's place (core, L2, L3, NUMA node, socket) comes from hwloc via
// the core the rank is bound to, whatever the rank-to-core mapping. From
// the places we build the levels: innermost first, each level's groups are
// unions of the previous level's, and a level that does not split the
// ranks any further than the one below it is skipped; the last level is
// always `node` (one group of every rank). A group's leader is its lowest
// rank (members[0]).
//
// The Li-Hoefler model needs the shape (Section 2): s cache domains (the
// groups of the outermost level whose ranks share a cache: L3, else the
// socket) and q ranks in the largest one; p = the communicator's size.
//
// Source: ../shared/design/collectives-techniques.md ("Topology"); XHC
// Section III (hierarchy from hwloc locality, skipping non-splitting levels).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hmpi::coll {

enum class LevelKind : std::uint8_t { core, l2, l3, numa, socket, node };
const char* level_name(LevelKind k) noexcept;

// hwloc logical indices of the objects holding a rank's core; -1 unknown.
struct RankPlace {
    int core = -1, l2 = -1, l3 = -1, numa = -1, socket = -1;
};

struct LevelGroup {
    std::vector<int> members;  // communicator ranks, ascending; members[0] leads
    int numa = -1;             // the NUMA node of the leader (where the group's buffers go)
};

struct TopoLevel {
    LevelKind kind = LevelKind::node;
    std::vector<LevelGroup> groups;
    std::vector<int> group_of;  // communicator rank -> index into groups
};

struct CommTopology {
    int p = 1;                       // ranks in the communicator
    std::vector<RankPlace> places;   // per communicator rank
    std::vector<TopoLevel> levels;   // innermost first; levels.back().kind == node
    // Li-Hoefler shape: s cache domains, q ranks in the largest.
    int s = 1, q = 1;
    // Index in `levels` of the cache-domain level (-1 when it does not split
    // the ranks, s == 1).
    int domain_level = -1;
    // Cache capacities in bytes (0 unknown), for the temporal / non-temporal
    // choice (YHCCL Algorithm 1: C = LLC, plus the L2s when the LLC is not
    // inclusive).
    std::size_t l2_bytes = 0, llc_bytes = 0;
    // A core's L1 data cache (0 unknown): where the model's in-L1 costs
    // apply (l1_resident, cost.hpp); no part of C.
    std::size_t l1_bytes = 0;
    bool llc_inclusive = true;
    std::size_t cache_bytes = 0;  // C as YHCCL Algorithm 1 defines it, for this communicator
    // C = llc_count LLCs + l2_count L2s (cache_capacity, levels.cpp): the
    // multipliers, so C can be recomputed with a measured LLC size.
    std::size_t llc_count = 0, l2_count = 0;
    // Whether hwloc reported the LLC's inclusiveness (else it is assumed
    // inclusive, the smaller C); build_comm_topology takes it as given.
    bool llc_inclusive_known = true;
    // The most ranks of the job that share one CPU (1 unless ranks
    // outnumber the CPUs they may use, Config::ranks_per_cpu): above 1, a
    // waiting rank gets its CPU only when the ranks ahead of it yield, and
    // the model charges every handoff that (oversubscribed_params, cost.hpp).
    int ranks_per_cpu = 1;

    // C with each last-level cache holding what one core was measured to
    // keep at cache speed (ModelParams::core_cache_bytes: its L2 plus its
    // share of the LLC) where that is less than hwloc's size; `cache_bytes`
    // when core_cache is 0 or larger.
    std::size_t cache_bytes_with(std::size_t core_cache) const noexcept {
        const std::size_t llc = effective_llc_bytes(llc_bytes, l2_bytes, llc_inclusive, core_cache);
        return llc == llc_bytes ? cache_bytes : llc_count * llc + l2_count * l2_bytes;
    }
    // The LLC size to assume: hwloc's, or less where one core was measured
    // to keep fewer bytes at cache speed (its L2 counted unless the LLC
    // includes it).
    static std::size_t effective_llc_bytes(std::size_t llc, std::size_t l2, bool inclusive,
                                           std::size_t core_cache) noexcept {
        if (core_cache == 0 || llc == 0) return llc;
        const std::size_t below = inclusive ? 0 : l2;
        const std::size_t measured = core_cache > below ? core_cache - below : 0;
        return measured > 0 && measured < llc ? measured : llc;
    }

    // The level of this kind, or null when it was skipped.
    const TopoLevel* level(LevelKind k) const noexcept {
        for (const TopoLevel& l : levels)
            if (l.kind == k) return &l;
        return nullptr;
    }
};

// Builds the levels from the ranks' places (pure: unit-testable with made-up
// places). Caches are the machine's as hwloc reports them.
CommTopology build_comm_topology(std::vector<RankPlace> places, std::size_t l2_bytes, std::size_t llc_bytes,
                                 bool llc_inclusive);

// The topology of a communicator side given the world ranks of its members
// in communicator order (made once per communicator, see shared.hpp).
CommTopology comm_topology_of_world_ranks(const std::vector<int>& world_ranks);

// Several lines describing the levels and groups (HMPI_EXPLAIN, hmpi-info),
// and the caches as measured where `core_cache` (ModelParams::
// core_cache_bytes) makes them smaller than hwloc's.
std::string describe(const CommTopology& t, std::size_t core_cache = 0);

}  // namespace hmpi::coll
