// hmpi-calibrate's timed kernels and machine discovery (measure.hpp).
#include "measure.hpp"

#include <hwloc.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <thread>

#include "base/topology.hpp"
#include "collectives/allreduce/knobs.hpp"
#include "collectives/framework/shared.hpp"
#include "primitives/copy.hpp"
#include "primitives/flag.hpp"
#include "primitives/reduce.hpp"

namespace hmpi::calibrate {

namespace {

constexpr std::size_t kLine = 64;
constexpr std::size_t kDoublesPerLine = kLine / sizeof(double);

inline std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

inline void wait_reached(const SingleWriterFlag& f, std::uint64_t v) {
    while (!f.reached(v)) cpu_relax();
}

// Page-aligned buffer of `lines` cache lines, first touched (so placed in
// memory) by the calling thread, as a rank's own buffers are.
struct Buffer {
    double* data = nullptr;
    explicit Buffer(std::size_t lines) {
        const std::size_t bytes = std::max<std::size_t>(lines, 1) * kLine;
        const std::size_t rounded = (bytes + 4095) / 4096 * 4096;
        data = static_cast<double*>(std::aligned_alloc(4096, rounded));
        if (!data) std::abort();
        std::memset(data, 0, rounded);
    }
    ~Buffer() { std::free(data); }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
};

// Writes every line of the first `lines` (leaves them MODIFIED in this core's cache).
void write_lines(double* p, std::size_t lines, double value) {
    const std::size_t n = lines * kDoublesPerLine;
    for (std::size_t i = 0; i < n; ++i) p[i] = value;
}

// The reduction step the collectives do: acc[i] += src[i].
void reduce_lines(const double* src, double* acc, std::size_t lines) {
    static const prim::ReduceKernel sum = prim::reduce_kernel(prim::ReduceOp::sum, prim::Elem::f64);
    sum(src, acc, lines * kDoublesPerLine);
}

// The reduction into a third buffer the collectives do (reduce_data3):
// out[i] = mine[i] + src[i].
void reduce3_lines(const double* src, const double* mine, double* out, std::size_t lines) {
    static const prim::Reduce3Kernel sum = prim::reduce3_kernel(prim::ReduceOp::sum, prim::Elem::f64);
    sum(mine, src, out, lines * kDoublesPerLine);
}

// The copy step the collectives do: the peer's lines into one's own buffer,
// with ordinary stores (the copy_bandwidth measurement's memcpy).
void copy_lines(const double* src, double* dst, std::size_t lines) { std::memcpy(dst, src, lines * kLine); }

// Waits until this thread's earlier stores are visible to other cores.
void drain_stores() {
#if defined(__x86_64__)
    __builtin_ia32_mfence();
#else
    std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
}

// Reads every line (a program using what it received): they leave the
// pusher's cache for this core's, so the next push takes them back.
void consume_lines(const double* p, std::size_t lines) {
    double sum = 0;
    for (std::size_t i = 0; i < lines * kDoublesPerLine; i += kDoublesPerLine) sum += p[i];
    volatile double sink = sum;
    (void)sink;
}

// `mine`: Kernel::reduce3's second input (unused by the others).
void run_kernel(Kernel k, const double* src, double* dst, std::size_t lines, const double* mine = nullptr) {
    if (k == Kernel::reduce) reduce_lines(src, dst, lines);
    else if (k == Kernel::reduce3 || k == Kernel::reduce3_slices) reduce3_lines(src, mine, dst, lines);
    else if (k == Kernel::reduce3_slices_push) std::abort();  // fold_and_push_lines, ring_steps only
    else copy_lines(src, dst, lines);
}

// Kernel::reduce3_slices_push: tiled_push's loop on one slice, a strip at
// a time: the fold into `out`, then the strip's copy into `held`.
void fold_and_push_lines(const double* src, const double* mine, double* out, double* held, std::size_t lines) {
    const std::size_t strip = std::max<std::size_t>(coll::kReductionKnobs.strip_bytes / kLine, 1);
    for (std::size_t at = 0; at < lines; at += strip) {
        const std::size_t n = std::min(strip, lines - at), off = at * kDoublesPerLine;
        reduce3_lines(src + off, mine + off, out + off, n);
        copy_bytes(held + off, out + off, n * kLine, StoreKind::rewrite);
    }
}

void bind(int core) {
    // A failed binding leaves the measurement valid but noisier; the
    // caller's progress output names the cores it asked for.
    (void)bind_current_thread_to_core(core);
}

int warmup_rounds(int rounds) { return std::max(2, rounds / 10); }

// The median of the rounds that were not interrupted. On a machine shared
// with other work a thread descheduled mid-round adds a time slice
// (milliseconds) to that round; when more than half the rounds are hit, the
// plain median is one of them. Rounds over 3x the fastest are taken as
// interrupted and left out; on a quiet machine none are, and this is the
// plain median.
double uninterrupted_median(std::vector<double> v) {
    if (v.empty()) return 0;
    const double fastest = *std::min_element(v.begin(), v.end());
    std::erase_if(v, [&](double x) { return x > 3 * fastest; });
    return median(std::move(v));
}

// Whether round r of a size (after `warm` warm-up rounds, `total` in all,
// the size begun at `begin`) is its last: the last planned, or one past the
// size's time budget once the minimum of rounds is in (rounds_for).
bool ends_size(const Rounds& rounds, int r, int warm, int total, std::int64_t begin) {
    return r == total - 1 ||
           (r >= warm + rounds.min_rounds - 1 && static_cast<double>(now_ns() - begin) > rounds.budget_ns);
}

// A round's span over t threads, ns: the last one's end less the first
// one's start (start(i), end(i): thread i's).
template <class Start, class End>
double span_over_threads(std::size_t t, Start start, End end) {
    std::int64_t first = start(0), last = end(0);
    for (std::size_t i = 1; i < t; ++i) {
        first = std::min(first, start(i));
        last = std::max(last, end(i));
    }
    return static_cast<double>(last - first);
}

// Runs body(k) on t threads at once and joins them; aborts, naming `what`,
// if `wrong` was set (a result a kernel got wrong). Returns the median over
// rounds 1.. (round 0 warms up pages and TLBs) of each round's span over
// the threads, from start[r t + k] and end[r t + k].
template <class Body>
double median_round_span(std::size_t t, int rounds, Body body, const std::atomic<bool>& wrong, const char* what,
                         const std::vector<std::int64_t>& start, const std::vector<std::int64_t>& end) {
    std::vector<std::thread> threads;
    for (std::size_t k = 0; k < t; ++k) threads.emplace_back(body, k);
    for (auto& th : threads) th.join();
    if (wrong.load()) {
        std::fprintf(stderr, "hmpi-calibrate: %s: wrong results (a bug in the kernel)\n", what);
        std::abort();
    }
    std::vector<double> per_round;
    for (std::size_t r = 1; r < static_cast<std::size_t>(rounds); ++r)
        per_round.push_back(span_over_threads(
            t, [&](std::size_t k) { return start[r * t + k]; }, [&](std::size_t k) { return end[r * t + k]; }));
    return median(per_round);
}

}  // namespace

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

Machine discover_machine() {
    Machine m;
    hwloc_topology_t t;
    hwloc_topology_init(&t);
    hwloc_topology_load(t);
    hwloc_obj_type_t core_type = HWLOC_OBJ_CORE;
    int n = hwloc_get_nbobjs_by_type(t, core_type);
    if (n <= 0) {
        core_type = HWLOC_OBJ_PU;
        n = hwloc_get_nbobjs_by_type(t, core_type);
    }
    const int numas = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
    for (int i = 0; i < n; ++i) {
        hwloc_obj_t o = hwloc_get_obj_by_type(t, core_type, static_cast<unsigned>(i));
        Core c;
        c.index = i;
        for (hwloc_obj_t up = o->parent; up; up = up->parent) {
            if (up->type == HWLOC_OBJ_L2CACHE && c.l2 < 0) c.l2 = static_cast<int>(up->logical_index);
            if (up->type == HWLOC_OBJ_L3CACHE && c.l3 < 0) c.l3 = static_cast<int>(up->logical_index);
            if (up->type == HWLOC_OBJ_PACKAGE && c.package < 0) c.package = static_cast<int>(up->logical_index);
        }
        // NUMA nodes are memory children in hwloc 2, not ancestors.
        for (int k = 0; k < numas; ++k) {
            hwloc_obj_t node = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(k));
            if (node && node->cpuset && o->cpuset && hwloc_bitmap_isincluded(o->cpuset, node->cpuset)) {
                c.numa = static_cast<int>(node->logical_index);
                break;
            }
        }
        m.cores.push_back(c);
    }
    const int n_l2 = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_L2CACHE);
    const int n_l3 = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_L3CACHE);
    const int n_pkg = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
    hwloc_obj_t l2 = n_l2 > 0 ? hwloc_get_obj_by_type(t, HWLOC_OBJ_L2CACHE, 0) : nullptr;
    hwloc_obj_t l3 = n_l3 > 0 ? hwloc_get_obj_by_type(t, HWLOC_OBJ_L3CACHE, 0) : nullptr;
    if (l2) m.l2_bytes = l2->attr->cache.size;
    if (hwloc_obj_t l1 = hwloc_get_obj_by_type(t, HWLOC_OBJ_L1CACHE, 0); l1 && l1->attr)
        m.l1_bytes = l1->attr->cache.size;
    m.llc_bytes = l3 ? l3->attr->cache.size : m.l2_bytes;
    const char* incl = l3 ? hwloc_obj_get_info_by_name(l3, "Inclusive") : nullptr;
    const bool inclusive = incl && std::strcmp(incl, "1") == 0;
    m.llc_inclusive = inclusive;
    m.llc_count = l3 ? static_cast<std::size_t>(n_l3) : 0;
    m.l2_count = l3 && inclusive ? 0 : static_cast<std::size_t>(std::max(n_l2, 0));
    m.all_cache_bytes = m.caches_with(m.llc_bytes);
    if (m.all_cache_bytes == 0) m.all_cache_bytes = 64u << 20;  // nothing known: assume a large cache
    hwloc_obj_t root = hwloc_get_root_obj(t);
    m.memory_bytes = root ? root->total_memory : 0;
    m.domain_count = static_cast<std::size_t>(n_l3 > 0 ? n_l3 : std::max(n_pkg, 1));
    hwloc_topology_destroy(t);
    return m;
}

