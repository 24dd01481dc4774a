// The reduction kernels compiled for AVX-512 (512-bit vectors; F for the
// arithmetic, BW for 8- and 16-bit lanes, DQ for 64-bit products, VL for the
// narrower forms the compiler may mix in): the same kinds as the AVX2 file.
// Compiled with -mavx512f -mavx512bw -mavx512dq -mavx512vl
// (CMakeLists.txt); reduce.cpp calls fill_kernels only on a CPU that has
// all four.
#define HMPI_REDUCE_NS avx512
#define HMPI_REDUCE_VECTOR_BYTES 64
#include "primitives/reduce_kernels.hpp"

namespace hmpi::prim::avx512 {

void fill_kernels(KernelTable& t) { add_common(t); }

}  // namespace hmpi::prim::avx512
