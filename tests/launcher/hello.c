/* Built at test time with hmpicc (compile-and-run.sh): a token goes around the ring of ranks,
 * each adding its rank, which needs every rank to have entered main. Rank 0 prints "No Errors". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, errors = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    const char *np = getenv("HMPI_NP");
    if (!np || atoi(np) != size) {
        printf("rank %d: MPI_Comm_size is %d but HMPI_NP is %s\n", rank, size, np ? np : "unset");
        ++errors;
    }
    if (size > 1) {
        int token = 0;
        if (rank == 0) {
            MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(&token, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (token != size * (size - 1) / 2) {
                printf("token is %d after the ring, expected %d\n", token, size * (size - 1) / 2);
                ++errors;
            }
        } else {
            MPI_Recv(&token, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            token += rank;
            MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
        }
    }
    if (rank == 0) {
        if (errors == 0) printf("No Errors\n");
        else printf("Found %d errors\n", errors);
    }
    MPI_Finalize();
    return errors;
}
