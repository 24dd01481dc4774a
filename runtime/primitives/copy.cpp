// Copy kernels (copy.hpp): temporal copies are memcpy (glibc's is tuned
// per CPU and already switches to streaming stores only for copies larger
// than a share of the LLC, which is the size our callers decide on
// themselves); non-temporal copies are copy_kernels.hpp's streaming loop,
// compiled for SSE2 here (the x86-64 baseline), AVX2 (copy_avx2.cpp) and
// AVX-512 (copy_avx512.cpp), chosen once like the reduction kernels
// (reduce.cpp: prim::active_isa(), so HMPI_REDUCE_ISA forces both).
#include "primitives/copy.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "base/cacheline.hpp"
#include "primitives/reduce.hpp"

#if defined(HMPI_HAVE_X86_KERNELS)
#define HMPI_COPY_NS sse2
#define HMPI_COPY_VECTOR_BYTES 16
#include "primitives/copy_kernels.hpp"

namespace hmpi::prim {
namespace avx2 {
void copy_nt(void* dst, const void* src, std::size_t n) noexcept;
}
namespace avx512 {
void copy_nt(void* dst, const void* src, std::size_t n) noexcept;
}
}  // namespace hmpi::prim
#endif

namespace hmpi {

namespace {
using NtCopy = void (*)(void*, const void*, std::size_t) noexcept;

#if !defined(HMPI_HAVE_X86_KERNELS)
void copy_nt_portable(void* dst, const void* src, std::size_t n) noexcept { std::memcpy(dst, src, n); }
#endif

NtCopy nt_kernel(prim::Isa isa) noexcept {
#if defined(HMPI_HAVE_X86_KERNELS)
    switch (isa) {
        case prim::Isa::avx512: return prim::avx512::copy_nt;
        case prim::Isa::avx2: return prim::avx2::copy_nt;
        default: return prim::sse2::copy_nt;
    }
#else
    (void)isa;
    return copy_nt_portable;
#endif
}

NtCopy active_nt_kernel() noexcept {
    static const NtCopy k = nt_kernel(prim::active_isa());
    return k;
}

// Copies into lines that other cores hold (StoreKind::rewrite) larger
// than this are string moves (rep movsb) where the CPU has fast ones
// (ERMS), not glibc's vector loop, which glibc itself leaves only from
// 2112 bytes on (its x86_rep_movsb_threshold on CPUs with FSRM). 2 ranks
// on the 2-core EPYC guest (Zen 5, KVM), every inline algorithm's copy-in,
// the old and new library alternating, 5 rounds
// (docs/performance-collectives.md, stop 40): at 2 KiB Allreduce 0.93 ->
// 0.71 us, Scatter 0.75 -> 0.48, Alltoall 1.20 -> 0.90, Bcast 0.35 ->
// 0.27, Allgather 0.94 -> 0.79, Reduce_scatter 0.83 -> 0.71; at 1.5 KiB
// 0-28% less; Reduce and Gather (one writer per reader) alike. At exactly
// 1 KiB a first run had Alltoall lose (0.66 -> 0.73 us) and Scan and Exscan
// win (7-10%): left to memcpy, as at 4 KiB, where glibc moves strings too.
// Past 1 MiB, where memcpy moves to a vector loop on this CPU, the gap
// grows: one core copying into lines the other had read took 9-10 ns a
// line with memcpy and 1.6-2.5 with the string move (bench/copy_rewrite.c;
// into its own lines the two within 18%): a vector store takes its line
// back from the reader first, the string move writes whole lines
// (docs/model.md, "Since stop 40 the runtime does not pay it"). With
// the benchmark reading its results after each call, blocks pushed into
// another rank's receive buffer at 1-4 MiB took 2.5-5.8x less.
// (kRewriteStringAboveBytes, copy.hpp.)

bool fast_string_moves() noexcept {
#if defined(__x86_64__)
    static const bool erms = [] {
        unsigned a = 0, b = 0, c = 0, d = 0;
        if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
        return (b & (1u << 9)) != 0;  // ERMS: enhanced rep movsb
    }();
    return erms;
#else
    return false;
#endif
}

void copy_rewrite(void* dst, const void* src, std::size_t n) noexcept {
    // Sanitizers do not see inside the asm: their builds take memcpy.
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    if (n > kRewriteStringAboveBytes && fast_string_moves()) {
        // The string move writes whole lines only from a line-aligned
        // destination on (into lines another core read, 1-16 MiB: 1.6-2.5
        // ns a line from an aligned destination whatever the source's
        // alignment, 8-9 from one 17 or 40 bytes into a line, as memcpy's):
        // the head up to the next line goes first.
        const std::size_t head =
            std::min(n, (kCacheLine - reinterpret_cast<std::uintptr_t>(dst) % kCacheLine) % kCacheLine);
        if (head) {
            std::memcpy(dst, src, head);
            dst = static_cast<unsigned char*>(dst) + head;
            src = static_cast<const unsigned char*>(src) + head;
            n -= head;
        }
        asm volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
        return;
    }
#endif
    std::memcpy(dst, src, n);
}
}  // namespace

void copy_bytes_out_of_line(void* dst, const void* src, std::size_t n, StoreKind kind) noexcept {
    if (kind == StoreKind::rewrite) {
        copy_rewrite(dst, src, n);
        return;
    }
    active_nt_kernel()(dst, src, n);
    store_fence();
}

void copy_bytes_with(prim::Isa isa, void* dst, const void* src, std::size_t n, StoreKind kind) noexcept {
    if (kind == StoreKind::temporal) {
        std::memcpy(dst, src, n);
        return;
    }
    if (kind == StoreKind::rewrite) {
        copy_rewrite(dst, src, n);
        return;
    }
    nt_kernel(isa)(dst, src, n);
    store_fence();
}

void store_fence() noexcept {
#if defined(__x86_64__)
    __builtin_ia32_sfence();
#else
    std::atomic_thread_fence(std::memory_order_release);
#endif
}

}  // namespace hmpi
