// hmpi-info: prints what the runtime would do on this machine, without
// running a program.
//
//   hmpi-info --algorithms             every collective and its algorithms
//   hmpi-info --algorithms COLLECTIVE  one collective's algorithm names, one per line
//                                      (what tests/coll/run-per-algorithm.sh iterates over)
//   hmpi-info --topology [-n NP]       the topology levels of NP ranks bound as hmpirun binds them
//   hmpi-info --params                 the model parameters the runtime would load, and from where
//   hmpi-info --model COLLECTIVE [-n NP] [--sizes LIST] [--non-commutative] [--csv]
//                                      every algorithm's predicted time per size, and the model's pick
//                                      (CSV: collective,algorithm,bytes,predicted_us,chosen)
//   --topology and --model also take
//     --machine SxQ[,l1=SIZE][,l2=SIZE][,l3=SIZE]  a made-up machine instead of this one: S cache
//                                      domains (one L3, NUMA node and package each) of Q
//                                      cores, ranks in core order (sizes take K/M/G)
//     --profile FILE                   model parameters from FILE (hmpi-calibrate's
//                                      output), whatever machine measured them
//   --model also takes
//     --state N                        the predictions of the profile's state N (a profile
//                                      combined from several machine states; 1: the first);
//                                      the pick is the runtime's, made over all the states
// Together they replay the model for a machine measured elsewhere: the
// profile and the benchmark of a 16-core machine can be checked here.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "collectives/framework/kinds.hpp"
#include "collectives/framework/levels.hpp"
#include "collectives/framework/registry.hpp"
#include "collectives/model/cost.hpp"
#include "collectives/model/params.hpp"
#include "collectives/model/profile.hpp"
#include "base/config.hpp"
#include "base/topology.hpp"

