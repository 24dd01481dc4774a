// The non-temporal copy kernel's code, written once and compiled once per
// instruction set, like reduce_kernels.hpp: copy_avx2.cpp and
// copy_avx512.cpp define HMPI_COPY_NS and HMPI_COPY_VECTOR_BYTES (32 or 64)
// and include this file with their -m flags (CMakeLists.txt); copy.cpp
// holds the SSE2 baseline (16-byte vectors, always there on x86-64) and
// chooses one at run time.
//
// The loop (YHCCL Section 3.2, "non-temporal stores"; Intel's optimization
// manual, streaming stores): the destination is first brought to a vector
// boundary with an ordinary copy of the few head bytes, then each
// iteration loads 8 vectors from the source (unaligned loads: the source
// keeps whatever alignment the caller's buffer has), prefetches the source
// kPrefetchAhead bytes ahead with prefetchnta (the source is read once, so
// it should not evict the cache either), and writes the 8 vectors with
// aligned streaming stores, which go to memory through the write-combining
// buffers without reading the destination lines first (no
// read-for-ownership). The last partial iteration and the tail are
// ordinary copies. The caller's sfence (store_fence) orders the streaming
// stores before a flag's publish.
#pragma once
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#if !defined(HMPI_COPY_NS) || !defined(HMPI_COPY_VECTOR_BYTES)
#error "define HMPI_COPY_NS and HMPI_COPY_VECTOR_BYTES before including copy_kernels.hpp"
#endif

namespace hmpi::prim::HMPI_COPY_NS {

namespace {
constexpr std::size_t kVector = HMPI_COPY_VECTOR_BYTES;
constexpr std::size_t kBlock = 8 * kVector;     // bytes per iteration
constexpr std::size_t kPrefetchAhead = 1024;    // 16 lines ahead: a few iterations' worth

#if HMPI_COPY_VECTOR_BYTES == 64
using Vec = __m512i;
inline Vec load(const unsigned char* p) { return _mm512_loadu_si512(p); }
inline void stream(unsigned char* p, Vec v) { _mm512_stream_si512(reinterpret_cast<Vec*>(p), v); }
#elif HMPI_COPY_VECTOR_BYTES == 32
using Vec = __m256i;
inline Vec load(const unsigned char* p) { return _mm256_loadu_si256(reinterpret_cast<const Vec*>(p)); }
inline void stream(unsigned char* p, Vec v) { _mm256_stream_si256(reinterpret_cast<Vec*>(p), v); }
#else
using Vec = __m128i;
inline Vec load(const unsigned char* p) { return _mm_loadu_si128(reinterpret_cast<const Vec*>(p)); }
inline void stream(unsigned char* p, Vec v) { _mm_stream_si128(reinterpret_cast<Vec*>(p), v); }
#endif
}  // namespace

// Copies n bytes with streaming stores where it can; no fence.
void copy_nt(void* dst_, const void* src_, std::size_t n) noexcept {
    auto* dst = static_cast<unsigned char*>(dst_);
    auto* src = static_cast<const unsigned char*>(src_);
    if (n < 2 * kBlock) {  // too short for streaming to pay off
        std::memcpy(dst, src, n);
        return;
    }
    const std::size_t head = (kVector - (reinterpret_cast<std::uintptr_t>(dst) & (kVector - 1))) & (kVector - 1);
    if (head) {
        std::memcpy(dst, src, head);
        dst += head, src += head, n -= head;
    }
    for (; n >= kBlock; n -= kBlock, dst += kBlock, src += kBlock) {
        _mm_prefetch(reinterpret_cast<const char*>(src + kPrefetchAhead), _MM_HINT_NTA);
        _mm_prefetch(reinterpret_cast<const char*>(src + kPrefetchAhead + kBlock / 2), _MM_HINT_NTA);
        const Vec v0 = load(src), v1 = load(src + kVector), v2 = load(src + 2 * kVector),
                  v3 = load(src + 3 * kVector);
        const Vec v4 = load(src + 4 * kVector), v5 = load(src + 5 * kVector), v6 = load(src + 6 * kVector),
                  v7 = load(src + 7 * kVector);
        stream(dst, v0);
        stream(dst + kVector, v1);
        stream(dst + 2 * kVector, v2);
        stream(dst + 3 * kVector, v3);
        stream(dst + 4 * kVector, v4);
        stream(dst + 5 * kVector, v5);
        stream(dst + 6 * kVector, v6);
        stream(dst + 7 * kVector, v7);
    }
    for (; n >= kVector; n -= kVector, dst += kVector, src += kVector) stream(dst, load(src));
    if (n) std::memcpy(dst, src, n);
}

}  // namespace hmpi::prim::HMPI_COPY_NS
