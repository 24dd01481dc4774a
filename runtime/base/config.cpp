#include "base/config.hpp"

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <mutex>

#include "base/log.hpp"
#include "base/topology.hpp"

namespace hmpi {

const std::vector<ParamInfo>& parameter_table() {
    static const std::vector<ParamInfo> table = {
        {"HMPI_NP", "1", "ranks",
         "Number of rank threads in the process. Set by hmpirun -np; a program started "
         "without hmpirun runs as a single rank.",
         "MPI singleton semantics"},
        {"HMPI_BIND", "core", "core|none",
         "Pin rank i to the i-th core in hwloc's logical order (wrapping when there are more "
         "ranks than cores), or leave threads unbound. Set by hmpirun --bind-to.",
         "compact mapping keeps neighbouring ranks on neighbouring cores"},
        {"HMPI_CONTROL_FD", "-1", "file descriptor",
         "Pipe to hmpirun for rank events (exits, aborts, crashes, timeout dumps). Set by "
         "hmpirun; internal.",
         "launcher protocol, docs/launcher.md"},
        {"HMPI_STACK_SIZE", "auto", "bytes (K/M/G suffixes)",
         "Stack size of each rank thread. auto = the process stack limit (ulimit -s), at "
         "least 8 MiB, so ranks get what a process-per-rank program would.",
         "glibc's default thread stack"},
        {"HMPI_SPIN_US", "auto", "microseconds",
         "How long a waiting rank polls before it starts yielding the core. auto = 50 us, or "
         "1 us when there are more ranks than cores (0: yield at the first poll that finds nothing).",
         "a round trip here is ~0.5 us; 50 us covers bursts without burning a core for long; "
         "oversubscribed, 1 us catches a partner running on another core, and longer delays "
         "one queued behind the poller (docs/environment.md)"},
        {"HMPI_YIELD_US", "auto", "microseconds",
         "How long a waiting rank yields (sched_yield) after spinning before it parks on a "
         "futex. auto = 200 us, or 1000 us when there are more ranks than cores.",
         "futex wake costs a few us; oversubscribed, a collective's waits last several time "
         "slices of the other ranks, and parking them cost up to 12x (docs/environment.md)"},
        {"HMPI_INLINE_MAX", "4096", "bytes",
         "Largest message copied through the receiver's ring (two copies, the send completes "
         "at once); larger messages are copied once, by the receiver, straight from the "
         "sender's buffer.",
         "measured: bench/pingpong.c, docs/point-to-point.md"},
        {"HMPI_RING_CELLS", "256", "64-byte cells (power of two)",
         "Capacity of each sender->receiver ring. Must hold at least one message of "
         "HMPI_INLINE_MAX bytes; when a ring is full, messages queue in an overflow list.",
         "16 KiB per communicating pair keeps 16 ranks' rings in L2"},
        {"HMPI_SPLIT_COPY_MIN", "65536", "bytes (K/M/G suffixes)",
         "Smallest single-copy message whose copy the receiver shares with the waiting sender "
         "(both copy chunks of it at once). 0 disables sharing.",
         "measured: bench/pingpong.c, docs/point-to-point.md"},
        {"HMPI_SPLIT_COPY_CHUNK", "131072", "bytes (K/M/G suffixes)",
         "Largest chunk a shared copy is cut into; a message is cut into about eight chunks of "
         "at least 16 KiB.",
         "measured: bench/pingpong.c, docs/point-to-point.md"},
        {"HMPI_REDUCE_ISA", "auto", "auto|avx512|avx2|portable",
         "Instruction set of the reduction kernels (MPI_Reduce_local, later the reducing "
         "collectives): auto = the widest the CPU supports; naming one the CPU lacks is an error.",
         "measured: bench/reduce_local.c, docs/reductions.md"},
        {"HMPI_<COLLECTIVE>_ALGORITHM", "(none)", "algorithm name",
         "Forces the named algorithm for one collective, e.g. HMPI_ALLREDUCE_ALGORITHM=linear "
         "(hmpi-info --algorithms lists them). A call the algorithm cannot handle runs the default "
         "choice instead, with a one-time notice; an unknown collective or name is an error.",
         "collectives/*/table.cpp"},
        {"HMPI_PROFILE", "auto", "file path",
         "Model parameters for choosing collective algorithms, as written by hmpi-calibrate. "
         "auto = the profile hmpi-calibrate writes by default for this machine's topology "
         "(docs/model.md); without one a built-in conservative default is used, with a notice.",
         "docs/model.md"},
        {"HMPI_TEST_DOMAIN_RANKS", "0", "ranks",
         "Testing: k > 0 places world ranks as if every k consecutive ranks shared a socket, "
         "NUMA node and L3 cache (and each rank had a core of its own), so the algorithms "
         "that work across cache domains run on a one-domain machine. Binding is unchanged.",
         "tests/coll/CMakeLists.txt"},
        {"HMPI_EXPLAIN", "0", "0|1",
         "1 prints the communicator's topology levels, the model parameters and, for each "
         "collective and size range the first time it is decided, every algorithm's predicted "
         "time and the chosen one.",
         "docs/model.md"},
    };
    return table;
}

bool parse_scaled_int(const char* text, long long* out) {
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(text, &end, 10);
    long long scale = 1;
    switch (*end) {
        case 'k': case 'K': scale = 1LL << 10; ++end; break;
        case 'm': case 'M': scale = 1LL << 20; ++end; break;
        case 'g': case 'G': scale = 1LL << 30; ++end; break;
        default: break;
    }
    if (errno != 0 || end == text || *end) return false;
    *out = v * scale;
    return true;
}

namespace {

const char* env(const char* name) {
    const char* v = std::getenv(name);
    return (v && *v) ? v : nullptr;
}

long long parse_int(const char* name, const char* text, long long lo, long long hi) {
    long long v;
    if (!parse_scaled_int(text, &v) || v < lo || v > hi)
        die("invalid value '%s' for %s (expected an integer in [%lld, %lld])", text, name, lo, hi);
    return v;
}

double parse_double(const char* name, const char* text, double lo, double hi) {
    char* end = nullptr;
    double v = std::strtod(text, &end);
    if (end == text || *end || v < lo || v > hi)
        die("invalid value '%s' for %s (expected a number in [%g, %g])", text, name, lo, hi);
    return v;
}

Config read_config() {
    Config c;
    if (const char* v = env("HMPI_NP")) c.nranks = static_cast<int>(parse_int("HMPI_NP", v, 1, 1 << 20));
    if (const char* v = env("HMPI_BIND")) {
        if (!std::strcmp(v, "core")) c.bind = BindPolicy::core;
        else if (!std::strcmp(v, "none")) c.bind = BindPolicy::none;
        else die("invalid value '%s' for HMPI_BIND (expected core or none)", v);
    }
    if (const char* v = env("HMPI_CONTROL_FD")) c.control_fd = static_cast<int>(parse_int("HMPI_CONTROL_FD", v, 0, 1 << 20));

    if (const char* v = env("HMPI_STACK_SIZE")) {
        c.stack_bytes = static_cast<std::size_t>(parse_int("HMPI_STACK_SIZE", v, 64 << 10, 1LL << 40));
    } else {
        rlimit rl{};
        std::size_t s = 8u << 20;
        if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur > s) s = rl.rlim_cur;
        c.stack_bytes = s;
    }