coll::LevelKind common_level(const Core& x, const Core& y) {
    using coll::LevelKind;
    if (x.index == y.index) return LevelKind::core;
    if (x.l2 >= 0 && x.l2 == y.l2) return LevelKind::l2;
    if (x.l3 >= 0 && x.l3 == y.l3) return LevelKind::l3;
    if (x.numa >= 0 && x.numa == y.numa) return LevelKind::numa;
    if (x.package >= 0 && x.package == y.package) return LevelKind::socket;
    return LevelKind::node;
}

bool same_domain(const Machine& m, const Core& x, const Core& y) {
    (void)m;
    if (x.l3 >= 0 || y.l3 >= 0) return x.l3 == y.l3;
    return x.package == y.package;
}

double clock_overhead_ns() {
    std::vector<double> d;
    for (int i = 0; i < 1001; ++i) {
        const std::int64_t t0 = now_ns();
        const std::int64_t t1 = now_ns();
        d.push_back(static_cast<double>(t1 - t0));
    }
    return median(d);
}

namespace {
// The CPUs this process may run on, as it started (before any thread is
// bound to one core): other work on the CPUs outside them (another job on
// a shared node) does not slow a measurement and is not counted.
const cpu_set_t g_allowed_cpus = [] {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) CPU_ZERO(&set);
    return set;
}();
}  // namespace

double busy_ticks(const char* proc_stat, const cpu_set_t& allowed, int* cpus) {
    // "cpuN user nice system idle iowait irq softirq steal ...", one line
    // per CPU after the total's ("cpu  ...").
    const bool any_allowed = CPU_COUNT(&allowed) > 0;
    double busy = 0;
    *cpus = 0;
    for (const char* line = proc_stat; line != nullptr && std::strncmp(line, "cpu", 3) == 0;) {
        const char* next = std::strchr(line, '\n');
        if (line[3] >= '0' && line[3] <= '9') {
            int cpu = -1;
            unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
            const int n = std::sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &user, &nice,
                                      &system, &idle, &iowait, &irq, &softirq, &steal);
            if (n >= 8 && cpu >= 0 && (!any_allowed || (cpu < CPU_SETSIZE && CPU_ISSET(cpu, &allowed)))) {
                busy += static_cast<double>(user + nice + system + irq + softirq + (n >= 9 ? steal : 0));
                ++*cpus;
            }
        }
        line = next != nullptr ? next + 1 : nullptr;
    }
    return busy;
}

CpuTicks cpu_ticks_now() {
    CpuTicks t;
    t.wall_s = static_cast<double>(now_ns()) * 1e-9;
    std::FILE* f = std::fopen("/proc/stat", "r");
    if (f == nullptr) return t;
    std::string text(1 << 16, '\0');  // the per-CPU lines come first; the rest is not read
    text.resize(std::fread(text.data(), 1, text.size() - 1, f));
    std::fclose(f);
    int cpus = 0;
    const double busy = busy_ticks(text.c_str(), g_allowed_cpus, &cpus);
    if (cpus == 0) return t;
    // /proc/self/stat: "pid (comm) state" then fields 4..; utime, stime,
    // cutime, cstime are fields 14-17. comm may hold spaces: parse after
    // its last ')'.
    f = std::fopen("/proc/self/stat", "r");
    if (f == nullptr) return t;
    char buf[1024];
    const std::size_t len = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    buf[len] = '\0';
    const char* rest = std::strrchr(buf, ')');
    if (rest == nullptr) return t;
    unsigned long long utime = 0, stime = 0;
    long long cutime = 0, cstime = 0;
    if (std::sscanf(rest + 1, " %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu %llu %lld %lld", &utime, &stime,
                    &cutime, &cstime) != 4)
        return t;
    t.busy = busy;
    t.self = static_cast<double>(utime + stime) + static_cast<double>(cutime + cstime);
    return t;
}

