/*
 * loop_bench.c - back-to-back small collectives (standard MPI C11).
 *
 * coll_bench.c times each call after an MPI_Barrier; this program times
 * N calls in a row with nothing between them, the pattern of an iterative
 * solver's convergence test. What it shows that coll_bench cannot: the
 * per-call cost of a runtime's bookkeeping between calls (sequence
 * numbers, slot reuse, reading what peers published in earlier calls),
 * which a barrier before every call partly hides.
 *
 * Per repetition: MPI_Barrier, then N calls timed with MPI_Wtime on every
 * rank; per-call time = elapsed / N, averaged over ranks (MPI_Reduce,
 * outside the timing); reported: the median over the repetitions, one CSV
 * line per collective:
 *     impl,collective,bytes,ranks,median_ns,min_ns
 * Collectives: barrier; allreduce, bcast and reduce of one double
 * (MPI_SUM), the root of bcast and reduce rotating per call (call i's root
 * is i mod size). The input is rewritten (incremented) before every call.
 *
 * usage: loop_bench [-n CALLS] [-r REPS] [--impl NAME]
 * No global or static mutable state (safe under a thread-based MPI).
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxReps = 101 };

static int cmp_double(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* Runs `calls` calls of collective `which`; returns this rank's ns per call. */
static double timed_loop(int which, int calls, int size, double* value) {
    double out = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int i = 0; i < calls; ++i) {
        *value += 1.0;
        switch (which) {
            case 0: MPI_Barrier(MPI_COMM_WORLD); break;
            case 1: MPI_Allreduce(value, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
            case 2: MPI_Bcast(value, 1, MPI_DOUBLE, i % size, MPI_COMM_WORLD); break;
            default: MPI_Reduce(value, &out, 1, MPI_DOUBLE, MPI_SUM, i % size, MPI_COMM_WORLD); break;
        }
    }
    const double ns = (MPI_Wtime() - t0) / calls * 1e9;
    *value += out * 0.0; /* keep the result used */
    return ns;
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int calls = 100000, reps = 7;
    char impl[64] = "mpi";
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) calls = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--impl") && i + 1 < argc) snprintf(impl, sizeof impl, "%s", argv[++i]);
        else {
            if (rank == 0) fprintf(stderr, "usage: loop_bench [-n CALLS] [-r REPS] [--impl NAME]\n");
            MPI_Finalize();
            return 2;
        }
    }
    if (calls < 1) calls = 1;
    if (reps < 1) reps = 1;
    if (reps > kMaxReps) reps = kMaxReps;
    static const char* const names[] = {"barrier", "allreduce", "bcast", "reduce"};
    double value = rank;
    for (int which = 0; which < 4; ++which) {
        double mean[kMaxReps];
        timed_loop(which, calls / 10 + 1, size, &value); /* warm-up */
        for (int r = 0; r < reps; ++r) {
            double ns = timed_loop(which, calls, size, &value), sum = 0;
            MPI_Reduce(&ns, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
            mean[r] = sum / size;
        }
        if (rank == 0) {
            qsort(mean, (size_t)reps, sizeof mean[0], cmp_double);
            printf("%s,%s,%d,%d,%.1f,%.1f\n", impl, names[which], which == 0 ? 0 : (int)sizeof(double), size,
                   mean[reps / 2], mean[0]);
        }
    }
    MPI_Finalize();
    return 0;
}
