/* Every rank's main gets the command line: run as `argv alpha "beta gamma" --delta`, each rank
 * checks argc and argv, before and after MPI_Init. Rank 0 collects the error counts and prints
 * "No Errors" if there were none. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static const char *const expected[] = {"alpha", "beta gamma", "--delta"};
enum { nexpected = sizeof expected / sizeof expected[0] };

static int check(int rank, const char *when, int argc, char **argv) {
    int errors = 0;
    if (argc != nexpected + 1) {
        printf("rank %d %s: argc is %d, expected %d\n", rank, when, argc, nexpected + 1);
        return 1;
    }
    size_t len = strlen(argv[0]);
    if (len < 4 || strcmp(argv[0] + len - 4, "argv") != 0) {
        printf("rank %d %s: argv[0] is '%s', expected a path ending in 'argv'\n", rank, when, argv[0]);
        ++errors;
    }
    for (int i = 0; i < nexpected; ++i) {
        if (strcmp(argv[i + 1], expected[i]) != 0) {
            printf("rank %d %s: argv[%d] is '%s', expected '%s'\n", rank, when, i + 1, argv[i + 1], expected[i]);
            ++errors;
        }
    }
    if (argv[argc] != NULL) {
        printf("rank %d %s: argv[argc] is not NULL\n", rank, when);
        ++errors;
    }
    return errors;
}

int main(int argc, char **argv) {
    int errors = check(-1, "before MPI_Init", argc, argv);
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    errors += check(rank, "after MPI_Init", argc, argv);

    if (rank != 0) {
        MPI_Send(&errors, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else {
        for (int r = 1; r < size; ++r) {
            int e;
            MPI_Recv(&e, 1, MPI_INT, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            errors += e;
        }
        if (errors == 0) printf("No Errors\n");
        else printf("Found %d errors\n", errors);
    }
    MPI_Finalize();
    return 0;
}