OtherWork other_work(const CpuTicks& before, const CpuTicks& after, double ticks_per_s) {
    const double wall_s = after.wall_s - before.wall_s;
    if (before.busy < 0 || after.busy < 0 || wall_s <= 0 || ticks_per_s <= 0) return {};
    const double ticks = std::max(0.0, (after.busy - before.busy) - (after.self - before.self));
    return {ticks / ticks_per_s, ticks / ticks_per_s / wall_s};
}

namespace {

// The common frame of the writer-reader kernels: one writer core and t
// readers. Each round the writer runs `write` (timed), publishes, and waits
// for every reader to have run `read` (each reader timed) before the next
// round. `round_time` turns one round's times into its sample: the
// writer's `write`, its publish to its seeing every reader done (the
// handoff there, the reads, the handoff back), and, with `time_readers`,
// the readers' (start, end) pairs (two clock reads inside the round trip,
// which the handoff time of a pair must not include). The writer's buffer
// has `writer_lines` lines, each reader's own `reader_lines`.
template <class Write, class Read, class RoundTime>
std::vector<double> writer_and_readers(int writer_core, const std::vector<int>& reader_cores,
                                       const std::vector<std::size_t>& lines, const Rounds& rounds,
                                       std::size_t writer_lines, std::size_t reader_lines, bool time_readers,
                                       Write write, Read read, RoundTime round_time) {
    const std::size_t t = reader_cores.size();
    auto ready = std::make_unique<SingleWriterFlag>();
    std::vector<SingleWriterFlag> done(t);
    std::atomic<std::uint64_t> last_stamp{0};
    std::atomic<double*> src{nullptr};
    // Per reader, the current round's start and end (read by the writer
    // after that reader's done flag).
    std::vector<std::int64_t> start(t), end(t);
    std::vector<double> result(lines.size());
    std::thread writer([&] {
        bind(writer_core);
        Buffer buf(writer_lines);
        src.store(buf.data, std::memory_order_release);
        std::uint64_t stamp = 0;
        for (std::size_t s = 0; s < lines.size(); ++s) {
            const int warm = warmup_rounds(rounds.rounds[s]);
            const int total = warm + rounds.rounds[s];
            std::vector<double> samples;
            const std::int64_t begin = now_ns();
            for (int r = 0; r < total; ++r) {
                const std::int64_t t0 = now_ns();
                write(buf.data, lines[s], static_cast<double>(r + 1));
                const std::int64_t written = now_ns();
                const bool over = ends_size(rounds, r, warm, total, begin);
                ++stamp;
                if (over) last_stamp.store(stamp, std::memory_order_relaxed);
                const std::int64_t t1 = now_ns();
                ready->publish(stamp);
                for (std::size_t j = 0; j < t; ++j) wait_reached(done[j], stamp);
                const std::int64_t t2 = now_ns();
                if (r >= warm)
                    samples.push_back(round_time(static_cast<double>(written - t0), static_cast<double>(t2 - t1),
                                                 start, end));
                if (over) break;
            }
            result[s] = rounds.fastest ? *std::min_element(samples.begin(), samples.end())
                                       : uninterrupted_median(std::move(samples));
        }
    });
    std::vector<std::thread> readers;
    for (std::size_t j = 0; j < t; ++j)
        readers.emplace_back([&, j] {
            bind(reader_cores[j]);
            Buffer acc(reader_lines);
            double* in = nullptr;
            while (!(in = src.load(std::memory_order_acquire))) cpu_relax();
            std::uint64_t stamp = 0;
            for (std::size_t s = 0; s < lines.size(); ++s) {
                for (;;) {
                    wait_reached(*ready, ++stamp);
                    const bool last = last_stamp.load(std::memory_order_relaxed) == stamp;
                    if (time_readers) start[j] = now_ns();
                    read(j, in, acc.data, lines[s]);
                    if (time_readers) end[j] = now_ns();
                    done[j].publish(stamp);
                    if (last) break;
                }
            }
        });
    writer.join();
    for (auto& th : readers) th.join();
    return result;
}

}  // namespace

std::vector<double> pair_round_trips(int writer_core, int reader_core, const std::vector<std::size_t>& lines,
                                     const Rounds& rounds, Kernel kernel) {
    const std::size_t max_lines = *std::max_element(lines.begin(), lines.end());
    // Kernel::reduce3's reader keeps its second input (`mine`, written once
    // by the reader as it allocates it, so in its cache) after its output.
    const bool three = kernel == Kernel::reduce3;
    return writer_and_readers(
        writer_core, {reader_core}, lines, rounds, max_lines, three ? 2 * max_lines : max_lines, false, write_lines,
        [kernel, max_lines](std::size_t, const double* in, double* acc, std::size_t n) {
            if (n) run_kernel(kernel, in, acc, n, acc + max_lines * kDoublesPerLine);
        },
        [](double, double handoff_ns, const std::vector<std::int64_t>&, const std::vector<std::int64_t>&) {
            return handoff_ns;
        });
}

