#include "base/topology.hpp"

#include <hwloc.h>
#include <unistd.h>

#include <mutex>

namespace hmpi {

namespace {
// hwloc topologies are safe for concurrent read-only use once loaded.
hwloc_topology_t topology() {
    static hwloc_topology_t topo = [] {
        hwloc_topology_t t;
        hwloc_topology_init(&t);
        hwloc_topology_load(t);
        return t;
    }();
    return topo;
}
}  // namespace

int topology_core_count() {
    int n = hwloc_get_nbobjs_by_type(topology(), HWLOC_OBJ_CORE);
    if (n <= 0) n = hwloc_get_nbobjs_by_type(topology(), HWLOC_OBJ_PU);
    return n > 0 ? n : 1;
}

bool bind_current_thread_to_core(int index) {
    hwloc_topology_t t = topology();
    int n = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
    hwloc_obj_type_t type = HWLOC_OBJ_CORE;
    if (n <= 0) {
        type = HWLOC_OBJ_PU;
        n = hwloc_get_nbobjs_by_type(t, type);
    }
    if (n <= 0) return false;
    hwloc_obj_t obj = hwloc_get_obj_by_type(t, type, static_cast<unsigned>(index % n));
    if (!obj || !obj->cpuset) return false;
    return hwloc_set_cpubind(t, obj->cpuset, HWLOC_CPUBIND_THREAD) == 0;
}

std::string host_name() {
    char buf[256] = {0};
    if (gethostname(buf, sizeof buf - 1) != 0) return "localhost";
    return buf;
}

}  // namespace hmpi
