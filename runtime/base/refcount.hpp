// A reference count for MPI objects whose handle the user frees while
// operations still use them (communicators, datatypes, groups, operations).
//
// Copying an object gives the copy a fresh count of one: a copy is a new
// object with one owner, never a second name for the old one's references.
#pragma once
#include <atomic>

namespace hmpi {

class RefCount {
public:
    RefCount() noexcept = default;
    RefCount(const RefCount&) noexcept {}
    RefCount& operator=(const RefCount&) noexcept { return *this; }

    void retain() noexcept { n_.fetch_add(1, std::memory_order_relaxed); }
    // True when this was the last reference: the caller destroys the object.
    bool release() noexcept { return n_.fetch_sub(1, std::memory_order_acq_rel) == 1; }
    int load() const noexcept { return n_.load(std::memory_order_relaxed); }

private:
    std::atomic<int> n_{1};
};

}  // namespace hmpi