std::vector<double> ring_steps(const std::vector<int>& cores, const std::vector<std::size_t>& lines,
                               const Rounds& rounds, Kernel kernel) {
    const std::size_t t = cores.size();
    const std::size_t max_lines = *std::max_element(lines.begin(), lines.end());
    const bool push = kernel == Kernel::push;
    std::vector<SingleWriterFlag> ready(t), done(t);
    // Per thread, the buffer its neighbour uses: the lines it reads (its
    // own), or, pushing, the inbox it writes.
    std::vector<std::atomic<double*>> src(t);
    for (auto& p : src) p.store(nullptr);
    // Per thread, per size, per round: start and end of its kernel.
    std::vector<std::vector<std::vector<std::int64_t>>> start(t), end(t);
    std::barrier sync(static_cast<std::ptrdiff_t>(t));
    // Thread 0 ends a size (see pair_round_trips); the others read it once
    // they have seen thread 0's ready flag for the round.
    std::atomic<std::uint64_t> last_stamp{0};

    auto body = [&](std::size_t i) {
        bind(cores[i]);
        Buffer own(max_lines), acc(max_lines);
        // Kernel::reduce3_slices' second input: lines of this thread's that
        // nobody else reads (Kernel::reduce3 reads `own`, which the
        // neighbour reads at the same time).
        const bool fold_push = kernel == Kernel::reduce3_slices_push;
        const bool slices = kernel == Kernel::reduce3_slices || fold_push;
        Buffer mine(slices ? max_lines : 1), held(fold_push ? max_lines : 1);
        src[i].store(push ? acc.data : own.data, std::memory_order_release);
        sync.arrive_and_wait();
        double* in = src[(i + 1) % t].load(std::memory_order_acquire);
        const std::size_t reader_of_mine = (i + t - 1) % t;
        std::uint64_t stamp = 0;
        start[i].resize(lines.size());
        end[i].resize(lines.size());
        for (std::size_t s = 0; s < lines.size(); ++s) {
            const int warm = warmup_rounds(rounds.rounds[s]);
            const int total = warm + rounds.rounds[s];
            const std::int64_t begin = now_ns();
            for (int r = 0;; ++r) {
                write_lines(own.data, lines[s], static_cast<double>(r + 1));
                if (slices) write_lines(mine.data, lines[s], static_cast<double>(r + 2));
                ++stamp;
                if (i == 0 && ends_size(rounds, r, warm, total, begin))
                    last_stamp.store(stamp, std::memory_order_relaxed);
                ready[i].publish(stamp);
                // All start together: t readers share the links at once.
                for (std::size_t j = 0; j < t; ++j) wait_reached(ready[j], stamp);
                const bool last = last_stamp.load(std::memory_order_relaxed) == stamp;
                const std::int64_t t0 = now_ns();
                // Pushing, as push Alltoall and Allgather copy into a peer's
                // buffer (StoreKind::rewrite: past 1 KiB a string move,
                // whose whole-line stores skip taking the reader's lines
                // back; memcpy's vector stores past 1 MiB cost 3-4x more
                // a line here on the 2-core EPYC guest, stop 45).
                if (push) copy_bytes(in, own.data, lines[s] * kLine, StoreKind::rewrite);
                else if (fold_push) fold_and_push_lines(in, mine.data, acc.data, held.data, lines[s]);
                else run_kernel(kernel, in, acc.data, lines[s], slices ? mine.data : own.data);
                const std::int64_t t1 = now_ns();
                done[i].publish(stamp);
                // My reader must be done before I rewrite my lines; pushing,
                // the thread that writes my inbox must be done before I read it
                // (and I read it before my next ready flag, so nobody pushes
                // into it again before that).
                wait_reached(done[reader_of_mine], stamp);
                if (push) consume_lines(acc.data, lines[s]);
                if (r >= warm) {
                    start[i][s].push_back(t0);
                    end[i][s].push_back(t1);
                }
                if (last) break;
            }
        }
        sync.arrive_and_wait();  // nobody reads `own` any more
    };
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < t; ++i) threads.emplace_back(body, i);
    for (auto& th : threads) th.join();

    std::vector<double> result(lines.size());
    for (std::size_t s = 0; s < lines.size(); ++s) {
        std::vector<double> steps;
        for (std::size_t r = 0; r < start[0][s].size(); ++r)
            steps.push_back(span_over_threads(
                t, [&](std::size_t i) { return start[i][s][r]; }, [&](std::size_t i) { return end[i][s][r]; }));
        result[s] = rounds.fastest ? *std::min_element(steps.begin(), steps.end())
                                   : uninterrupted_median(std::move(steps));
    }
    return result;
}


namespace {

std::vector<double> rotating_copy_in_times(int writer_core, const std::vector<int>& reader_cores,
                                           const std::vector<std::size_t>& lines, const Rounds& rounds,
                                           bool time_reader) {
    const std::size_t max_lines = *std::max_element(lines.begin(), lines.end());
    // The writer copies from a private buffer as the inline algorithms'
    // copy-in does (inline_copy_in: StoreKind::rewrite), not with
    // write_lines' fill loop, which the compiler makes eight 8-byte stores
    // per line: on the 2-core EPYC (cores in separate L3s), alternating the two on the same
    // cores, 64 lines took 281 ns to store with the fill loop and 71-80 ns
    // with memcpy (the whole round, handoff and reader's copy included, 890
    // against 690 ns). writer_and_readers returns before `source` goes.
    const std::vector<double> source(max_lines * kDoublesPerLine, 1.0);
    // The fence waits for the stores to leave the store buffer, each after
    // taking its line back from the readers: until then a flag published
    // after them is not seen (2.3-2.5 ns per line on the guest with it,
    // 0.3-0.7 without). A timing device, not synchronization (the flags
    // order the rounds): mfence itself on x86, which ThreadSanitizer
    // builds take as they are.
    //
    // The writer rotates over kSlots areas, as the runtime's collective
    // slots do (collectives/framework/shared.hpp): an area is rewritten only
    // every kSlots calls, after the writer has stored to the others, so its
    // lines have left the writer's L1 by then. Rewriting one area every
    // round kept them there and measured another cost: on the 2-core EPYC
    // guest (stop 29) 64 lines took 200 ns with one area and 420 with 8,
    // 128 lines 410 against 850, and 2-rank inline collectives' measured
    // cost from 2 to 16 KiB followed the 8 areas' 6.6-7 ns per line.
    // `area` is the round's: set before the publish that readers acquire.
    std::atomic<std::size_t> area{0};
    auto write = [&source, &area, max_lines](double* p, std::size_t n, double round) {
        const std::size_t next = static_cast<std::size_t>(round) % coll::kSlots;
        copy_bytes(p + next * max_lines * kDoublesPerLine, source.data(), n * kLine, StoreKind::rewrite);
        drain_stores();
        area.store(next, std::memory_order_relaxed);
    };
    return writer_and_readers(
        writer_core, reader_cores, lines, rounds, coll::kSlots * max_lines, max_lines, time_reader, write,
        [&area, max_lines](std::size_t, const double* in, double* acc, std::size_t n) {
            copy_lines(in + area.load(std::memory_order_relaxed) * max_lines * kDoublesPerLine, acc, n);
        },
        [time_reader](double write_ns, double, const std::vector<std::int64_t>& start,
                      const std::vector<std::int64_t>& end) {
            return time_reader ? static_cast<double>(end[0] - start[0]) : write_ns;
        });
}

}  // namespace

std::vector<double> rewrite_times(int writer_core, const std::vector<int>& reader_cores,
                                  const std::vector<std::size_t>& lines, const Rounds& rounds) {
    return rotating_copy_in_times(writer_core, reader_cores, lines, rounds, false);
}

std::vector<double> inline_read_times(int writer_core, int reader_core, const std::vector<std::size_t>& lines,
                                      const Rounds& rounds) {
    return rotating_copy_in_times(writer_core, {reader_core}, lines, rounds, true);
}

namespace {

// The writer's `store` into the buffer (the lines its readers copy come
// first; `regions` blocks of the largest size in all), then a drain, timed,
// while the readers copy the first block each round. They copy it as the
// broadcasts whose sources these stores stand for do (result_bcast:
// StoreKind::rewrite, a string move), not with memcpy: glibc's memcpy
// leaves the string move past 1 MiB (rep_movsb_stop_threshold on the EPYC
// guest) for vector loads, whose copies of the source lines the next
// stores must invalidate. There (2 ranks, slow state, stop 43, paired
// calibrations) folding into lines a reader copied with memcpy cost
// 6.1-7.5 ns a line more than into lines of one's own past the knee, with
// the string move 2.3-2.7; 2-rank tree Allreduce, whose reader copies so,
// about 2.5-4 past it (docs/model.md, "The reader's copy past the knee"). Where
// `reader_rewrites` names a block, the first reader rewrites it each round
// after its copy (between its done flag and the next ready flag nobody
// else touches it).
template <class Store>
std::vector<double> timed_stores(int writer_core, const std::vector<int>& reader_cores,
                                 const std::vector<std::size_t>& lines, const Rounds& rounds, std::size_t regions,
                                 Store store, std::optional<std::size_t> reader_rewrites = std::nullopt) {
    const std::size_t max_lines = *std::max_element(lines.begin(), lines.end());
    const std::size_t w = max_lines * kDoublesPerLine;
    return writer_and_readers(
        writer_core, reader_cores, lines, rounds, regions * max_lines, max_lines, false,
        [store, w](double* p, std::size_t n, double) {
            store(p, w, n);
            drain_stores();
        },
        [reader_rewrites, w](std::size_t j, const double* in, double* acc, std::size_t n) {
            copy_bytes(acc, in, n * kLine, StoreKind::rewrite);
            if (reader_rewrites && j == 0)
                write_lines(const_cast<double*>(in) + *reader_rewrites * w, n, acc[0] + 1.0);
        },
        [](double write_ns, double, const std::vector<std::int64_t>&, const std::vector<std::int64_t>&) {
            return write_ns;
        });
}

}  // namespace