    const long cpus = usable_cpus(c.bind);
    c.oversubscribed = ranks_outnumber_cpus(c.nranks, cpus);
    c.ranks_per_cpu = ranks_per_cpu(c.nranks, cpus);
    const WaitSchedule wait = default_wait_schedule(c.nranks, cpus);
    c.spin_us = wait.spin_us;
    c.yield_us = wait.yield_us;
    if (const char* v = env("HMPI_SPIN_US")) c.spin_us = parse_double("HMPI_SPIN_US", v, 0, 1e7);
    if (const char* v = env("HMPI_YIELD_US")) c.yield_us = parse_double("HMPI_YIELD_US", v, 0, 1e7);

    c.inline_max = 4096;
    c.ring_cells = 256;
    if (const char* v = env("HMPI_INLINE_MAX")) c.inline_max = static_cast<std::size_t>(parse_int("HMPI_INLINE_MAX", v, 0, 1 << 20));
    if (const char* v = env("HMPI_RING_CELLS")) c.ring_cells = static_cast<std::size_t>(parse_int("HMPI_RING_CELLS", v, 4, 1 << 20));
    c.split_copy_min = 64 << 10;
    c.split_copy_chunk = 128 << 10;
    if (const char* v = env("HMPI_SPLIT_COPY_MIN")) c.split_copy_min = static_cast<std::size_t>(parse_int("HMPI_SPLIT_COPY_MIN", v, 0, 1LL << 50));
    if (const char* v = env("HMPI_SPLIT_COPY_CHUNK")) c.split_copy_chunk = static_cast<std::size_t>(parse_int("HMPI_SPLIT_COPY_CHUNK", v, 4096, 1LL << 40));
    if (const char* v = env("HMPI_PROFILE")) c.profile_path = v;
    if (const char* v = env("HMPI_EXPLAIN")) {
        if (!std::strcmp(v, "0")) c.explain = false;
        else if (!std::strcmp(v, "1")) c.explain = true;
        else die("invalid value '%s' for HMPI_EXPLAIN (expected 0 or 1)", v);
    }
    if (const char* v = env("HMPI_TEST_DOMAIN_RANKS"))
        c.test_domain_ranks = static_cast<int>(parse_int("HMPI_TEST_DOMAIN_RANKS", v, 0, 1 << 20));
    if (const char* v = env("HMPI_REDUCE_ISA")) {
        if (!std::strcmp(v, "auto")) c.reduce_isa = ReduceIsa::best;
        else if (!std::strcmp(v, "avx512")) c.reduce_isa = ReduceIsa::avx512;
        else if (!std::strcmp(v, "avx2")) c.reduce_isa = ReduceIsa::avx2;
        else if (!std::strcmp(v, "portable")) c.reduce_isa = ReduceIsa::portable;
        else die("invalid value '%s' for HMPI_REDUCE_ISA (expected auto, avx512, avx2 or portable)", v);
    }
    // HMPI_<COLLECTIVE>_ALGORITHM: the collective part is checked by the registry.
    for (char** e = environ; e && *e; ++e) {
        const char* entry = *e;
        static constexpr char kPrefix[] = "HMPI_";
        static constexpr char kSuffix[] = "_ALGORITHM=";
        const char* eq = std::strchr(entry, '=');
        if (!eq || std::strncmp(entry, kPrefix, sizeof kPrefix - 1)) continue;
        const std::size_t name_len = static_cast<std::size_t>(eq + 1 - entry);
        const std::size_t suffix_len = sizeof kSuffix - 1;
        if (name_len <= sizeof kPrefix - 1 + suffix_len || std::strncmp(eq + 1 - suffix_len, kSuffix, suffix_len)) continue;
        std::string coll(entry + sizeof kPrefix - 1, eq + 1 - suffix_len);
        for (char& ch : coll) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        if (eq[1]) c.forced_algorithms.emplace_back(std::move(coll), std::string(eq + 1));
    }
    if (c.split_copy_min == 0) c.split_copy_min = SIZE_MAX;
    if (c.ring_cells & (c.ring_cells - 1)) die("HMPI_RING_CELLS=%zu is not a power of two", c.ring_cells);
    // One inline message must fit in a ring: header cell + payload cells.
    std::size_t need = 2 + c.inline_max / 64;
    if (need > c.ring_cells)
        die("HMPI_INLINE_MAX=%zu needs rings of at least %zu cells, but HMPI_RING_CELLS=%zu", c.inline_max, need,
            c.ring_cells);
    return c;
}

}  // namespace

