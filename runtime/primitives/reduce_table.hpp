// The vocabulary of the reduction kernels: which operation, on which kind of
// element, and the table of kernel functions for one instruction set.
//
// This header holds only enums, a typedef and a plain struct, no function
// bodies, because it is included by the files compiled with AVX2/AVX-512
// flags: an inline function defined here would be emitted once per
// instruction set, and the linker could hand the AVX-512 copy to code that
// runs on a CPU without it.
#pragma once
#include <cstddef>
#include <cstdint>

namespace hmpi::prim {

// One kernel computes inout[i] = in[i] (op) inout[i] for i in [0, n), on n
// elements laid out as a C array of the element's type. `in` and `inout`
// are either the same pointer or do not overlap.
using ReduceKernel = void (*)(const void* in, void* inout, std::size_t n);

// The three-operand form: out[i] = in[i] (op) in2[i] for i in [0, n), the
// result written to a third buffer (a reduction that would otherwise copy
// in2 into out first saves that pass). `out` is either a buffer that
// overlaps neither input or exactly `in2` (then it is the two-operand
// kernel: each ReduceKernel is this code with out = inout); `in` and `in2`
// may be the same pointer. Partial overlaps are not allowed.
using Reduce3Kernel = void (*)(const void* in, const void* in2, void* out, std::size_t n);

// out_j[i] = in[i] (op) in2[i] for every j < nouts: one result, stored into
// several buffers as it is computed, with non-temporal stores where the
// kind has vectors and the outputs are aligned alike (plain stores
// otherwise). Outputs overlap neither input nor each other. No store fence:
// the caller's (store_fence, primitives/copy.hpp) before anyone reads them.
using Reduce3StreamKernel = void (*)(const void* in, const void* in2, void* const* outs, int nouts, std::size_t n);

// The operations that have kernels. MPI_REPLACE and MPI_NO_OP need none
// (a copy and nothing): the core handles them without the table.
enum class ReduceOp : std::uint8_t {
    sum,
    prod,
    min,
    max,
    band,
    bor,
    bxor,
    land,  // logical results are 1 or 0; any non-zero input is true
    lor,
    lxor,
    minloc,  // on the (value, index) pair kinds only
    maxloc,
    count_  // number of operations
};
inline constexpr std::size_t kReduceOps = static_cast<std::size_t>(ReduceOp::count_);

// Element kinds, named after their C layout. Which MPI datatype maps to
// which kind, and which (operation, datatype) pairs MPI allows, is the
// core's business (runtime/core/op.cpp); the table has a kernel for every
// pair that makes sense on the C type.
enum class Elem : std::uint8_t {
    i8, u8, i16, u16, i32, u32, i64, u64,
    i128,                  // __int128 (MPI_INTEGER16, MPI_LOGICAL16)
    f16,                   // _Float16 (MPI_REAL2)
    f32, f64,
    f80,                   // long double, x87 80-bit on x86-64 (MPI_LONG_DOUBLE)
    f128,                  // __float128 (MPI_REAL16)
    c16, c32, c64, c80, c128,  // complex: {re, im} of the floating kind of half the size
    // (value, index) pairs for MINLOC/MAXLOC, as the C struct {V v; I i;}
    float_int, double_int, long_int, int_int, short_int, long_double_int,
    float_float,           // MPI_2REAL
    double_double,         // MPI_2DOUBLE_PRECISION
    count_
};
inline constexpr std::size_t kElems = static_cast<std::size_t>(Elem::count_);

// Instruction sets with their own kernels, in increasing order of width.
// `portable` needs only the baseline of the target (16-byte vectors).
enum class Isa : std::uint8_t { portable, avx2, avx512, count_ };
inline constexpr std::size_t kIsas = static_cast<std::size_t>(Isa::count_);

// Kernels of one instruction set; a null entry means "no such kernel".
// fn3[op][e] is non-null exactly where fn[op][e] is, and computes the same
// values bit for bit.
struct KernelTable {
    ReduceKernel fn[kReduceOps][kElems];
    Reduce3Kernel fn3[kReduceOps][kElems];
    Reduce3StreamKernel fn3s[kReduceOps][kElems];
};

// Each instruction set's file fills in the kernels it has (reduce_portable.cpp
// has one for every kind; the AVX files override the kinds they vectorize).
namespace portable { void fill_kernels(KernelTable& t); }
namespace avx2 { void fill_kernels(KernelTable& t); }
namespace avx512 { void fill_kernels(KernelTable& t); }

}  // namespace hmpi::prim
