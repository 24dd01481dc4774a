/*
 * hmpi-call-overhead: the fixed cost of one collective call, for the
 * model's call_overhead (docs/model.md). hmpi-calibrate runs it as
 *
 *     hmpirun -np 1 --bind-to core hmpi-call-overhead [--quick]
 *
 * and reads the one line it prints: "call_overhead_ns <ns>".
 *
 * What it times is MPI_Barrier on MPI_COMM_SELF: the whole path of a
 * collective call (API entry and argument checks, sequence number and slot,
 * algorithm selection, the algorithm's frame, release) with no other rank
 * to wait for, so nothing but the path itself. The result is the median
 * over repetitions of the mean over many calls (a repetition interrupted by
 * the machine cannot move the median).
 *
 * With more than one rank (hmpirun -np t, HMPI_BARRIER_ALGORITHM=dissemination)
 * it times MPI_Barrier on MPI_COMM_WORLD instead, every rank stepping in
 * every round, and rank 0 prints "barrier_call_ns <ns>", the time of a
 * call. hmpi-calibrate fits busy_step to it per round over t, and with
 * HMPI_BARRIER_ALGORITHM=flat poll_line to it (docs/model.md).
 *
 * Standard MPI and no mutable globals: it runs as any program under hmpirun.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e9 * (double)t.tv_sec + (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    int size = 1, rank = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const MPI_Comm comm = size > 1 ? MPI_COMM_WORLD : MPI_COMM_SELF;
    const int reps = quick ? 5 : 15;
    /* With other ranks a round costs a handoff, not just the path. */
    const int calls = (quick ? 20000 : 100000) / (size > 1 ? 10 : 1);
    double per_call[15];
    for (int i = 0; i < 1000; i++) /* warm up: frames cached, decisions made */
        MPI_Barrier(comm);
    for (int r = 0; r < reps; r++) {
        const double t0 = now_ns();
        for (int i = 0; i < calls; i++)
            MPI_Barrier(comm);
        per_call[r] = (now_ns() - t0) / calls;
    }
    qsort(per_call, (size_t)reps, sizeof per_call[0], by_value);
    if (size == 1) printf("call_overhead_ns %.1f\n", per_call[reps / 2]);
    else if (rank == 0) printf("barrier_call_ns %.1f\n", per_call[reps / 2]);
    MPI_Finalize();
    return 0;
}
