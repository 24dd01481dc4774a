/*
 * entry_skew.c - how far apart the ranks start a collective that the
 * benchmark (coll_bench.c) times right after an MPI_Barrier, and what that
 * does to the per-rank times it reports.
 *
 * The loop is coll_bench's: rewrite the send buffer, MPI_Barrier, time the
 * call alone. A barrier does not release its ranks at one instant: the rank
 * that arrives last can leave at once, the others when they see it, a flag
 * handoff later. Which rank arrives last depends on the previous call: the
 * rank that finished it last (a root waiting for acknowledgements). So a
 * barrier-timed call has a systematic entry skew, and its per-rank times
 * depend on whether a rank's first wait is on a rank that started earlier or
 * later than itself.
 *
 * Every rank stamps its call's start and end with CLOCK_MONOTONIC (one clock
 * for the threads of one process and for the processes of one node, so this
 * measures HMPI, Open MPI and MPICH alike on a single node) and rank 0
 * reports, per rank: the mean call time, the median of its start's offset
 * from the iteration's earliest start, and how often it started first.
 * With --delay R:D (several allowed), rank R spins D ns after the barrier
 * before it starts its clock: the start it would have with that much more
 * skew (its own time excludes the spin).
 *
 * Standard MPI C11, any mpicc:
 *   hmpirun -np 2 build/bench/entry_skew -c allreduce -m 64 --delay 0:0 --delay 0:200
 *   mpirun.openmpi --bind-to core -np 2 ./entry_skew-ompi -c allreduce -m 64
 * CSV on stdout:
 *   collective,bytes,delay_rank,delay_ns,rank,call_us,start_offset_ns,first_share,mean_over_ranks_us
 * Each call's first element is checked (untimed); the exit status is 1 if
 * any was wrong.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench_common.h"

enum coll { C_ALLREDUCE, C_REDUCE, C_BCAST, C_BARRIER, C_SCATTER, C_GATHER };

static double now_ns(void)
{
    return 1e9 * now();
}

static int call(enum coll c, double *send, double *recv, int n, int root)
{
    switch (c) {
    case C_ALLREDUCE: return MPI_Allreduce(send, recv, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    case C_REDUCE: return MPI_Reduce(send, recv, n, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
    case C_BCAST: return MPI_Bcast(send, n, MPI_DOUBLE, root, MPI_COMM_WORLD);
    case C_SCATTER: return MPI_Scatter(send, n, MPI_DOUBLE, recv, n, MPI_DOUBLE, root, MPI_COMM_WORLD);
    case C_GATHER: return MPI_Gather(send, n, MPI_DOUBLE, recv, n, MPI_DOUBLE, root, MPI_COMM_WORLD);
    default: return MPI_Barrier(MPI_COMM_WORLD);
    }
}

/* One setting: `iters` timed calls (after `iters / 10` untimed); rank 0
 * prints a row per rank. */
