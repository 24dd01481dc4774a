// The runtime's parameters: every environment variable HMPI reads is declared
// in the one table in config.cpp (name, default, unit, meaning, where the
// default came from) and read there, once, at job start. docs/environment.md
// documents the same table; a unit test keeps the two in step.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hmpi {

enum class BindPolicy { core, none };
// Which reduction kernels to use (runtime/primitives/reduce.cpp): the widest
// the CPU supports, or one named explicitly (for testing and comparison).
enum class ReduceIsa { best, avx512, avx2, portable };

struct Config {
    // Set by hmpirun (see docs/launcher.md).
    int nranks = 1;                   // HMPI_NP
    BindPolicy bind = BindPolicy::core;  // HMPI_BIND
    int control_fd = -1;              // HMPI_CONTROL_FD
    // Rank threads.
    std::size_t stack_bytes = 0;      // HMPI_STACK_SIZE
    // Waiting.
    double spin_us = 0;               // HMPI_SPIN_US
    double yield_us = 0;              // HMPI_YIELD_US
    // More ranks than the CPUs they may use (usable_cpus): the application's
    // empty polls yield (core idle_poll). Derived, not read from the environment.
    bool oversubscribed = false;
    // The most ranks sharing one of those CPUs: ceil(nranks / CPUs), 1 when
    // not oversubscribed (ranks_per_cpu below). Derived; the collectives'
    // model charges oversubscribed handoffs with it.
    int ranks_per_cpu = 1;
    // Point-to-point protocol.
    std::size_t inline_max = 0;       // HMPI_INLINE_MAX
    std::size_t ring_cells = 0;       // HMPI_RING_CELLS
    std::size_t split_copy_min = 0;   // HMPI_SPLIT_COPY_MIN
    std::size_t split_copy_chunk = 0; // HMPI_SPLIT_COPY_CHUNK
    // Reduction kernels.
    ReduceIsa reduce_isa = ReduceIsa::best;  // HMPI_REDUCE_ISA
    // Collective algorithms forced by HMPI_<COLLECTIVE>_ALGORITHM: pairs of
    // (collective in lower case, algorithm name). The collectives' registry
    // checks the names (collectives/framework/registry.cpp).
    std::vector<std::pair<std::string, std::string>> forced_algorithms;
    // Performance model of the collectives (docs/model.md).
    std::string profile_path;         // HMPI_PROFILE ("" = the default location)
    bool explain = false;             // HMPI_EXPLAIN
    // Testing: made-up cache domains of this many consecutive world ranks
    // (0: the machine's own). Read by collectives/framework/levels.cpp.
    int test_domain_ranks = 0;        // HMPI_TEST_DOMAIN_RANKS
};

// An integer with an optional k, M or G suffix (powers of 1024), as the
// size-valued environment variables take it; false if `text` is not one.
bool parse_scaled_int(const char* text, long long* out);

struct ParamInfo {
    const char* name;
    const char* default_value;  // as a string; "auto" where derived at start
    const char* unit;
    const char* meaning;
    const char* source;         // where the default came from
};

// The table of every parameter, for docs and the info dump.
const std::vector<ParamInfo>& parameter_table();

// The CPUs the ranks may run on. Bound to cores (HMPI_BIND=core): the
// hardware threads hwloc reports (a cgroup cpuset leaves fewer than are
// online). Unbound: those of the process's affinity mask (taskset, a
// cpuset), at most those online; call it before a thread binds itself
// (config() does, at job start).
long usable_cpus(BindPolicy bind);

// Oversubscribed: more ranks than `cpus` (false when the count is unknown, 0).
bool ranks_outnumber_cpus(int nranks, long cpus);
// ceil(nranks / cpus) where ranks outnumber CPUs, else 1.
int ranks_per_cpu(int nranks, long cpus);

// HMPI_SPIN_US and HMPI_YIELD_US when the environment leaves them unset:
// waiters poll, then yield, then park (base/park.hpp), with shorter polling
// and longer yielding when there are more ranks than CPUs.
struct WaitSchedule {
    double spin_us;
    double yield_us;
};
WaitSchedule default_wait_schedule(int nranks, long cpus);

// Reads the environment once (first call) and returns the result. Invalid
// values are a fatal, named error: a mistyped knob must not be ignored.
const Config& config();

}  // namespace hmpi
