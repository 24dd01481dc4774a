/* MPI_ERRORS_ABORT (MPI-4) ends the job like MPI_ERRORS_ARE_FATAL: rank 2 sets it on
 * MPI_COMM_WORLD and sends with tag -5. The job must fail, and the output must name rank 2,
 * MPI_Send, MPI_ERR_TAG and the value -5. The other ranks wait for a message that never comes.
 * Registered from tests/mpi/attrs.cmake (area "attributes and errors"). */
#include <mpi.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, x = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 2) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ABORT);
        MPI_Send(&x, 1, MPI_INT, 0, -5, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
