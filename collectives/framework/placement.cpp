// Group-owned memory on the group's NUMA node (placement.hpp): mmap + mbind
// through libnuma where the machine has several nodes, first touch where not.
#include "collectives/framework/placement.hpp"

#include <numa.h>
#include <numaif.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "base/topology.hpp"

namespace hmpi::coll {

namespace {

std::size_t page_bytes() noexcept {
    static const std::size_t page = [] {
        const long v = sysconf(_SC_PAGESIZE);
        return v > 0 ? static_cast<std::size_t>(v) : std::size_t{4096};
    }();
    return page;
}

std::size_t round_up(std::size_t n, std::size_t unit) noexcept { return (n + unit - 1) / unit * unit; }

std::size_t heap_alignment(std::size_t align) noexcept {
    return std::max(align, alignof(std::max_align_t));
}

void* map_pages(std::size_t bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return p;
}

}  // namespace

bool numa_binding_active() noexcept {
    // numa_available() must precede any other libnuma call; it says -1 when
    // the kernel has no NUMA support. One node: nothing to choose.
    static const bool active = numa_available() >= 0 && topology_numa_count() > 1;
    return active;
}

namespace detail {

std::size_t element_stride(std::size_t size, std::size_t align) noexcept {
    const std::size_t aligned = round_up(std::max<std::size_t>(size, 1), align);
    return numa_binding_active() ? round_up(aligned, page_bytes()) : aligned;
}

Region reserve_region(std::size_t bytes, std::size_t align) {
    Region r;
    if (bytes == 0) return r;
    r.align = align;
    if (numa_binding_active() && align <= page_bytes()) {
        r.bytes = round_up(bytes, page_bytes());
        r.base = map_pages(r.bytes);  // untouched: pages appear where their policy says
        r.mapped = true;
    } else {
        r.bytes = bytes;
        r.base = ::operator new(bytes, std::align_val_t(heap_alignment(align)));
    }
    return r;
}

bool bind_to_node(void* p, std::size_t bytes, int numa) noexcept {
    if (!numa_binding_active() || numa < 0 || bytes == 0) return false;
    const int os = topology_numa_os_index(numa);
    if (os < 0) return false;
    // mbind wants whole pages; a range that does not start on one is left
    // to first touch rather than binding a neighbour's page too.
    const auto addr = reinterpret_cast<std::uintptr_t>(p);
    if (addr % page_bytes() != 0) return false;
    // The kernel reads maxnode - 1 bits of the mask, so leave a spare word.
    const std::size_t bits = 8 * sizeof(unsigned long);
    std::vector<unsigned long> mask(static_cast<std::size_t>(os) / bits + 2, 0);
    mask[static_cast<std::size_t>(os) / bits] |= 1UL << (static_cast<std::size_t>(os) % bits);
    // PREFERRED, not BIND: a full node spills over instead of failing.
    return mbind(p, round_up(bytes, page_bytes()), MPOL_PREFERRED, mask.data(), mask.size() * bits, 0) == 0;
}

void release_region(const Region& r) noexcept {
    if (!r.base) return;
    if (r.mapped) munmap(r.base, r.bytes);
    else ::operator delete(r.base, std::align_val_t(heap_alignment(r.align)));
}

}  // namespace detail

NodeMemory::NodeMemory(std::size_t bytes, std::size_t align, int numa) {
    if (bytes == 0) return;
    const detail::Region r = detail::reserve_region(bytes, align);
    data_ = r.base;
    bytes_ = r.bytes;
    align_ = r.align;
    mapped_ = r.mapped;
    if (mapped_) bound_ = detail::bind_to_node(data_, bytes_, numa);
    // The first touch: on the bound node, or where the caller runs.
    std::memset(data_, 0, bytes_);
    bytes_ = bytes;  // what the caller asked for; the mapping's length is recomputed on release
}

NodeMemory::~NodeMemory() {
    if (!data_) return;
    detail::Region r;
    r.base = data_;
    r.align = align_;
    r.mapped = mapped_;
    r.bytes = mapped_ ? round_up(bytes_, page_bytes()) : bytes_;
    detail::release_region(r);
}

}  // namespace hmpi::coll
