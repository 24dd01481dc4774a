/* exit() and returning from main end one rank only (docs/privatization.md): rank 1 calls
 * exit(3) from a nested function after MPI_Finalize; its atexit handler runs (on its own
 * globals), and the other ranks go on, return 0 and run theirs. The job's status is 3. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int my_rank = -1;
static void handler(void) { printf("atexit handler of rank %d\n", my_rank); fflush(stdout); }
static void leave(int status) { exit(status); }

int main(int argc, char **argv) {
    int size, token = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    atexit(handler);
    MPI_Finalize();
    if (my_rank == 1) leave(3);
    printf("rank %d returns from main\n", my_rank);
    (void)token;
    return 0;
}
