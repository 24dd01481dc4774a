// Reduction kernels: inout[i] = in[i] (op) inout[i], and the three-operand
// out[i] = in[i] (op) in2[i], on C arrays of one element kind, one function
// per (operation, kind), compiled for the portable baseline, AVX2 and
// AVX-512, and chosen once for the CPU.
//
// The layer knows nothing of MPI handles, datatypes or ranks: the core
// (runtime/core/op.cpp) maps an MPI (op, datatype) pair to a ReduceOp and an
// Elem, decides whether MPI allows the pair, and calls the kernel.
#pragma once
#include <cstddef>

#include "primitives/reduce_table.hpp"

namespace hmpi::prim {

// Whether this CPU (and its OS, which must save the vector registers) runs
// `isa`'s kernels. AVX-512 means F, BW, DQ and VL together.
bool isa_supported(Isa isa) noexcept;
// The widest supported instruction set.
Isa best_isa() noexcept;
const char* isa_name(Isa isa) noexcept;

// The kernels of one instruction set, or nullptr when the CPU lacks it
// (for tests and benchmarks that compare the paths).
const KernelTable* kernels_for(Isa isa) noexcept;

// The instruction set the runtime uses: best_isa(), unless HMPI_REDUCE_ISA
// names another (a fatal error if the CPU lacks it). Chosen at first use.
Isa active_isa() noexcept;
const KernelTable& active_kernels() noexcept;

// The runtime's kernel for (op, e), or nullptr if there is none.
inline ReduceKernel reduce_kernel(ReduceOp op, Elem e) noexcept {
    return active_kernels().fn[static_cast<std::size_t>(op)][static_cast<std::size_t>(e)];
}

// The runtime's three-operand kernel for (op, e): out = in (op) in2, out
// separate from both inputs or equal to in2; nullptr if there is none.
inline Reduce3Kernel reduce3_kernel(ReduceOp op, Elem e) noexcept {
    return active_kernels().fn3[static_cast<std::size_t>(op)][static_cast<std::size_t>(e)];
}

// Its streaming form (Reduce3StreamKernel): one result into several
// outputs, non-temporal where it can; nullptr if there is none.
inline Reduce3StreamKernel reduce3_stream_kernel(ReduceOp op, Elem e) noexcept {
    return active_kernels().fn3s[static_cast<std::size_t>(op)][static_cast<std::size_t>(e)];
}
// Bytes of one element of kind e (its C type's sizeof, padding included).
std::size_t elem_size(Elem e) noexcept;
const char* elem_name(Elem e) noexcept;

}  // namespace hmpi::prim