std::vector<double> fold_rewrite_times(int writer_core, const std::vector<int>& reader_cores,
                                       const std::vector<std::size_t>& lines, const Rounds& rounds, bool shared) {
    // Four blocks: the lines the readers copy, the writer's private output,
    // its own input (`mine`, nobody else's) and its peer's input, which the
    // first reader rewrites each round after its copy, as a reduction's
    // child rewrites the send buffer its root folds next call. The peer's
    // input matters: its misses overlap the invalidations of the fold's
    // stores. On the 2-core EPYC guest (stop 42, slow state) two inputs of
    // the writer's own put 10.1-10.7 ns a line on the rewrite where one
    // rewritten by the reader puts 6.5-7.2, and 2-rank tree Allreduce,
    // charged the former, was 15-26% high from 2 to 256 KiB.
    return timed_stores(
        writer_core, reader_cores, lines, rounds, 4,
        [shared](double* p, std::size_t w, std::size_t n) {
            reduce3_lines(p + 3 * w, p + 2 * w, shared ? p : p + w, n);
        },
        std::size_t{3});
}

std::vector<double> copy_rewrite_times(int writer_core, const std::vector<int>& reader_cores,
                                       const std::vector<std::size_t>& lines, const Rounds& rounds, bool shared) {
    // The lines the readers copy, the writer's private destination, and its
    // source, which nobody else reads; the copy is the runtime's into lines
    // others read (StoreKind::rewrite).
    return timed_stores(writer_core, reader_cores, lines, rounds, 3, [shared](double* p, std::size_t w, std::size_t n) {
        copy_bytes(shared ? p : p + w, p + 2 * w, n * kLine, StoreKind::rewrite);
    });
}

std::vector<double> fan_out_steps(int source_core, const std::vector<int>& reader_cores,
                                  const std::vector<std::size_t>& lines, const Rounds& rounds) {
    const std::size_t t = reader_cores.size();
    const std::size_t max_lines = *std::max_element(lines.begin(), lines.end());
    return writer_and_readers(
        source_core, reader_cores, lines, rounds, max_lines * t, max_lines, true,
        [t](double* p, std::size_t n, double v) { write_lines(p, n * t, v); },
        [](std::size_t j, const double* in, double* acc, std::size_t n) { copy_lines(in + j * n * kDoublesPerLine, acc, n); },
        [](double, double, const std::vector<std::int64_t>& start, const std::vector<std::int64_t>& end) {
            return static_cast<double>(*std::max_element(end.begin(), end.end()) -
                                       *std::min_element(start.begin(), start.end()));
        });
}

std::vector<double> all_rewrite_times(const std::vector<int>& cores, const std::vector<std::size_t>& lines,
                                      const Rounds& rounds) {
    const std::size_t t = cores.size();
    const std::size_t max_lines = *std::max_element(lines.begin(), lines.end());
    std::vector<SingleWriterFlag> written(t), copied(t);
    std::vector<std::atomic<double*>> area(t);
    for (auto& a : area) a.store(nullptr);
    // Per thread, per size: its store times over the rounds.
    std::vector<std::vector<std::vector<double>>> store_ns(t);
    std::barrier sync(static_cast<std::ptrdiff_t>(t));
    // Thread 0 ends a size (see pair_round_trips); the others read it once
    // they have seen thread 0's written flag for the round.
    std::atomic<std::uint64_t> last_stamp{0};

    // As rotating_copy_in_times' writer: a copy from a private buffer with
    // the runtime's copy-in stores (StoreKind::rewrite; a fill loop's
    // 8-byte stores measured another cost there), over kSlots areas in
    // turn, as the runtime's collective slots rotate.
    const std::size_t slot_doubles = max_lines * kDoublesPerLine;
    auto body = [&](std::size_t i) {
        bind(cores[i]);
        Buffer own(coll::kSlots * max_lines), acc(max_lines);
        const std::vector<double> source(slot_doubles, 1.0 + static_cast<double>(i));
        area[i].store(own.data, std::memory_order_release);
        sync.arrive_and_wait();
        std::uint64_t stamp = 0;
        store_ns[i].resize(lines.size());
        for (std::size_t s = 0; s < lines.size(); ++s) {
            const int warm = warmup_rounds(rounds.rounds[s]);
            const int total = warm + rounds.rounds[s];
            const std::int64_t begin = now_ns();
            for (int r = 0;; ++r) {
                // Everyone has copied my lines of the round before.
                for (std::size_t j = 0; j < t; ++j) wait_reached(copied[j], stamp);
                ++stamp;
                const std::size_t slot = (stamp % coll::kSlots) * slot_doubles;
                const std::int64_t t0 = now_ns();
                copy_bytes(own.data + slot, source.data(), lines[s] * kLine, StoreKind::rewrite);
                drain_stores();
                const std::int64_t t1 = now_ns();
                if (i == 0 && ends_size(rounds, r, warm, total, begin))
                    last_stamp.store(stamp, std::memory_order_relaxed);
                written[i].publish(stamp);
                for (std::size_t k = 1; k < t; ++k) {
                    const std::size_t j = (i + k) % t;
                    wait_reached(written[j], stamp);
                    copy_lines(area[j].load(std::memory_order_relaxed) + slot, acc.data, lines[s]);
                }
                // Every thread copied thread 0's lines after its written flag.
                const bool last = last_stamp.load(std::memory_order_relaxed) == stamp;
                copied[i].publish(stamp);
                if (r >= warm) store_ns[i][s].push_back(static_cast<double>(t1 - t0));
                if (last) break;
            }
        }
        for (std::size_t j = 0; j < t; ++j) wait_reached(copied[j], stamp);  // nobody reads `own` any more
        sync.arrive_and_wait();
    };
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < t; ++i) threads.emplace_back(body, i);
    for (auto& th : threads) th.join();

    std::vector<double> result(lines.size());
    for (std::size_t s = 0; s < lines.size(); ++s) {
        double sum = 0;
        for (std::size_t i = 0; i < t; ++i) sum += uninterrupted_median(store_ns[i][s]);
        result[s] = sum / static_cast<double>(t);
    }
    return result;
}

