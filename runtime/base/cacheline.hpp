// Cache-line layout helpers.
#pragma once
#include <cstddef>
#include <new>

namespace hmpi {

// x86 lines are 64 B, but the adjacent-line prefetcher pulls pairs: shared
// control words that different ranks write are kept 128 B apart.
inline constexpr std::size_t kCacheLine = 64;
inline constexpr std::size_t kFalseSharingRange = 128;

// A T alone on its own pair of cache lines.
template <class T>
struct alignas(kFalseSharingRange) cacheline_padded {
    T value{};
};

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield" ::: "memory");
#endif
}

}  // namespace hmpi
