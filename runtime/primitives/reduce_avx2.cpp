// The reduction kernels compiled for AVX2 (256-bit vectors): integers of 8
// to 64 bits, float, double, complex float and double sums. Compiled with
// -mavx2 (CMakeLists.txt); reduce.cpp calls fill_kernels only on a CPU that
// has AVX2.
#define HMPI_REDUCE_NS avx2
#define HMPI_REDUCE_VECTOR_BYTES 32
#include "primitives/reduce_kernels.hpp"

namespace hmpi::prim::avx2 {

void fill_kernels(KernelTable& t) { add_common(t); }

}  // namespace hmpi::prim::avx2
