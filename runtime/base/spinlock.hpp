// A small lock for short critical sections that are almost never contended
// (a rank's own matching state under MPI_THREAD_MULTIPLE, a channel's
// overflow list). Test-and-test-and-set; yields under contention so an
// oversubscribed holder can run.
#pragma once
#include <sched.h>

#include <atomic>

#include "base/cacheline.hpp"

namespace hmpi {

class SpinLock {
public:
    bool try_lock() noexcept {
        return !locked_.load(std::memory_order_relaxed) && !locked_.exchange(true, std::memory_order_acquire);
    }
    void lock() noexcept {
        for (unsigned spins = 0; !try_lock(); ++spins) {
            if (spins < 64) cpu_relax();
            else sched_yield();
        }
    }
    void unlock() noexcept { locked_.store(false, std::memory_order_release); }

private:
    std::atomic<bool> locked_{false};
};

// Locks only when `active` (a rank that asked for MPI_THREAD_MULTIPLE).
class MaybeLock {
public:
    MaybeLock(SpinLock& l, bool active) noexcept : lock_(active ? &l : nullptr) {
        if (lock_) lock_->lock();
    }
    ~MaybeLock() {
        if (lock_) lock_->unlock();
    }
    MaybeLock(const MaybeLock&) = delete;
    MaybeLock& operator=(const MaybeLock&) = delete;

private:
    SpinLock* lock_;
};

}  // namespace hmpi
