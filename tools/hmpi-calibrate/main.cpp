// hmpi-calibrate: measures the Li-Hoefler model parameters on this machine
// and writes them as a profile the runtime loads to choose collective
// algorithms (docs/model.md).
//
//   hmpi-calibrate [--quick] [--output PATH] [--print]
//   hmpi-calibrate --check PATH
//
// Per link (alpha: two cores in one cache domain; beta: two cache domains;
// and every level where cores meet, e.g. L2, L3, NUMA, socket, node) it
// measures a, b and b_mem with one writer and one reader, and B and B_mem
// with t readers at once, the reader(s) reducing the lines; then r, r_mem,
// R and R_mem the same way with the reader(s) reducing them into a third
// buffer (and R_slices, R_slices_mem with t readers whose own input nobody
// else reads); then c, c_mem, C and C_mem with the reader(s) copying them; then one
// thread's copy bandwidth, temporal and non-temporal, and the call overhead.
// Progress goes to stderr, one line per measurement. A step during which
// other work took CPU time runs again (quiet_step).
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <unistd.h>

#include "collectives/allreduce/knobs.hpp"
#include "collectives/model/params.hpp"
#include "collectives/model/profile.hpp"
#include "measure.hpp"

namespace {

using namespace hmpi;
using namespace hmpi::calibrate;
using coll::LevelKind;
using coll::LinkCost;

constexpr const char* kToolVersion = "hmpi-calibrate 23";
constexpr std::size_t kLine = 64;

struct Options {
    bool quick = false;
    bool print = false;
    std::string output;  // "" = the default location
    std::string check;   // --check PATH
    std::vector<std::string> combine;  // --combine FIRST OTHER...
};

int usage() {
    std::fprintf(stderr,
                 "usage: hmpi-calibrate [--quick] [--output PATH] [--print]\n"
                 "       hmpi-calibrate --check PATH\n"
                 "       hmpi-calibrate --combine FIRST OTHER... [--output PATH] [--print]\n"
                 "  --quick        fewer sizes and rounds (seconds; for tests), less precise\n"
                 "  --output PATH  where to write the profile (default: %s)\n"
                 "  --print        print the profile to stdout (writes a file only with --output)\n"
                 "  --check PATH   parse a profile and check that its values are sane and that it\n"
                 "                 was measured on this machine's topology; exit status 1 if not\n"
                 "  --combine      one profile of a machine that changes state (a virtual machine whose\n"
                 "                 speeds change for seconds at a time) from profiles calibrated in each\n"
                 "                 state: FIRST's parameters, then each OTHER's as state 2, 3, ...; the\n"
                 "                 runtime then picks the algorithm least behind the best in any state\n",
                 coll::default_profile_path().c_str());
    return 2;
}

// Progress: "hmpi-calibrate: [i/n] what: ..." on stderr.
int g_step = 0, g_steps = 0;
void progress(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void progress(const char* fmt, ...) {
    std::fprintf(stderr, "hmpi-calibrate: ");
    if (g_step > 0) std::fprintf(stderr, "[%d/%d] ", g_step, g_steps);
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
    std::fputc('\n', stderr);
}

std::string mib(std::size_t bytes) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
    return b;
}

const char* level_key(LevelKind k) {
    switch (k) {
        case LevelKind::core: return "core";
        case LevelKind::l2: return "l2";
        case LevelKind::l3: return "l3";
        case LevelKind::numa: return "numa";
        case LevelKind::socket: return "socket";
        case LevelKind::node: return "node";
    }
    return "node";
}

// One link to measure: two cores whose innermost common level is `kind`,
// and the cores of the congested ring (every hop of the ring crosses
// `kind` where the link is across domains).
struct LinkPlan {
    LevelKind kind;
    std::string name;  // for progress and comments, e.g. "L3 (alpha)"
    int writer, reader;
    std::vector<int> ring;
};

// Geometric sizes 1, f, f^2, ... <= max_lines (always including max_lines).
std::vector<std::size_t> geometric(std::size_t max_lines, std::size_t factor) {
    std::vector<std::size_t> v;
    for (std::size_t m = 1; m < max_lines; m *= factor) v.push_back(m);
    v.push_back(std::max<std::size_t>(max_lines, 1));
    return v;
}

struct Plan {
    bool quick;
    std::size_t cache_ws;  // largest in-cache working set
    std::size_t l2_bytes;  // one core's L2 (0: unknown): where the one-reader sweeps split
    std::size_t l1_bytes;  // one core's L1d (0: unknown): where they split again
    std::vector<std::size_t> mem_ws;  // working sets beyond every cache (may be empty)
    std::string no_mem_why;           // why mem_ws is empty (for notes)
    double target_ns;      // time per in-cache size
    int min_rounds, max_rounds, mem_rounds;
    int passes;  // sweeps over the in-cache sizes; per size the median across them
};

// Runs a sweep `passes` times (interleaving the sizes' repetitions, so that
// a burst of other load hits one pass, not one size) and returns, per size,
// the median across passes.
template <class Sweep>
std::vector<double> over_passes(int passes, Sweep sweep) {
    std::vector<std::vector<double>> all;
    for (int i = 0; i < passes; ++i) all.push_back(sweep());
    std::vector<double> med(all[0].size());
    for (std::size_t s = 0; s < med.size(); ++s) {
        std::vector<double> v;
        for (const auto& r : all) v.push_back(r[s]);
        med[s] = median(std::move(v));
    }
    return med;
}

Rounds rounds_for(const Plan& plan, const std::vector<std::size_t>& lines) {
    Rounds r;
    r.min_rounds = plan.min_rounds;
    r.budget_ns = 2 * plan.target_ns;
    for (std::size_t m : lines) {
        // A guess of a round's time (400 ns + 4 ns per line) sets the count;
        // the medians do not depend on it being right.
        const double est = 400.0 + 4.0 * static_cast<double>(m);
        r.rounds.push_back(
            static_cast<int>(std::clamp(plan.target_ns / est, double(plan.min_rounds), double(plan.max_rounds))));
    }
    return r;
}

std::string joined(const std::vector<double>& v) {
    std::string s;
    for (double d : v) s += (s.empty() ? "" : ", ") + std::to_string(static_cast<long long>(d));
    return s;
}

// What one kernel's measurements give: the four per-line costs of a link
// (b, B, b_mem, B_mem for the reduction; r, R, r_mem, R_mem for the
// reduction into a third buffer; c, C, c_mem, C_mem for the copy).
struct KernelSpec {
    Kernel kernel;
    int index;          // into LinkResult's per-kernel arrays
    int buffers;        // buffers of the pair's working set (the reader's own, the writer's)
    const char* step;   // "reduction", "copy" (progress: "ns per <step> step")
    const char* verb;   // "reduces", "copies"
    const char* doing;  // "reducing", "copying"
    const char* one;    // field names, for progress and notes
    const char* many;
    const char* one_mem;
    const char* many_mem;
    double LinkCost::*f_one;
    double LinkCost::*f_many;
    double LinkCost::*f_one_mem;
    double LinkCost::*f_many_mem;
    double LinkCost::*f_one_l2;  // the one-reader cost while the data stay in the L2s (format 18)
    double LinkCost::*f_one_l1;  // the same in the L1s (format 22; null: the copy, whose sweep shows no step there)
};
constexpr KernelSpec kReduce{Kernel::reduce, 0, 2, "reduction", "reduces", "reducing", "b", "B", "b_mem", "B_mem",
                             &LinkCost::b, &LinkCost::B, &LinkCost::b_mem, &LinkCost::B_mem, &LinkCost::b_l2,
                             &LinkCost::b_l1};
constexpr KernelSpec kReduce3{Kernel::reduce3, 2, 3, "third-buffer reduction", "reduces into a third buffer",
                              "reducing into a third buffer", "r", "R", "r_mem", "R_mem", &LinkCost::r, &LinkCost::R,
                              &LinkCost::r_mem, &LinkCost::R_mem, &LinkCost::r_l2, &LinkCost::r_l1};
// The congested third-buffer fold of disjoint slices: ring only; its one-
// thread costs are r and r_mem (the pair measurement is the same kernel).
constexpr KernelSpec kReduce3Slices{Kernel::reduce3_slices, 3, 3, "third-buffer reduction of own slices",
                                    "reduces into a third buffer", "reducing its own slice into a third buffer", "r",
                                    "R_slices", "r_mem", "R_slices_mem", &LinkCost::r, &LinkCost::R_slices,
                                    &LinkCost::r_mem, &LinkCost::R_slices_mem, &LinkCost::r_l2, &LinkCost::r_l1};
constexpr KernelSpec kCopy{Kernel::copy, 1, 2, "copy", "copies", "copying", "c", "C", "c_mem", "C_mem",
                           &LinkCost::c, &LinkCost::C, &LinkCost::c_mem, &LinkCost::C_mem, &LinkCost::c_l2,
                           nullptr};

struct LinkResult {
    LinkCost cost;
    double handoff = 0;         // one flag handoff, ns (the reduction's sweep)
    double fit_error[4] = {};   // per kernel: largest relative residual of the one-reader fit
    double ring_error[4] = {};  // per kernel: the same for the congested fit
    double copy_intercept = 0;  // the copy fit's intercept (information; `a` is the reduction fit's)
    double reduce3_intercept = 0;  // the same for the third-buffer reduction's fit
    int t = 0;                  // readers in the congested measurement
    // The one-reader sweeps split at the L2 (split_at_l2), per kernel index
    // (reduce, copy, reduce3): found, the in-L2 slope, and each size's step
    // less a, to price the lines past the L2 once the near excess is known.
    struct Split {
        bool found = false;
        double l2 = 0;
        std::vector<double> beyond_x, beyond_y;
        double l1 = 0;  // the in-L1 slope (split_at_l1; 0: none)
    } split[3];
    double slices_l1 = 0;  // the slices ring's in-L1 slope a thread (0: none)
    double near_line = 0, near_lines = 0;  // the reduction sweep's near excess (params.hpp)
    double slice_near_line = 0, slice_near_lines = 0;  // the slices ring's (params.hpp)
    std::vector<std::string> notes;
};

// Lines per buffer so that `buffers` buffers make working set `ws`.
std::size_t lines_for(std::size_t ws, std::size_t buffers) { return std::max<std::size_t>(ws / (buffers * kLine), 1); }

// One writer, one reader, in cache: the per-line cost b, r or c, and `a`
// and the flag handoff from the reduction's sweep. The other kernels'
// sweeps have their own size 0 too: their steps are their round trips less
// the handoff measured in the same sweep (on a loaded machine the handoff
// of another sweep can exceed a whole 1-line round trip), but only their
// slopes are parameters.
void measure_pair(const Plan& plan, const LinkPlan& link, double clk, const KernelSpec& k, LinkResult& res) {
    ++g_step;
    const bool reduce = k.kernel == Kernel::reduce;
    std::vector<std::size_t> lines = {0};
    // The other sweeps have fewer sizes in --quick: their slopes are all they give.
    const std::size_t factor = plan.quick ? (reduce ? 4 : 16) : 2;
    for (std::size_t m : geometric(lines_for(plan.cache_ws, k.buffers), factor)) lines.push_back(m);
    progress("%s: core %d writes, core %d reads and %s, %zu sizes of %zu..%zu lines (working set up to %s)",
             link.name.c_str(), link.writer, link.reader, k.verb, lines.size(), lines.front(), lines.back(),
             mib(k.buffers * lines.back() * kLine).c_str());
    std::vector<double> rt = over_passes(plan.passes, [&] {
        return pair_round_trips(link.writer, link.reader, lines, rounds_for(plan, lines), k.kernel);
    });
    const double handoff = std::max((rt[0] - clk) / 2, 1.0);
    if (reduce) res.handoff = handoff;
    std::vector<double> x, y;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const double step = std::max(rt[i] - clk - handoff, 1.0);
        progress("%s: m=%zu lines: %.1f ns per %s step (%.2f ns/line)", link.name.c_str(), lines[i], step, k.step,
                 step / static_cast<double>(lines[i]));
        x.push_back(static_cast<double>(lines[i]));
        y.push_back(step);
    }
    double a = 0, b = 0;
    std::vector<double> dropped;
    res.fit_error[k.index] = robust_fit(x, y, &a, &b, &dropped);
    if (!dropped.empty())
        progress("%s: left out of the fit (more than 50%% off it, probably interrupted): m = %s lines",
                 link.name.c_str(), joined(dropped).c_str());
    if (b <= 0) b = y.back() / x.back();
    res.cost.*k.f_one = b;
    // The split at the L2 takes the reduction's intercept `a` (set below for
    // the reduction itself, which is measured first).
    const double split_a = reduce ? (a > 0 ? a : std::max(y.front() - b, res.handoff)) : res.cost.a;
    if (k.kernel != Kernel::reduce3_slices) {
        // Without the interrupted sizes: under load, two of four sizes past
        // the L2 once measured 20-40x the others and made their median b 75
        // ns a line. Not without every size the straight fit left out: at
        // stop 55 that took 4096 and 8192 lines, the in-L2 slope's largest
        // sizes, and r_l2 came out 4.86 ns a line against 3.39 with them.
        const std::vector<double> interrupted = interrupted_sizes(x, y, split_a);
        std::vector<double> kx, ky, back;
        for (std::size_t i = 0; i < x.size(); ++i) {
            if (std::find(interrupted.begin(), interrupted.end(), x[i]) != interrupted.end()) continue;
            kx.push_back(x[i]);
            ky.push_back(y[i]);
            if (std::find(dropped.begin(), dropped.end(), x[i]) != dropped.end()) back.push_back(x[i]);
        }
        if (!back.empty())
            progress("%s: kept for the split at the L2 (off the straight fit, not interrupted): m = %s lines",
                     link.name.c_str(), joined(back).c_str());
        const L2Split s = split_at_l2(kx, ky, split_a, k.buffers, plan.l2_bytes);
        LinkResult::Split& out = res.split[k.index];
        out.found = s.found;
        out.l2 = s.l2;
        for (std::size_t i = 0; i < kx.size(); ++i)
            if (k.buffers * kx[i] * static_cast<double>(kLine) / 2 >= static_cast<double>(plan.l2_bytes)) {
                out.beyond_x.push_back(kx[i]);
                out.beyond_y.push_back(ky[i] - split_a);
            }
        if (reduce && s.found && s.excess > 0 && s.near_line > 0) {
            res.near_line = s.near_line;
            res.near_lines = s.excess / s.near_line;
        }
        if (s.found)
            progress("%s: split at the L2: %s_l2 = %.3f ns/line up to half an L2 per core; the first %.0f lines of "
                     "a step %.3f ns more each",
                     link.name.c_str(), k.one, s.l2, s.near_line > 0 && s.excess > 0 ? s.excess / s.near_line : 0.0,
                     s.near_line > 0 && s.excess > 0 ? s.near_line : 0.0);
        // Within the L1s (the reduction's near excess, measured first, taken off as the model charges it).
        if (s.found && k.f_one_l1) {
            const L1Split s1 = split_at_l1(kx, ky, k.buffers * static_cast<double>(kLine) / 2,
                                           static_cast<double>(plan.l1_bytes) / 2, plan.l1_bytes, res.near_line,
                                           res.near_lines, s.l2);
            out.l1 = s1.found ? s1.slope : 0;
            if (s1.found)
                progress("%s: split at the L1: %s_l1 = %.3f ns/line up to half an L1 per core", link.name.c_str(),
                         k.one, s1.slope);
        }
    }
    if (!reduce) {
        (k.kernel == Kernel::copy ? res.copy_intercept : res.reduce3_intercept) = a;
        progress("%s: handoff %.1f ns; %s fit intercept %.1f ns (a stays %.1f ns), %s = %.3f ns/line (largest "
                 "relative error %.0f%%)",
                 link.name.c_str(), handoff, k.step, a, res.cost.a, k.one, b, 100 * res.fit_error[k.index]);
        return;
    }
    if (a <= 0) {
        res.notes.push_back(link.name + ": the fit's intercept was not positive; a = the 1-line step - b");
        a = std::max(y.front() - b, res.handoff);
    }
    res.cost.a = a;
    progress("%s: handoff %.1f ns; fit a = %.1f ns, b = %.3f ns/line (largest relative error %.0f%%)",
             link.name.c_str(), res.handoff, a, b, 100 * res.fit_error[k.index]);
}

