/* Rank 1 dereferences NULL after MPI_Init. The job must end with a non-zero status and a message
 * naming rank 1 and signal 11. The other ranks wait for a message that never comes, so it is the
 * crash, not their finishing, that ends the job. */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        /* Both volatile: the pointer, so the compiler cannot tell it is NULL and replace the store
         * with a trap instruction (SIGILL, not SIGSEGV); the int, so the store cannot be dropped
         * as dead (GCC drops it otherwise). */
        volatile int *volatile p = NULL;
        *p = 42;
    } else {
        int x;
        MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
