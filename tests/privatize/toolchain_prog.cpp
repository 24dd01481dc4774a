// The C++ build of toolchain_prog.c, for the CMake test's MPI::MPI_CXX (cmake-project.sh).
#include "toolchain_prog.c"
