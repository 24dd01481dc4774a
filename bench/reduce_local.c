/*
 * reduce_local.c - the speed of MPI_Reduce_local(MPI_SUM) on float and on
 * double arrays, against memcpy of the same number of bytes, in one
 * process (standard MPI C11: build it with any MPI's mpicc and run it on
 * one rank; other ranks, if any, do nothing).
 *
 * Methodology (shared with memcpy_bw.c / pingpong.c where it applies):
 *  - SIZE is the byte size of each array (inbuf and inoutbuf; memcpy copies
 *    SIZE bytes from the one to the other). Sizes 1 KiB .. 64 MiB by
 *    default, doubling.
 *  - Before every timed call both buffers are rewritten, one byte per
 *    64-byte line (the lowest byte of an element, so values stay normal
 *    numbers, never NaN or denormal, which would slow the arithmetic),
 *    outside the timed window: every line is freshly written, as right
 *    after the application produced it, and no call finds clean lines left
 *    by the previous one.
 *  - Calls on arrays smaller than 16 KiB are batched: each timed bracket
 *    covers B = 16 KiB / SIZE calls on B distinct buffer pairs (all
 *    rewritten before the bracket), so the cost of reading the clock is
 *    amortized; the calibrated cost of one bracket is subtracted.
 *  - Per size: warm-up, then REPS blocks; in each block memcpy, the float
 *    sum and the double sum run K calls each (K chosen so a block of one
 *    kind takes about BLOCK_MS), interleaved so machine noise hits all
 *    three alike. Reported: the median over blocks of the time per call,
 *    and SIZE / median in GB/s (1 GB = 1e9 bytes). A reduction reads 2 x
 *    SIZE and writes SIZE; memcpy reads and writes SIZE each.
 *  - Results are checked: before timing, every element of one reduction
 *    per kind and size is compared with the expected sum.
 *
 * usage: reduce_local [-s MIN_SIZE] [-m MAX_SIZE] [-r REPS] [-t BLOCK_MS] [-c] [-q]
 * Output: a table, or with -c CSV columns
 *   size,memcpy_us,float_us,double_us,memcpy_GBps,float_GBps,double_GBps
 * The program keeps no mutable global state (ranks may be threads).
 */
#define _POSIX_C_SOURCE 200809L

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

#define BATCH_BYTES 16384
#define KINDS 3 /* memcpy, float sum, double sum */

struct buffers {
    unsigned char *in, *io;
    size_t bytes; /* allocated per buffer */
};

/* The rewrite before a timed call: one byte per 64-byte line of both buffers
 * (bench_common.h). The byte is the lowest of a float or double (little
 * endian), so it changes only the low mantissa bits: the values stay
 * normal numbers. */
static void rewrite(struct buffers *b, size_t total, long it)
{
    rewrite_lines(b->in, total, (unsigned char)(it + 1));
    rewrite_lines(b->io, total, (unsigned char)(it + 7));
}

/* Fills both buffers with normal values (the sums stay far from overflow). */
static void fill(struct buffers *b, size_t total)
{
    float *fi = (float *)b->in, *fo = (float *)b->io;
    for (size_t i = 0; i < total / sizeof(float); i++) {
        fi[i] = 1.0f;
        fo[i] = 0.5f;
    }
}

static int run_calls(struct buffers *b, int kind, size_t n, size_t slots)
{
    for (size_t s = 0; s < slots; s++) {
        unsigned char *in = b->in + s * n, *io = b->io + s * n;
        if (kind == 0) {
            memcpy(io, in, n);
        } else {
            int count = (int)(n / (kind == 1 ? sizeof(float) : sizeof(double)));
            int rc = MPI_Reduce_local(in, io, count, kind == 1 ? MPI_FLOAT : MPI_DOUBLE, MPI_SUM);
            if (rc != MPI_SUCCESS) return rc;
        }
    }
    return MPI_SUCCESS;
}

