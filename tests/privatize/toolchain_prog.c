/*
 * The program the build-system tests (cmake-project.sh, autoconf.sh) build with the wrappers
 * through CMake's FindMPI or a configure script: a plain MPI program whose global must be per
 * rank. Each rank stores its rank in the global, synchronizes, and checks it still sees it.
 * Also compiled as C++ (toolchain_prog.cpp includes it). Standard MPI, point-to-point only.
 */
#include <mpi.h>
#include <stdio.h>

#include "../mpi/mpitest.h"

int per_rank_value = -1;

int main(int argc, char **argv) {
    mt_init(&argc, &argv);
    int rank = mt_rank();
    MT_CHECK(per_rank_value == -1, "rank %d: initial value %d, expected -1", rank, per_rank_value);
    per_rank_value = rank;
    mt_barrier(MPI_COMM_WORLD);
    MT_CHECK(per_rank_value == rank, "rank %d: the global is %d after the others wrote theirs: not privatized",
             rank, per_rank_value);
    return mt_finalize();
}
