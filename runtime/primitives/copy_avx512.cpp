// The non-temporal copy kernel for AVX-512 (64-byte vectors, one cache line
// per store): copy_kernels.hpp compiled with -mavx512f (CMakeLists.txt);
// chosen by copy.cpp on CPUs with AVX-512.
#define HMPI_COPY_NS avx512
#define HMPI_COPY_VECTOR_BYTES 64
#include "primitives/copy_kernels.hpp"