double claim_time(const std::vector<int>& cores, std::size_t claims, int rounds) {
    const std::size_t t = cores.size();
    struct alignas(kLine) Counter {
        std::atomic<std::uint64_t> next{0};
    };
    Counter counter;
    SingleWriterFlag go;  // thread 0 opens round r with r + 1
    std::vector<SingleWriterFlag> done(t);
    std::vector<std::vector<std::int64_t>> start(t), end(t);
    auto body = [&](std::size_t i) {
        bind(cores[i]);
        for (int r = 0; r < rounds; ++r) {
            const std::uint64_t round = static_cast<std::uint64_t>(r) + 1;
            if (i == 0) {
                for (std::size_t j = 1; j < t; ++j) wait_reached(done[j], round - 1);
                counter.next.store(0, std::memory_order_relaxed);
                go.publish(round);
            } else {
                wait_reached(go, round);
            }
            const std::int64_t t0 = now_ns();
            while (counter.next.fetch_add(1, std::memory_order_relaxed) < claims) {
            }
            const std::int64_t t1 = now_ns();
            start[i].push_back(t0);
            end[i].push_back(t1);
            done[i].publish(round);
        }
    };
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < t; ++i) threads.emplace_back(body, i);
    for (auto& th : threads) th.join();
    std::vector<double> per;
    for (std::size_t r = static_cast<std::size_t>(warmup_rounds(rounds)); r < static_cast<std::size_t>(rounds); ++r)
        per.push_back(span_over_threads(
                          t, [&](std::size_t i) { return start[i][r]; }, [&](std::size_t i) { return end[i][r]; }) /
                      static_cast<double>(claims + t));
    return uninterrupted_median(std::move(per));
}

std::vector<double> args_chase_round_trips(int writer_core, int reader_core, const std::vector<std::size_t>& lines,
                                           const Rounds& rounds, bool chase) {
    // A stand-in for the CollCall (collectives/framework/call.hpp): a few
    // lines, the buffer's address and size past the first 48 bytes; and the
    // slot that holds the pointer to it, on a line of its own, as a
    // member's args array does.
    struct alignas(kLine) Record {
        unsigned char head[48];
        const double* buf;
        std::size_t lines;
        unsigned char tail[3 * kLine - 64];
    };
    struct alignas(kLine) Slot {
        std::atomic<const Record*> record{nullptr};
    };
    auto record = std::make_unique<Record>();
    auto slot = std::make_unique<Slot>();
    const std::size_t max_lines = *std::max_element(lines.begin(), lines.end());
    // Both variants write the record and the slot (each call writes its
    // CollCall and publishes it), so that they differ only in the reader's
    // chase.
    auto write = [&](double* p, std::size_t n, double v) {
        write_lines(p, n, v);
        std::memset(record->head, static_cast<int>(v), sizeof record->head);
        record->buf = p;
        record->lines = n;
        slot->record.store(record.get(), std::memory_order_relaxed);  // the publish that follows releases it
    };
    return writer_and_readers(
        writer_core, {reader_core}, lines, rounds, max_lines, max_lines, false, write,
        [&](std::size_t, const double* in, double* acc, std::size_t n) {
            if (chase) {
                const Record* r = slot->record.load(std::memory_order_acquire);
                copy_lines(r->buf, acc, r->lines);
            } else {
                copy_lines(in, acc, n);
            }
        },
        [](double, double handoff_ns, const std::vector<std::int64_t>&, const std::vector<std::int64_t>&) {
            return handoff_ns;
        });
}

double switch_handoff_ns(int core, int rounds, int passes) {
    std::vector<double> per_handoff;
    for (int pass = 0; pass < passes; ++pass) {
        std::atomic<int> turn{0};
        std::barrier ready(2);
        std::int64_t t0 = 0, t1 = 0;
        // Thread `me` takes turns me, me + 2, ...: each turn is one handoff.
        auto player = [&](int me) {
            bind(core);
            ready.arrive_and_wait();
            if (me == 0) t0 = now_ns();
            for (int r = me; r < 2 * rounds; r += 2) {
                while (turn.load(std::memory_order_acquire) != r) sched_yield();
                turn.store(r + 1, std::memory_order_release);
            }
            if (me == 1) t1 = now_ns();
        };
        std::thread other(player, 1);
        player(0);
        other.join();
        per_handoff.push_back(static_cast<double>(t1 - t0) / (2.0 * rounds));
    }
    std::nth_element(per_handoff.begin(), per_handoff.begin() + per_handoff.size() / 2, per_handoff.end());
    return per_handoff[per_handoff.size() / 2];
}

void copy_bandwidths(int core, std::size_t bytes, int reps, double* temporal, double* non_temporal) {
    std::thread th([&] {
        bind(core);
        Buffer a(bytes / kLine), b(bytes / kLine);
        std::vector<double> tt, nt;
        for (int r = 0; r < reps + 1; ++r) {
            std::int64_t t0 = now_ns();
            std::memcpy(b.data, a.data, bytes);
            std::int64_t t1 = now_ns();
            copy_bytes(a.data, b.data, bytes, StoreKind::non_temporal);
            std::int64_t t2 = now_ns();
            if (r > 0) {  // the first copies warm up pages and TLBs
                tt.push_back(static_cast<double>(t1 - t0));
                nt.push_back(static_cast<double>(t2 - t1));
            }
        }
        // The fastest repetition, as STREAM reports: a copy lasts many time
        // slices, and anything else running only makes it slower.
        *temporal = static_cast<double>(bytes) / *std::min_element(tt.begin(), tt.end());
        *non_temporal = static_cast<double>(bytes) / *std::min_element(nt.begin(), nt.end());
    });
    th.join();
}