static void run(enum coll c, const char *name, int bytes, int iters, int delay_rank, double delay_ns, int rank,
                int size, long *wrong)
{
    const int n = bytes / (int)sizeof(double) > 0 ? bytes / (int)sizeof(double) : 1;
    /* Scatter's send and Gather's receive buffers hold a block per rank. */
    const int sent = c == C_SCATTER ? n * size : n;
    double *send = malloc((size_t)n * size * sizeof *send), *recv = malloc((size_t)n * size * sizeof *recv);
    double *stamps = malloc(2 * (size_t)iters * sizeof *stamps);
    double *all = rank == 0 ? malloc(2 * (size_t)iters * (size_t)size * sizeof *all) : NULL;
    const int warm = iters / 10;
    for (int it = -warm; it < iters; it++) {
        for (int i = 0; i < sent; i++)
            send[i] = (double)(it + i + rank);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == delay_rank) {
            const double until = now_ns() + delay_ns;
            while (now_ns() < until)
                ;
        }
        const int root = (it + warm) % size;
        const double t0 = now_ns();
        call(c, send, recv, n, root);
        const double t1 = now_ns();
        if (it >= 0)
            stamps[2 * it] = t0, stamps[2 * it + 1] = t1;
        /* The first element's value, untimed: a wrong result is no measurement. */
        double want = (double)size * it + size * (size - 1) / 2.0, got = recv[0];  /* the reductions */
        if (c == C_BCAST)
            want = (double)(it + root), got = send[0];
        else if (c == C_SCATTER)
            want = (double)(it + rank * n + root);
        else if (c == C_GATHER)
            want = (double)it;
        const int receives = c == C_REDUCE || c == C_GATHER ? rank == root : c != C_BARRIER;
        if (receives && got != want)
            ++*wrong;
    }
    MPI_Gather(stamps, 2 * iters, MPI_DOUBLE, all, 2 * iters, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        double *offset = malloc((size_t)iters * sizeof *offset), mean_all = 0;
        double *call_us = malloc((size_t)size * sizeof *call_us);
        for (int r = 0; r < size; r++) {
            double sum = 0;
            for (int it = 0; it < iters; it++)
                sum += all[(size_t)r * 2 * iters + 2 * it + 1] - all[(size_t)r * 2 * iters + 2 * it];
            call_us[r] = sum / iters / 1e3;
            mean_all += call_us[r] / size;
        }
        for (int r = 0; r < size; r++) {
            int first = 0;
            for (int it = 0; it < iters; it++) {
                double earliest = all[2 * it];
                int who = 0;
                for (int o = 1; o < size; o++)
                    if (all[(size_t)o * 2 * iters + 2 * it] < earliest)
                        earliest = all[(size_t)o * 2 * iters + 2 * it], who = o;
                offset[it] = all[(size_t)r * 2 * iters + 2 * it] - earliest;
                first += who == r;
            }
            printf("%s,%d,%d,%.0f,%d,%.3f,%.0f,%.3f,%.3f\n", name, bytes, delay_rank, delay_ns, r, call_us[r],
                   median(offset, iters), (double)first / iters, mean_all);
        }
        fflush(stdout);
        free(offset);
        free(call_us);
    }
    free(send);
    free(recv);
    free(stamps);
    free(all);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *name = "allreduce";
    int bytes = 8, iters = 100000, ndelay = 0, delay_rank[16];
    double delay_ns[16];
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "-c") && v) name = v, i++;
        else if (!strcmp(argv[i], "-m") && v) bytes = atoi(v), i++;
        else if (!strcmp(argv[i], "-n") && v) iters = atoi(v), i++;
        else if (!strcmp(argv[i], "--delay") && v && ndelay < 16 && sscanf(v, "%d:%lf", &delay_rank[ndelay],
                                                                           &delay_ns[ndelay]) == 2)
            ndelay++, i++;
        else {
            if (rank == 0)
                fprintf(stderr, "usage: %s [-c allreduce|reduce|bcast|barrier|scatter|gather] [-m BYTES] [-n CALLS] "
                                "[--delay RANK:NS]...\n", argv[0]);
            MPI_Finalize();
            return 2;
        }
    }
    enum coll c = !strcmp(name, "reduce") ? C_REDUCE : !strcmp(name, "bcast") ? C_BCAST
                  : !strcmp(name, "barrier") ? C_BARRIER : !strcmp(name, "scatter") ? C_SCATTER
                  : !strcmp(name, "gather") ? C_GATHER : C_ALLREDUCE;
    if (c == C_ALLREDUCE && strcmp(name, "allreduce")) {
        if (rank == 0)
            fprintf(stderr, "entry_skew: unknown collective '%s'\n", name);
        MPI_Finalize();
        return 2;
    }
    if (iters < 10)
        iters = 10;
    if (rank == 0)
        printf("collective,bytes,delay_rank,delay_ns,rank,call_us,start_offset_ns,first_share,mean_over_ranks_us\n");
    long wrong = 0, all_wrong = 0;
    if (ndelay == 0)
        run(c, name, bytes, iters, -1, 0, rank, size, &wrong);
    for (int d = 0; d < ndelay; d++)
        run(c, name, bytes, iters, delay_rank[d] < size ? delay_rank[d] : -1, delay_ns[d], rank, size, &wrong);
    MPI_Reduce(&wrong, &all_wrong, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && all_wrong > 0)
        fprintf(stderr, "entry_skew: %ld calls gave a wrong result\n", all_wrong);
    MPI_Finalize();
    return all_wrong > 0 ? 1 : 0;
}
