/*
 * pack.c - the speed of MPI_Pack on strided doubles against a hand-written
 * C loop doing the same gather, in one process (standard MPI C11: build it
 * with any MPI's mpicc and run it on one rank; other ranks do nothing).
 *
 * Two layouts of N = SIZE / 8 doubles, SIZE being the packed size:
 *   bl1: MPI_Type_vector(N, 1, 2, MPI_DOUBLE)     every other double
 *   bl4: MPI_Type_vector(N/4, 4, 8, MPI_DOUBLE)   blocks of 4 doubles, 8 apart
 * and for each the hand loop
 *   bl1: for (i < N) out[i] = src[2 * i];
 *   bl4: for (b < N/4) { out[4b] = src[8b]; ... out[4b+3] = src[8b+3]; }
 *
 * Methodology (as in reduce_local.c / memcpy_bw.c):
 *  - Sizes 1 KiB .. 64 MiB of packed data, doubling.
 *  - Before every timed call the source is rewritten, one byte per 64-byte
 *    line, outside the timed window: every line is freshly written, as right
 *    after the application produced it.
 *  - Calls packing less than 16 KiB are batched: one timed bracket covers B
 *    = 16 KiB / SIZE calls on B distinct source buffers (all rewritten before
 *    the bracket); the calibrated cost of one bracket is subtracted.
 *  - Per size: warm-up, then REPS blocks; in each block the four variants
 *    (loop bl1, MPI_Pack bl1, loop bl4, MPI_Pack bl4) run K calls each (K
 *    chosen so one variant's block takes about BLOCK_MS), interleaved so
 *    machine noise hits all alike. Reported: the median over blocks of the
 *    time per call and SIZE / median in GB/s (1 GB = 1e9 bytes of packed
 *    data; the source spans twice that).
 *  - The packed bytes of MPI_Pack are compared with the hand loop's once per
 *    size and layout.
 *
 * usage: pack [-s MIN_SIZE] [-m MAX_SIZE] [-r REPS] [-t BLOCK_MS] [-c]
 * Output: a table, or with -c CSV columns
 *   size,loop1_us,pack1_us,loop4_us,pack4_us,loop1_GBps,pack1_GBps,loop4_GBps,pack4_GBps
 * The program keeps no mutable global state (ranks may be threads).
 */
#define _POSIX_C_SOURCE 200809L

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

#define BATCH_BYTES 16384
#define VARIANTS 4

struct setup {
    size_t size;  /* packed bytes per call */
    size_t batch; /* calls per timed bracket */
    double *src;  /* batch sources of 2 * size bytes each */
    double *out;  /* batch outputs of size bytes each */
    MPI_Datatype bl1, bl4;
};

static void loop_bl1(double *restrict out, const double *restrict src, size_t n)
{
    for (size_t i = 0; i < n; i++) out[i] = src[2 * i];
}

static void loop_bl4(double *restrict out, const double *restrict src, size_t n)
{
    for (size_t b = 0; b < n / 4; b++) {
        out[4 * b] = src[8 * b];
        out[4 * b + 1] = src[8 * b + 1];
        out[4 * b + 2] = src[8 * b + 2];
        out[4 * b + 3] = src[8 * b + 3];
    }
}

/* One call of variant v on batch slot j. */
static void run_one(const struct setup *s, int v, size_t j)
{
    const size_t n = s->size / sizeof(double);
    double *src = s->src + j * 2 * n, *out = s->out + j * n;
    int pos = 0;
    switch (v) {
        case 0: loop_bl1(out, src, n); break;
        case 1: MPI_Pack(src, 1, s->bl1, out, (int)s->size, &pos, MPI_COMM_SELF); break;
        case 2: loop_bl4(out, src, n); break;
        default: MPI_Pack(src, 1, s->bl4, out, (int)s->size, &pos, MPI_COMM_SELF); break;
    }
}

/* Seconds per call of variant v over k brackets (each rewritten first). */
static double time_block(const struct setup *s, int v, long k, long it, double timer_cost)
{
    double total = 0;
    for (long r = 0; r < k; r++) {
        rewrite_lines((unsigned char *)s->src, s->batch * 2 * s->size, (unsigned char)(it + r));
        double t0 = now();
        for (size_t j = 0; j < s->batch; j++) run_one(s, v, j);
        double t1 = now();
        total += t1 - t0 - timer_cost;
    }
    return total / (double)k / (double)s->batch;
}

