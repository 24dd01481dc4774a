// Choosing a collective's algorithm: the forced one (HMPI_<COLL>_ALGORITHM)
// when it applies, else the applicable one the model predicts fastest; the
// ranking is cached per communicator, collective and size range.
#include "collectives/framework/registry.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "base/config.hpp"
#include "base/log.hpp"
#include "collectives/framework/shared.hpp"
#include "collectives/framework/tables.hpp"
#include "core/comm.hpp"
#include "core/op.hpp"

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
            // The decision cache packs indices in 4 bits (shared.hpp).
            if (algorithms[i].size() > 15) die("internal error: %s has more than 15 algorithms", coll_name(k));
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

std::size_t size_range_low(int range) noexcept {
    if (range <= 0) return 0;
    const int k = (range - 1) / 2;
    return static_cast<std::size_t>(std::ceil(std::ldexp((range - 1) % 2 ? std::sqrt(2.0L) : 1.0L, k)));
}

std::size_t size_range_representative(int range) noexcept { return size_range_low(range); }

namespace {
// Sorts `v` by key (stable), then each run of keys within kTieRelative of
// the one before by `tie_less`: rounding, not the model, separates them.
template <class T, class Key, class TieLess>
void sort_with_ties(std::vector<T>& v, Key key, TieLess tie_less) {
    std::stable_sort(v.begin(), v.end(), [&](const T& x, const T& y) { return key(x) < key(y); });
    for (std::size_t i = 0; i < v.size();) {
        std::size_t j = i + 1;
        while (j < v.size() && key(v[j]) != std::numeric_limits<double>::infinity() &&
               key(v[j]) - key(v[j - 1]) <= kTieRelative * key(v[j]))
            ++j;
        std::sort(v.begin() + static_cast<std::ptrdiff_t>(i), v.begin() + static_cast<std::ptrdiff_t>(j), tie_less);
        i = j;
    }
}
}  // namespace

std::vector<Prediction> predict(CollKind k, const CostQuery& asked) {
    // More ranks than CPUs: the same formulas with each handoff's CPU
    // switches (and no copy-in storms: oversubscribed_params).
    const bool switching = asked.topo.ranks_per_cpu > 1;
    const ModelParams adjusted = switching ? oversubscribed_params(asked.params, asked.topo.ranks_per_cpu) : ModelParams{};
    const CostQuery q{switching ? adjusted : asked.params, asked.topo, asked.kind, asked.bytes, asked.commutative};
    std::vector<Prediction> out;
    for (const CollAlgorithm& a : tables().algorithms[static_cast<int>(k)]) {
        double ns = a.cost ? a.cost(q) : std::numeric_limits<double>::infinity();
        if (!(ns >= 0)) ns = std::numeric_limits<double>::infinity();  // NaN or negative: a broken formula
        // Every call pays the fixed cost of a call once (params.hpp).
        else if (ns != std::numeric_limits<double>::infinity()) ns += q.params.call_overhead;
        out.push_back({&a, ns});
    }
    // Two formulas that describe the same work (at 2 ranks, the ring and
    // the direct Allgather both copy one block) add the same terms in
    // different orders, and the last bits of their sums then pick one at
    // random, size by size. Predictions within kTieRelative of each other
    // rank in table order instead (entries of one table: their addresses
    // are their order), the table's order of preference.
    sort_with_ties(out, [](const Prediction& p) { return p.ns; },
                   [](const Prediction& x, const Prediction& y) { return x.algorithm < y.algorithm; });
    return out;
}

