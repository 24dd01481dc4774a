// The machine as hwloc sees it, reduced to what rank placement and the
// collectives need: the cores in hwloc's logical order (the order ranks are
// bound in), where each core sits (L2, L3, NUMA node, package), the cache
// sizes and whether the last-level cache is inclusive, and the NUMA nodes'
// operating-system numbers (what libnuma calls nodes).
#pragma once
#include <cstddef>
#include <string>

namespace hmpi {

// Number of cores the process may run on (at least 1).
int topology_core_count();

// Number of hardware threads (PUs) the process may run on, as hwloc reports
// them (at least 1): a cgroup cpuset leaves fewer than are online.
int topology_pu_count();

// Binds the calling thread to core (index mod core count) in hwloc's logical
// order. Returns false (and leaves the thread unbound) if binding fails.
bool bind_current_thread_to_core(int index);

// The cache domain of core (index mod core count, hwloc's logical order, as
// bind_current_thread_to_core counts): an id shared by exactly the cores
// under the same L3 cache, else the same package; 0 when hwloc knows
// neither. Used to lay Cartesian grids out so that neighbours share a cache.
int topology_cache_domain_of_core(int index);

// Hardware domains for MPI_Comm_split_type's HMPI_COMM_TYPE_* types.
enum class HardwareDomain { numa, package, l3cache };
// Logical index of the `domain` object holding the CPUs the calling thread
// is bound to (when the binding spans several such objects, as an unbound
// thread's does: the CPU it runs on now); -1 when hwloc reports none.
int topology_domain_of_current_thread(HardwareDomain domain);

// Where core (index mod core count, hwloc's logical order, as
// bind_current_thread_to_core counts) sits: hwloc logical indices of the
// core and of the L2 cache, L3 cache, NUMA node and package holding it; -1
// where hwloc reports no such object. The NUMA node is the first (in logical
// order) whose CPUs include the core's, so on machines with several memory
// kinds per core (DRAM + HBM) it is the first one hwloc lists.
struct CorePlace {
    int core = -1, l2 = -1, l3 = -1, numa = -1, package = -1;
};
CorePlace topology_place_of_core(int index);

// The caches of the cores (those of core 0; machines with several core
// kinds report their first core's). The last-level cache is the L3 when
// there is one, else the L2. `llc_inclusive` is what hwloc reports
// (its "Inclusive" attribute, from CPUID on x86); when hwloc says nothing
// (`llc_inclusive_known` false) it is assumed inclusive, the smaller and so
// safer capacity. Sizes are 0 when unknown.
struct CacheSizes {
    std::size_t l1_bytes = 0;  // the L1 data cache
    std::size_t l2_bytes = 0;
    std::size_t llc_bytes = 0;
    int llc_level = 0;  // 3 or 2 (0 when hwloc reports no cache)
    bool llc_inclusive = true;
    bool llc_inclusive_known = false;
};
const CacheSizes& topology_caches();

// NUMA nodes hwloc reports (at least 1), and the operating system's number
// of the node with hwloc logical index `logical` (what libnuma and mbind
// take); -1 when there is no such node.
int topology_numa_count();
int topology_numa_os_index(int logical);

// Host name for MPI_Get_processor_name.
std::string host_name();

}  // namespace hmpi
