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

// The barrier pairing for Doorbell (an asymmetric Dekker handshake).
//
// A waiter publishes "I am going to sleep" and then checks its condition; a
// notifier publishes the condition and then checks for sleepers. Each side
// needs a store->load barrier between its store and its load, or both can
// miss each other. A full fence on the notifier's side costs a store-buffer
// drain on every message (measured: 80% of MPI_Send's time, waiting for the
// ring cell's ownership). Instead the rare side, the waiter about to park,
// calls membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), which runs a full
// barrier on every thread of the process; the notifier then needs only a
// compiler barrier. Where membarrier is unavailable (old kernels, seccomp)
// or under ThreadSanitizer (which cannot model it), both sides fence.
namespace asymmetric_barrier {
// Decided when the library loads (before any rank thread runs): read on
// every notification, so a plain load rather than a call. Code that ran
// before that would see false and fence fully, which is only slower.
extern bool heavy_registered;
inline bool heavy_available() noexcept { return heavy_registered; }
void heavy() noexcept;            // waiter side
inline void light() noexcept {    // notifier side
#if defined(__SANITIZE_THREAD__)
    std::atomic_thread_fence(std::memory_order_seq_cst);
#else
    if (heavy_available()) std::atomic_signal_fence(std::memory_order_seq_cst);
    else std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
}
}  // namespace asymmetric_barrier

class Doorbell {
public:
    // Waiter side. Parks until ring() is called after `ready` was false.
    // `ready` is evaluated after this waiter is registered, so a ring()
    // that follows the publication of whatever ready() checks is never lost.
    template <class Ready>
    void park(Ready&& ready) {
        sleepers_.fetch_add(1, std::memory_order_seq_cst);
        parked_anywhere_.value.fetch_add(1, std::memory_order_seq_cst);
        asymmetric_barrier::heavy();
        std::uint32_t seen = word_.load(std::memory_order_acquire);
        if (!ready() && !wait_for_change(seen) && ready()) missed_wakeup();
        parked_anywhere_.value.fetch_sub(1, std::memory_order_relaxed);
        sleepers_.fetch_sub(1, std::memory_order_relaxed);
    }

    // Notifier side: call after publishing (release) what the waiter checks.
    void ring() noexcept {
        asymmetric_barrier::light();
        ring_fenced();
    }
    // The same for a notifier that has run asymmetric_barrier::light()
    // since its publication: one barrier serves every doorbell it rings.
    void ring_fenced() noexcept {
        if (sleepers_.load(std::memory_order_relaxed) > 0) wake_all();
    }
    // Whether a waiter may be parking on any doorbell of the process; after
    // its light() a notifier that would ring many doorbells (every member
    // of a communicator, at every flag a collective publishes) reads this
    // one line instead, and rings none when it says no. The same pairing
    // as sleepers_: a waiter counts itself here before its heavy barrier.
    static bool anyone_parked() noexcept { return parked_anywhere_.value.load(std::memory_order_relaxed) > 0; }

private:
    // Sleeps while word_ == seen. Returns false if it gave up after the
    // safety timeout: a waiter re-checks its condition every 50 ms, so a
    // wakeup the protocol above should make impossible can never hang a job.
    bool wait_for_change(std::uint32_t seen) noexcept;
    // The timeout found work nobody rang for: reported once per process.
    static void missed_wakeup() noexcept;
    void wake_all() noexcept;

    // The word waiters sleep on, bumped by each ring that finds sleepers.
    alignas(kFalseSharingRange) std::atomic<std::uint32_t> word_{0};
    // Written only by waiters that are about to park: notifiers read it from
    // their own cache on the fast path.
    alignas(kFalseSharingRange) std::atomic<std::int32_t> sleepers_{0};
    // Waiters parking on any doorbell (on a line of its own: written only
    // when a rank parks, which takes microseconds anyway).
    static cacheline_padded<std::atomic<std::int32_t>> parked_anywhere_;
};

// The spin -> yield -> park schedule of one wait.
class Backoff {
public:
    enum class Step { spin, yield, park };
    Backoff(std::uint64_t spin_ns, std::uint64_t yield_ns) noexcept : spin_ns_(spin_ns), yield_ns_(yield_ns) {}
    Step next() noexcept;
    // The wait starts over (back to spinning): the work waited on advanced.
    void restart() noexcept {
        start_ = 0;
        polls_ = 0;
        phase_ = Step::spin;
    }
    std::uint32_t polls() const noexcept { return polls_; }

private:
    std::uint64_t spin_ns_, yield_ns_;
    std::uint64_t start_ = 0;
    std::uint32_t polls_ = 0;
    Step phase_ = Step::spin;
};

}  // namespace hmpi