std::vector<Prediction> rank_over_states(CollKind k, const CostQuery& q) {
    std::vector<Prediction> first = predict(k, q);
    if (q.params.other_states.empty()) return first;
    constexpr double inf = std::numeric_limits<double>::infinity();
    // worst[a]: table entry a's highest ratio to the cheapest of a state,
    // among the algorithms of its kind of communicator (intercommunicator
    // algorithms compete only with each other).
    const CollAlgorithm* base = tables().algorithms[static_cast<int>(k)].data();
    std::vector<double> worst(first.size(), 1.0);
    auto fold_in = [&](const std::vector<Prediction>& state) {
        double best[2] = {inf, inf};
        for (const Prediction& p : state) {
            double& b = best[is_intercomm_algorithm(k, *p.algorithm)];
            b = std::min(b, p.ns);
        }
        for (const Prediction& p : state) {
            const double b = best[is_intercomm_algorithm(k, *p.algorithm)];
            double& w = worst[static_cast<std::size_t>(p.algorithm - base)];
            w = std::max(w, p.ns == inf || !(b > 0) ? inf : p.ns / b);
        }
    };
    fold_in(first);
    for (const ModelParams& state : q.params.other_states)
        fold_in(predict(k, CostQuery{state, q.topo, q.kind, q.bytes, q.commutative}));
    // By worst ratio; ratios within kTieRelative in the first state's order.
    std::vector<std::size_t> order(first.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    sort_with_ties(order, [&](std::size_t i) { return worst[static_cast<std::size_t>(first[i].algorithm - base)]; },
                   std::less<std::size_t>());
    std::vector<Prediction> out;
    out.reserve(first.size());
    for (std::size_t i : order) out.push_back(first[i]);
    return out;
}

bool is_intercomm_algorithm(CollKind k, const CollAlgorithm& a) noexcept {
    const auto inter = inter_algorithms(k);
    for (const CollAlgorithm& b : inter)
        if (!std::strcmp(a.name, b.name)) return true;
    return false;
}

const CollAlgorithm* model_choice(CollKind k, const ModelParams& params, const CommTopology& topo, std::size_t bytes,
                                  bool commutative) {
    const CostQuery q{params, topo, k, size_range_representative(size_range_of(bytes)), commutative};
    for (const Prediction& p : rank_over_states(k, q))
        if (p.ns != std::numeric_limits<double>::infinity() && !is_intercomm_algorithm(k, *p.algorithm))
            return p.algorithm;
    return nullptr;
}

namespace {

std::string format_ns(double ns) {
    char b[32];
    if (ns == std::numeric_limits<double>::infinity()) return "-";
    if (ns < 10000) std::snprintf(b, sizeof b, "%.2f us", ns / 1000);
    else std::snprintf(b, sizeof b, "%.1f us", ns / 1000);
    return b;
}

std::string format_bytes(std::size_t n) {
    char b[32];
    if (n >= (1u << 20) && n % (1u << 20) == 0) std::snprintf(b, sizeof b, "%zu MiB", n >> 20);
    else if (n >= 1024 && n % 1024 == 0) std::snprintf(b, sizeof b, "%zu KiB", n >> 10);
    else std::snprintf(b, sizeof b, "%zu B", n);
    return b;
}

void explain_communicator(const CollCtx& ctx) {
    const ModelParams& p = model_params();
    report_event("explain: communicator of %d ranks (context %u): %s", ctx.size(), ctx.comm().shared->context_id,
                 describe(ctx.topology(), p.core_cache_bytes).c_str());
    report_event("explain: model parameters from %s: alpha a=%.0f b=%.2f B=%.2f c=%.2f C=%.2f ns (memory b=%.2f "
                 "B=%.2f c=%.2f C=%.2f); beta a=%.0f b=%.2f B=%.2f c=%.2f C=%.2f ns (memory b=%.2f B=%.2f c=%.2f "
                 "C=%.2f); third buffer alpha r=%.2f R=%.2f (memory %.2f %.2f), beta r=%.2f R=%.2f (memory %.2f %.2f) "
                 "(0: charged b, B), own slices alpha R=%.2f (memory %.2f, in the L2s %.2f), beta R=%.2f (memory %.2f) (0: "
                 "charged R), first %.0f lines of a slice +%.2f ns each; "
                 "in the L2s alpha b=%.2f c=%.2f r=%.2f (0: b, c, r), first %.0f lines of a step +%.2f ns each; "
                 "in the L1s alpha b=%.2f r=%.2f R_slices=%.2f (0: the L2s'); "
                 "rewrite_line=%.2f (%.2f past %.0f lines) source_line=%.3f ns; call overhead %.0f ns; switch_handoff "
                 "%.0f ns (charged per step where ranks share a CPU)",
                 p.source.c_str(), p.alpha.a, p.alpha.b, p.alpha.B, p.alpha.c, p.alpha.C, p.alpha.b_mem, p.alpha.B_mem,
                 p.alpha.c_mem, p.alpha.C_mem, p.beta.a, p.beta.b, p.beta.B, p.beta.c, p.beta.C, p.beta.b_mem,
                 p.beta.B_mem, p.beta.c_mem, p.beta.C_mem, p.alpha.r, p.alpha.R, p.alpha.r_mem, p.alpha.R_mem, p.beta.r,
                 p.beta.R, p.beta.r_mem, p.beta.R_mem, p.alpha.R_slices, p.alpha.R_slices_mem, p.alpha.R_slices_l2,
                 p.beta.R_slices, p.beta.R_slices_mem, p.slice_near_lines, p.slice_near_line, p.alpha.b_l2,
                 p.alpha.c_l2, p.alpha.r_l2, p.near_lines, p.near_line, p.alpha.b_l1, p.alpha.r_l1, p.alpha.R_slices_l1,
                 p.rewrite_line, p.rewrite_line_beyond, p.rewrite_knee,
                 p.source_line, p.call_overhead, p.switch_handoff);
    if (!p.other_states.empty())
        report_event("explain: the profile describes %zu machine states (docs/model.md, \"Machines with more than "
                     "one state\"): the times below are the first state's; each range's order is by the worst "
                     "ratio to the cheapest algorithm of any state",
                     p.other_states.size() + 1);
}

void explain_decision(const CollCtx& ctx, const std::vector<Prediction>& ranked) {
    std::string line;
    for (const Prediction& p : ranked) {
        if (ctx.comm().is_inter() != is_intercomm_algorithm(ctx.call().kind, *p.algorithm)) continue;
        if (!line.empty()) line += ", ";
        line += std::string(p.algorithm->name) + " " + format_ns(p.ns);
    }
    explain_range(ctx, line);
}

}  // namespace

void explain_range(const CollCtx& ctx, const std::string& what) {
    if (!ctx.shared().explained.exchange(true)) explain_communicator(ctx);
    const int range = ctx.size_range();
    const std::string hi = range + 1 < kSizeRanges ? format_bytes(size_range_low(range + 1)) : "...";
    report_event("explain: context %u %s [%s, %s)%s: %s", ctx.comm().shared->context_id, coll_name(ctx.call().kind),
                 format_bytes(size_range_low(range)).c_str(), hi.c_str(), ctx.commutative() ? "" : " non-commutative",
                 what.c_str());
}

namespace {

// The cached ranking for this call's collective, size range and op.
std::uint64_t ranking_for(CollKind k, const CollCtx& ctx) {
    CollShared& shared = ctx.shared();
    const int range = ctx.size_range();
    const bool commutative = ctx.commutative();
    std::atomic<std::uint64_t>& entry = shared.decisions.ranking[static_cast<int>(k)][commutative ? 1 : 0][range];
    std::uint64_t packed = entry.load(std::memory_order_acquire);
    if (packed) return packed;
    const CostQuery q{model_params(), ctx.topology(), k, size_range_representative(range), commutative};
    const std::vector<Prediction> ranked = rank_over_states(k, q);
    const CollAlgorithm* base = tables().algorithms[static_cast<int>(k)].data();
    int shift = 0;
    for (const Prediction& p : ranked) {
        if (shift >= 64) break;
        packed |= static_cast<std::uint64_t>(p.algorithm - base + 1) << shift;
        shift += 4;
    }
    std::uint64_t expected = 0;
    if (entry.compare_exchange_strong(expected, packed, std::memory_order_acq_rel) && config().explain &&
        ctx.size() > 1)
        explain_decision(ctx, ranked);
    return packed;
}

}  // namespace

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
    static_assert(sizeof(std::uint64_t) * 2 >= 15, "ranking packs up to 15 algorithms");
    for (std::uint64_t packed = ranking_for(k, ctx); packed; packed >>= 4) {
        const CollAlgorithm& a = list[static_cast<std::size_t>((packed & 15) - 1)];
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
