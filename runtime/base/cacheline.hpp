// Cache-line layout helpers.
#pragma once
#include <cstddef>
#include <cstdint>
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

// Asks for the lines of [p, p + bytes), at most `max_lines` of them, to be
// loaded into this core's cache, without waiting for them and without
// faulting (a prefetch of an unmapped address is dropped).
inline void prefetch_lines(const void* p, std::size_t bytes, std::size_t max_lines) noexcept {
    const auto first = reinterpret_cast<std::uintptr_t>(p) & ~(kCacheLine - 1);
    const auto end = reinterpret_cast<std::uintptr_t>(p) + bytes;
    for (std::uintptr_t line = first; line < end && max_lines > 0; line += kCacheLine, --max_lines)
        __builtin_prefetch(reinterpret_cast<const void*>(line), 0, 3);
}

}  // namespace hmpi
