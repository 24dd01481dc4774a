// Copy kernels (copy.hpp): temporal copies are memcpy (glibc's is tuned
// per CPU and already switches to streaming stores only for copies larger
// than a share of the LLC, which is the size our callers decide on
// themselves); non-temporal copies are copy_kernels.hpp's streaming loop,
// compiled for SSE2 here (the x86-64 baseline), AVX2 (copy_avx2.cpp) and
// AVX-512 (copy_avx512.cpp), chosen once like the reduction kernels
// (reduce.cpp: prim::active_isa(), so HMPI_REDUCE_ISA forces both).
#include "primitives/copy.hpp"

#include <atomic>
#include <cstring>

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
}  // namespace

void copy_bytes(void* dst, const void* src, std::size_t n, StoreKind kind) noexcept {
    if (kind == StoreKind::temporal) {
        std::memcpy(dst, src, n);
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