// The same beyond the caches: b_mem or c_mem, (step - a) / m.
void measure_pair_mem(const Plan& plan, const LinkPlan& link, double clk, const KernelSpec& k, LinkResult& res) {
    ++g_step;
    const double one = res.cost.*k.f_one;
    if (plan.mem_ws.empty()) {
        res.cost.*k.f_one_mem = one;
        res.notes.push_back(link.name + ": " + plan.no_mem_why + "; " + k.one_mem + " = " + k.one);
        progress("%s: skipped (%s); %s = %s", link.name.c_str(), plan.no_mem_why.c_str(), k.one_mem, k.one);
        return;
    }
    std::vector<std::size_t> ml;
    for (std::size_t ws : plan.mem_ws) ml.push_back(lines_for(ws, k.buffers));
    progress("%s: beyond the caches, %s, %zu size(s) up to %zu lines (working set %s)", link.name.c_str(), k.doing,
             ml.size(), ml.back(), mib(k.buffers * ml.back() * kLine).c_str());
    const Rounds mr{std::vector<int>(ml.size(), plan.mem_rounds), plan.mem_rounds, 1e12, true};
    std::vector<double> mrt = pair_round_trips(link.writer, link.reader, ml, mr, k.kernel);
    std::vector<double> per_line;
    for (std::size_t i = 0; i < ml.size(); ++i) {
        const double step = mrt[i] - clk - res.handoff;
        per_line.push_back((step - res.cost.a) / static_cast<double>(ml[i]));
        progress("%s: m=%zu lines: %.2f ms per %s step (%s %.3f ns/line)", link.name.c_str(), ml[i], step / 1e6,
                 k.step, k.one_mem, per_line.back());
    }
    // The fastest size's rate: each step lasts many time slices (see copy_bandwidths).
    res.cost.*k.f_one_mem = *std::min_element(per_line.begin(), per_line.end());
}

// A congested ring sweep in cache (ring_steps over `rl`, plan.passes
// times, median per size) and the fit of its step over m: the intercept,
// the per-thread slope (the largest size's mean where the fit's is not
// positive) and the largest relative error. `name` and `step` label the
// progress lines.
struct RingFit {
    double a = 0, slope = 0, error = 0;
    std::vector<double> x, y;  // lines a thread, step ns
};
RingFit fit_ring(const Plan& plan, const std::vector<int>& ring, const std::vector<std::size_t>& rl, Kernel kernel,
                 const std::string& name, const char* step) {
    const std::size_t t = ring.size();
    const std::vector<double> steps =
        over_passes(plan.passes, [&] { return ring_steps(ring, rl, rounds_for(plan, rl), kernel); });
    std::vector<double> x, y, dropped;
    for (std::size_t i = 0; i < rl.size(); ++i) {
        progress("%s: t=%zu, m=%zu lines each: %.1f ns per %s step (%.3f ns/line/thread)", name.c_str(), t, rl[i],
                 steps[i], step, steps[i] / static_cast<double>(rl[i] * t));
        x.push_back(static_cast<double>(rl[i]));
        y.push_back(std::max(steps[i], 1.0));
    }
    RingFit f;
    f.error = robust_fit(x, y, &f.a, &f.slope, &dropped);
    if (!dropped.empty())
        progress("%s: left out of the fit (more than 50%% off it, probably interrupted): m = %s lines", name.c_str(),
                 joined(dropped).c_str());
    if (f.slope <= 0) f.slope = y.back() / x.back();
    f.x = std::move(x);
    f.y = std::move(y);
    return f;
}

// Congestion: t readers at once, in cache and beyond: B and B_mem, or C and C_mem.
void measure_ring(const Plan& plan, const LinkPlan& link, const KernelSpec& k, LinkResult& res) {
    ++g_step;
    const std::size_t t = link.ring.size();
    res.t = static_cast<int>(t);
    if (t < 2) {
        res.cost.*k.f_many = res.cost.*k.f_one;
        res.cost.*k.f_many_mem = res.cost.*k.f_one_mem;
        res.notes.push_back(link.name + ": fewer than 2 cores for a congested measurement; " + k.many + " = " + k.one +
                            ", " + k.many_mem + " = " + k.one_mem);
        progress("%s: congestion skipped (one core); %s = %s", link.name.c_str(), k.many, k.one);
        return;
    }
    std::string cores;
    for (int c : link.ring) cores += (cores.empty() ? "" : ",") + std::to_string(c);
    const std::size_t factor = plan.quick ? (k.kernel == Kernel::reduce ? 4 : 16) : 2;
    std::vector<std::size_t> rl = geometric(lines_for(plan.cache_ws, k.buffers * t), factor);
    progress("%s: %zu readers at once (cores %s), each %s its neighbour's lines, %zu sizes of 1..%zu lines",
             link.name.c_str(), t, cores.c_str(), k.doing, rl.size(), rl.back());
    const RingFit fit = fit_ring(plan, link.ring, rl, k.kernel, link.name, k.step);
    const double ra = fit.a, slope = fit.slope;
    res.ring_error[k.index] = fit.error;
    res.cost.*k.f_many = slope / static_cast<double>(t);
    progress("%s: t=%zu: per-thread slope %.3f ns/line, %s = %.3f ns/line (largest relative error %.0f%%)",
             link.name.c_str(), t, slope, k.many, res.cost.*k.f_many, 100 * res.ring_error[k.index]);
    if (k.kernel == Kernel::reduce3_slices) {
        const SliceSplit s = split_slices_at_l2(fit.x, fit.y, k.buffers, plan.l2_bytes, coll::kSliceFoldL2Share);
        if (s.found) {
            res.cost.R_slices_l2 = s.slope / static_cast<double>(t);
            res.slice_near_line = s.near_line;
            res.slice_near_lines = s.near_lines;
            progress("%s: split at the L2: R_slices_l2 = %.3f ns/line up to %.0f%% of an L2 a thread; the first %.0f "
                     "lines of a slice %.3f ns more each",
                     link.name.c_str(), res.cost.R_slices_l2, 100 * coll::kSliceFoldL2Share, s.near_lines,
                     s.near_line);
            const L1Split s1 = split_at_l1(fit.x, fit.y, k.buffers * static_cast<double>(kLine),
                                           coll::kSliceFoldL1Share * static_cast<double>(plan.l1_bytes),
                                           plan.l1_bytes, s.near_line, s.near_lines, s.slope);
            res.slices_l1 = s1.found ? s1.slope / static_cast<double>(t) : 0;
            if (s1.found)
                progress("%s: split at the L1: R_slices_l1 = %.3f ns/line up to %.0f%% of an L1 a thread",
                         link.name.c_str(), res.slices_l1, 100 * coll::kSliceFoldL1Share);
        } else {
            res.notes.push_back(link.name + ": no split at the L2 in the slices ring; R_slices at every size in cache");
        }
    }
    if (plan.mem_ws.empty()) {
        res.cost.*k.f_many_mem = res.cost.*k.f_many;
        return;
    }
    std::vector<std::size_t> ml;
    for (std::size_t ws : plan.mem_ws) ml.push_back(lines_for(ws, k.buffers * t));
    const Rounds mr{std::vector<int>(ml.size(), plan.mem_rounds), plan.mem_rounds, 1e12, true};
    std::vector<double> ms = ring_steps(link.ring, ml, mr, k.kernel);
    std::vector<double> per;
    for (std::size_t i = 0; i < ml.size(); ++i) {
        per.push_back((ms[i] - std::max(ra, 0.0)) / static_cast<double>(ml[i] * t));
        progress("%s: t=%zu beyond the caches, m=%zu lines each: %.2f ms per %s step (%s %.3f ns/line)",
                 link.name.c_str(), t, ml[i], ms[i] / 1e6, k.step, k.many_mem, per.back());
    }
    res.cost.*k.f_many_mem = *std::min_element(per.begin(), per.end());
}

// Where every one-reader sweep split at the L2: b, c and r become the
// lines past the L2 (the median over those sizes of (step - a - the near
// excess) / m) and b_l2, c_l2, r_l2 the in-L2 slopes; elsewhere the
// single fits stay and the link has neither (nor a near excess).
void apply_l2_split(const LinkPlan& link, LinkResult& res) {
    const KernelSpec* kernels[] = {&kReduce, &kCopy, &kReduce3};
    bool all = true;
    for (const KernelSpec* k : kernels) all = all && res.split[k->index].found;
    if (!all) {
        res.near_line = res.near_lines = 0;
        res.notes.push_back(link.name + ": no split at the L2 in every one-reader sweep; b, c, r over all sizes in "
                                        "cache, no b_l2, c_l2, r_l2");
        return;
    }
    const double excess = res.near_line * res.near_lines;
    for (const KernelSpec* k : kernels) {
        const LinkResult::Split& s = res.split[k->index];
        std::vector<double> per;
        for (std::size_t i = 0; i < s.beyond_x.size(); ++i) per.push_back((s.beyond_y[i] - excess) / s.beyond_x[i]);
        const double past = median(std::move(per));
        if (past > 0) res.cost.*k->f_one = past;
        res.cost.*k->f_one_l2 = s.l2;
        progress("%s: %s = %.3f ns/line past the L2, %s_l2 = %.3f within", link.name.c_str(), k->one,
                 res.cost.*k->f_one, k->one, s.l2);
    }
    // The in-L1 costs (format 22): b_l1 and r_l1 together, R_slices_l1 with R_slices_l2.
    const double b1 = res.split[kReduce.index].l1, r1 = res.split[kReduce3.index].l1;
    if (b1 > 0 && r1 > 0) {
        res.cost.b_l1 = b1;
        res.cost.r_l1 = r1;
        if (res.slices_l1 > 0 && res.cost.R_slices_l2 > 0) res.cost.R_slices_l1 = res.slices_l1;
        progress("%s: in the L1s b_l1 = %.3f, r_l1 = %.3f, R_slices_l1 = %.3f ns/line", link.name.c_str(), b1, r1,
                 res.cost.R_slices_l1);
    } else {
        res.notes.push_back(link.name + ": no split at the L1 in the reduction sweeps (or none cheaper than in the "
                                        "L2s); the L2s' costs from a step's first line");
    }
}

// Measurement steps per link (g_steps).
constexpr int kStepsPerLink = 10;

// Every parameter of one link: the reduction's a, b, b_mem, B, B_mem, then
// the third-buffer reduction's r, r_mem, R, R_mem (and, congested only,
// R_slices, R_slices_mem) and the copy's c, c_mem, C, C_mem (both reuse the
// reduction's handoff and a).
LinkResult measure_link(const Plan& plan, const LinkPlan& link, double clk) {
    LinkResult res;
    for (const KernelSpec* k : {&kReduce, &kReduce3, &kCopy}) {
        measure_pair(plan, link, clk, *k, res);
        measure_pair_mem(plan, link, clk, *k, res);
        measure_ring(plan, link, *k, res);
        if (k == &kReduce3) measure_ring(plan, link, kReduce3Slices, res);
    }
    apply_l2_split(link, res);
    return res;
}