long usable_cpus(BindPolicy bind) {
    // Bound, ranks go to the cores hwloc reports, whatever the mask the
    // process started with.
    if (bind == BindPolicy::core) return topology_pu_count();
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0 && CPU_COUNT(&allowed) > 0)
        n = std::min<long>(n > 0 ? n : CPU_SETSIZE, CPU_COUNT(&allowed));
    return n;
}

bool ranks_outnumber_cpus(int nranks, long cpus) { return cpus > 0 && nranks > cpus; }

int ranks_per_cpu(int nranks, long cpus) {
    return ranks_outnumber_cpus(nranks, cpus) ? static_cast<int>((nranks + cpus - 1) / cpus) : 1;
}

WaitSchedule default_wait_schedule(int nranks, long cpus) {
    // Oversubscribed, the rank a waiter waits for may sit in the waiter's
    // own core's run queue, where polling only delays it, or run on another
    // core and answer within a microsecond (a point-to-point partner); and a
    // parked waiter costs a futex wake and a trip through the scheduler. So
    // waiters poll briefly, then yield for long (docs/environment.md,
    // measured there).
    if (ranks_outnumber_cpus(nranks, cpus)) return {1.0, 1000.0};
    return {50.0, 200.0};
}

const Config& config() {
    static const Config c = read_config();
    return c;
}

}  // namespace hmpi