double fold_stream_time(const std::vector<int>& cores, std::size_t lines, int rounds) {
    const std::size_t t = cores.size();
    const prim::Reduce3Kernel fold3 = prim::reduce3_kernel(prim::ReduceOp::sum, prim::Elem::f64);
    const prim::ReduceKernel fold = prim::reduce_kernel(prim::ReduceOp::sum, prim::Elem::f64);
    const prim::Reduce3StreamKernel stream = prim::reduce3_stream_kernel(prim::ReduceOp::sum, prim::Elem::f64);
    // tiled_push's strip (collectives/allreduce/knobs.hpp strip_bytes).
    constexpr std::size_t kStripLines = 32 * 1024 / kLine;
    std::vector<double*> in(t), out(t);
    std::vector<std::int64_t> start(t * static_cast<std::size_t>(rounds)), end(start.size());
    std::barrier sync(static_cast<std::ptrdiff_t>(t));
    std::atomic<bool> wrong{false};
    auto body = [&](std::size_t k) {
        bind(cores[k]);
        Buffer mine(lines), result(lines), scratch(kStripLines);
        in[k] = mine.data;
        out[k] = result.data;
        sync.arrive_and_wait();
        const std::size_t lo = lines * k / t, hi = lines * (k + 1) / t;
        std::vector<void*> outs(t);
        for (int r = 0; r < rounds; ++r) {
            write_lines(mine.data, lines, static_cast<double>(r + 1 + static_cast<int>(k)));
            sync.arrive_and_wait();
            const std::int64_t t0 = now_ns();
            for (std::size_t a = lo; a < hi; a += kStripLines) {
                const std::size_t n = std::min(kStripLines, hi - a) * kDoublesPerLine, at = a * kDoublesPerLine;
                for (std::size_t j = 0; j < t; ++j) outs[j] = out[j] + at;
                const double* left = in[k] + at;
                const double* right = in[(k + 1) % t] + at;
                if (t > 2) {
                    fold3(in[k] + at, in[(k + 1) % t] + at, scratch.data, n);
                    for (std::size_t j = 2; j + 1 < t; ++j) fold(in[(k + j) % t] + at, scratch.data, n);
                    left = in[(k + t - 1) % t] + at;
                    right = scratch.data;
                }
                stream(left, right, outs.data(), static_cast<int>(t), n);
                store_fence();
            }
            const std::int64_t t1 = now_ns();
            start[static_cast<std::size_t>(r) * t + k] = t0;
            end[static_cast<std::size_t>(r) * t + k] = t1;
            sync.arrive_and_wait();  // every result written, nobody reads an input any more
        }
        // The last round's inputs were r + 1 + k with r = rounds - 1: their sum.
        double want = 0;
        for (std::size_t j = 0; j < t; ++j) want += static_cast<double>(rounds + static_cast<int>(j));
        for (std::size_t i = 0; i < lines * kDoublesPerLine; i += kDoublesPerLine)
            if (result.data[i] != want) wrong.store(true);
        sync.arrive_and_wait();  // nobody frees a buffer another still reads
    };
    return median_round_span(t, rounds, body, wrong, "fold_stream", start, end);
}

double all_copy_line_time(const std::vector<int>& cores, std::size_t lines, int rounds, bool non_temporal) {
    const std::size_t t = cores.size();
    std::vector<std::int64_t> start(t * static_cast<std::size_t>(rounds)), end(start.size());
    std::barrier sync(static_cast<std::ptrdiff_t>(t));
    std::atomic<bool> wrong{false};
    const StoreKind kind = non_temporal ? StoreKind::non_temporal : StoreKind::temporal;
    auto body = [&](std::size_t k) {
        bind(cores[k]);
        Buffer source(lines), result(lines);
        for (int r = 0; r < rounds; ++r) {
            const double value = static_cast<double>(r + 1 + static_cast<int>(k));
            write_lines(source.data, lines, value);
            sync.arrive_and_wait();
            const std::int64_t t0 = now_ns();
            copy_bytes(result.data, source.data, lines * kLine, kind);
            if (non_temporal) store_fence();
            const std::int64_t t1 = now_ns();
            start[static_cast<std::size_t>(r) * t + k] = t0;
            end[static_cast<std::size_t>(r) * t + k] = t1;
            // The application reads its result (so the next round's stores
            // find those lines in this core's caches, clean, as far as they fit).
            double sum = 0;
            for (std::size_t i = 0; i < lines * kDoublesPerLine; i += kDoublesPerLine) sum += result.data[i];
            if (sum != value * static_cast<double>(lines)) wrong.store(true);
            sync.arrive_and_wait();
        }
    };
    return median_round_span(t, rounds, body, wrong, "copy", start, end) / static_cast<double>(lines);
}

std::size_t nt_copy_from_bytes(const std::vector<std::size_t>& working_sets, const std::vector<double>& temporal_ns,
                               const std::vector<double>& non_temporal_ns) {
    std::size_t from = 0;
    const std::size_t n = std::min({working_sets.size(), temporal_ns.size(), non_temporal_ns.size()});
    // From the largest size down, while non-temporal stays the cheaper.
    for (std::size_t i = n; i-- > 0;) {
        if (!(non_temporal_ns[i] <= kNtWinRatio * temporal_ns[i])) break;
        from = working_sets[i];
    }
    return from;
}

double copy_line_time(int core, std::size_t working_set, double budget_ns) {
    double result = 0;
    std::thread th([&] {
        bind(core);
        const std::size_t lines = std::max<std::size_t>(working_set / (2 * kLine), 1);
        Buffer a(lines), b(lines);  // zeroed: every page touched
        const std::size_t bytes = lines * kLine;
        std::vector<double> per_line;
        std::memcpy(b.data, a.data, bytes);  // both halves in cache as far as they fit
        const std::int64_t start = now_ns();
        while (per_line.size() < 3 || (static_cast<double>(now_ns() - start) < budget_ns && per_line.size() < 1000)) {
            a.data[per_line.size() % (lines * kDoublesPerLine)] = static_cast<double>(per_line.size());
            const std::int64_t t0 = now_ns();
            std::memcpy(b.data, a.data, bytes);
            const std::int64_t t1 = now_ns();
            per_line.push_back(static_cast<double>(t1 - t0) / static_cast<double>(lines));
        }
        std::nth_element(per_line.begin(), per_line.begin() + per_line.size() / 2, per_line.end());
        result = per_line[per_line.size() / 2];
    });
    th.join();
    return result;
}

double fit_line(const std::vector<double>& x, const std::vector<double>& y, double* a, double* b) {
    double s = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double w = 1.0 / (y[i] * y[i]);
        s += w;
        sx += w * x[i];
        sy += w * y[i];
        sxx += w * x[i] * x[i];
        sxy += w * x[i] * y[i];
    }
    const double det = s * sxx - sx * sx;
    *b = det != 0 ? (s * sxy - sx * sy) / det : 0;
    *a = (sy - *b * sx) / s;
    double worst = 0;
    for (std::size_t i = 0; i < x.size(); ++i) worst = std::max(worst, std::fabs(y[i] - (*a + *b * x[i])) / y[i]);
    return worst;
}

TopLine fit_top_three(const std::vector<double>& x, const std::vector<double>& y) {
    TopLine t;
    const std::size_t n = std::min(x.size(), y.size());
    if (n < 3) return t;
    for (std::size_t i = n - 3; i < n; ++i) {
        t.mean_x += x[i] / 3;
        t.mean_y += y[i] / 3;
    }
    double sxy = 0, sxx = 0;
    for (std::size_t i = n - 3; i < n; ++i) {
        sxy += (x[i] - t.mean_x) * (y[i] - t.mean_y);
        sxx += (x[i] - t.mean_x) * (x[i] - t.mean_x);
    }
    t.rising = sxx > 0 && sxy > 0;
    if (t.rising) t.slope = sxy / sxx;
    return t;
}

bool sizes_in_l2(const std::vector<double>& x, const std::vector<double>& y, double line_bytes, double within,
                 std::size_t l2_bytes, double minus, std::vector<double>& ix, std::vector<double>& iy) {
    bool beyond = false;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double bytes = line_bytes * x[i];
        if (bytes <= within) {
            ix.push_back(x[i]);
            iy.push_back(y[i] - minus);
        } else if (bytes >= static_cast<double>(l2_bytes)) {
            beyond = true;
        }
    }
    return beyond;
}

