// Memory that belongs to a group of ranks, placed on the group's NUMA node.
//
// A buffer or control structure that a group's members read and write
// (a member's flags, a group leader's scratch) should live on the NUMA node
// of the cores that use it: a remote node costs every access a trip across
// the socket interconnect. Two mechanisms, chosen at run time:
//  - bound: where libnuma works and hwloc reports more than one NUMA node,
//    the pages are mapped untouched and bound to the node with mbind
//    (MPOL_PREFERRED: a full node falls back instead of failing), so they
//    land there whichever thread touches them first;
//  - first touch: otherwise (one node, or no NUMA support in the kernel)
//    plain aligned heap memory, zeroed by the allocating thread; Linux puts a
//    page where it is first touched, so callers allocate from a thread of
//    the owning group (its leader) when they can.
// Nodes are hwloc logical indices, as RankPlace::numa and LevelGroup::numa
// give them (-1: no preference). docs/collectives.md, "Topology levels".
#pragma once
#include <cstddef>
#include <new>
#include <utility>
#include <vector>

namespace hmpi::coll {

// True where memory is really bound to nodes (libnuma works and the machine
// has more than one NUMA node); false where placement is first touch.
bool numa_binding_active() noexcept;

// Zeroed memory of `bytes` aligned to `align` (a power of two), on NUMA node
// `numa` (hwloc logical index; -1 = wherever the caller runs). Move-only;
// frees itself.
class NodeMemory {
public:
    NodeMemory() = default;
    NodeMemory(std::size_t bytes, std::size_t align, int numa);
    NodeMemory(NodeMemory&& o) noexcept { swap(o); }
    NodeMemory& operator=(NodeMemory&& o) noexcept {
        NodeMemory(std::move(o)).swap(*this);
        return *this;
    }
    NodeMemory(const NodeMemory&) = delete;
    NodeMemory& operator=(const NodeMemory&) = delete;
    ~NodeMemory();

    void* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return bytes_; }
    // Whether the pages are bound to the node (false: first touch).
    bool bound() const noexcept { return bound_; }

private:
    void swap(NodeMemory& o) noexcept {
        std::swap(data_, o.data_);
        std::swap(bytes_, o.bytes_);
        std::swap(align_, o.align_);
        std::swap(mapped_, o.mapped_);
        std::swap(bound_, o.bound_);
    }
    void* data_ = nullptr;
    std::size_t bytes_ = 0;
    std::size_t align_ = 0;
    bool mapped_ = false;  // from mmap (else aligned operator new)
    bool bound_ = false;
};

namespace detail {
// The raw pieces NodeArray is built from (placement.cpp).
struct Region {
    void* base = nullptr;
    std::size_t bytes = 0;
    std::size_t align = 0;
    bool mapped = false;
};
// The distance between elements: their size, rounded up to whole pages
// when elements are bound to nodes (a page has one node).
std::size_t element_stride(std::size_t size, std::size_t align) noexcept;
// Untouched memory for `bytes` (page-aligned and mapped when binding is
// active, else aligned heap memory). Throws std::bad_alloc.
Region reserve_region(std::size_t bytes, std::size_t align);
// Binds [p, p + bytes) to NUMA node `numa` (logical); no-op when binding is
// inactive or numa < 0. Returns whether the range is bound.
bool bind_to_node(void* p, std::size_t bytes, int numa) noexcept;
void release_region(const Region& r) noexcept;
}  // namespace detail

// A fixed-size array of T whose element i lives on NUMA node numa_of[i]
// (default-constructed there: the pages are bound before construction, so
// the constructing thread does not decide where they go). Elements keep T's
// alignment; when binding is active each one starts on its own page.
// Indexing is base + i * stride: no indirection on the hot path.
template <class T>
class NodeArray {
public:
    NodeArray() = default;
    explicit NodeArray(const std::vector<int>& numa_of) {
        const std::size_t n = numa_of.size();
        stride_ = detail::element_stride(sizeof(T), alignof(T));
        region_ = detail::reserve_region(n * stride_, alignof(T));
        auto* base = static_cast<std::byte*>(region_.base);
        try {
            for (std::size_t i = 0; i < n; ++i) {
                detail::bind_to_node(base + i * stride_, stride_, numa_of[i]);
                ::new (static_cast<void*>(base + i * stride_)) T();
                ++size_;
            }
        } catch (...) {
            destroy();
            throw;
        }
    }
    NodeArray(NodeArray&& o) noexcept { swap(o); }
    NodeArray& operator=(NodeArray&& o) noexcept {
        NodeArray(std::move(o)).swap(*this);
        return *this;
    }
    NodeArray(const NodeArray&) = delete;
    NodeArray& operator=(const NodeArray&) = delete;
    ~NodeArray() { destroy(); }

    // Like unique_ptr<T[]>: a const array still hands out its elements.
    T& operator[](std::size_t i) const noexcept {
        return *std::launder(reinterpret_cast<T*>(static_cast<std::byte*>(region_.base) + i * stride_));
    }
    std::size_t size() const noexcept { return size_; }
    std::size_t stride() const noexcept { return stride_; }

private:
    void swap(NodeArray& o) noexcept {
        std::swap(region_, o.region_);
        std::swap(stride_, o.stride_);
        std::swap(size_, o.size_);
    }
    void destroy() noexcept {
        for (std::size_t i = size_; i-- > 0;) (*this)[i].~T();
        size_ = 0;
        if (region_.base) detail::release_region(region_);
        region_ = {};
    }
    detail::Region region_;
    std::size_t stride_ = 0;
    std::size_t size_ = 0;
};

}  // namespace hmpi::coll
