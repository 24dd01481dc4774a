/* Rank 1 returns 3 from main after a clean MPI_Finalize; the others return 0. The job must exit
 * with status 3 and report "rank 1 exited with status 3". */
#include <mpi.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Finalize();
    return rank == 1 ? 3 : 0;
}
