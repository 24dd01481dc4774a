// The machine as hwloc sees it, reduced to what rank placement needs now.
// (Collectives will extend this with cache and NUMA levels.)
#pragma once
#include <string>

namespace hmpi {

// Number of cores the process may run on (at least 1).
int topology_core_count();

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

// Host name for MPI_Get_processor_name.
std::string host_name();

}  // namespace hmpi