namespace {

using namespace hmpi::coll;

int usage() {
    std::fprintf(stderr,
                 "usage: hmpi-info --algorithms [COLLECTIVE]\n"
                 "       hmpi-info --topology [-n NP] [--machine SxQ[,l1=SIZE][,l2=SIZE][,l3=SIZE]]\n"
                 "       hmpi-info --params [--profile FILE]\n"
                 "       hmpi-info --model COLLECTIVE|all [-n NP] [--sizes B1,B2,... (K/M/G allowed)] [--non-commutative] [--csv]\n"
                 "                 [--machine SxQ[,l1=SIZE][,l2=SIZE][,l3=SIZE]] [--profile FILE] [--state N]\n"
                 "  --algorithms             list every collective's algorithms\n"
                 "  --algorithms COLLECTIVE  list one collective's algorithm names, one per line\n"
                 "  --topology               the levels NP ranks (default: one per core) would use\n"
                 "  --params                 the performance model's parameters and their source\n"
                 "  --model                  each algorithm's predicted time per message size and the\n"
                 "                           model's pick; sizes default to 8 B .. 16 MiB (powers of two)\n");
    return 2;
}

bool parse_kind(const char* name, CollKind* k) {
    if (coll_kind_from_name(name, k)) return true;
    std::fprintf(stderr, "hmpi-info: no collective named '%s'\n", name);
    return false;
}

// A made-up machine (--machine): `domains` cache domains of `per_domain`
// cores; 0 sizes mean this machine's caches.
struct MadeUpMachine {
    int domains = 0, per_domain = 0;
    std::size_t l1 = 0, l2 = 0, l3 = 0;
};

bool parse_bytes(const char* s, std::size_t* out) {
    long long v;
    if (!hmpi::parse_scaled_int(s, &v) || v <= 0) return false;
    *out = static_cast<std::size_t>(v);
    return true;
}

// "SxQ[,l1=SIZE][,l2=SIZE][,l3=SIZE]"
bool parse_machine(const std::string& spec, MadeUpMachine* m) {
    std::stringstream in(spec);
    std::string part;
    bool first = true;
    while (std::getline(in, part, ',')) {
        if (first) {
            first = false;
            if (std::sscanf(part.c_str(), "%dx%d", &m->domains, &m->per_domain) != 2 || m->domains < 1 ||
                m->per_domain < 1)
                return false;
        } else if (part.rfind("l1=", 0) == 0) {
            if (!parse_bytes(part.c_str() + 3, &m->l1)) return false;
        } else if (part.rfind("l2=", 0) == 0) {
            if (!parse_bytes(part.c_str() + 3, &m->l2)) return false;
        } else if (part.rfind("l3=", 0) == 0) {
            if (!parse_bytes(part.c_str() + 3, &m->l3)) return false;
        } else return false;
    }
    return !first;
}

CommTopology topology_of(int np, const std::optional<MadeUpMachine>& machine) {
    if (machine) {
        std::vector<RankPlace> places;
        for (int r = 0; r < np; ++r) {
            const int core = r % (machine->domains * machine->per_domain), d = core / machine->per_domain;
            places.push_back({core, core, d, d, d});
        }
        const std::size_t l2 = machine->l2 ? machine->l2 : hmpi::topology_caches().l2_bytes;
        const std::size_t l3 = machine->l3 ? machine->l3 : hmpi::topology_caches().llc_bytes;
        CommTopology t = build_comm_topology(places, l2, l3, false);
        t.l1_bytes = machine->l1 ? machine->l1 : hmpi::topology_caches().l1_bytes;
        t.ranks_per_cpu = hmpi::ranks_per_cpu(np, machine->domains * machine->per_domain);
        return t;
    }
    std::vector<int> world(static_cast<std::size_t>(np));
    for (int r = 0; r < np; ++r) world[static_cast<std::size_t>(r)] = r;
    // As a job of np ranks would see it (hmpi-info's own config counts one).
    CommTopology t = comm_topology_of_world_ranks(world);
    t.ranks_per_cpu = hmpi::ranks_per_cpu(np, hmpi::usable_cpus(hmpi::config().bind));
    return t;
}

std::optional<ModelParams> load_profile(const std::string& path) {
    std::string error;
    std::optional<ModelParams> p = read_profile(path, &error);
    if (!p) std::fprintf(stderr, "hmpi-info: %s: %s\n", path.c_str(), error.c_str());
    else p->source = path;
    return p;
}

void print_params(const ModelParams& p) {
    std::printf("model parameters from %s (topology key %s)\n", p.source.c_str(), p.topology_key.c_str());
    for (std::size_t i = 0; i < p.other_states.size(); ++i)
        std::printf("  and the machine's state %zu (below: state 1's): alpha a = %.1f ns, b = %.2f, c = %.2f ns/line, "
                    "copy_bandwidth %.1f\n",
                    i + 2, p.other_states[i].alpha.a, p.other_states[i].alpha.b, p.other_states[i].alpha.c,
                    p.other_states[i].copy_bandwidth);
    auto link = [](const char* name, const LinkCost& l) {
        std::printf("  %-6s a = %8.1f ns   b = %6.2f ns/line   B = %6.2f ns/line   b_mem = %6.2f   B_mem = %6.2f\n", name,
                    l.a, l.b, l.B, l.b_mem, l.B_mem);
        std::printf("  %-6s %15s   c = %6.2f ns/line   C = %6.2f ns/line   c_mem = %6.2f   C_mem = %6.2f\n", "", "(copy)",
                    l.c, l.C, l.c_mem, l.C_mem);
        if (l.r <= 0) {
            std::printf("  %-6s %15s   not in this profile: reductions into a third buffer charged b, B\n", "",
                        "(third buffer)");
            return;
        }
        std::printf("  %-6s %15s   r = %6.2f ns/line   R = %6.2f ns/line   r_mem = %6.2f   R_mem = %6.2f\n", "",
                    "(third buffer)", l.r, l.R, l.r_mem, l.R_mem);
        if (l.R_slices > 0) {
            std::printf("  %-6s %15s   R_slices = %6.2f ns/line   R_slices_mem = %6.2f (own slices, read by one thread)\n",
                        "", "(third buffer)", l.R_slices, l.R_slices_mem);
            if (l.R_slices_l2 > 0)
                std::printf("  %-6s %15s   R_slices_l2 = %6.2f ns/line (own slices in the L2s; R_slices past them)\n", "",
                            "(third buffer)", l.R_slices_l2);
        } else
            std::printf("  %-6s %15s   no R_slices in this profile: slice folds charged R, R_mem\n", "",
                        "(third buffer)");
        if (l.b_l2 > 0)
            std::printf("  %-6s %15s   b_l2 = %6.2f ns/line   c_l2 = %6.2f   r_l2 = %6.2f (b, c, r: past the L2)\n", "",
                        "(in the L2s)", l.b_l2, l.c_l2, l.r_l2);
        else
            std::printf("  %-6s %15s   not in this profile: b, c, r at every size in cache\n", "", "(in the L2s)");
        if (l.b_l1 > 0 || l.R_slices_l1 > 0)
            std::printf("  %-6s %15s   b_l1 = %6.2f ns/line   r_l1 = %6.2f   R_slices_l1 = %6.2f (0: the L2s' cost)\n",
                        "", "(in the L1s)", l.b_l1, l.r_l1, l.R_slices_l1);
        else
            std::printf("  %-6s %15s   not in this profile: the L2s' costs from a step's first line\n", "",
                        "(in the L1s)");
    };
    link("alpha", p.alpha);
    link("beta", p.beta);
    for (const LevelCost& l : p.levels) link(level_name(l.kind), l.cost);
    std::printf("  copy bandwidth %.2f GB/s (non-temporal %.2f GB/s); call overhead %.0f ns\n", p.copy_bandwidth,
                p.nt_copy_bandwidth, p.call_overhead);
    std::printf("  rewrite_line %.2f ns/line (inline copy-in over lines others hold); source_line %.3f ns/line/reader "
                "(readers meeting at one source)%s\n",
                p.rewrite_line, p.source_line, p.rewrite_line == 0 && p.source_line == 0 ? " [not in this profile]" : "");
    if (p.rewrite_knee > 0 && p.rewrite_line_beyond > 0)
        std::printf("  rewrite_line_beyond %.2f ns/line past rewrite_knee %.0f lines (a copy-in the store buffer no longer "
                    "hides)\n",
                    p.rewrite_line_beyond, p.rewrite_knee);
    else
        std::printf("  rewrite_line_beyond, rewrite_knee: not in this profile (rewrite_line throughout)\n");
    // A round trip's term, or what stands in for it where the profile has none.
    auto round_trip = [](const char* name, double ns, const char* what, const char* without) {
        if (ns > 0) std::printf("  %s %.1f ns (%s)\n", name, ns, what);
        else std::printf("  %s: not in this profile (%s)\n", name, without);
    };
    if (p.fold_stream_line > 0)
        std::printf("  fold_stream_line %.3f ns/line of a rank's vector (past the caches, every slice folded and "
                    "streamed into every receive buffer at once: tiled_push)\n",
                    p.fold_stream_line);
    else
        std::printf("  fold_stream_line: not in this profile (tiled_push's streaming path: its fold and its pushes)\n");
    round_trip("inline_read_first", p.inline_read_first,
               "an inline read past the prefetched lines: one more round trip after the flag", "nothing charged");
    round_trip("rewrite_first", p.rewrite_first,
               "the first store into lines other cores hold: the invalidation's round trip", "a link's a stands in");
    if (p.fold_rewrite_line > 0 && p.fold_rewrite_knee > 0 && p.fold_rewrite_line_beyond > 0)
        std::printf("  fold_rewrite_line %.2f ns/line up to fold_rewrite_knee %.0f lines, fold_rewrite_line_beyond "
                    "%.2f past it (a fold's stores into lines others read; past the knee the readers no longer hold "
                    "them)\n",
                    p.fold_rewrite_line, p.fold_rewrite_knee, p.fold_rewrite_line_beyond);
    else if (p.fold_rewrite_line > 0)
        std::printf("  fold_rewrite_line %.2f ns/line (a fold's stores into lines others read, at every size)\n",
                    p.fold_rewrite_line);
    else
        std::printf("  fold_rewrite_line: not in this profile (a fold into lines others read: rewrite_line while they "
                    "fit the L2)\n");
    if (p.copy_rewrite_bytes > 0 && p.copy_rewrite_line > 0)
        std::printf("  copy_rewrite_line %.2f ns/line from copy_rewrite_bytes %.0f (a copy of that size or more into lines "
                    "others read)\n",
                    p.copy_rewrite_line, p.copy_rewrite_bytes);
    else
        std::printf("  copy_rewrite_line, copy_rewrite_bytes: not in this profile (a copy into lines others read: "
                    "rewrite_line while they fit the L2)\n");
    std::printf("  busy_step %.1f ns per rank beyond two stepping at once (a step of t ranks: a + busy_step (t-2))%s\n",
                p.busy_step, p.busy_step == 0 ? " [not in this profile]" : "");
    std::printf("  step_overhead %.1f ns a step of HMPI's costs beyond a (busy_a = a + step_overhead + busy_step (t-2))%s\n",
                p.step_overhead, p.step_overhead == 0 ? " [not in this profile]" : "");
    std::printf("  poll_line %.1f ns per rank beyond two in a wait for every rank's flag (flat barrier: a + step_overhead + "
                "poll_line (t-2))%s\n",
                p.poll_line, p.poll_line == 0 ? " [not in this profile]" : "");
    std::printf("  push_line %.3f ns/line/thread (t threads storing into lines their neighbours read; push alltoall)%s\n",
                p.push_line, p.push_line == 0 ? " [not in this profile: C]" : "");
    std::printf("  push_line_beyond %.3f ns/line/thread (the same pushes past the L2, within the cache)%s\n",
                p.push_line_beyond, p.push_line_beyond == 0 ? " [not in this profile: C]" : "");
    std::printf("  push_held_line %.3f ns/pushed line (tiled_push's pushes into lines it holds, beside its fold)%s\n",
                p.push_held_line, p.push_held_line == 0 ? " [not in this profile: 0]" : "");
    std::printf("  rewrite_all_line %.3f ns/line/sharer (every rank's copy-in at once into lines others read)%s\n",
                p.rewrite_all_line, p.rewrite_all_line == 0 ? " [not in this profile: rewrite_line]" : "");
    std::printf("  claim_line %.1f ns per claim (every rank taking work from one counter; split bcast)%s\n",
                p.claim_line, p.claim_line == 0 ? " [not in this profile: claims free]" : "");
    std::printf("  near_line %.3f ns more for each of a step's first %.0f lines (one reader, its source waiting)%s\n",
                p.near_line, p.near_lines, p.near_line == 0 ? " [not in this profile: none]" : "");
    std::printf("  slice_near_line %.3f ns more for each of a slice fold's first %.0f lines a rank%s\n",
                p.slice_near_line, p.slice_near_lines, p.slice_near_line == 0 ? " [not in this profile: none]" : "");
    std::printf("  peer_args %.1f ns per peer whose arguments a rank reaches (its CollCall, before its buffer)%s\n",
                p.peer_args, p.peer_args == 0 ? " [not in this profile]" : "");
    std::printf("  switch_handoff %.1f ns per flag handoff between two ranks sharing one CPU%s\n", p.switch_handoff,
                p.switch_handoff == 0 ? " [not in this profile]" : "");
    if (p.core_cache_bytes > 0)
        std::printf("  core_cache_bytes %zu (%.1f MiB one core keeps at cache speed)\n", p.core_cache_bytes,
                    static_cast<double>(p.core_cache_bytes) / (1 << 20));
    else std::printf("  core_cache_bytes [not in this profile: hwloc's cache sizes]\n");
    if (p.nt_copy_from > 0)
        std::printf("  nt_copy_from %zu (%.1f MiB a rank from which copies into result buffers store non-temporally; "
                    "their lines at nt_copy_ratio %.3f of memcpy's)\n",
                    p.nt_copy_from, static_cast<double>(p.nt_copy_from) / (1 << 20), p.nt_copy_ratio);
    else std::printf("  nt_copy_from [not in this profile: non-temporal stores past the cache only]\n");
}

int model(const std::vector<CollKind>& kinds, int np, std::vector<std::size_t> sizes, bool commutative, bool csv,
          const ModelParams& params, const CommTopology& topo, int state) {
    // The predictions shown: state `state`'s (1: the first); the pick is made over all.
    const ModelParams& shown = state <= 1 ? params : params.other_states[static_cast<std::size_t>(state - 2)];
    if (csv) std::printf("collective,algorithm,bytes,predicted_us,chosen\n");
    else {
        print_params(params);
        std::printf("%s\n", describe(topo, params.core_cache_bytes).c_str());
        if (!params.other_states.empty())
            std::printf("the profile describes %zu machine states; predictions of state %d (--state N); the pick "
                        "(*) is the algorithm whose worst ratio to the cheapest of any state is lowest\n",
                        params.other_states.size() + 1, std::max(state, 1));
    }
    for (CollKind k : kinds) {
        std::vector<std::size_t> sz = sizes;
        if (sz.empty()) {
            if (k == CollKind::barrier) sz = {0};
            else
                for (std::size_t b = 8; b <= (16u << 20); b *= 2) sz.push_back(b);
        }
        std::vector<const CollAlgorithm*> algs;
        for (const CollAlgorithm& a : algorithms_of(k))
            if (!is_intercomm_algorithm(k, a)) algs.push_back(&a);
        if (!csv) {
            std::printf("\n%s, %d ranks%s (predicted us; * = the model's pick)\n%10s", coll_name(k), np,
                        commutative ? "" : ", non-commutative op", "bytes");
            for (const CollAlgorithm* a : algs) std::printf(" %20s", a->name);
            std::printf("\n");
        }
        for (std::size_t bytes : sz) {
            const CostQuery q{shown, topo, k, bytes, commutative};
            const CollAlgorithm* pick = model_choice(k, params, topo, bytes, commutative);
            // The runtime's predictions (predict: the formula plus the call overhead).
            const std::vector<Prediction> predicted = predict(k, q);
            if (!csv) std::printf("%10zu", bytes);
            for (const CollAlgorithm* a : algs) {
                double ns = std::numeric_limits<double>::infinity();
                for (const Prediction& pr : predicted)
                    if (pr.algorithm == a) ns = pr.ns;
                const bool finite = std::isfinite(ns);
                if (csv) {
                    if (finite) std::printf("%s,%s,%zu,%.4f,%d\n", coll_name(k), a->name, bytes, ns / 1000, a == pick);
                    else std::printf("%s,%s,%zu,,%d\n", coll_name(k), a->name, bytes, a == pick);
                } else {
                    char cell[32];
                    if (finite) std::snprintf(cell, sizeof cell, "%.3f%s", ns / 1000, a == pick ? "*" : "");
                    else std::snprintf(cell, sizeof cell, "-");
                    std::printf(" %20s", cell);
                }
            }
            if (!csv) std::printf("\n");
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return usage();
    const std::string cmd = argv[1];
    if (cmd == "--algorithms") {
        if (argc > 3) return usage();
        if (argc == 3) {
            CollKind k;
            if (!parse_kind(argv[2], &k)) return 2;
            for (const CollAlgorithm& a : algorithms_of(k)) std::printf("%s\n", a.name);
            return 0;
        }
        for (int i = 0; i < kCollKinds; ++i) {
            const auto k = static_cast<CollKind>(i);
            std::printf("%s (HMPI_", coll_name(k));
            for (const char* c = coll_name(k); *c; ++c) std::putchar(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
            std::printf("_ALGORITHM):\n");
            for (const CollAlgorithm& a : algorithms_of(k)) std::printf("  %-22s %s\n", a.name, a.description);
        }
        return 0;
    }
    // Options shared by --topology and --model.
    int np = 0;
    std::vector<std::size_t> sizes;
    bool commutative = true, csv = false;
    int state = 1;
    std::vector<CollKind> kinds;
    std::optional<MadeUpMachine> machine;
    std::optional<ModelParams> profile;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "-n" && i + 1 < argc) {
            np = std::atoi(argv[++i]);
            if (np < 1) return usage();
        } else if (a == "--sizes" && i + 1 < argc) {
            // Comma-separated byte counts, each with an optional K/M/G.
            const std::string list = argv[++i];
            for (std::size_t at = 0; at <= list.size();) {
                const std::size_t comma = std::min(list.find(',', at), list.size());
                const std::string one = list.substr(at, comma - at);
                long long v = 0;
                if (!hmpi::parse_scaled_int(one.c_str(), &v) || v < 0) {
                    std::fprintf(stderr, "hmpi-info: bad size '%s' in --sizes (want B1,B2,... with optional K/M/G)\n",
                                 one.c_str());
                    return 2;
                }
                sizes.push_back(static_cast<std::size_t>(v));
                at = comma + 1;
            }
        } else if (a == "--machine" && i + 1 < argc) {
            machine.emplace();
            if (!parse_machine(argv[++i], &*machine)) {
                std::fprintf(stderr, "hmpi-info: bad --machine '%s' (want SxQ[,l1=SIZE][,l2=SIZE][,l3=SIZE])\n",
                             argv[i]);
                return 2;
            }
        } else if (a == "--profile" && i + 1 < argc) {
            profile = load_profile(argv[++i]);
            if (!profile) return 2;
        } else if (cmd == "--model" && a == "--state" && i + 1 < argc) {
            state = std::atoi(argv[++i]);
            if (state < 1) {
                std::fprintf(stderr, "hmpi-info: bad --state '%s' (1, 2, ...)\n", argv[i]);
                return 2;
            }
        } else if (a == "--non-commutative") commutative = false;
        else if (a == "--csv") csv = true;
        else if (cmd == "--model" && kinds.empty() && a == "all") {
            for (int k = 0; k < kCollKinds; ++k) kinds.push_back(static_cast<CollKind>(k));
        } else if (cmd == "--model" && kinds.empty()) {
            CollKind k;
            if (!parse_kind(argv[i], &k)) return 2;
            kinds.push_back(k);
        } else return usage();
    }
    if (np == 0) np = machine ? machine->domains * machine->per_domain : std::max(1, hmpi::topology_core_count());
    if (cmd == "--topology") {
        std::printf("%s\n", describe(topology_of(np, machine)).c_str());
        return 0;
    }
    const ModelParams& params = profile ? *profile : model_params();
    if (cmd == "--params") {
        print_params(params);
        return 0;
    }
    if (static_cast<std::size_t>(state) > params.other_states.size() + 1) {
        std::fprintf(stderr, "hmpi-info: --state %d: the profile (%s) describes %zu state(s)\n", state,
                     params.source.c_str(), params.other_states.size() + 1);
        return 2;
    }
    if (cmd == "--model" && !kinds.empty())
        return model(kinds, np, sizes, commutative, csv, params, topology_of(np, machine), state);
    return usage();
}
