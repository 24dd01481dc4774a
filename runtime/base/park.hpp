// Waiting without spinning forever.
//
// A waiting rank polls for HMPI_SPIN_US, then yields the core for
// HMPI_YIELD_US, then parks on its Doorbell (a futex). Anything that can make
// a parked rank's wait succeed (a message pushed to it, one of its requests
// completed by another rank) rings that rank's doorbell. Under
// oversubscription this hands the cores to ranks that have work, which keeps
// latency close to the dedicated-core case (measured in docs/point-to-point.md).
#pragma once
#include <atomic>
#include <cstdint>

#include "base/cacheline.hpp"

namespace hmpi {

// Monotonic nanoseconds.
std::uint64_t now_ns() noexcept;

class Doorbell {
public:
    // Waiter side. Parks until ring() is called after `ready` was false.
    // `ready` is evaluated after this waiter is registered, so a ring()
    // that follows the publication of whatever ready() checks is never lost.
    template <class Ready>
    void park(Ready&& ready) {
        sleepers_.fetch_add(1, std::memory_order_seq_cst);
        std::atomic_thread_fence(std::memory_order_seq_cst);
        std::uint32_t seen = word_.load(std::memory_order_acquire);
        if (!ready()) wait_for_change(seen);
        sleepers_.fetch_sub(1, std::memory_order_relaxed);
    }

    // Notifier side: call after publishing (release) what the waiter checks.
    void ring() noexcept {
        std::atomic_thread_fence(std::memory_order_seq_cst);
        if (sleepers_.load(std::memory_order_relaxed) > 0) wake_all();
    }

private:
    void wait_for_change(std::uint32_t seen) noexcept;
    void wake_all() noexcept;

    // The word waiters sleep on, bumped by each ring that finds sleepers.
    alignas(kFalseSharingRange) std::atomic<std::uint32_t> word_{0};
    // Written only by waiters that are about to park: notifiers read it from
    // their own cache on the fast path.
    alignas(kFalseSharingRange) std::atomic<std::int32_t> sleepers_{0};
};

// The spin -> yield -> park schedule of one wait.
class Backoff {
public:
    enum class Step { spin, yield, park };
    Backoff(double spin_us, double yield_us) noexcept;
    Step next() noexcept;

private:
    std::uint64_t spin_ns_, yield_ns_;
    std::uint64_t start_ = 0;
    std::uint32_t polls_ = 0;
    Step phase_ = Step::spin;
};

}  // namespace hmpi
