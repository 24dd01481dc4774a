/* Rank 1 sends to a rank that does not exist (size+5) under the default error handler,
 * MPI_ERRORS_ARE_FATAL: the job must fail, and the output must name rank 1, MPI_Send and
 * MPI_ERR_RANK. Rank 0 waits for a message from rank 1 that never comes. */
#include <mpi.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, x = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 1)
        MPI_Send(&x, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD);
    else if (rank == 0)
        MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