// The model's orderings (docs/model.md, "Orderings"): enforced on measured
// values, since noise on a loaded machine can invert close numbers, and each
// adjustment is recorded in the profile.
void enforce_orderings(LinkCost& l, int t, const std::string& name, std::vector<std::string>& notes) {
    auto raise_to = [&](double& v, double lo, const char* what, const char* why) {
        if (v < lo) {
            char b[200];
            std::snprintf(b, sizeof b, "%s.%s %.4g raised to %.4g (%s)", name.c_str(), what, v, lo, why);
            notes.push_back(b);
            v = lo;
        }
    };
    auto lower_to = [&](double& v, double hi, const char* what, const char* why) {
        if (v > hi) {
            char b[200];
            std::snprintf(b, sizeof b, "%s.%s %.4g lowered to %.4g (%s)", name.c_str(), what, v, hi, why);
            notes.push_back(b);
            v = hi;
        }
    };
    const double tt = std::max(t, 1);
    // The same rules for the reduction's costs and the copy's. In this order
    // no rule undoes an earlier one (given the copy is first lowered to the
    // reduction's values, which already obey them).
    auto within_link = [&](const KernelSpec& k) {
        double &one = l.*k.f_one, &many = l.*k.f_many, &one_mem = l.*k.f_one_mem, &many_mem = l.*k.f_many_mem;
        // The congested sweeps' data stay mostly in the L2s: one thread's
        // fastest in-cache cost is its in-L2 one where the link has it.
        const double l2 = l.*k.f_one_l2, fastest = l2 > 0 ? std::min(one, l2) : one;
        raise_to(one_mem, one, k.one_mem, "memory is not faster than cache");
        lower_to(many, one, k.many, "t threads together move lines at least as fast as one");
        raise_to(many, fastest / tt, k.many, "a thread is not faster with others busy");
        raise_to(many_mem, many, k.many_mem, "memory is not faster than cache");
        lower_to(many_mem, one_mem, k.many_mem, "t threads together move lines at least as fast as one");
        raise_to(many_mem, one_mem / tt, k.many_mem, "a thread is not faster with others busy");
    };
    // Each of kernel k's four costs moved to (adjust: raise_to or lower_to)
    // the reduction's counterpart.
    auto against_reduction = [&](const KernelSpec& k, auto adjust, const char* why) {
        adjust(l.*k.f_one, l.*kReduce.f_one, k.one, why);
        adjust(l.*k.f_many, l.*kReduce.f_many, k.many, why);
        adjust(l.*k.f_one_mem, l.*kReduce.f_one_mem, k.one_mem, why);
        adjust(l.*k.f_many_mem, l.*kReduce.f_many_mem, k.many_mem, why);
    };
    within_link(kReduce);
    against_reduction(kReduce3, raise_to, "a reduction into a third buffer moves a line for no less than one in place");
    within_link(kReduce3);
    against_reduction(kReduce3Slices, raise_to,
                      "a reduction into a third buffer moves a line for no less than one in place");
    within_link(kReduce3Slices);
    against_reduction(kCopy, lower_to, "a copy moves a line for no more than a reduction");
    within_link(kCopy);
    if (l.b_l2 > 0 && l.c_l2 > 0 && l.r_l2 > 0) {
        raise_to(l.r_l2, l.b_l2, "r_l2", "a reduction into a third buffer moves a line for no less than one in place");
        lower_to(l.c_l2, l.b_l2, "c_l2", "a copy moves a line for no more than a reduction");
    }
    if (l.b_l1 > 0 && l.r_l1 > 0)
        raise_to(l.r_l1, l.b_l1, "r_l1", "a reduction into a third buffer moves a line for no less than one in place");
}

// The fields of a LinkCost, in profile order (for orderings across links):
// the third-buffer ones last (compared only where both links have them).
constexpr int kRequiredLinkFields = 9;
constexpr struct {
    const char* name;
    double LinkCost::*f;
} kLinkFields[] = {{"a", &LinkCost::a},         {"b", &LinkCost::b},         {"B", &LinkCost::B},
                   {"b_mem", &LinkCost::b_mem}, {"B_mem", &LinkCost::B_mem}, {"c", &LinkCost::c},
                   {"C", &LinkCost::C},         {"c_mem", &LinkCost::c_mem}, {"C_mem", &LinkCost::C_mem},
                   {"r", &LinkCost::r},         {"R", &LinkCost::R},         {"r_mem", &LinkCost::r_mem},
                   {"R_mem", &LinkCost::R_mem}, {"R_slices", &LinkCost::R_slices},
                   {"R_slices_mem", &LinkCost::R_slices_mem}};
constexpr int kFirstSliceLinkField = 13;
static_assert(kLinkFields[kFirstSliceLinkField].f == &LinkCost::R_slices && std::size(kLinkFields) == 15);
bool comparable(const LinkCost& x, const LinkCost& y, int field) {
    if (field >= kFirstSliceLinkField) return x.R_slices > 0 && y.R_slices > 0;
    return field < kRequiredLinkFields || (x.r > 0 && y.r > 0);
}

void at_least(LinkCost& outer, const LinkCost& inner, const std::string& name, std::vector<std::string>& notes) {
    for (int i = 0; i < static_cast<int>(std::size(kLinkFields)); ++i) {
        const auto& [f, m] = kLinkFields[i];
        if (comparable(outer, inner, i) && outer.*m < inner.*m) {
            char b[200];
            std::snprintf(b, sizeof b, "%s.%s %.4g raised to %.4g (a farther link is not cheaper)", name.c_str(), f,
                          outer.*m, inner.*m);
            notes.push_back(b);
            outer.*m = inner.*m;
        }
    }
}

// rewrite_line and source_line (params.hpp): the slope, over a few sizes, of
// a writer's stores to lines every reader of its domain has just copied
// (the inline copy-in: its area is 64 lines from 8 ranks on, up to 256 on
// 2; the slope is per line, with a second slope past a knee:
// rewrite_knee, rewrite_line_beyond), and of the time all
// those readers take to copy distinct lines of one source at once, divided
// by their number. Floors keep both positive (a profile needs that) when
// noise flattens a fit.
void measure_sharers_and_sources(const Plan& plan, int writer, const std::vector<int>& readers,
                                 coll::ModelParams* p, std::vector<std::string>& notes) {
    // The fitted ns per line of `times` over `lines`, with progress and a note.
    auto slope = [&](const char* what, const char* unit, const std::vector<std::size_t>& lines,
                     const std::vector<double>& times, double per) {
        std::vector<double> x, y, dropped;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            x.push_back(static_cast<double>(lines[i]));
            y.push_back(times[i]);
            progress("%s: m=%zu lines: %.1f ns (%.2f %s)", what, lines[i], times[i],
                     times[i] / static_cast<double>(lines[i]) / per, unit);
        }
        double a = 0, b = 0;
        const double err = robust_fit(x, y, &a, &b, &dropped);
        notes.push_back(std::string(what) + ": " + std::to_string(readers.size()) + " reader(s) of core " +
                        std::to_string(writer) + ", fit error <= " + std::to_string(static_cast<int>(100 * err)) + "%");
        return b / per;
    };
    const std::vector<std::size_t> rw = {8, 16, 32, 64, 128, 256}, fo = {16, 64, 256};
    progress("rewrite_line: core %d stores to %zu..%zu lines that %zu reader(s) have just copied", writer,
             rw.front(), rw.back(), readers.size());
    const std::vector<double> rt =
        over_passes(plan.passes, [&] { return rewrite_times(writer, readers, rw, rounds_for(plan, rw)); });
    for (std::size_t i = 0; i < rw.size(); ++i)
        progress("rewrite_line: m=%zu lines: %.1f ns (%.2f ns/line)", rw[i], rt[i], rt[i] / static_cast<double>(rw[i]));
    // One slope up to a knee and one past it (fit_rewrite, measure.hpp).
    // With a knee, rewrite_line is the knee's whole copy-in per line, not
    // the slope below it: the model charges no intercept, and replaying
    // stop 28's 2-rank run, 101 ns / 32 lines = 3.16 put inline's median
    // prediction error at 7-38% per collective against 16-46% with the
    // slope (0.90). A knee must double a line's cost (1.25x before
    // hmpi-calibrate 22), and past it each line costs the slope there (the
    // larger of that and rewrite_line before).
    std::vector<double> rx;
    for (std::size_t n : rw) rx.push_back(static_cast<double>(n));
    const RewriteFit fit = fit_rewrite(rx, rt);
    const bool knee = fit.knee > 0;
    const double best_err = fit.err;
    p->rewrite_line = fit.line;
    // The first store's round trip (params.hpp): the smallest rewrite less
    // its lines at the slope below any knee.
    p->rewrite_first = fit.first;
    progress("rewrite_first = %.1f ns (%zu lines in %.1f ns, %.2f ns/line)", p->rewrite_first, rw[0], rt[0], fit.below);
    if (knee) {
        p->rewrite_knee = fit.knee;
        p->rewrite_line_beyond = fit.beyond;
        progress("rewrite_line = %.2f ns/line up to %.0f lines, %.2f past them", p->rewrite_line, fit.knee,
                 p->rewrite_line_beyond);
    } else {
        progress("rewrite_line = %.2f ns/line (no knee)", p->rewrite_line);
    }
    const std::string knee_note =
        knee ? ", knee at " + std::to_string(static_cast<std::size_t>(fit.knee)) + " lines" : ", no knee";
    notes.push_back("rewrite_line: " + std::to_string(readers.size()) + " reader(s) of core " + std::to_string(writer) +
                    knee_note + ", fit error <= " + std::to_string(static_cast<int>(100 * best_err)) + "%");

    // inline_read_first (params.hpp): the intercept of the reader's copy
    // after the flag, over sizes the runtime's wait does not prefetch.
    {
        const std::vector<std::size_t> il = {16, 32, 64, 128, 256};
        progress("inline_read_first: core %d copies %zu..%zu lines core %d has just copied in, from the flag on",
                 readers.front(), il.front(), il.back(), writer);
        const std::vector<double> it = over_passes(
            plan.passes, [&] { return inline_read_times(writer, readers.front(), il, rounds_for(plan, il)); });
        std::vector<double> x, y, dropped;
        for (std::size_t i = 0; i < il.size(); ++i) {
            progress("inline_read_first: m=%zu lines: %.1f ns after the flag", il[i], it[i]);
            x.push_back(static_cast<double>(il[i]));
            y.push_back(it[i]);
        }
        double a = 0, b = 0;
        const double err = robust_fit(x, y, &a, &b, &dropped);
        p->inline_read_first = std::max(a, 1.0);
        progress("inline_read_first = %.1f ns (then %.2f ns/line)", p->inline_read_first, b);
        notes.push_back("inline_read_first: core " + std::to_string(readers.front()) + " reading core " +
                        std::to_string(writer) + "'s copy-in, fit error <= " +
                        std::to_string(static_cast<int>(100 * err)) + "%");
    }
    progress("source_line: %zu reader(s) copy %zu..%zu distinct lines each from core %d at once", readers.size(),
             fo.front(), fo.back(), writer);
    const std::vector<double> ft =
        over_passes(plan.passes, [&] { return fan_out_steps(writer, readers, fo, rounds_for(plan, fo)); });
    p->source_line = std::max(slope("source_line", "ns/line/reader", fo, ft, static_cast<double>(readers.size())), 0.01);
    progress("source_line = %.3f ns/line/reader", p->source_line);
}

// rewrite_all_line and claim_line (params.hpp), on the t cores of the
// domain the sharers were measured in: every core copying into 8..64 lines
// its t - 1 peers copied (the inline area's 64 lines from 8 ranks on), the
// slope per line and sharer (the intercept is the drain and the clock's
// reads: about 50 ns on 2 cores); and all of them claiming 8 t items from
// one counter, per increment. With write_lines' fill loop instead of the
// copy-in's stores the 2-core guest gave 3.6 in its fast state (2.45 with
// them) and 15.5 in its slow one, and the 16-core Xeon 1.65 (stop 48:
// 25-52 ns a line against bench/pull_patterns' 94-114 with memset).
void measure_all_writers(const Plan& plan, const std::vector<int>& cores, coll::ModelParams* p,
                         std::vector<std::string>& notes) {
    const std::size_t t = cores.size();
    const std::vector<std::size_t> al = {8, 16, 32, 64};
    progress("rewrite_all_line: %zu cores at once store to %zu..%zu lines of their own that the %zu others copied", t,
             al.front(), al.back(), t - 1);
    const std::vector<double> at =
        over_passes(plan.passes, [&] { return all_rewrite_times(cores, al, rounds_for(plan, al)); });
    std::vector<double> x, y, dropped;
    for (std::size_t i = 0; i < al.size(); ++i) {
        x.push_back(static_cast<double>(al[i]));
        y.push_back(at[i]);
        progress("rewrite_all_line: m=%zu lines: %.1f ns (%.2f ns/line)", al[i], at[i],
                 at[i] / static_cast<double>(al[i]));
    }
    double a = 0, b = 0;
    const double err = robust_fit(x, y, &a, &b, &dropped);
    p->rewrite_all_line = std::max(b / static_cast<double>(t - 1), 0.01);
    progress("rewrite_all_line = %.3f ns/line/sharer (slope %.2f ns/line, intercept %.0f ns; rewrite_line %.2f, one "
             "writer)",
             p->rewrite_all_line, b, a, p->rewrite_line);
    notes.push_back("rewrite_all_line: " + std::to_string(t) + " writers at once, fit error <= " +
                    std::to_string(static_cast<int>(100 * err)) + "%");

    const std::size_t claims = 8 * t;
    const int rounds = plan.quick ? 20 : 200;
    std::vector<double> ct;
    for (int pass = 0; pass < std::max(plan.passes, 3); ++pass) ct.push_back(claim_time(cores, claims, rounds));
    std::sort(ct.begin(), ct.end());
    p->claim_line = std::max(ct[ct.size() / 2], 0.1);
    progress("claim_line = %.1f ns per claim (%zu cores taking %zu items from one counter, median of %zu passes)",
             p->claim_line, t, claims, ct.size());
    notes.push_back("claim_line: " + std::to_string(t) + " cores claiming " + std::to_string(claims) +
                    " items at once, median of " + std::to_string(ct.size()) + " passes");
}

