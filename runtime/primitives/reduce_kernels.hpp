// The reduction kernels' code, written once and compiled once per
// instruction set: reduce_portable.cpp, reduce_avx2.cpp and reduce_avx512.cpp
// each define HMPI_REDUCE_NS (the namespace of their copy) and
// HMPI_REDUCE_VECTOR_BYTES (16 for the portable file, 32 for AVX2, 64 for
// AVX-512) and include this file; the AVX files are compiled with the
// matching -m flags (see CMakeLists.txt).
//
// Everything here has internal linkage (an unnamed namespace) so that no
// function compiled for one instruction set can be merged with its twin from
// another file: only each file's fill function is visible outside it.
//
// A vector kernel works in blocks of four vectors (so loads of the next
// block overlap the arithmetic of this one), then single vectors, then
// finishes the last few elements with the same operation on scalars. The
// vectors are GCC vector extensions: the compiler picks the instructions for
// the file's instruction set (16-byte vectors are SSE2 on x86-64, NEON on
// AArch64, plain scalar code on a target without SIMD), and the scalar tail
// and the vector body use the same expressions, so every path gives
// bit-identical results (element-wise operations, no reassociation;
// -ffp-contract=off keeps a*b+c unfused).
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "primitives/reduce_table.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#if !defined(HMPI_REDUCE_NS) || !defined(HMPI_REDUCE_VECTOR_BYTES)
#error "define HMPI_REDUCE_NS and HMPI_REDUCE_VECTOR_BYTES before including reduce_kernels.hpp"
#endif