/* One reduction of each kind on known data, every element compared. */
static long verify(struct buffers *b, size_t n)
{
    long bad = 0;
    float *fi = (float *)b->in, *fo = (float *)b->io;
    double *di = (double *)b->in, *dd = (double *)b->io;
    size_t nf = n / sizeof(float), nd = n / sizeof(double);
    for (size_t i = 0; i < nf; i++) {
        fi[i] = (float)(i % 1000);
        fo[i] = (float)(i % 7) * 0.25f;
    }
    if (MPI_Reduce_local(fi, fo, (int)nf, MPI_FLOAT, MPI_SUM) != MPI_SUCCESS) return 1;
    for (size_t i = 0; i < nf; i++)
        bad += fo[i] != (float)(i % 1000) + (float)(i % 7) * 0.25f;
    for (size_t i = 0; i < nd; i++) {
        di[i] = (double)(i % 1000);
        dd[i] = (double)(i % 7) * 0.25;
    }
    if (MPI_Reduce_local(di, dd, (int)nd, MPI_DOUBLE, MPI_SUM) != MPI_SUCCESS) return 1;
    for (size_t i = 0; i < nd; i++)
        bad += dd[i] != (double)(i % 1000) + (double)(i % 7) * 0.25;
    return bad;
}

static void usage(FILE *f)
{
    fputs("usage: reduce_local [-s MIN_SIZE] [-m MAX_SIZE] [-r REPS] [-t BLOCK_MS] [-c] [-q]\n"
          "  -s MIN_SIZE  smallest array (default 1K; suffixes K, M, G)\n"
          "  -m MAX_SIZE  largest array (default 64M)\n"
          "  -r REPS      timed blocks per size (default 15)\n"
          "  -t BLOCK_MS  target duration of one block of one kind in ms (default 2)\n"
          "  -c           CSV: size,memcpy_us,float_us,double_us,memcpy_GBps,float_GBps,double_GBps\n"
          "  -q           no '#' header lines\n",
          f);
}