// Per size, the median over at least three passes of `sweep(true)` and of
// `sweep(false)`, the two alternating within each pass so that a change of
// the machine's speed hits both: the two sides of a difference
// (fold_rewrite_line and copy_rewrite: into lines others read and into
// lines of its own; peer_args: chased and direct).
template <class Sweep>
std::vector<std::pair<double, double>> alternating_medians(const Plan& plan, std::size_t sizes, Sweep sweep) {
    std::vector<std::vector<double>> shared(sizes), own(sizes);
    for (int i = 0; i < std::max(plan.passes, 3); ++i) {
        const std::vector<double> s = sweep(true), o = sweep(false);
        for (std::size_t k = 0; k < sizes; ++k) shared[k].push_back(s[k]), own[k].push_back(o[k]);
    }
    std::vector<std::pair<double, double>> out;
    for (std::size_t k = 0; k < sizes; ++k) {
        std::sort(shared[k].begin(), shared[k].end());
        std::sort(own[k].begin(), own[k].end());
        out.emplace_back(shared[k][shared[k].size() / 2], own[k][own[k].size() / 2]);
    }
    return out;
}

// fold_rewrite_line (params.hpp): the writer folding its input and one
// its first reader rewrites (measure.hpp) into lines its readers copied
// the round before, less the same fold into lines of its own, both sweeps
// alternating within each pass (as peer_args'); the slope of the
// difference per line. With the L2's size known, the sizes come from both
// sides of fold_rewrite_knee = L2 / (3 x 64 B), the vector a reader still
// holds with its copy and its next input (params.hpp): the slope over the
// sizes below it is fold_rewrite_line, the median difference per line at
// 4 and 8 knees (well past the L2: the first reader copies m lines and
// rewrites m each round, 2 m) fold_rewrite_line_beyond. Without
// it one slope over 256..16384 lines, at every size (format 12's rule).
// Not written (no term) where the fold into shared lines is no dearer.
void measure_fold_rewrite(const Plan& plan, int writer, const std::vector<int>& readers, std::size_t l2_bytes,
                          coll::ModelParams* p, std::vector<std::string>& notes) {
    const std::size_t knee = l2_bytes / (3 * kLine);
    const bool split = knee >= 256;
    std::vector<std::size_t> fl = {256, 1024, 4096, 16384};
    std::size_t held_sizes = fl.size();
    if (split) {
        fl = {std::max<std::size_t>(64, knee / 32), std::max<std::size_t>(128, knee / 8), knee / 2, 4 * knee, 8 * knee};
        held_sizes = 3;
    }
    progress("fold_rewrite_line: core %d folds its input and one core %d rewrites into %zu..%zu lines that %zu "
             "reader(s) have just copied, and into lines of its own%s",
             writer, readers.front(), fl.front(), fl.back(), readers.size(),
             split ? (" (knee " + std::to_string(knee) + " lines: a third of the L2)").c_str() : "");
    const auto med = alternating_medians(
        plan, fl.size(), [&](bool shared) { return fold_rewrite_times(writer, readers, fl, rounds_for(plan, fl), shared); });
    std::vector<double> x, y, dropped, beyond;
    for (std::size_t k = 0; k < fl.size(); ++k) {
        const auto [sh, ow] = med[k];
        const double per_line = (sh - ow) / static_cast<double>(fl[k]);
        progress("fold_rewrite_line: m=%zu lines%s: %.1f ns into lines read by others, %.1f into its own (%.2f ns/line "
                 "more)",
                 fl[k], split && k >= held_sizes ? " (past the knee)" : "", sh, ow, per_line);
        if (k < held_sizes) {
            x.push_back(static_cast<double>(fl[k]));
            y.push_back(sh - ow);
        } else {
            beyond.push_back(per_line);
        }
    }
    double a = 0, b = 0;
    const double err = robust_fit(x, y, &a, &b, &dropped);
    if (b <= 0.05) {
        notes.push_back("fold_rewrite_line: a fold into lines others read no dearer than into its own: not written");
        progress("fold_rewrite_line: %.3f ns/line: not written", b);
        return;
    }
    p->fold_rewrite_line = b;
    notes.push_back("fold_rewrite_line: " + std::to_string(readers.size()) + " reader(s) of core " +
                    std::to_string(writer) + ", fit error <= " + std::to_string(static_cast<int>(100 * err)) + "%");
    progress("fold_rewrite_line = %.2f ns/line", b);
    if (!split || beyond.empty()) return;
    std::sort(beyond.begin(), beyond.end());
    // A positive value (the profile's rule): no dearer than a fold into
    // lines of its own is written as 0.01.
    const double past = std::max(0.01, beyond[beyond.size() / 2]);
    p->fold_rewrite_knee = static_cast<double>(knee);
    p->fold_rewrite_line_beyond = past;
    char line[128];
    std::snprintf(line, sizeof line, "fold_rewrite_line_beyond: %.2f ns/line past %zu lines (median of %zu sizes)", past,
                  knee, beyond.size());
    notes.emplace_back(line);
    progress("fold_rewrite_line_beyond = %.2f ns/line past fold_rewrite_knee = %zu lines", past, knee);
}

// copy_rewrite_bytes, copy_rewrite_line (params.hpp): the writer copying
// (one call per round, StoreKind::rewrite as the runtime's copies into
// lines others read: since stop 40 a string move, which on the EPYC guest
// shows no threshold) into lines its readers copied the round before,
// less the same copy into lines of its own, alternating as above,
// at copy sizes from 64 KiB to 4 MiB. The smallest size whose excess per
// line is at least twice the smallest size's and 1 ns more is the
// threshold; the median excess per line from it on is the cost. Not
// written where no size shows one (the copy's stores write whole lines
// throughout: rewrite_line's rule).
void measure_copy_rewrite(const Plan& plan, int writer, const std::vector<int>& readers, coll::ModelParams* p,
                          std::vector<std::string>& notes) {
    const std::vector<std::size_t> cl = {1024, 4096, 8192, 12288, 16384, 32768, 65536};
    progress("copy_rewrite: core %d copies %zu..%zu lines (one copy, as the runtime's) into lines that %zu "
             "reader(s) have just copied, and into lines of its own",
             writer, cl.front(), cl.back(), readers.size());
    const auto med = alternating_medians(
        plan, cl.size(), [&](bool shared) { return copy_rewrite_times(writer, readers, cl, rounds_for(plan, cl), shared); });
    std::vector<double> excess;  // ns per line, per size
    for (std::size_t k = 0; k < cl.size(); ++k) {
        const auto [sh, ow] = med[k];
        excess.push_back((sh - ow) / static_cast<double>(cl[k]));
        progress("copy_rewrite: %zu KiB: %.1f ns into lines read by others, %.1f into its own (%.2f ns/line more)",
                 cl[k] * kLine / 1024, sh, ow, excess.back());
    }
    const double base = std::max(excess[0], 0.0);
    std::size_t from = cl.size();  // the first of the sizes that are all dear up to the largest
    while (from > 1 && excess[from - 1] >= 2 * base && excess[from - 1] >= base + 1) --from;
    if (from == cl.size()) {
        notes.push_back("copy_rewrite: no copy size dearer per line than the smallest: not written");
        progress("copy_rewrite: no threshold: not written");
        return;
    }
    std::vector<double> beyond(excess.begin() + static_cast<std::ptrdiff_t>(from), excess.end());
    std::sort(beyond.begin(), beyond.end());
    p->copy_rewrite_bytes = static_cast<double>(cl[from] * kLine);
    p->copy_rewrite_line = beyond[beyond.size() / 2];
    char note[160];
    std::snprintf(note, sizeof note, "copy_rewrite: %zu reader(s) of core %d, from %zu KiB on (%.2f ns/line more at %zu KiB)",
                  readers.size(), writer, cl[from] * kLine / 1024, excess[0], cl[0] * kLine / 1024);
    notes.push_back(note);
    progress("copy_rewrite_bytes = %.0f, copy_rewrite_line = %.2f ns/line", p->copy_rewrite_bytes,
             p->copy_rewrite_line);
}

// push_line (params.hpp): the ring of the copy's C with every thread
// storing its own fresh lines into its neighbour's inbox instead of pulling
// the neighbour's, the neighbour reading the inbox before the next round;
// the same fit as C (slope / t), over sizes that stay in the L2.
void measure_push_line(const Plan& plan, const std::vector<int>& ring, std::size_t l2_bytes, coll::ModelParams* p,
                       std::vector<std::string>& notes) {
    const std::size_t t = ring.size();
    if (t < 2) {
        notes.push_back("push_line: one core, not measured (push is charged C)");
        progress("push_line: one core: not measured");
        return;
    }
    // Within the L2 (a thread's lines and its inbox in half of it), where
    // the model charges push_line (cost.hpp).
    std::size_t top = lines_for(plan.cache_ws, 2 * t);
    if (l2_bytes) top = std::min(top, lines_for(l2_bytes / 2, 2));
    const std::vector<std::size_t> rl = geometric(top, plan.quick ? 8 : 2);
    progress("push_line: %zu threads at once, each storing its lines into its neighbour's inbox, %zu sizes of 1..%zu "
             "lines",
             t, rl.size(), rl.back());
    const RingFit fit = fit_ring(plan, ring, rl, Kernel::push, "push_line", "push");
    const double err = fit.error;
    p->push_line = std::max(fit.slope / static_cast<double>(t), 0.01);
    notes.push_back("push_line: " + std::to_string(t) + " threads pushing, fit error <= " +
                    std::to_string(static_cast<int>(100 * err)) + "%");
    progress("push_line = %.3f ns/line/thread (C = %.3f; largest relative error %.0f%%)", p->push_line, p->alpha.C,
             100 * err);

    // push_line_beyond: the same ring with each thread's lines and inbox
    // past its L2 (from twice the L2 together) but within the cache, where
    // push Alltoall and Allgather run from about 512 KiB a block at 2 ranks:
    // each size's step less the fit's intercept, per line and thread, the
    // median over the sizes.
    const std::size_t from = l2_bytes ? lines_for(2 * l2_bytes, 2) : 0;
    const std::size_t upto = lines_for(plan.cache_ws, 2 * t);
    if (from == 0 || from > upto) {
        const std::string why = from == 0 ? "no L2 size from hwloc" : "the cache holds no push past the L2";
        notes.push_back("push_line_beyond: not measured (" + why + "; push is charged C past the L2)");
        progress("push_line_beyond: not measured (%s)", why.c_str());
        return;
    }
    std::vector<std::size_t> bl;
    for (std::size_t m = from; m <= upto; m *= 2) bl.push_back(m);
    progress("push_line_beyond: %zu threads pushing past the L2, %zu sizes of %zu..%zu lines", t, bl.size(),
             bl.front(), bl.back());
    const std::vector<double> steps =
        over_passes(plan.passes, [&] { return ring_steps(ring, bl, rounds_for(plan, bl), Kernel::push); });
    std::vector<double> per;
    for (std::size_t i = 0; i < bl.size(); ++i) {
        per.push_back((steps[i] - std::max(fit.a, 0.0)) / static_cast<double>(bl[i] * t));
        progress("push_line_beyond: t=%zu, m=%zu lines each: %.1f us per push step (%.3f ns/line/thread)", t, bl[i],
                 steps[i] / 1000, per.back());
    }
    std::sort(per.begin(), per.end());
    const std::size_t n = per.size();
    p->push_line_beyond = std::max(n % 2 ? per[n / 2] : (per[n / 2 - 1] + per[n / 2]) / 2, 0.01);
    notes.push_back("push_line_beyond: " + std::to_string(t) + " threads pushing, median of " + std::to_string(n) +
                    (n == 1 ? " size, " : " sizes, ") + mib(bl.front() * kLine) + ".." + mib(bl.back() * kLine) +
                    " a thread");
    progress("push_line_beyond = %.3f ns/line/thread (C = %.3f)", p->push_line_beyond, p->alpha.C);
}

// push_held_line (params.hpp): the slices ring (reduce3_slices) against the
// same ring with each strip's result then copied into lines the thread
// holds (reduce3_slices_push: tiled_push Allreduce's loop while its pushes
// stay in the L2), every thread at once, at sizes whose four buffers a
// thread (its input, the one its neighbour reads, its result, the pushed
// copy) fit half its L2 (the model's "held": within the L2 with room to
// spare; a whole L2 of them measured 2.1-2.5 ns a pushed line on the Intel
// guest against 1.4-1.6 below) and span at least one strip. Per pass and size, the
// difference of the two steps per pushed line; the median over all.
void measure_push_held_line(const Plan& plan, const std::vector<int>& ring, std::size_t l2_bytes,
                            coll::ModelParams* p, std::vector<std::string>& notes) {
    const std::size_t t = ring.size();
    const std::size_t strip = std::max<std::size_t>(coll::kReductionKnobs.strip_bytes / kLine, 1);
    const std::size_t top = l2_bytes ? std::min(lines_for(l2_bytes, 8), lines_for(plan.cache_ws, 4 * t)) : 0;
    if (t < 2 || top < strip) {
        const std::string why = t < 2 ? "one core" : l2_bytes ? "the L2 holds no strip" : "no L2 size from hwloc";
        notes.push_back("push_held_line: not measured (" + why + "; tiled_push's pushes in the L2 charged nothing)");
        progress("push_held_line: not measured (%s)", why.c_str());
        return;
    }
    std::vector<std::size_t> rl;
    for (std::size_t m = top; m >= strip && rl.size() < (plan.quick ? 2u : 4u); m /= 2) rl.insert(rl.begin(), m);
    progress("push_held_line: %zu threads folding their slices, then the same pushing each %zu-line strip into "
             "lines they hold, %zu sizes of %zu..%zu lines",
             t, strip, rl.size(), rl.front(), rl.back());
    std::vector<double> per;
    for (int pass = 0; pass < plan.passes; ++pass) {
        const std::vector<double> fold = ring_steps(ring, rl, rounds_for(plan, rl), Kernel::reduce3_slices);
        const std::vector<double> push = ring_steps(ring, rl, rounds_for(plan, rl), Kernel::reduce3_slices_push);
        for (std::size_t i = 0; i < rl.size(); ++i) {
            per.push_back((push[i] - fold[i]) / static_cast<double>(rl[i]));
            progress("push_held_line: pass %d, m=%zu lines each: fold %.1f us, fold and push %.1f us (%.3f ns per "
                     "pushed line)",
                     pass + 1, rl[i], fold[i] / 1000, push[i] / 1000, per.back());
        }
    }
    // Pushes hidden under the fold measure about 0 (slightly either way):
    // kept at 0, which the model charges as before.
    p->push_held_line = std::max(median(std::move(per)), 0.0);
    notes.push_back("push_held_line: " + std::to_string(t) + " threads, median of " + std::to_string(plan.passes) +
                    " passes x " + std::to_string(rl.size()) + " sizes, " + std::to_string(rl.front() * kLine / 1024) +
                    ".." + std::to_string(rl.back() * kLine / 1024) + " KiB a thread's buffer");
    progress("push_held_line = %.3f ns per pushed line (push_line %.3f)", p->push_held_line, p->push_line);
}

