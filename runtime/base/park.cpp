#include "base/park.hpp"

#include <linux/futex.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <ctime>

namespace hmpi {

std::uint64_t now_ns() noexcept {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

namespace asymmetric_barrier {

namespace {
bool register_membarrier() noexcept {
    long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (cmds < 0 || !(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) return false;
    return syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
}
}  // namespace

bool heavy_registered = register_membarrier();

void heavy() noexcept {
    std::atomic_thread_fence(std::memory_order_seq_cst);
#if !defined(__SANITIZE_THREAD__)
    if (heavy_available()) syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
#endif
}

}  // namespace asymmetric_barrier

cacheline_padded<std::atomic<std::int32_t>> Doorbell::parked_anywhere_;

bool Doorbell::wait_for_change(std::uint32_t seen) noexcept {
    // The futex call re-checks word_ == seen atomically in the kernel.
    timespec timeout{0, 50 * 1000 * 1000};
    long rc = syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word_), FUTEX_WAIT_PRIVATE, seen, &timeout, nullptr, 0);
    return !(rc == -1 && errno == ETIMEDOUT);
}

void Doorbell::missed_wakeup() noexcept {
    static std::atomic<bool> reported{false};
    if (!reported.exchange(true, std::memory_order_relaxed)) {
        static const char msg[] = "hmpi: internal: a parked rank missed a wakeup (recovered after 50 ms)\n";
        ssize_t ignored = write(2, msg, sizeof msg - 1);
        (void)ignored;
    }
}

void Doorbell::wake_all() noexcept {
    word_.fetch_add(1, std::memory_order_seq_cst);
    syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word_), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
}

Backoff::Step Backoff::next() noexcept {
    // Reading the clock costs ~20 ns: only every 64 polls while spinning, and
    // not at all in a wait that ends within the first 64 (a round trip).
    // With no spinning time (HMPI_SPIN_US=0) not even those 64.
    ++polls_;
    if (phase_ == Step::spin && (polls_ & 63) != 0 && spin_ns_ != 0) return Step::spin;
    std::uint64_t t = now_ns();
    if (start_ == 0) start_ = t;
    std::uint64_t waited = t - start_;
    if (waited < spin_ns_) phase_ = Step::spin;
    else if (waited < spin_ns_ + yield_ns_) phase_ = Step::yield;
    else phase_ = Step::park;
    return phase_;
}

}  // namespace hmpi