namespace hmpi::prim::HMPI_REDUCE_NS {
namespace {

// ---- element-wise operations: s() on scalars, v() on vectors ----

// Integer sums and products run on the unsigned twin of the type: the bits
// are those of two's-complement wrap-around, without signed overflow.
// Types narrower than int are widened to unsigned first, because they would
// otherwise be promoted to (signed) int, where 65535 * 65535 overflows.
template <class X>
inline X widen_mul(X a, X b) {
    if constexpr (std::is_integral_v<X> && sizeof(X) < sizeof(unsigned))
        return static_cast<X>(static_cast<unsigned>(a) * static_cast<unsigned>(b));
    else
        return static_cast<X>(a * b);
}
template <class X>
inline X widen_add(X a, X b) {
    if constexpr (std::is_integral_v<X> && sizeof(X) < sizeof(unsigned))
        return static_cast<X>(static_cast<unsigned>(a) + static_cast<unsigned>(b));
    else
        return static_cast<X>(a + b);
}

struct Sum {
    template <class X> static X s(X a, X b) { return widen_add(a, b); }
    template <class V> static V v(V a, V b) { return a + b; }
};
struct Prod {
    template <class X> static X s(X a, X b) { return widen_mul(a, b); }
    template <class V> static V v(V a, V b) { return a * b; }
};
// min(in, inout) = in < inout ? in : inout, the semantics of the x86
// min instructions, so the vector and scalar paths agree even on NaN and
// on -0.0 versus +0.0 (which MPI leaves unspecified).
struct Min {
    template <class X> static X s(X a, X b) { return a < b ? a : b; }
    template <class V> static V v(V a, V b) { return a < b ? a : b; }
};
struct Max {
    template <class X> static X s(X a, X b) { return a > b ? a : b; }
    template <class V> static V v(V a, V b) { return a > b ? a : b; }
};
struct Band {
    template <class X> static X s(X a, X b) { return static_cast<X>(a & b); }
    template <class V> static V v(V a, V b) { return a & b; }
};
struct Bor {
    template <class X> static X s(X a, X b) { return static_cast<X>(a | b); }
    template <class V> static V v(V a, V b) { return a | b; }
};
struct Bxor {
    template <class X> static X s(X a, X b) { return static_cast<X>(a ^ b); }
    template <class V> static V v(V a, V b) { return a ^ b; }
};
// Logical operations: any non-zero value is true; the result is 1 or 0.
// A vector comparison yields a mask of -1/0 lanes; "& 1" turns it into 1/0
// and the cast reinterprets those lanes as the element type.
struct Land {
    template <class X> static X s(X a, X b) { return static_cast<X>((a != 0) & (b != 0)); }
    template <class V> static V v(V a, V b) {
        const V zero{};
        return (V)(((a != zero) & (b != zero)) & 1);
    }
};
struct Lor {
    template <class X> static X s(X a, X b) { return static_cast<X>((a != 0) | (b != 0)); }
    template <class V> static V v(V a, V b) {
        const V zero{};
        return (V)(((a != zero) | (b != zero)) & 1);
    }
};
struct Lxor {
    template <class X> static X s(X a, X b) { return static_cast<X>((a != 0) ^ (b != 0)); }
    template <class V> static V v(V a, V b) {
        const V zero{};
        return (V)(((a != zero) ^ (b != zero)) & 1);
    }
};

#if HMPI_REDUCE_VECTOR_BYTES > 0
template <class T>
struct VectorOf {
    typedef T type __attribute__((vector_size(HMPI_REDUCE_VECTOR_BYTES)));
};

template <class V>
inline V load(const void* p) {
    V v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}
template <class V>
inline void store(void* p, V v) {
    __builtin_memcpy(p, &v, sizeof v);
}
#endif

// out[i] = Op(in[i], in2[i]) for i in [0, n). `out` overlaps neither input,
// or is `in2` (or `in`) exactly: every element is loaded from both inputs
// before its result is stored, so an exact alias reads the old values.
template <class T, class Op>
void kernel3(const void* in_, const void* in2_, void* out_, std::size_t n) {
    const T* in = static_cast<const T*>(in_);
    const T* in2 = static_cast<const T*>(in2_);
    T* out = static_cast<T*>(out_);
    std::size_t i = 0;
#if HMPI_REDUCE_VECTOR_BYTES > 0
    // Vectors of the standard integer types, float and double; the wide
    // and extended kinds (long double, __int128, _Float16, __float128, the
    // structs) take the scalar loop.
    if constexpr ((std::is_integral_v<T> && sizeof(T) <= 8) || std::is_same_v<T, float> || std::is_same_v<T, double>) {
        using V = typename VectorOf<T>::type;
        constexpr std::size_t lanes = sizeof(V) / sizeof(T);
        for (; i + 4 * lanes <= n; i += 4 * lanes) {
            V a0 = load<V>(in + i), a1 = load<V>(in + i + lanes);
            V a2 = load<V>(in + i + 2 * lanes), a3 = load<V>(in + i + 3 * lanes);
            V b0 = load<V>(in2 + i), b1 = load<V>(in2 + i + lanes);
            V b2 = load<V>(in2 + i + 2 * lanes), b3 = load<V>(in2 + i + 3 * lanes);
            store(out + i, Op::v(a0, b0));
            store(out + i + lanes, Op::v(a1, b1));
            store(out + i + 2 * lanes, Op::v(a2, b2));
            store(out + i + 3 * lanes, Op::v(a3, b3));
        }
        for (; i + lanes <= n; i += lanes) store(out + i, Op::v(load<V>(in + i), load<V>(in2 + i)));
    }
#endif
    for (; i < n; ++i) out[i] = Op::s(in[i], in2[i]);
}

#if HMPI_REDUCE_VECTOR_BYTES > 0
// A vector stored past the caches (x86-64: the file's widest streaming
// store; `p` aligned to the vector) or, elsewhere, an ordinary store.
template <class V>
inline void stream_store(void* p, V v) {
#if defined(__x86_64__) && HMPI_REDUCE_VECTOR_BYTES == 64
    _mm512_stream_si512(static_cast<__m512i*>(p), reinterpret_cast<__m512i&>(v));
#elif defined(__x86_64__) && HMPI_REDUCE_VECTOR_BYTES == 32
    _mm256_stream_si256(static_cast<__m256i*>(p), reinterpret_cast<__m256i&>(v));
#elif defined(__x86_64__) && HMPI_REDUCE_VECTOR_BYTES == 16
    _mm_stream_si128(static_cast<__m128i*>(p), reinterpret_cast<__m128i&>(v));
#else
    store(p, v);
#endif
}
#endif

// out_j[i] = Op(in[i], in2[i]) for every output j (Reduce3StreamKernel):
// each result computed once and stored into all outputs right away, so the
// loads of the inputs and the outputs' streaming stores overlap (a fold
// into one buffer followed by streaming copies of it stops the loads while
// each copy's stores drain: 12-15% slower at 16 MiB on the 2-core EPYC
// guest, docs/performance-collectives.md "stop 44"). Elements before the
// first output's vector boundary, and all of them when the outputs are not
// aligned alike, take plain scalar stores.
template <class T, class Op>
void kernel3_stream(const void* in_, const void* in2_, void* const* outs, int nouts, std::size_t n) {
    const T* in = static_cast<const T*>(in_);
    const T* in2 = static_cast<const T*>(in2_);
    std::size_t i = 0;
    auto scalar_to = [&](std::size_t end) {
        for (; i < end; ++i) {
            const T r = Op::s(in[i], in2[i]);
            for (int j = 0; j < nouts; ++j) static_cast<T*>(outs[j])[i] = r;
        }
    };
#if HMPI_REDUCE_VECTOR_BYTES > 0
    if constexpr ((std::is_integral_v<T> && sizeof(T) <= 8) || std::is_same_v<T, float> || std::is_same_v<T, double>) {
        using V = typename VectorOf<T>::type;
        constexpr std::size_t lanes = sizeof(V) / sizeof(T);
        const auto misalign = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % sizeof(V); };
        bool alike = nouts > 0 && misalign(outs[0]) % sizeof(T) == 0;
        for (int j = 1; j < nouts && alike; ++j) alike = misalign(outs[j]) == misalign(outs[0]);
        if (alike) {
            const std::size_t head = (sizeof(V) - misalign(outs[0])) % sizeof(V) / sizeof(T);
            scalar_to(head < n ? head : n);
            for (; i + 4 * lanes <= n; i += 4 * lanes) {
                const V r0 = Op::v(load<V>(in + i), load<V>(in2 + i));
                const V r1 = Op::v(load<V>(in + i + lanes), load<V>(in2 + i + lanes));
                const V r2 = Op::v(load<V>(in + i + 2 * lanes), load<V>(in2 + i + 2 * lanes));
                const V r3 = Op::v(load<V>(in + i + 3 * lanes), load<V>(in2 + i + 3 * lanes));
                for (int j = 0; j < nouts; ++j) {
                    T* o = static_cast<T*>(outs[j]) + i;
                    stream_store(o, r0);
                    stream_store(o + lanes, r1);
                    stream_store(o + 2 * lanes, r2);
                    stream_store(o + 3 * lanes, r3);
                }
            }
            for (; i + lanes <= n; i += lanes) {
                const V r = Op::v(load<V>(in + i), load<V>(in2 + i));
                for (int j = 0; j < nouts; ++j) stream_store(static_cast<T*>(outs[j]) + i, r);
            }
        }
    }
#endif
    scalar_to(n);
}

// inout[i] = Op(in[i], inout[i]) for i in [0, n): the three-operand kernel
// with out = inout (one body, so both forms give the same bits).
template <class T, class Op>
void kernel(const void* in, void* inout, std::size_t n) {
    kernel3<T, Op>(in, inout, inout, n);
}

// A complex sum is the sum of the 2n floating-point numbers it is made of.
template <class F>
void complex_sum3(const void* in, const void* in2, void* out, std::size_t n) {
    kernel3<F, Sum>(in, in2, out, 2 * n);
}
template <class F>
void complex_sum(const void* in, void* inout, std::size_t n) {
    complex_sum3<F>(in, inout, inout, n);
}
template <class F>
void complex_sum3_stream(const void* in, const void* in2, void* const* outs, int nouts, std::size_t n) {
    kernel3_stream<F, Sum>(in, in2, outs, nouts, 2 * n);
}

inline void set(KernelTable& t, ReduceOp op, Elem e, ReduceKernel k, Reduce3Kernel k3, Reduce3StreamKernel k3s) {
    t.fn[static_cast<std::size_t>(op)][static_cast<std::size_t>(e)] = k;
    t.fn3[static_cast<std::size_t>(op)][static_cast<std::size_t>(e)] = k3;
    t.fn3s[static_cast<std::size_t>(op)][static_cast<std::size_t>(e)] = k3s;
}

// Every form of the kernel of Op on arrays of T.
template <class T, class Op>
void set(KernelTable& t, ReduceOp op, Elem e) {
    set(t, op, e, &kernel<T, Op>, &kernel3<T, Op>, &kernel3_stream<T, Op>);
}

// Every operation on an integer kind: T as declared (for comparisons) and U,
// its unsigned twin (for arithmetic and bits).
template <class T, class U>
void add_integer(KernelTable& t, Elem e) {
    set<U, Sum>(t, ReduceOp::sum, e);
    set<U, Prod>(t, ReduceOp::prod, e);
    set<T, Min>(t, ReduceOp::min, e);
    set<T, Max>(t, ReduceOp::max, e);
    set<U, Band>(t, ReduceOp::band, e);
    set<U, Bor>(t, ReduceOp::bor, e);
    set<U, Bxor>(t, ReduceOp::bxor, e);
    set<U, Land>(t, ReduceOp::land, e);
    set<U, Lor>(t, ReduceOp::lor, e);
    set<U, Lxor>(t, ReduceOp::lxor, e);
}

template <class F>
void add_floating(KernelTable& t, Elem e) {
    set<F, Sum>(t, ReduceOp::sum, e);
    set<F, Prod>(t, ReduceOp::prod, e);
    set<F, Min>(t, ReduceOp::min, e);
    set<F, Max>(t, ReduceOp::max, e);
}

// The kinds every instruction set has its own kernels for: fixed-width
// integers, float and double, and the sums of complex float and double.
void add_common(KernelTable& t) {
    add_integer<std::int8_t, std::uint8_t>(t, Elem::i8);
    add_integer<std::uint8_t, std::uint8_t>(t, Elem::u8);
    add_integer<std::int16_t, std::uint16_t>(t, Elem::i16);
    add_integer<std::uint16_t, std::uint16_t>(t, Elem::u16);
    add_integer<std::int32_t, std::uint32_t>(t, Elem::i32);
    add_integer<std::uint32_t, std::uint32_t>(t, Elem::u32);
    add_integer<std::int64_t, std::uint64_t>(t, Elem::i64);
    add_integer<std::uint64_t, std::uint64_t>(t, Elem::u64);
    add_floating<float>(t, Elem::f32);
    add_floating<double>(t, Elem::f64);
    set(t, ReduceOp::sum, Elem::c32, &complex_sum<float>, &complex_sum3<float>, &complex_sum3_stream<float>);
    set(t, ReduceOp::sum, Elem::c64, &complex_sum<double>, &complex_sum3<double>, &complex_sum3_stream<double>);
}

}  // namespace
}  // namespace hmpi::prim::HMPI_REDUCE_NS