// fold_stream_line (params.hpp): every core at once folding its slice of
// every core's vector and streaming it into every result (fold_stream_time),
// the vectors together beyond the caches (the plan's first beyond-cache
// working set, inputs and results): the median round over the lines of one
// vector.
void measure_fold_stream(const Plan& plan, const Machine& m, coll::ModelParams* p, std::vector<std::string>& notes) {
    std::vector<int> cores;
    for (const Core& c : m.cores) cores.push_back(c.index);
    const std::size_t t = cores.size();
    if (t < 2 || plan.mem_ws.empty()) {
        const std::string why = t < 2 ? "one core" : plan.no_mem_why;
        notes.push_back("fold_stream_line: not measured (" + why + ")");
        progress("fold_stream_line: not measured (%s)", why.c_str());
        return;
    }
    const std::size_t lines = std::max<std::size_t>(lines_for(plan.mem_ws.front(), 2 * t) / t * t, t);
    const int rounds = plan.quick ? 3 : 9;
    progress("fold_stream_line: %zu threads at once, each folding its slice of all %zu vectors of %s and streaming "
             "it into all %zu results, %d rounds",
             t, t, mib(lines * kLine).c_str(), t, rounds);
    const double ns = fold_stream_time(cores, lines, rounds);
    p->fold_stream_line = std::max(ns / static_cast<double>(lines), 0.01);
    notes.push_back("fold_stream_line: " + std::to_string(t) + " threads, vectors of " + mib(lines * kLine) +
                    ", median of " + std::to_string(rounds - 1) + " rounds");
    progress("fold_stream_line = %.3f ns per line of a vector (%.1f us a round)", p->fold_stream_line, ns / 1000);
}

// nt_copy_from (params.hpp): every core copying its own source into its
// own result at once (all_copy_line_time), with memcpy and with
// non-temporal stores, alternating within each pass, at working sets of 1,
// 2, 4 and 8 L2s a core (source and result together; --quick: 2 and 8);
// per size the median over passes; the smallest size from which the
// non-temporal copy costs under kNtWinRatio of memcpy's at every larger one
// (nt_copy_from_bytes), and nt_copy_ratio, the median over the sizes from
// there on of the non-temporal time over memcpy's. Not written where the
// L2 is unknown, the sizes do not fit the memory cap, or non-temporal
// stores never win.
void measure_nt_copy_from(const Plan& plan, const Machine& m, std::size_t mem_cap, coll::ModelParams* p,
                          std::vector<std::string>& notes) {
    std::vector<int> cores;
    for (const Core& c : m.cores) cores.push_back(c.index);
    std::vector<std::size_t> sets;
    for (std::size_t f : plan.quick ? std::vector<std::size_t>{2, 8} : std::vector<std::size_t>{1, 2, 4, 8})
        if (plan.l2_bytes > 0 && f * plan.l2_bytes * cores.size() <= mem_cap) sets.push_back(f * plan.l2_bytes);
    if (sets.size() < 2) {
        const char* why = plan.l2_bytes == 0 ? "the L2's size is unknown" : "the working sets exceed the memory cap";
        notes.push_back(std::string("nt_copy_from: not measured (") + why + ")");
        progress("nt_copy_from: not measured (%s)", why);
        return;
    }
    const int rounds = plan.quick ? 3 : 7, passes = plan.quick ? 1 : 3;
    progress("nt_copy_from: %zu threads at once, each copying its own source into its own result with memcpy and "
             "with non-temporal stores, %s..%s a core, %d passes of %d rounds",
             cores.size(), mib(sets.front()).c_str(), mib(sets.back()).c_str(), passes, rounds);
    std::vector<double> temporal, streamed;
    for (std::size_t ws : sets) {
        const std::size_t lines = std::max<std::size_t>(ws / (2 * kLine), 1);
        std::vector<double> tt, nt;
        for (int pass = 0; pass < passes; ++pass) {
            tt.push_back(all_copy_line_time(cores, lines, rounds, false));
            nt.push_back(all_copy_line_time(cores, lines, rounds, true));
        }
        temporal.push_back(median(std::move(tt)));
        streamed.push_back(median(std::move(nt)));
        progress("nt_copy_from: %s a core: memcpy %.3f ns/line, non-temporal %.3f", mib(ws).c_str(), temporal.back(),
                 streamed.back());
    }
    p->nt_copy_from = nt_copy_from_bytes(sets, temporal, streamed);
    std::vector<double> ratios;
    for (std::size_t i = 0; i < sets.size(); ++i)
        if (p->nt_copy_from > 0 && sets[i] >= p->nt_copy_from) ratios.push_back(streamed[i] / temporal[i]);
    p->nt_copy_ratio = median(std::move(ratios));
    std::string line = "nt_copy_from: " + std::to_string(cores.size()) + " threads, ns/line memcpy vs non-temporal:";
    for (std::size_t i = 0; i < sets.size(); ++i) {
        char b[96];
        std::snprintf(b, sizeof b, " %s %.2f/%.2f", mib(sets[i]).c_str(), temporal[i], streamed[i]);
        line += b;
    }
    notes.push_back(line + (p->nt_copy_from > 0 ? "" : " (non-temporal never cheaper: not written)"));
    if (p->nt_copy_from > 0)
        progress("nt_copy_from = %s a core, nt_copy_ratio = %.3f", mib(p->nt_copy_from).c_str(), p->nt_copy_ratio);
    else
        progress("nt_copy_from: non-temporal stores not cheaper at the largest size: not written");
}

// peer_args (params.hpp): a pair's 1-line round trip whose reader reaches
// the line through a pointer and a record the writer has just written (as a
// rank reaches a peer's buffer through its CollCall), less the same round
// trip reading the line directly; both sweeps alternate within each pass, so
// that a change of the machine's speed during the measurement hits both.
// Not written (no term) where one core, or where the chase is not dearer.
// A direct round trip shorter than one flag handoff of the same cores
// (`handoff`, the link's measurement) is no measurement: on the 2-core Xeon
// one of six calibrations in stop 27 gave 59 ns direct, 61 chased (peer_args 2 ns),
// against 245-280 direct in the others; it is measured again, up to
// kPeerArgsAttempts times, and not written if it stays so.
void measure_peer_args(const Plan& plan, const std::vector<int>& ring, double handoff, coll::ModelParams* p,
                       std::vector<std::string>& notes) {
    if (ring.size() < 2) {
        notes.push_back("peer_args: one core, not measured (no term)");
        progress("peer_args: one core: not measured");
        return;
    }
    const int writer = ring[0], reader = ring[1];
    const std::vector<std::size_t> one = {1};
    progress("peer_args: core %d writes a line, a record and a pointer to it; core %d copies the line directly and "
             "through the pointer and the record",
             writer, reader);
    constexpr int kPeerArgsAttempts = 3;
    // The two round trips alternate within a pass; the term is the median
    // of the passes' differences, which a drift between passes leaves
    // alone (stop 53: the difference of the two medians over three passes
    // came out 108-174 ns in five calibrations of one machine, and the
    // model charges it twice for a fold's peer).
    constexpr int kPeerArgsPasses = 9;
    double d = 0, c = 0, diff = 0;
    for (int attempt = 1; attempt <= kPeerArgsAttempts; ++attempt) {
        std::vector<double> chased, direct, diffs;
        for (int i = 0; i < std::max(plan.passes, kPeerArgsPasses); ++i) {
            chased.push_back(args_chase_round_trips(writer, reader, one, rounds_for(plan, one), true)[0]);
            direct.push_back(args_chase_round_trips(writer, reader, one, rounds_for(plan, one), false)[0]);
            diffs.push_back(chased.back() - direct.back());
        }
        c = median(std::move(chased)), d = median(std::move(direct)), diff = median(std::move(diffs));
        if (d >= handoff) break;
        progress("peer_args: a direct round trip of %.1f ns is shorter than the flag handoff (%.1f ns): %s", d, handoff,
                 attempt < kPeerArgsAttempts ? "measuring again" : "giving up");
        if (attempt == kPeerArgsAttempts) {
            notes.push_back("peer_args: the round trip came out shorter than the flag handoff " +
                            std::to_string(kPeerArgsAttempts) + " times: not written");
            return;
        }
    }
    if (diff <= 0) {
        notes.push_back("peer_args: the chased round trip no dearer than the direct one: not written");
        progress("peer_args: chased %.1f ns, direct %.1f ns: not written", c, d);
        return;
    }
    p->peer_args = diff;
    notes.push_back("peer_args: cores " + std::to_string(writer) + "->" + std::to_string(reader) + ", round trip " +
                    std::to_string(static_cast<int>(c)) + " ns chased against " + std::to_string(static_cast<int>(d)) +
                    " direct (medians), their difference's median over passes " +
                    std::to_string(static_cast<int>(diff)));
    progress("peer_args = %.1f ns (the median of %d passes' differences; round trip %.1f ns chased, %.1f direct)",
             p->peer_args, std::max(plan.passes, kPeerArgsPasses), c, d);
}

// Whether the machine kept its speed while it was measured: the first
// link's flag handoff again, at the end, against its value at the start.
// Some virtual machines change speed for seconds at a time (a 2-core guest
// whose handoff moves between about 60 and 300 ns:
// docs/performance-collectives.md, stop 30); a profile measured across
// such a change mixes the two, and says so.
void check_speed_kept(const Plan& plan, const LinkPlan& link, double clk, double start_ns,
                      std::vector<std::string>& notes) {
    const std::vector<std::size_t> none = {0};
    const std::vector<double> rt = over_passes(std::max(plan.passes, 3), [&] {
        return pair_round_trips(link.writer, link.reader, none, rounds_for(plan, none), Kernel::reduce);
    });
    const double end_ns = std::max((rt[0] - clk) / 2, 1.0);
    progress("speed check: %s flag handoff %.1f ns at the start, %.1f ns now", link.name.c_str(), start_ns, end_ns);
    if (!speed_changed(start_ns, end_ns)) return;
    char b[400];
    std::snprintf(b, sizeof b,
                  "speed check: the machine changed speed during the calibration (flag handoff %.0f ns at the "
                  "start, %.0f ns at the end): the parameters mix the two; calibrate again, and on a machine "
                  "that keeps switching, once in each state and --combine the two (bench/coll/calibrate-states.sh; "
                  "docs/model.md, \"Machines with more than one state\")",
                  start_ns, end_ns);
    notes.push_back(b);
    std::fprintf(stderr, "hmpi-calibrate: warning: %s\n", b);
}

// Other work on the machine while a step runs makes the step slower than
// the machine: stop 57's first calibration began at a load average of 1.1
// and wrote push_line 2.16 and rewrite_all_line 2.16 ns against 1.56-1.77
// and 6.37-6.65 in the seven calibrations around it, and hmpi-info then
// chose pairwise Alltoall where push is 1.5-2x faster. So each step is
// timed against the kernel's CPU accounting (cpu_ticks_now): one during
// which other work took more than kOtherWorkCores cores on average runs
// again, up to kStepTries times in all (--quick: once, as the tests run it
// beside other tests), and the profile notes every step that did not run
// alone. The kernel counts CPU time in ticks (10 ms on most systems), and
// its per-CPU and per-process counts of one short window can differ by a
// few: under kOtherWorkSeconds of other work is not told from that (on
// the 2-core EPYC guest, idle, a 0.05-second step showed 2.1 "cores").
// `step` returns nothing, or false where it failed (no retry then); *p
// (may be null) and `notes` are put back before a retry.
constexpr double kOtherWorkCores = 0.25;
constexpr double kOtherWorkSeconds = 0.15;
constexpr int kStepTries = 3;

template <class Step>
bool quiet_step(const Options& opt, const std::string& what, coll::ModelParams* p, std::vector<std::string>& notes,
                Step&& step) {
    static const double ticks_per_s = static_cast<double>(sysconf(_SC_CLK_TCK));
    std::optional<coll::ModelParams> p0;
    if (p != nullptr) p0 = *p;
    const std::size_t n0 = notes.size();
    const int s0 = g_step;
    const int tries = opt.quick ? 1 : kStepTries;
    for (int attempt = 1;; ++attempt) {
        const CpuTicks t0 = cpu_ticks_now();
        if constexpr (std::is_void_v<std::invoke_result_t<Step&>>) step();
        else if (!step()) return false;
        const OtherWork w = other_work(t0, cpu_ticks_now(), ticks_per_s);
        const double others = w.cores;
        char b[240];
        if (others <= kOtherWorkCores || w.cpu_s < kOtherWorkSeconds) {
            if (attempt > 1) {
                std::snprintf(b, sizeof b, "%s: measured %d times, other work having taken over %.2f cores",
                              what.c_str(), attempt, kOtherWorkCores);
                notes.push_back(b);
            }
            return true;
        }
        if (attempt == tries) {
            std::snprintf(b, sizeof b,
                          "%s: other work took %.2f cores while it ran%s; its terms may be slow (calibrate on a "
                          "quiet machine)",
                          what.c_str(), others, tries > 1 ? ", every try" : "");
            notes.push_back(b);
            std::fprintf(stderr, "hmpi-calibrate: warning: %s\n", b);
            return true;
        }
        progress("%s: other work took %.2f cores while it ran; measuring it again (try %d of %d)", what.c_str(),
                 others, attempt + 1, tries);
        if (p != nullptr) *p = *p0;  // p0 holds *p from above
        notes.resize(n0);
        g_step = s0;
    }
}