int main(int argc, char **argv)
{
    size_t min_size = 1024, max_size = (size_t)64 << 20;
    int reps = 15, csv = 0, quiet = 0, rank = 0;
    double target = 2e-3;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char *end = NULL;
        if ((!strcmp(a, "-s") || !strcmp(a, "-m") || !strcmp(a, "-r") || !strcmp(a, "-t")) && i + 1 < argc) {
            const char *v = argv[++i];
            int ok = 1;
            if (a[1] == 's') ok = !parse_size(v, &min_size) && min_size >= 64;
            if (a[1] == 'm') ok = !parse_size(v, &max_size) && max_size <= ((size_t)1 << 30);
            if (a[1] == 'r') ok = (reps = (int)strtol(v, &end, 10)) >= 1 && !*end;
            if (a[1] == 't') ok = (target = strtod(v, &end) * 1e-3) > 0 && !*end;
            if (!ok) {
                if (rank == 0) fprintf(stderr, "reduce_local: bad value '%s' for %s\n", v, a);
                MPI_Finalize();
                return 1;
            }
        } else if (!strcmp(a, "-c")) {
            csv = 1;
        } else if (!strcmp(a, "-q")) {
            quiet = 1;
        } else {
            if (rank == 0) usage(strcmp(a, "-h") ? stderr : stdout);
            MPI_Finalize();
            return strcmp(a, "-h") ? 1 : 0;
        }
    }
    if (rank != 0) { /* one rank measures; the others have nothing to do */
        MPI_Finalize();
        return 0;
    }
    if (max_size < min_size) max_size = min_size;

    struct buffers b;
    b.bytes = ((max_size > BATCH_BYTES ? max_size : BATCH_BYTES) + 4095) & ~(size_t)4095;
    b.in = aligned_alloc(4096, b.bytes);
    b.io = aligned_alloc(4096, b.bytes);
    double *lat[KINDS];
    for (int k = 0; k < KINDS; k++) lat[k] = malloc((size_t)reps * sizeof(double));
    if (!b.in || !b.io || !lat[0] || !lat[1] || !lat[2]) {
        fprintf(stderr, "reduce_local: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    fill(&b, b.bytes);
    const double tov = calibrate_timer();
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int vlen = 0;
    MPI_Get_library_version(version, &vlen);
    char *nl = strchr(version, '\n');
    if (nl) *nl = '\0';

    if (!quiet) {
        printf("# reduce_local: MPI_Reduce_local(MPI_SUM) on float and double vs memcpy of the same bytes\n");
        printf("# library: %.120s\n", version);
        printf("# buffers rewritten (one byte per 64-B line, both buffers) before every timed call; "
               "reps=%d, block %.2f ms, bracket cost %.1f ns subtracted\n",
               reps, target * 1e3, tov * 1e9);
        printf("# time per call: median over blocks; GB/s = size / time (1e9 B/s)\n");
        if (csv)
            printf("size,memcpy_us,float_us,double_us,memcpy_GBps,float_GBps,double_GBps\n");
        else
            printf("%10s %11s %11s %11s %9s %9s %9s %8s %8s\n", "size[B]", "memcpy[us]", "float[us]", "double[us]",
                   "memcpyGB/s", "floatGB/s", "dblGB/s", "flt/mcp", "dbl/mcp");
        fflush(stdout);
    }

    long errors = 0;
    for (size_t n = min_size; n <= max_size; n *= 2) {
        const size_t slots = n >= BATCH_BYTES ? 1 : BATCH_BYTES / n;
        long it = 0;
        long K[KINDS];
        errors += verify(&b, n);
        fill(&b, n * slots);
        /* Warm-up and the calls per block of each kind. */
        for (int k = 0; k < KINDS; k++) {
            long warm = (long)(((size_t)64 << 20) / (n * slots));
            if (warm > 200) warm = 200;
            if (warm < 3) warm = 3;
            double t = 0;
            for (long i = 0; i < warm; i++, it++) {
                rewrite(&b, n * slots, it);
                double t0 = now();
                if (run_calls(&b, k, n, slots) != MPI_SUCCESS) errors++;
                if (i >= warm / 2) t += now() - t0;
            }
            double est = t / (double)(warm - warm / 2);
            double kd = est > 0 ? target / est : 1e6;
            K[k] = kd < 1.0 ? 1 : (kd > 1e6 ? 1000000 : (long)(kd + 0.5));
        }
        for (int r = 0; r < reps; r++) {
            for (int k = 0; k < KINDS; k++) {
                double acc = 0.0;
                for (long i = 0; i < K[k]; i++, it++) {
                    rewrite(&b, n * slots, it);
                    double t0 = now();
                    if (run_calls(&b, k, n, slots) != MPI_SUCCESS) errors++;
                    acc += now() - t0;
                }
                lat[k][r] = (acc / (double)K[k] - tov) / (double)slots;
            }
            fill(&b, n * slots); /* keep the sums small */
        }
        double med[KINDS];
        for (int k = 0; k < KINDS; k++) med[k] = median(lat[k], reps);
        if (csv)
            printf("%zu,%.4f,%.4f,%.4f,%.3f,%.3f,%.3f\n", n, med[0] * 1e6, med[1] * 1e6, med[2] * 1e6,
                   (double)n / med[0] / 1e9, (double)n / med[1] / 1e9, (double)n / med[2] / 1e9);
        else
            printf("%10zu %11.3f %11.3f %11.3f %9.2f %9.2f %9.2f %8.2f %8.2f\n", n, med[0] * 1e6, med[1] * 1e6,
                   med[2] * 1e6, (double)n / med[0] / 1e9, (double)n / med[1] / 1e9, (double)n / med[2] / 1e9,
                   med[0] / med[1], med[0] / med[2]);
        fflush(stdout);
    }
    free(b.in);
    free(b.io);
    for (int k = 0; k < KINDS; k++) free(lat[k]);
    if (errors) fprintf(stderr, "reduce_local: %ld wrong results or failed calls\n", errors);
    MPI_Finalize();
    return errors ? 1 : 0;
}
