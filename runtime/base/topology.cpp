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

int topology_cache_domain_of_core(int index) {
    hwloc_topology_t t = topology();
    hwloc_obj_type_t type = HWLOC_OBJ_CORE;
    int n = hwloc_get_nbobjs_by_type(t, type);
    if (n <= 0) {
        type = HWLOC_OBJ_PU;
        n = hwloc_get_nbobjs_by_type(t, type);
    }
    if (n <= 0) return 0;
    hwloc_obj_t core = hwloc_get_obj_by_type(t, type, static_cast<unsigned>(index % n));
    if (!core) return 0;
    // Ids of L3 domains and of packages are kept apart, in case a machine has both kinds of cores.
    for (hwloc_obj_t up = core->parent; up; up = up->parent)
        if (up->type == HWLOC_OBJ_L3CACHE) return static_cast<int>(up->logical_index);
    for (hwloc_obj_t up = core->parent; up; up = up->parent)
        if (up->type == HWLOC_OBJ_PACKAGE) return (1 << 20) + static_cast<int>(up->logical_index);
    return 0;
}

namespace {
int domain_including(hwloc_topology_t t, hwloc_obj_type_t type, hwloc_const_bitmap_t set) {
    if (hwloc_bitmap_iszero(set)) return -1;
    const int n = hwloc_get_nbobjs_by_type(t, type);
    for (int i = 0; i < n; ++i) {
        hwloc_obj_t obj = hwloc_get_obj_by_type(t, type, static_cast<unsigned>(i));
        if (obj && obj->cpuset && hwloc_bitmap_isincluded(set, obj->cpuset)) return static_cast<int>(obj->logical_index);
    }
    return -1;
}
}  // namespace

int topology_domain_of_current_thread(HardwareDomain domain) {
    hwloc_topology_t t = topology();
    const hwloc_obj_type_t type = domain == HardwareDomain::numa      ? HWLOC_OBJ_NUMANODE
                                  : domain == HardwareDomain::package ? HWLOC_OBJ_PACKAGE
                                                                      : HWLOC_OBJ_L3CACHE;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    int found = -1;
    if (hwloc_get_cpubind(t, set, HWLOC_CPUBIND_THREAD) == 0) found = domain_including(t, type, set);
    if (found < 0 && hwloc_get_last_cpu_location(t, set, HWLOC_CPUBIND_THREAD) == 0) found = domain_including(t, type, set);
    hwloc_bitmap_free(set);
    return found;
}

std::string host_name() {
    char buf[256] = {0};
    if (gethostname(buf, sizeof buf - 1) != 0) return "localhost";
    return buf;
}

}  // namespace hmpi
