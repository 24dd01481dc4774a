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

// Host name for MPI_Get_processor_name.
std::string host_name();

}  // namespace hmpi
