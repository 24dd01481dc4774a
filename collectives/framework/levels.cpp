// Communicator topology levels (levels.hpp). Placeholder: one `node` level
// until the hwloc places are wired in.
#include "collectives/framework/levels.hpp"

#include <algorithm>
#include <numeric>

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

CommTopology build_comm_topology(std::vector<RankPlace> places, std::size_t l2_bytes, std::size_t llc_bytes,
                                 bool llc_inclusive) {
    CommTopology t;
    t.p = static_cast<int>(places.size());
    t.places = std::move(places);
    TopoLevel node;
    node.kind = LevelKind::node;
    LevelGroup all;
    all.members.resize(static_cast<std::size_t>(t.p));
    std::iota(all.members.begin(), all.members.end(), 0);
    node.groups.push_back(std::move(all));
    node.group_of.assign(static_cast<std::size_t>(t.p), 0);
    t.levels.push_back(std::move(node));
    t.s = 1;
    t.q = t.p;
    t.l2_bytes = l2_bytes;
    t.llc_bytes = llc_bytes;
    t.llc_inclusive = llc_inclusive;
    t.cache_bytes = llc_bytes;
    return t;
}

CommTopology comm_topology_of_world_ranks(const std::vector<int>& world_ranks) {
    return build_comm_topology(std::vector<RankPlace>(world_ranks.size()), 0, 0, true);
}

std::string describe(const CommTopology& t) {
    std::string s = "levels:";
    for (const TopoLevel& l : t.levels) {
        s += ' ';
        s += level_name(l.kind);
        s += '(' + std::to_string(l.groups.size()) + ')';
    }
    s += "; s=" + std::to_string(t.s) + " q=" + std::to_string(t.q);
    return s;
}

}  // namespace hmpi::coll