// Runs hmpi-call-overhead (built next to this tool, like hmpirun) on `np`
// ranks with `env` (NAME=value words, or empty) and reads the "<key> <ns>"
// line it prints. False, with the reason, if that fails.
bool run_call_overhead(bool quick, int np, const std::string& env, const char* key, double* ns, std::string* why) {
    std::error_code ec;
    const std::filesystem::path dir = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path();
    if (ec) {
        *why = "cannot find this program's directory: " + ec.message();
        return false;
    }
    const std::filesystem::path hmpirun = dir / "hmpirun", program = dir / "hmpi-call-overhead";
    for (const auto& f : {hmpirun, program})
        if (!std::filesystem::exists(f)) {
            *why = f.string() + " does not exist (build the hmpirun and hmpi-call-overhead targets)";
            return false;
        }
    const std::string cmd = (env.empty() ? "" : "env " + env + " ") + "'" + hmpirun.string() + "' -np " +
                            std::to_string(np) + " --bind-to core '" + program.string() + "'" +
                            (quick ? " --quick" : "") + " 2>&1";
    FILE* out = popen(cmd.c_str(), "r");
    if (!out) {
        *why = "cannot run " + cmd + ": " + std::strerror(errno);
        return false;
    }
    std::string text, format = std::string(key) + " %lf";
    char line[512];
    bool found = false;
    while (std::fgets(line, sizeof line, out)) {
        text += line;
        double v = 0;
        if (std::sscanf(line, format.c_str(), &v) == 1 && v > 0 && std::isfinite(v)) {
            *ns = v;
            found = true;
        }
    }
    const int status = pclose(out);
    if (!found || status != 0) {
        *why = cmd + " printed no " + key + " line (exit status " + std::to_string(status) + "):\n" + text;
        return false;
    }
    return true;
}

// The model's call_overhead: MPI_Barrier on a one-rank communicator.
bool measure_call_overhead(bool quick, double* ns, std::string* why) {
    return run_call_overhead(quick, 1, "", "call_overhead_ns", ns, why);
}

// HMPI's MPI_Barrier with HMPI_BARRIER_ALGORITHM=`algorithm` on each of
// `ts` ranks (hmpi-call-overhead under hmpirun): per t, the time of a call
// less call_overhead, ns. Empty, with a note, if a run fails.
std::vector<double> barrier_calls(bool quick, const std::vector<std::size_t>& ts, const char* algorithm,
                                  double call_overhead, const char* term, std::vector<std::string>& notes) {
    std::vector<double> net;
    for (std::size_t t : ts) {
        double call = 0;
        std::string why;
        if (!run_call_overhead(quick, static_cast<int>(t), std::string("HMPI_BARRIER_ALGORITHM=") + algorithm,
                               "barrier_call_ns", &call, &why)) {
            notes.push_back(std::string(term) + ": the run on " + std::to_string(t) + " ranks failed: not written");
            progress("%s: t=%zu failed: %s", term, t, why.c_str());
            return {};
        }
        progress("%s: %s barrier, t=%zu: %.1f ns per call, %.1f without the call's overhead", term, algorithm, t, call,
                 call - call_overhead);
        net.push_back(call - call_overhead);
    }
    return net;
}

// busy_step, step_overhead and poll_line (params.hpp), from HMPI's own
// barriers on t = 2, 4, 8, ... and all `domain_cores` ranks, not kernels of
// this tool's: what the collectives' steps cost as the runtime takes them.
// - Dissemination (every rank steps in every round): a call less the
//   call's overhead, per round, fitted as T(t) = T2 + busy_step (t - 2);
//   step_overhead = T2 - `pair_a`, the a of the link between cores 0 and 1,
//   where hmpirun puts ranks 0 and 1.
// - Flat (every rank waits for all t flags): a call less the call's
//   overhead fitted as F(t) = F2 + poll_line (t - 2).
// With fewer than three cores in the domain only t = 2 runs (on two cores
// of the machine, if it has them), for step_overhead alone. A term is left
// at 0 (no profile line) when its run fails or noise gives no positive
// value.
void measure_steps(bool quick, std::size_t domain_cores, std::size_t machine_cores, double call_overhead,
                   double pair_a, coll::ModelParams* p, std::vector<std::string>& notes) {
    if (machine_cores < 2) {
        notes.push_back("busy_step, step_overhead, poll_line: one core, not measured (no terms)");
        progress("busy_step: one core: not measured");
        return;
    }
    std::vector<std::size_t> ts = {2};
    if (domain_cores >= 3) {
        for (std::size_t t = 4; t < domain_cores; t *= 2) ts.push_back(t);
        ts.push_back(domain_cores);
    } else {
        notes.push_back("busy_step, poll_line: " + std::to_string(domain_cores) +
                        " core(s) in the cache domain, not measured");
    }
    std::vector<double> x;
    for (std::size_t t : ts) x.push_back(static_cast<double>(t) - 2);
    // The slope of y over t - 2 into *term, with its note; the intercept.
    auto fit = [&](const std::vector<double>& y, const char* name, const char* what, double* term) {
        double at2 = y.front(), slope = 0;
        if (y.size() < 2) return at2;
        const double err = fit_line(x, y, &at2, &slope);
        if (!(slope > 0)) {
            notes.push_back(std::string(name) + ": no positive slope over t (noise?): not written");
            progress("%s: no positive slope: not written", name);
            return y.front();
        }
        *term = slope;
        notes.push_back(std::string(name) + ": " + what + " on 2.." + std::to_string(ts.back()) + " ranks, " +
                        std::to_string(static_cast<int>(at2)) + " ns + " + name + " (t-2), fit error <= " +
                        std::to_string(static_cast<int>(100 * err)) + "%");
        progress("%s = %.1f ns per rank beyond two (%.1f ns at t=2)", name, slope, at2);
        return at2;
    };

    std::vector<double> rounds = barrier_calls(quick, ts, "dissemination", call_overhead, "busy_step", notes);
    if (rounds.empty()) return;
    for (std::size_t i = 0; i < ts.size(); ++i) {
        int r = 0;
        while ((std::size_t{1} << r) < ts[i]) ++r;
        rounds[i] /= r;
    }
    const double t2 = fit(rounds, "busy_step", "a dissemination round", &p->busy_step);
    if (t2 > pair_a) {
        p->step_overhead = t2 - pair_a;
        notes.push_back("step_overhead: a 2-rank round " + std::to_string(static_cast<int>(t2)) + " ns against a = " +
                        std::to_string(static_cast<int>(pair_a)) + " ns");
        progress("step_overhead = %.1f ns (a 2-rank round %.1f ns, a = %.1f ns)", p->step_overhead, t2, pair_a);
    } else {
        notes.push_back("step_overhead: a 2-rank round no dearer than a: not written");
        progress("step_overhead: a 2-rank round (%.1f ns) no dearer than a (%.1f ns): not written", t2, pair_a);
    }
    if (ts.size() > 1) {
        const std::vector<double> calls = barrier_calls(quick, ts, "flat", call_overhead, "poll_line", notes);
        if (!calls.empty()) fit(calls, "poll_line", "a flat barrier", &p->poll_line);
    }
}

std::string utc_now() {
    std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char b[32];
    std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return b;
}

// Sanity of a profile (also the test's checker): the problems, empty if none.
std::vector<std::string> sanity_problems(const coll::ModelParams& p) {
    std::vector<std::string> bad;
    // One ordering within a link: lo <= hi.
    struct Ordering {
        double LinkCost::*lo;
        double LinkCost::*hi;
        const char* what;
    };
    // Within one link: in-cache no dearer than beyond it, t threads no slower
    // together than one, and a copy no dearer than a reduction.
    static constexpr Ordering kWithinLink[] = {
        {&LinkCost::b, &LinkCost::b_mem, "b > b_mem"},
        {&LinkCost::B, &LinkCost::B_mem, "B > B_mem"},
        {&LinkCost::B, &LinkCost::b, "B > b (t threads slower together than one)"},
        {&LinkCost::B_mem, &LinkCost::b_mem, "B_mem > b_mem"},
        {&LinkCost::c, &LinkCost::c_mem, "c > c_mem"},
        {&LinkCost::C, &LinkCost::C_mem, "C > C_mem"},
        {&LinkCost::C, &LinkCost::c, "C > c (t threads slower together than one)"},
        {&LinkCost::C_mem, &LinkCost::c_mem, "C_mem > c_mem"},
        {&LinkCost::c, &LinkCost::b, "c > b (a copy dearer than a reduction)"},
        {&LinkCost::C, &LinkCost::B, "C > B (a copy dearer than a reduction)"},
        {&LinkCost::c_mem, &LinkCost::b_mem, "c_mem > b_mem (a copy dearer than a reduction)"},
        {&LinkCost::C_mem, &LinkCost::B_mem, "C_mem > B_mem (a copy dearer than a reduction)"},
    };
    // Where measured: the same for the reduction into a third buffer, which
    // moves a line for no less than the reduction in place.
    static constexpr Ordering kThirdBuffer[] = {
        {&LinkCost::r, &LinkCost::r_mem, "r > r_mem"},
        {&LinkCost::R, &LinkCost::R_mem, "R > R_mem"},
        {&LinkCost::R, &LinkCost::r, "R > r (t threads slower together than one)"},
        {&LinkCost::R_mem, &LinkCost::r_mem, "R_mem > r_mem"},
        {&LinkCost::b, &LinkCost::r, "b > r (a reduction into a third buffer cheaper than one in place)"},
        {&LinkCost::B, &LinkCost::R, "B > R (a reduction into a third buffer cheaper than one in place)"},
        {&LinkCost::b_mem, &LinkCost::r_mem, "b_mem > r_mem (a reduction into a third buffer cheaper than one in place)"},
        {&LinkCost::B_mem, &LinkCost::R_mem, "B_mem > R_mem (a reduction into a third buffer cheaper than one in place)"},
    };
    // Where measured (format 10): the same for the fold of own slices.
    static constexpr Ordering kSlices[] = {
        {&LinkCost::R_slices, &LinkCost::R_slices_mem, "R_slices > R_slices_mem"},
        {&LinkCost::R_slices, &LinkCost::r, "R_slices > r (t threads slower together than one)"},
        {&LinkCost::R_slices_mem, &LinkCost::r_mem, "R_slices_mem > r_mem"},
        {&LinkCost::B, &LinkCost::R_slices, "B > R_slices (a reduction into a third buffer cheaper than one in place)"},
        {&LinkCost::B_mem, &LinkCost::R_slices_mem,
         "B_mem > R_slices_mem (a reduction into a third buffer cheaper than one in place)"},
    };
    auto check_link = [&](const std::string& n, const LinkCost& l) {
        for (const auto& [lo, hi, what] : kWithinLink)
            if (l.*lo > l.*hi) bad.push_back(n + ": " + what);
        if (l.r > 0)
            for (const auto& [lo, hi, what] : kThirdBuffer)
                if (l.*lo > l.*hi) bad.push_back(n + ": " + what);
        if (l.R_slices > 0)
            for (const auto& [lo, hi, what] : kSlices)
                if (l.*lo > l.*hi) bad.push_back(n + ": " + what);
    };
    auto check_order = [&](const std::string& inner_name, const LinkCost& in, const std::string& outer_name,
                           const LinkCost& out) {
        for (int i = 0; i < static_cast<int>(std::size(kLinkFields)); ++i) {
            const auto& [f, m] = kLinkFields[i];
            if (comparable(in, out, i) && in.*m > out.*m)
                bad.push_back(inner_name + "." + f + " > " + outer_name + "." + f);
        }
    };
    check_link("alpha", p.alpha);
    check_link("beta", p.beta);
    check_order("alpha", p.alpha, "beta", p.beta);
    for (std::size_t i = 0; i < p.levels.size(); ++i) {
        const std::string n = std::string("level.") + level_key(p.levels[i].kind);
        check_link(n, p.levels[i].cost);
        if (i > 0) {
            if (p.levels[i - 1].kind >= p.levels[i].kind) bad.push_back(n + ": levels are not innermost first");
            check_order(std::string("level.") + level_key(p.levels[i - 1].kind), p.levels[i - 1].cost, n,
                        p.levels[i].cost);
        }
    }
    // Bandwidths of one thread: between 0.1 and 1000 GB/s on any machine we know.
    for (auto [n, v] : {std::pair{"copy_bandwidth", p.copy_bandwidth}, std::pair{"nt_copy_bandwidth", p.nt_copy_bandwidth}})
        if (v < 0.1 || v > 1000) bad.push_back(std::string(n) + " outside 0.1..1000 bytes/ns");
    // A call is at least a few instructions and far below a synchronized
    // step's cost on any machine: 1 ns .. 100 us.
    if (p.call_overhead < 1 || p.call_overhead > 100000) bad.push_back("call_overhead outside 1..100000 ns");
    // Measured at whole L2s a core: at least one L2 (64 KiB on any machine
    // we know), at most what a core's share of memory allows.
    if (p.nt_copy_from > 0 && (p.nt_copy_from < (64u << 10) || p.nt_copy_from > (std::size_t{1} << 40)))
        bad.push_back("nt_copy_from outside 64 KiB..1 TiB");
    if (p.nt_copy_from > 0 && !(p.nt_copy_ratio > 0 && p.nt_copy_ratio < 1))
        bad.push_back("nt_copy_ratio outside 0..1 (non-temporal copies are chosen where they are cheaper)");
    // A handoff through the scheduler takes far less than a time slice.
    if (p.switch_handoff > 1e6) bad.push_back("switch_handoff over 1 ms (a time slice: the threads did not yield)");
    if (p.topology_key != coll::machine_topology_key())
        bad.push_back("topology_key " + p.topology_key + " is not this machine's (" + coll::machine_topology_key() + ")");
    return bad;
}

