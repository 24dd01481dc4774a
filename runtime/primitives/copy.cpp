// Copy kernels (copy.hpp).
#include "primitives/copy.hpp"

#include <atomic>
#include <cstring>

namespace hmpi {

void copy_bytes(void* dst, const void* src, std::size_t n, StoreKind kind) noexcept {
    std::memcpy(dst, src, n);
    if (kind == StoreKind::non_temporal) store_fence();
}

void store_fence() noexcept {
#if defined(__x86_64__)
    __builtin_ia32_sfence();
#else
    std::atomic_thread_fence(std::memory_order_release);
#endif
}

}  // namespace hmpi
