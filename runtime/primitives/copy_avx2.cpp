// The non-temporal copy kernel for AVX2 (32-byte vectors): copy_kernels.hpp
// compiled with -mavx2 (CMakeLists.txt); chosen by copy.cpp on CPUs with AVX2.
#define HMPI_COPY_NS avx2
#define HMPI_COPY_VECTOR_BYTES 32
#include "primitives/copy_kernels.hpp"