int check(const std::string& path) {
    std::string error;
    auto p = coll::read_profile(path, &error);
    if (!p) {
        std::fprintf(stderr, "hmpi-calibrate: %s: %s\n", path.c_str(), error.c_str());
        return 1;
    }
    bool sane = true;
    for (std::size_t i = 0; i <= p->other_states.size(); ++i) {
        const std::string where = i == 0 ? path : path + " (state" + std::to_string(i + 1) + ")";
        for (const std::string& b : sanity_problems(i == 0 ? *p : p->other_states[i - 1])) {
            std::fprintf(stderr, "hmpi-calibrate: %s: %s\n", where.c_str(), b.c_str());
            sane = false;
        }
    }
    if (!sane) return 1;
    const coll::LinkCost& a = p->alpha;
    std::printf("hmpi-calibrate: %s: ok (alpha a=%.1f b=%.3f B=%.3f b_mem=%.3f B_mem=%.3f c=%.3f C=%.3f c_mem=%.3f "
                "C_mem=%.3f; %zu levels)\n",
                path.c_str(), a.a, a.b, a.B, a.b_mem, a.B_mem, a.c, a.C, a.c_mem, a.C_mem, p->levels.size());
    for (std::size_t i = 0; i < p->other_states.size(); ++i)
        std::printf("hmpi-calibrate: %s: state%zu: alpha a=%.1f b=%.3f c=%.3f\n", path.c_str(), i + 2,
                    p->other_states[i].alpha.a, p->other_states[i].alpha.b, p->other_states[i].alpha.c);
    return 0;
}

// `out` to --output's path (default: this machine's profile) and/or stdout,
// once it reads back (the runtime's parser is strict).
int write_profile_text(const Options& opt, const std::string& out) {
    std::string error;
    if (!coll::parse_profile(out, &error)) {
        std::fprintf(stderr, "hmpi-calibrate: internal error: the profile does not parse: %s\n", error.c_str());
        return 1;
    }
    if (opt.print) std::fputs(out.c_str(), stdout);
    if (!opt.print || !opt.output.empty()) {
        const std::string path = opt.output.empty() ? coll::default_profile_path() : opt.output;
        std::error_code ec;
        const std::filesystem::path parent = std::filesystem::path(path).parent_path();
        if (!parent.empty()) std::filesystem::create_directories(parent, ec);
        std::ofstream f(path);
        if (!f || !(f << out) || !(f.flush())) {
            std::fprintf(stderr, "hmpi-calibrate: cannot write %s%s%s\n", path.c_str(), ec ? ": " : "",
                         ec ? ec.message().c_str() : "");
            return 1;
        }
        progress("wrote %s", path.c_str());
    }
    return 0;
}

// --combine: the first profile's comments and parameters, then each other
// profile's comments (prefixed with its state) and parameters as stateN.
// Every profile must parse, be sane and describe the same topology.
int combine(const Options& opt) {
    coll::ModelParams combined;
    std::string comments = "# Combined by hmpi-calibrate --combine from " + std::to_string(opt.combine.size()) +
                           " profiles of one machine in different states (docs/model.md, \"Machines with more "
                           "than one state\").\n";
    for (std::size_t i = 0; i < opt.combine.size(); ++i) {
        const std::string& path = opt.combine[i];
        std::string error;
        std::optional<coll::ModelParams> p = coll::read_profile(path, &error);
        if (!p) {
            std::fprintf(stderr, "hmpi-calibrate: %s: %s\n", path.c_str(), error.c_str());
            return 1;
        }
        if (!p->other_states.empty()) {
            std::fprintf(stderr, "hmpi-calibrate: %s has states of its own; combine profiles of one state each\n",
                         path.c_str());
            return 1;
        }
        for (const std::string& b : sanity_problems(*p)) {
            std::fprintf(stderr, "hmpi-calibrate: %s: %s\n", path.c_str(), b.c_str());
            return 1;
        }
        if (i > 0 && p->topology_key != combined.topology_key) {
            std::fprintf(stderr, "hmpi-calibrate: %s was measured on topology %s, %s on %s\n", path.c_str(),
                         p->topology_key.c_str(), opt.combine[0].c_str(), combined.topology_key.c_str());
            return 1;
        }
        const std::string state = i == 0 ? "" : "state" + std::to_string(i + 1) + ": ";
        comments += "# state" + std::to_string(i + 1) + " from " + path + " (alpha a = " + std::to_string(p->alpha.a) +
                    " ns)\n";
        std::ifstream in(path);
        for (std::string line; std::getline(in, line);)
            if (!line.empty() && line[0] == '#') comments += "# " + state + line.substr(line[1] == ' ' ? 2 : 1) + "\n";
        if (i == 0) combined = std::move(*p);
        else combined.other_states.push_back(std::move(*p));
    }
    return write_profile_text(opt, comments + coll::format_profile(combined) + "tool " + std::string(kToolVersion) +
                                       "\n");
}

// The working set one core keeps at cache speed (core_cache_bytes,
// params.hpp): one thread's copy time per line over working sets growing by
// 2^(1/4) from four L2s. The cache ends before the first of two sizes in a
// row whose times are both above 1.5x the fastest before them (one slow
// size is noise); the sweep goes on to twice that size, and the median of
// the times from the knee on (the memory level) must be above 1.5x the
// fastest too. (The last time alone vetoed a clear knee on the 2-core Xeon
// in stop 27: 7.3, 8.3, 11.1, 11.5 ns per line from 20.5 MiB on against
// 4.7 in cache, then 6.4 at 41.1 MiB.) 0 (with *why) where no such knee
// shows below `limit`.
std::size_t measure_core_cache(int core, std::size_t start, std::size_t limit, bool quick, std::string* why) {
    if (start >= limit) {
        *why = "no working set between four L2s and the limit (" + mib(limit) + ")";
        return 0;
    }
    progress("cache: one thread on core %d copies half of a working set into the other half, %s up to at most %s",
             core, mib(start).c_str(), mib(limit).c_str());
    std::vector<std::size_t> ws;
    std::vector<double> t;
    std::size_t knee = 0;  // index of the first size beyond the cache (0: none yet)
    auto fastest_before = [&](std::size_t k) { return *std::min_element(t.begin(), t.begin() + static_cast<long>(k)); };
    for (std::size_t w = start; w <= limit;
         w = (static_cast<std::size_t>(static_cast<double>(w) * 1.189207) + 65535) / 65536 * 65536) {
        const double x = copy_line_time(core, w, quick ? 2e6 : 20e6);
        ws.push_back(w);
        t.push_back(x);
        progress("cache: working set %s: %.3f ns/line", mib(w).c_str(), x);
        const std::size_t i = t.size() - 1;
        if (knee == 0 && i >= 2 && t[i - 1] > 1.5 * fastest_before(i - 1) && t[i] > 1.5 * fastest_before(i - 1))
            knee = i - 1;
        if (knee != 0 && w >= 2 * ws[knee]) break;
    }
    const double fastest = fastest_before(knee != 0 ? knee : t.size());
    double beyond = 0;  // the median time from the knee on
    if (knee != 0) {
        std::vector<double> after(t.begin() + static_cast<long>(knee), t.end());
        std::sort(after.begin(), after.end());
        beyond = after[after.size() / 2];
    }
    if (knee == 0 || beyond <= 1.5 * fastest) {
        char b[160];
        std::snprintf(b, sizeof b, "copy time per line within 1.5x of the fastest (%.3f ns) up to %s", fastest,
                      mib(ws.back()).c_str());
        *why = b;
        return 0;
    }
    progress("cache: %.3f ns/line in cache, %.3f from %s, median %.3f up to %s; one core keeps %s at cache speed",
             fastest, t[knee], mib(ws[knee]).c_str(), beyond, mib(ws.back()).c_str(), mib(ws[knee - 1]).c_str());
    return ws[knee - 1];
}