static int verify(struct setup *s)
{
    const size_t n = s->size / sizeof(double);
    double *ref = malloc(s->size);
    int ok = 1;
    for (size_t i = 0; i < 2 * n; i++) s->src[i] = (double)i * 0.25 + 1;
    for (int v = 0; v < VARIANTS; v += 2) {
        run_one(s, v, 0);
        memcpy(ref, s->out, s->size);
        memset(s->out, 0, s->size);
        run_one(s, v + 1, 0);
        if (memcmp(ref, s->out, s->size) != 0) {
            fprintf(stderr, "pack: MPI_Pack of layout bl%d gives different bytes than the loop at size %zu\n",
                    v ? 4 : 1, s->size);
            ok = 0;
        }
    }
    free(ref);
    return ok;
}

int main(int argc, char **argv)
{
    size_t min = 1024, max = 64u << 20;
    int reps = 15, csv = 0, rank;
    double block_ms = 2;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-s") && i + 1 < argc) parse_size(argv[++i], &min);
        else if (!strcmp(argv[i], "-m") && i + 1 < argc) parse_size(argv[++i], &max);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-t") && i + 1 < argc) block_ms = atof(argv[++i]);
        else if (!strcmp(argv[i], "-c")) csv = 1;
        else {
            if (rank == 0) fprintf(stderr, "usage: pack [-s MIN] [-m MAX] [-r REPS] [-t BLOCK_MS] [-c]\n");
            MPI_Finalize();
            return 2;
        }
    }
    if (rank != 0) {
        MPI_Finalize();
        return 0;
    }
    if (min < 64) min = 64;
    const double timer_cost = calibrate_timer();
    int status = 0;
    if (csv) printf("size,loop1_us,pack1_us,loop4_us,pack4_us,loop1_GBps,pack1_GBps,loop4_GBps,pack4_GBps\n");
    else printf("%10s %10s %10s %10s %10s   %8s %8s %8s %8s\n", "size[B]", "loop1[us]", "pack1[us]", "loop4[us]",
                "pack4[us]", "loop1", "pack1", "loop4", "pack4");
    for (size_t size = min; size <= max; size *= 2) {
        struct setup s;
        const size_t n = size / sizeof(double);
        s.size = size;
        s.batch = size < BATCH_BYTES ? BATCH_BYTES / size : 1;
        s.src = malloc(s.batch * 2 * size);
        s.out = malloc(s.batch * size);
        if (!s.src || !s.out) {
            fprintf(stderr, "pack: out of memory at size %zu\n", size);
            return 1;
        }
        memset(s.src, 0, s.batch * 2 * size);
        memset(s.out, 0, s.batch * size);
        MPI_Type_vector((int)n, 1, 2, MPI_DOUBLE, &s.bl1);
        MPI_Type_vector((int)(n / 4), 4, 8, MPI_DOUBLE, &s.bl4);
        MPI_Type_commit(&s.bl1);
        MPI_Type_commit(&s.bl4);
        if (!verify(&s)) status = 1;

        /* Calls per block: about block_ms per variant (from a short probe). */
        long k = 1;
        double probe = time_block(&s, 1, 3, 0, timer_cost) * (double)s.batch;
        if (probe > 0) k = (long)(block_ms * 1e-3 / probe);
        if (k < 1) k = 1;
        if (k > 100000) k = 100000;
        double *t[VARIANTS];
        for (int v = 0; v < VARIANTS; v++) {
            t[v] = malloc((size_t)reps * sizeof(double));
            (void)time_block(&s, v, k, 1, timer_cost); /* warm-up */
        }
        for (int r = 0; r < reps; r++)
            for (int i = 0; i < VARIANTS; i++) {
                int v = (i + r) % VARIANTS;
                t[v][r] = time_block(&s, v, k, 2 + r, timer_cost);
            }
        double med[VARIANTS], gbps[VARIANTS];
        for (int v = 0; v < VARIANTS; v++) {
            med[v] = median(t[v], reps);
            gbps[v] = med[v] > 0 ? (double)size / med[v] * 1e-9 : 0;
            free(t[v]);
        }
        if (csv)
            printf("%zu,%.4f,%.4f,%.4f,%.4f,%.3f,%.3f,%.3f,%.3f\n", size, med[0] * 1e6, med[1] * 1e6, med[2] * 1e6,
                   med[3] * 1e6, gbps[0], gbps[1], gbps[2], gbps[3]);
        else
            printf("%10zu %10.3f %10.3f %10.3f %10.3f   %8.2f %8.2f %8.2f %8.2f\n", size, med[0] * 1e6, med[1] * 1e6,
                   med[2] * 1e6, med[3] * 1e6, gbps[0], gbps[1], gbps[2], gbps[3]);
        fflush(stdout);
        MPI_Type_free(&s.bl1);
        MPI_Type_free(&s.bl4);
        free(s.src);
        free(s.out);
    }
    MPI_Finalize();
    return status;
}
