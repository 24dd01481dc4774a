/* Rank 2 calls MPI_Abort(MPI_COMM_WORLD, 7): the job must exit with status 7, and the output
 * must name rank 2 and MPI_Abort. The other ranks wait for a message from rank 2 that never
 * comes, so only the abort can end the job. */
#include <mpi.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 2) {
        MPI_Abort(MPI_COMM_WORLD, 7);
    } else {
        int x;
        MPI_Recv(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