int run_calibration(const Options& opt) {
    Machine m = discover_machine();
    const std::string key = coll::machine_topology_key();
    progress("machine %s: %zu cores, %zu cache domain(s), L2 %s, last-level cache %s, all caches %s, memory %s",
             key.c_str(), m.cores.size(), m.domain_count, mib(m.l2_bytes).c_str(), mib(m.llc_bytes).c_str(),
             mib(m.all_cache_bytes).c_str(), mib(m.memory_bytes).c_str());

    // What one core keeps at cache speed, where hwloc's sizes overstate it
    // (a hypervisor may describe the host's caches): the in-cache working
    // set below follows the measured size.
    const std::size_t mem_cap = m.memory_bytes ? m.memory_bytes / 4 : (1ull << 30);
    const std::size_t quick_cap = std::size_t{256} << 20;
    std::string no_knee;
    const std::size_t core_cache = measure_core_cache(
        m.cores.front().index, std::max<std::size_t>(4 * m.l2_bytes, std::size_t{2} << 20),
        std::min<std::size_t>({2 * (m.llc_bytes + (m.llc_inclusive ? 0 : m.l2_bytes)), mem_cap / 2,
                               opt.quick ? quick_cap : std::size_t{4} << 30}),
        opt.quick, &no_knee);
    std::vector<std::string> cache_notes;
    if (core_cache == 0) {
        cache_notes.push_back("core_cache_bytes: " + no_knee + ": not written (hwloc's cache sizes)");
        progress("cache: %s: core_cache_bytes not written", no_knee.c_str());
    } else if (const std::size_t llc = coll::CommTopology::effective_llc_bytes(m.llc_bytes, m.l2_bytes,
                                                                                m.llc_inclusive, core_cache);
               llc < m.llc_bytes && m.llc_count > 0) {
        cache_notes.push_back("core_cache_bytes: one core keeps " + mib(core_cache) + " at cache speed; hwloc's LLC " +
                              mib(m.llc_bytes) + " taken as " + mib(llc));
        progress("cache: hwloc's last-level cache %s taken as %s", mib(m.llc_bytes).c_str(), mib(llc).c_str());
        m.llc_bytes = llc;
        m.all_cache_bytes = m.caches_with(m.llc_bytes);
    } else {
        cache_notes.push_back("core_cache_bytes: one core keeps " + mib(core_cache) + " at cache speed (hwloc's LLC " +
                              mib(m.llc_bytes) + ")");
    }

    Plan plan;
    plan.quick = opt.quick;
    plan.l2_bytes = m.l2_bytes;
    plan.l1_bytes = m.l1_bytes;
    // In cache: up to half of one last-level cache (the reader's and the
    // writer's buffers), and not more than needed to see the slope.
    plan.cache_ws = std::min<std::size_t>(m.llc_bytes ? m.llc_bytes / 2 : (8u << 20), opt.quick ? (8u << 20) : (32u << 20));
    // Beyond: twice (and in full mode also three times) every cache of the
    // machine together as hwloc reports them, if a quarter of the memory
    // allows. Beyond the caches means beyond what they hold at any speed:
    // hwloc's sizes, even where one core keeps less at cache speed. A
    // working set of twice the measured size still hit the L3 in part on
    // the 2-core EPYC guest (stop 28: 16.6 MiB at cache speed, 32 MiB L3;
    // R_mem 2.39 ns/line at 35 MiB, 3.41 at 53 MiB, and 16 MiB Allreduces
    // measured 1.9-2.5x what they were predicted from the 35 MiB rates).
    // --quick (the tests) goes beyond the caches only while that stays small:
    // a machine reporting 1 GiB of L3 would otherwise sweep 2 GiB, minutes
    // under a sanitizer.
    for (std::size_t f : opt.quick ? std::vector<std::size_t>{2} : std::vector<std::size_t>{2, 3})
        if (f * m.all_cache_bytes <= mem_cap && (!opt.quick || f * m.all_cache_bytes <= quick_cap))
            plan.mem_ws.push_back(f * m.all_cache_bytes);
    plan.no_mem_why = opt.quick && 2 * m.all_cache_bytes <= mem_cap ? "--quick: the caches are too large to exceed quickly"
                                                                     : "too little memory to exceed the caches";
    plan.target_ns = opt.quick ? 5e6 : 60e6;
    plan.min_rounds = opt.quick ? 5 : 15;
    plan.max_rounds = opt.quick ? 2000 : 20000;
    plan.mem_rounds = opt.quick ? 3 : 7;
    plan.passes = opt.quick ? 1 : 3;
    // Other work on the machine makes every number noisier (and slower).
    if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
        double load = 0;
        if (std::fscanf(f, "%lf", &load) == 1 && load > 0.5)
            progress("note: load average %.1f on %zu cores: other work is running; the numbers will be noisy "
                     "(calibrate on a quiet machine)",
                     load, m.cores.size());
        std::fclose(f);
    }

    // Links: for each innermost common level core 0 has with another core,
    // the first such core.
    std::vector<LinkPlan> links;
    const Core& c0 = m.cores[0];
    for (const Core& c : m.cores) {
        if (c.index == c0.index) continue;
        const LevelKind k = common_level(c0, c);
        bool have = false;
        for (const LinkPlan& l : links) have |= l.kind == k;
        if (!have) links.push_back({k, coll::level_name(k), c0.index, c.index, {}});
    }
    std::sort(links.begin(), links.end(), [](const LinkPlan& x, const LinkPlan& y) { return x.kind < y.kind; });
    // alpha: the outermost link within core 0's cache domain; beta: the innermost across.
    int alpha = -1, beta = -1;
    for (std::size_t i = 0; i < links.size(); ++i) {
        const Core& other = m.cores[static_cast<std::size_t>(links[i].reader)];
        if (same_domain(m, c0, other)) alpha = static_cast<int>(i);
        else if (beta < 0) beta = static_cast<int>(i);
    }
    // Ring cores. Within the domain: every core in core 0's group at that
    // level. Across: cores alternately from core 0's side and the other's,
    // so that every hop crosses the link.
    for (std::size_t i = 0; i < links.size(); ++i) {
        LinkPlan& l = links[i];
        const Core& other = m.cores[static_cast<std::size_t>(l.reader)];
        if (same_domain(m, c0, other)) {
            for (const Core& c : m.cores)
                if (common_level(c0, c) <= l.kind) l.ring.push_back(c.index);
        } else {
            std::vector<int> mine, theirs;
            for (const Core& c : m.cores) {
                if (common_level(c0, c) < l.kind) mine.push_back(c.index);
                else if (common_level(other, c) < l.kind) theirs.push_back(c.index);
            }
            for (std::size_t j = 0; j < std::min(mine.size(), theirs.size()); ++j) {
                l.ring.push_back(mine[j]);
                l.ring.push_back(theirs[j]);
            }
        }
        if (static_cast<int>(i) == alpha) l.name += " (alpha)";
        if (static_cast<int>(i) == beta) l.name += " (beta)";
    }
    g_steps = static_cast<int>(kStepsPerLink * links.size() + 12);

    std::vector<std::string> notes = cache_notes;
    if (links.empty()) notes.push_back("one core: no link can be measured; alpha and beta are the built-in default's");
    if (beta < 0) {
        notes.push_back("beta: one cache domain on this machine; beta = alpha (not measured)");
        progress("one cache domain on this machine: beta cannot be measured and is set equal to alpha");
    }
    const double clk = clock_overhead_ns();
    std::vector<LinkResult> results;
    for (const LinkPlan& l : links) {
        LinkResult measured;
        quiet_step(opt, l.name, nullptr, notes, [&] {
            measured = measure_link(plan, l, clk);
        });
        results.push_back(std::move(measured));
        LinkResult& r = results.back();
        enforce_orderings(r.cost, r.t, std::string("level.") + level_key(l.kind), r.notes);
        for (const std::string& n : r.notes) notes.push_back(n);
    }
    // Farther links are not cheaper than nearer ones.
    for (std::size_t i = 1; i < results.size(); ++i)
        at_least(results[i].cost, results[i - 1].cost, std::string("level.") + level_key(links[i].kind), notes);

    coll::ModelParams p = coll::default_model_params();
    p.topology_key = key;
    p.core_cache_bytes = core_cache;
    p.levels.clear();
    for (std::size_t i = 0; i < links.size(); ++i) p.levels.push_back({links[i].kind, results[i].cost});
    if (alpha >= 0) p.alpha = results[static_cast<std::size_t>(alpha)].cost;
    else if (!results.empty()) p.alpha = results.front().cost;
    p.beta = beta >= 0 ? results[static_cast<std::size_t>(beta)].cost : p.alpha;
    if (!results.empty()) {
        const LinkResult& near = results[static_cast<std::size_t>(alpha >= 0 ? alpha : 0)];
        p.near_line = near.near_line;
        p.near_lines = near.near_lines;
        p.slice_near_line = near.slice_near_line;
        p.slice_near_lines = near.slice_near_lines;
    }

    // The cores the extension terms are measured on: alpha's ring; where
    // every cache domain has one core (alpha is then beta's costs), beta's,
    // whose cores are then the ones the collectives' readers and pushers
    // meet (on such a machine the built-in rewrite_line, from a Xeon's L3,
    // was far off).
    std::vector<int> near_ring;
    double near_handoff = 0;           // that ring's flag handoff, ns
    const LinkPlan* near_link = nullptr;  // the link it was measured on
    if (alpha >= 0) {
        near_ring = links[static_cast<std::size_t>(alpha)].ring;
        near_handoff = results[static_cast<std::size_t>(alpha)].handoff;
        near_link = &links[static_cast<std::size_t>(alpha)];
    }
    if (near_ring.size() < 2 && beta >= 0) {
        near_ring = links[static_cast<std::size_t>(beta)].ring;
        near_handoff = results[static_cast<std::size_t>(beta)].handoff;
        near_link = &links[static_cast<std::size_t>(beta)];
    }

    ++g_step;
    {
        std::vector<int> readers;
        for (int c : near_ring)
            if (c != c0.index) readers.push_back(c);
        if (readers.empty())
            notes.push_back("rewrite_line, source_line: one core, not measured; the built-in default's");
        else
            quiet_step(opt, "rewrite_line, source_line, rewrite_all_line", &p, notes, [&] {
                measure_sharers_and_sources(plan, c0.index, readers, &p, notes);
                std::vector<int> all = readers;
                all.insert(all.begin(), c0.index);
                measure_all_writers(plan, all, &p, notes);
            });
        ++g_step;
        if (readers.empty())
            notes.push_back("fold_rewrite_line: one core, not measured (no term)");
        else
            quiet_step(opt, "fold_rewrite_line", &p, notes, [&] {
                measure_fold_rewrite(plan, c0.index, readers, m.l2_bytes, &p, notes);
            });
        ++g_step;
        if (readers.empty())
            notes.push_back("copy_rewrite: one core, not measured (no term)");
        else
            quiet_step(opt, "copy_rewrite", &p, notes, [&] {
                measure_copy_rewrite(plan, c0.index, readers, &p, notes);
            });
    }

    ++g_step;
    quiet_step(opt, "push_line", &p, notes, [&] {
        measure_push_line(plan, near_ring, m.l2_bytes, &p, notes);
    });

    ++g_step;
    quiet_step(opt, "push_held_line", &p, notes, [&] {
        measure_push_held_line(plan, near_ring, m.l2_bytes, &p, notes);
    });

    ++g_step;
    quiet_step(opt, "peer_args", &p, notes, [&] {
        measure_peer_args(plan, near_ring, near_handoff, &p, notes);
    });

    ++g_step;
    quiet_step(opt, "switch_handoff", &p, notes, [&] {
        const int rounds = opt.quick ? 2000 : 20000, passes = opt.quick ? 3 : 5;
        progress("switch_handoff: two threads on core %d pass a flag %d times, yielding the CPU while they wait",
                 c0.index, 2 * rounds);
        p.switch_handoff = switch_handoff_ns(c0.index, rounds, passes);
        progress("switch_handoff = %.1f ns per handoff (median of %d passes)", p.switch_handoff, passes);
    });

    ++g_step;
    // --quick: at most 64 MiB (see mem_ws).
    const std::size_t copy_bytes = std::min<std::size_t>(
        std::min<std::size_t>(std::max<std::size_t>(64u << 20, m.all_cache_bytes), mem_cap / 2),
        opt.quick ? std::size_t{64} << 20 : SIZE_MAX);
    quiet_step(opt, "copy", &p, notes, [&] {
        progress("copy: one thread on core %d copies %s with memcpy and with non-temporal stores", c0.index,
                 mib(copy_bytes).c_str());
        copy_bandwidths(c0.index, copy_bytes, opt.quick ? 3 : 7, &p.copy_bandwidth, &p.nt_copy_bandwidth);
        progress("copy: %.2f bytes/ns (GB/s), non-temporal %.2f bytes/ns", p.copy_bandwidth, p.nt_copy_bandwidth);
    });

    ++g_step;
    quiet_step(opt, "fold_stream_line", &p, notes, [&] {
        measure_fold_stream(plan, m, &p, notes);
    });

    ++g_step;
    quiet_step(opt, "nt_copy_from", &p, notes, [&] {
        measure_nt_copy_from(plan, m, mem_cap, &p, notes);
    });

    ++g_step;
    std::string why;
    const bool overhead_measured = quiet_step(opt, "call overhead", &p, notes, [&] {
        progress("call overhead: MPI_Barrier on a one-rank communicator (hmpi-call-overhead under hmpirun -np 1)");
        if (!measure_call_overhead(opt.quick, &p.call_overhead, &why)) return false;
        progress("call overhead: %.1f ns per collective call", p.call_overhead);
        return true;
    });
    if (!overhead_measured) {
        std::fprintf(stderr, "hmpi-calibrate: cannot measure the call overhead: %s\n", why.c_str());
        return 1;
    }

    ++g_step;
    p.busy_step = 0;  // only a measurement writes them
    p.step_overhead = 0;
    p.poll_line = 0;
    {
        // The link between cores 0 and 1, where ranks 0 and 1 run.
        double pair_a = p.alpha.a;
        for (std::size_t i = 0; i < links.size(); ++i)
            if (m.cores.size() > 1 && links[i].reader == m.cores[1].index) pair_a = results[i].cost.a;
        quiet_step(opt, "steps", &p, notes, [&] {
            measure_steps(opt.quick, alpha >= 0 ? links[static_cast<std::size_t>(alpha)].ring.size() : 1,
                          m.cores.size(), p.call_overhead, pair_a, &p, notes);
        });
    }
    g_step = 0;
    if (near_link != nullptr) check_speed_kept(plan, *near_link, clk, near_handoff, notes);

    // The profile: comments for people, then the keys.
    std::string out;
    out += "# HMPI model profile (docs/model.md), written by " + std::string(kToolVersion) +
           (opt.quick ? " --quick" : "") + ".\n";
    out += "# Units: a in ns per synchronized step; b, B, b_mem, B_mem (reduction step) and\n";
    out += "# r, R, r_mem, R_mem, R_slices, R_slices_mem (reduction into a third buffer) and c, C, c_mem, C_mem (copy\n";
    out += "# step) in ns per 64-byte line (b_l2, c_l2, r_l2, R_slices_l2: while the data stay in the L2s;\n";
    out += "# b_l1, r_l1, R_slices_l1: in the L1s; near_line:\n";
    out += "# ns more for each of a step's first near_lines lines, slice_near_line of a slice fold's first\n";
    out += "# slice_near_lines); copy bandwidths in bytes\n";
    out += "# per ns (GB/s); call_overhead in ns per collective call.\n";
    {
        char b[640];
        std::snprintf(b, sizeof b,
                      "# Machine: %zu cores, %zu cache domain(s), L2 %s, LLC %s, all caches %s; in-cache working sets "
                      "up to %s, beyond-cache %s.\n",
                      m.cores.size(), m.domain_count, mib(m.l2_bytes).c_str(), mib(m.llc_bytes).c_str(),
                      mib(m.all_cache_bytes).c_str(), mib(plan.cache_ws).c_str(),
                      plan.mem_ws.empty() ? "none" : mib(plan.mem_ws.front()).c_str());
        out += b;
        for (std::size_t i = 0; i < links.size(); ++i) {
            std::snprintf(b, sizeof b,
                          "# %s: cores %d->%d, flag handoff %.1f ns, fit error <= %.0f%%; B from %d readers at once "
                          "(fit error <= %.0f%%); third buffer: fit error <= %.0f%% (intercept %.1f ns), R fit error "
                          "<= %.0f%%, R_slices fit error <= %.0f%%; copy: fit error <= %.0f%% (intercept %.1f ns), C "
                          "fit error <= %.0f%%.\n",
                          links[i].name.c_str(), links[i].writer, links[i].reader, results[i].handoff,
                          100 * results[i].fit_error[0], results[i].t, 100 * results[i].ring_error[0],
                          100 * results[i].fit_error[2], results[i].reduce3_intercept, 100 * results[i].ring_error[2],
                          100 * results[i].ring_error[3], 100 * results[i].fit_error[1], results[i].copy_intercept,
                          100 * results[i].ring_error[1]);
            out += b;
        }
    }
    for (const std::string& n : notes) out += "# " + n + "\n";
    out += coll::format_profile(p);
    out += "tool " + std::string(kToolVersion) + "\n";
    out += "measured " + utc_now() + "\n";

    for (const std::string& n : notes) progress("note: %s", n.c_str());
    for (auto [n, l] : {std::pair{"alpha:", &p.alpha}, std::pair{"beta: ", &p.beta}})
        progress("%s a=%.1f ns b=%.3f B=%.3f b_mem=%.3f B_mem=%.3f r=%.3f R=%.3f r_mem=%.3f R_mem=%.3f "
                 "R_slices=%.3f R_slices_mem=%.3f c=%.3f C=%.3f c_mem=%.3f C_mem=%.3f ns/line",
                 n, l->a, l->b, l->B, l->b_mem, l->B_mem, l->r, l->R, l->r_mem, l->R_mem, l->R_slices,
                 l->R_slices_mem, l->c, l->C, l->c_mem, l->C_mem);
    if (p.alpha.b_l2 > 0)
        progress("in the L2s: b_l2=%.3f c_l2=%.3f r_l2=%.3f ns/line; near_line=%.3f ns for the first %.0f lines",
                 p.alpha.b_l2, p.alpha.c_l2, p.alpha.r_l2, p.near_line, p.near_lines);
    return write_profile_text(opt, out);
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick") opt.quick = true;
        else if (a == "--print") opt.print = true;
        else if (a == "--output" && i + 1 < argc) opt.output = argv[++i];
        else if (a == "--check" && i + 1 < argc) opt.check = argv[++i];
        else if (a == "--combine") {
            while (i + 1 < argc && std::strncmp(argv[i + 1], "--", 2) != 0) opt.combine.push_back(argv[++i]);
            if (opt.combine.size() < 2) {
                std::fprintf(stderr, "hmpi-calibrate: --combine needs two profiles or more\n");
                return usage();
            }
        }
        else if (a == "--help" || a == "-h") return usage(), 0;
        else {
            std::fprintf(stderr, "hmpi-calibrate: unknown argument '%s'\n", a.c_str());
            return usage();
        }
    }
    if (!opt.check.empty()) return check(opt.check);
    if (!opt.combine.empty()) return combine(opt);
    return run_calibration(opt);
}
