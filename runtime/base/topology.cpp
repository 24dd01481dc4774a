#include "base/topology.hpp"

#include <hwloc.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

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

int topology_pu_count() {
    const int n = hwloc_get_nbobjs_by_type(topology(), HWLOC_OBJ_PU);
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

namespace {

// The objects ranks are bound to: cores, or PUs where hwloc reports no cores
// (the same choice bind_current_thread_to_core makes).
hwloc_obj_type_t binding_unit_type(hwloc_topology_t t, int& count) {
    count = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
    if (count > 0) return HWLOC_OBJ_CORE;
    count = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
    return HWLOC_OBJ_PU;
}

int ancestor_index(hwloc_topology_t t, hwloc_obj_t obj, hwloc_obj_type_t type) {
    hwloc_obj_t up = hwloc_get_ancestor_obj_by_type(t, type, obj);
    return up ? static_cast<int>(up->logical_index) : -1;
}

// The NUMA node of a set of CPUs: in hwloc 2 NUMA nodes hang off the tree
// as memory children, so they are found by their CPU sets, not as ancestors.
int numa_holding(hwloc_topology_t t, hwloc_const_cpuset_t cpus) {
    if (!cpus || hwloc_bitmap_iszero(cpus)) return -1;
    const int n = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
    for (int i = 0; i < n; ++i) {
        hwloc_obj_t node = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(i));
        if (node && node->cpuset && hwloc_bitmap_isincluded(cpus, node->cpuset))
            return static_cast<int>(node->logical_index);
    }
    return -1;
}

CorePlace place_of(hwloc_topology_t t, hwloc_obj_t unit) {
    CorePlace p;
    if (!unit) return p;
    p.core = static_cast<int>(unit->logical_index);
    p.l2 = ancestor_index(t, unit, HWLOC_OBJ_L2CACHE);
    p.l3 = ancestor_index(t, unit, HWLOC_OBJ_L3CACHE);
    p.package = ancestor_index(t, unit, HWLOC_OBJ_PACKAGE);
    p.numa = numa_holding(t, unit->cpuset);
    return p;
}

// Every core's place, found once (the topology never changes while we run).
const std::vector<CorePlace>& core_places() {
    static const std::vector<CorePlace> places = [] {
        hwloc_topology_t t = topology();
        int n = 0;
        const hwloc_obj_type_t type = binding_unit_type(t, n);
        std::vector<CorePlace> v;
        for (int i = 0; i < n; ++i) v.push_back(place_of(t, hwloc_get_obj_by_type(t, type, static_cast<unsigned>(i))));
        if (v.empty()) v.push_back(CorePlace{});
        return v;
    }();
    return places;
}

CacheSizes find_caches() {
    CacheSizes c;
    hwloc_topology_t t = topology();
    int n = 0;
    const hwloc_obj_type_t type = binding_unit_type(t, n);
    hwloc_obj_t unit = n > 0 ? hwloc_get_obj_by_type(t, type, 0) : nullptr;
    if (!unit) return c;
    hwloc_obj_t l1 = hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_L1CACHE, unit);
    hwloc_obj_t l2 = hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_L2CACHE, unit);
    if (l1 && l1->attr) c.l1_bytes = static_cast<std::size_t>(l1->attr->cache.size);
    hwloc_obj_t l3 = hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_L3CACHE, unit);
    if (l2 && l2->attr) c.l2_bytes = static_cast<std::size_t>(l2->attr->cache.size);
    hwloc_obj_t llc = l3 ? l3 : l2;
    if (!llc || !llc->attr) return c;
    c.llc_bytes = static_cast<std::size_t>(llc->attr->cache.size);
    c.llc_level = static_cast<int>(llc->attr->cache.depth);
    if (const char* inclusive = hwloc_obj_get_info_by_name(llc, "Inclusive")) {
        c.llc_inclusive = std::strcmp(inclusive, "0") != 0;
        c.llc_inclusive_known = true;
    }
    return c;
}

}  // namespace

CorePlace topology_place_of_core(int index) {
    const std::vector<CorePlace>& v = core_places();
    const int n = static_cast<int>(v.size());
    return v[static_cast<std::size_t>(((index % n) + n) % n)];
}

const CacheSizes& topology_caches() {
    static const CacheSizes caches = find_caches();
    return caches;
}

int topology_numa_count() {
    const int n = hwloc_get_nbobjs_by_type(topology(), HWLOC_OBJ_NUMANODE);
    return n > 0 ? n : 1;
}

int topology_numa_os_index(int logical) {
    if (logical < 0) return -1;
    hwloc_obj_t node = hwloc_get_obj_by_type(topology(), HWLOC_OBJ_NUMANODE, static_cast<unsigned>(logical));
    return node ? static_cast<int>(node->os_index) : -1;
}

std::string host_name() {
    char buf[256] = {0};
    if (gethostname(buf, sizeof buf - 1) != 0) return "localhost";
    return buf;
}

}  // namespace hmpi
