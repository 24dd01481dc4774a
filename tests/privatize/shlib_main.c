/*
 * Privatization test, shared libraries: the program linked against libshlib.so (shlib_lib.c,
 * built with `hmpicc -shared -fPIC`). Each rank checks the library's initial values, writes
 * rank-specific values into all of its globals, synchronizes with the others, and checks that
 * it still sees its own; the library's static-local counter counts per rank. Standard MPI,
 * point-to-point only: passes the same way under Open MPI (ranks are processes).
 */
#include <mpi.h>
#include <stdio.h>

#include "../mpi/mpitest.h"
#include "shlib.h"

int main(int argc, char **argv) {
    mt_init(&argc, &argv);
    int rank = mt_rank();
    int bad = shlib_check_initial();
    MT_CHECK(bad == 0, "rank %d: the library's initial values: check %d failed", rank, bad);
    int first = shlib_next();
    MT_CHECK(first == 100, "rank %d: the library's static local starts at %d, expected 100", rank, first);
    mt_barrier(MPI_COMM_WORLD);
    shlib_set(rank + 1);
    mt_barrier(MPI_COMM_WORLD);
    bad = shlib_check(rank + 1);
    MT_CHECK(bad == 0, "rank %d: after the others wrote theirs: check %d failed", rank, bad);
    int second = shlib_next();
    MT_CHECK(second == 101, "rank %d: the library's static local is %d, expected 101", rank, second);
    return mt_finalize();
}
