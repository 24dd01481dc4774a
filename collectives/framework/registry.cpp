// Choosing a collective's algorithm: the forced one (HMPI_<COLL>_ALGORITHM)
// when it applies, else the first applicable one in the table.
#include "collectives/framework/registry.hpp"

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "base/config.hpp"
#include "base/log.hpp"
#include "collectives/framework/tables.hpp"

namespace hmpi::coll {

namespace {

std::span<const CollAlgorithm> intra_table(CollKind k) {
    switch (k) {
        case CollKind::barrier: return barrier_algorithms();
        case CollKind::bcast: return bcast_algorithms();
        case CollKind::gather: return gather_algorithms();
        case CollKind::gatherv: return gatherv_algorithms();
        case CollKind::scatter: return scatter_algorithms();
        case CollKind::scatterv: return scatterv_algorithms();
        case CollKind::allgather: return allgather_algorithms();
        case CollKind::allgatherv: return allgatherv_algorithms();
        case CollKind::alltoall: return alltoall_algorithms();
        case CollKind::alltoallv: return alltoallv_algorithms();
        case CollKind::alltoallw: return alltoallw_algorithms();
        case CollKind::reduce: return reduce_algorithms();
        case CollKind::allreduce: return allreduce_algorithms();
        case CollKind::reduce_scatter: return reduce_scatter_algorithms();
        case CollKind::reduce_scatter_block: return reduce_scatter_block_algorithms();
        case CollKind::scan: return scan_algorithms();
        case CollKind::exscan: return exscan_algorithms();
        case CollKind::neighbor_allgather: return neighbor_allgather_algorithms();
        case CollKind::neighbor_allgatherv: return neighbor_allgatherv_algorithms();
        case CollKind::neighbor_alltoall: return neighbor_alltoall_algorithms();
        case CollKind::neighbor_alltoallv: return neighbor_alltoallv_algorithms();
        case CollKind::neighbor_alltoallw: return neighbor_alltoallw_algorithms();
        case CollKind::count_: break;
    }
    return {};
}

// Per collective: the intercommunicator algorithms, then the others; and
// the forced algorithm's index (-1: none), from runtime config.
struct Tables {
    std::vector<CollAlgorithm> algorithms[kCollKinds];
    int forced[kCollKinds];
    std::atomic<bool> fallback_noticed[kCollKinds] = {};

    Tables() {
        for (int i = 0; i < kCollKinds; ++i) {
            const auto k = static_cast<CollKind>(i);
            for (const CollAlgorithm& a : inter_algorithms(k)) algorithms[i].push_back(a);
            for (const CollAlgorithm& a : intra_table(k)) algorithms[i].push_back(a);
            forced[i] = -1;
        }
        for (const auto& [coll, name] : config().forced_algorithms) {
            CollKind k;
            if (!coll_kind_from_name(coll, &k)) {
                std::string valid;
                for (int i = 0; i < kCollKinds; ++i) valid += std::string(i ? ", " : "") + coll_name(static_cast<CollKind>(i));
                die("HMPI_%s_ALGORITHM: there is no collective '%s' (valid: %s)", upper(coll).c_str(), coll.c_str(),
                    valid.c_str());
            }
            const auto& list = algorithms[static_cast<int>(k)];
            int found = -1;
            std::string valid;
            for (std::size_t j = 0; j < list.size(); ++j) {
                if (name == list[j].name) found = static_cast<int>(j);
                valid += std::string(j ? ", " : "") + list[j].name;
            }
            if (found < 0)
                die("HMPI_%s_ALGORITHM=%s: %s has no algorithm of that name (valid: %s)", upper(coll).c_str(),
                    name.c_str(), coll.c_str(), valid.c_str());
            forced[static_cast<int>(k)] = found;
        }
    }

    static std::string upper(std::string s) {
        for (char& c : s) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
        return s;
    }
};

Tables& tables() {
    static Tables* t = new Tables;  // never destroyed: collectives may run during exit
    return *t;
}

}  // namespace

std::span<const CollAlgorithm> algorithms_of(CollKind k) noexcept {
    const auto& v = tables().algorithms[static_cast<int>(k)];
    return {v.data(), v.size()};
}

const CollAlgorithm& select_algorithm(CollKind k, const CollCtx& ctx) {
    Tables& t = tables();
    const int i = static_cast<int>(k);
    const auto& list = t.algorithms[i];
    const char* forced_why = nullptr;
    if (t.forced[i] >= 0) {
        const CollAlgorithm& a = list[static_cast<std::size_t>(t.forced[i])];
        const char* why = "it does not apply";
        if (a.applicable(ctx, &why)) return a;
        forced_why = why;
    }
    for (const CollAlgorithm& a : list) {
        const char* why = nullptr;
        if (!a.applicable(ctx, &why)) continue;
        if (forced_why && !t.fallback_noticed[i].exchange(true))
            report_event("notice: HMPI_%s_ALGORITHM=%s cannot run this call (%s); using %s instead (said once)",
                         Tables::upper(coll_name(k)).c_str(), list[static_cast<std::size_t>(t.forced[i])].name,
                         forced_why, a.name);
        return a;
    }
    die("internal error: no algorithm of %s applies (communicator of %d ranks%s)", coll_name(k), ctx.size(),
        ctx.comm().is_inter() ? ", intercommunicator" : "");
}

bool always_applicable(const CollCtx&, const char**) { return true; }

bool intra_only(const CollCtx& ctx, const char** why) {
    if (!ctx.comm().is_inter()) return true;
    *why = "the communicator is an intercommunicator";
    return false;
}

bool inter_only(const CollCtx& ctx, const char** why) {
    if (ctx.comm().is_inter()) return true;
    *why = "the communicator is not an intercommunicator";
    return false;
}

}  // namespace hmpi::coll