double robust_fit(std::vector<double> x, std::vector<double> y, double* a, double* b, std::vector<double>* dropped) {
    double err = fit_line(x, y, a, b);
    for (int pass = 0; pass < 2 && err > 0.5; ++pass) {
        std::vector<double> kx, ky;
        for (std::size_t i = 0; i < x.size(); ++i) {
            if (std::fabs(y[i] - (*a + *b * x[i])) / y[i] <= 0.5) {
                kx.push_back(x[i]);
                ky.push_back(y[i]);
            } else {
                dropped->push_back(x[i]);
            }
        }
        if (kx.size() < 3 || kx.size() == x.size()) break;
        x = kx;
        y = ky;
        err = fit_line(x, y, a, b);
    }
    return err;
}

RewriteFit fit_rewrite(const std::vector<double>& x, const std::vector<double>& y) {
    // A knee doubles the cost of a line at least (stop 29's guest: 0.9 ns
    // a line up to 32 lines, 7.1 past them). Stop 59's sweep on the EPYC
    // guest rose 1.35x past 32 lines only because its smallest sizes are
    // mostly the first store's round trip (60, 60, 71 ns for 8-32 lines),
    // which the flag's own handoff hides in the collectives: with the knee
    // (1.25x was enough before hmpi-calibrate 22) its inline algorithms were
    // within 15% at 78 of 130 sizes, with the one slope at 96
    // (docs/model.md, "The copy-in past its knee").
    constexpr double kRewriteKneeRatio = 2.0;
    auto fit_of = [&](std::size_t from, std::size_t to, double* err) {
        const std::vector<double> fx(x.begin() + static_cast<std::ptrdiff_t>(from),
                                     x.begin() + static_cast<std::ptrdiff_t>(to));
        const std::vector<double> fy(y.begin() + static_cast<std::ptrdiff_t>(from),
                                     y.begin() + static_cast<std::ptrdiff_t>(to));
        std::vector<double> dropped;
        double a = 0, b = 0;
        *err = fx.size() > 2 ? robust_fit(fx, fy, &a, &b, &dropped) : fit_line(fx, fy, &a, &b);
        return b;
    };
    RewriteFit f;
    if (x.size() < 2 || x.size() != y.size()) return f;
    double whole_err = 0;
    const double whole = fit_of(0, x.size(), &whole_err);
    std::size_t knee = 0;
    double beyond = 0, best_err = whole_err;
    for (std::size_t k = 2; k + 2 < x.size(); ++k) {
        double e1 = 0, e2 = 0;
        const double s1 = fit_of(0, k + 1, &e1), s2 = fit_of(k, x.size(), &e2);
        if (s1 > 0 && s2 >= kRewriteKneeRatio * s1 && std::max(e1, e2) < best_err) {
            knee = k;
            beyond = s2;
            best_err = std::max(e1, e2);
        }
    }
    f.err = best_err;
    f.line = std::max(knee ? y[knee] / x[knee] : whole, 0.1);
    double below_err = 0;
    const double below = knee ? fit_of(0, knee + 1, &below_err) : whole;
    f.below = below;
    f.first = std::max(y[0] - x[0] * std::max(below, 0.0), 1.0);
    if (knee) {
        f.knee = x[knee];
        f.beyond = std::max(beyond, 0.1);
    }
    return f;
}

L2Split split_at_l2(const std::vector<double>& x, const std::vector<double>& y, double a, int buffers,
                    std::size_t l2_bytes) {
    L2Split s;
    if (l2_bytes == 0) return s;
    std::vector<double> ix, iy;
    // A pair's data, per core (half of its `buffers` a core).
    const bool beyond = sizes_in_l2(x, y, buffers * static_cast<double>(kLine) / 2,
                                    static_cast<double>(l2_bytes) / 2, l2_bytes, a, ix, iy);
    if (ix.size() < 6 || !beyond) return s;
    const TopLine top = fit_top_three(ix, iy);
    if (!top.rising) return s;
    s.found = true;
    s.l2 = top.slope;
    s.excess = top.mean_y - s.l2 * top.mean_x;
    std::vector<double> small;
    for (std::size_t i = 0; i < ix.size(); ++i)
        if (ix[i] >= 32 && ix[i] <= 256) small.push_back(iy[i] / ix[i] - s.l2);
    if (!small.empty()) s.near_line = median(std::move(small));
    return s;
}

L1Split split_at_l1(const std::vector<double>& x, const std::vector<double>& y, double line_bytes, double within,
                    std::size_t l1_bytes, double near_line, double near_lines, double above) {
    L1Split s;
    if (l1_bytes == 0) return s;
    std::vector<double> wx, wy, ix, iy;
    const bool beyond = sizes_in_l2(x, y, line_bytes, within, l1_bytes, 0.0, wx, wy);
    for (std::size_t i = 0; i < wx.size(); ++i)
        if (wx[i] >= 16) {
            ix.push_back(wx[i]);
            iy.push_back(wy[i] - near_line * std::min(wx[i], near_lines));
        }
    if (ix.size() < 3 || !beyond) return s;
    const TopLine top = fit_top_three(ix, iy);
    if (!top.rising || !(top.slope < above)) return s;
    s.found = true;
    s.slope = top.slope;
    return s;
}

std::vector<double> interrupted_sizes(const std::vector<double>& x, const std::vector<double>& y, double a) {
    const std::size_t n = std::min(x.size(), y.size());
    std::vector<double> per_line;
    for (std::size_t i = 0; i < n; ++i)
        if (x[i] >= 32) per_line.push_back((y[i] - a) / x[i]);
    std::vector<double> out;
    if (per_line.empty()) return out;
    const double limit = 3 * median(std::move(per_line));
    for (std::size_t i = 0; i < n; ++i)
        if (x[i] > 0 && (y[i] - a) / x[i] > limit) out.push_back(x[i]);
    return out;
}

SliceSplit split_slices_at_l2(const std::vector<double>& x, const std::vector<double>& y, int buffers,
                              std::size_t l2_bytes, double share) {
    SliceSplit s;
    if (l2_bytes == 0 || x.empty()) return s;
    std::vector<double> ix, iy;
    const bool beyond = sizes_in_l2(x, y, buffers * static_cast<double>(kLine), share * static_cast<double>(l2_bytes),
                                    l2_bytes, 0.0, ix, iy);
    if (ix.size() < 6 || !beyond) return s;
    const TopLine top = fit_top_three(ix, iy);
    if (!top.rising) return s;
    s.found = true;
    s.slope = top.slope;
    const double a0 = iy.front() - s.slope * ix.front();
    std::vector<double> per_line, total;
    for (std::size_t i = 0; i < ix.size(); ++i) {
        if (ix[i] >= 32 && ix[i] <= 256) per_line.push_back((iy[i] - a0) / ix[i] - s.slope);
        if (ix[i] >= 256 && ix[i] <= 1024) total.push_back(iy[i] - a0 - s.slope * ix[i]);
    }
    const double line = per_line.empty() ? 0.0 : median(std::move(per_line));
    const double excess = total.empty() ? 0.0 : median(std::move(total));
    if (line > 0 && excess > 0) {
        s.near_line = line;
        s.near_lines = excess / line;
    }
    return s;
}

}  // namespace hmpi::calibrate
