/*
 * pingpong.c - point-to-point ping-pong benchmark (standard MPI C11).
 *
 * Ranks 0 and 1 bounce a message of SIZE bytes back and forth; every other
 * rank blocks in MPI_Recv until rank 0 sends it a final "done" message, so it
 * sits idle *inside* MPI for the whole run.  With -p (pairs mode) every rank
 * pairs up (0-1, 2-3, ...) and all pairs ping-pong concurrently.
 *
 * Methodology (see bench/README.md):
 *  - Before EVERY send, the sender rewrites its send buffer: one byte in each
 *    64-byte line gets an iteration-dependent value, so every cache line of
 *    the buffer is dirtied by the sender before each call and cache reuse
 *    does not flatter anyone.
 *  - The rewrite is excluded from the measurement: the ping side times each
 *    round trip from just before MPI_Send to just after MPI_Recv (its own
 *    rewrite lies outside that window); the pong side's rewrite lies inside
 *    the ping side's window, so the pong side times it and sends the sum to
 *    the ping side after each block, which subtracts it.  The fixed cost of
 *    the two timer brackets (2 timer calls per round trip, calibrated at
 *    start-up) is subtracted as well (-n disables this correction).
 *  - Per size: warm-up round trips, then REPS timed blocks of K round trips,
 *    K chosen from the warm-up so that a block takes about -t milliseconds
 *    (re-sized when a block misses that by more than 4x).  One-way latency
 *    of a block = (sum of round trips) / (2 K).  Reported: median and
 *    minimum over the blocks, bandwidth = size / median, and with -a the
 *    mean over all timed round trips.
 *  - The timer is clock_gettime(CLOCK_MONOTONIC) for every implementation,
 *    so differences in MPI_Wtime cost cannot skew the comparison.
 *
 * Only MPI_Init/Finalize/Comm_rank/Comm_size/Get_processor_name/Send/Recv/
 * Isend/Irecv/Wait/Waitall are used (no collectives; MPI_Abort only when out
 * of memory).  The program keeps no
 * mutable global or static state and does not use getopt(), so it is safe
 * under a thread-based MPI where ranks are threads of one process.
 */
#define _POSIX_C_SOURCE 200809L

#include <mpi.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
    TAG_PING = 101,   /* ping -> pong payload */
    TAG_PONG = 102,   /* pong -> ping payload */
    TAG_REW = 103,    /* pong -> ping: time spent rewriting in the last block */
    TAG_K = 104,      /* ping -> pong: block length for this size */
    TAG_KEST = 105,   /* pairs mode: ping -> rank 0: block length estimate */
    TAG_KGO = 106,    /* pairs mode: rank 0 -> pings: agreed block length */
    TAG_REPORT = 107, /* active rank -> rank 0: errors (+ results) at the end */
    TAG_DONE = 108,   /* rank 0 -> idle ranks: finished */
};

#define MAX_SIZES 64
#define MIN_SIZE 8
#define MAX_ERR_PRINT 5

typedef struct {
    size_t max_size;
    int reps;
    double target_s; /* target duration of one timed block */
    long warmup;     /* < 0: automatic */
    int quiet, csv, validate, pairs, raw, all;
} options;

typedef struct {
    int rank, nranks;
    int active;  /* takes part in ping-pong */
    int is_ping; /* sender of the first message of each round trip */
    int peer;
    MPI_Comm comm;
    unsigned char *sbuf, *rbuf;
    double tov; /* cost of one timer bracket (back-to-back now() difference) */
    long errors;
    int err_printed;
} ctx;

#include "bench_common.h"
/* Value written by side (0 = ping, 1 = pong) in round trip `it`. */
static unsigned char line_val(long it, int side)
{
    return (unsigned char)(2 * it + side + 1);
}

/* Validation mode pattern: every byte depends on offset, iteration, side. */
static unsigned char full_val(size_t j, long it, int side)
{
    return (unsigned char)(j * 7u + (j >> 8) * 3u + (j >> 16) + (size_t)it * 13u + (size_t)side * 101u + 1u);
}

static void report_mismatch(ctx *c, const char *what, size_t n, long it, size_t off, unsigned got, unsigned want)
{
    c->errors++;
    if (c->err_printed < MAX_ERR_PRINT) {
        c->err_printed++;
        fprintf(stderr, "pingpong: rank %d: %s mismatch: size %zu iteration %ld offset %zu: got 0x%02x want 0x%02x\n",
                c->rank, what, n, it, off, got, want);
    }
}

/* Checks the line bytes of the last message received in a block. */
static void check_lines(ctx *c, size_t n, long it, int side)
{
    unsigned char want = line_val(it, side);
    for (size_t off = 0; off < n; off += LINE) {
        if (c->rbuf[off] != want) {
            report_mismatch(c, "content", n, it, off, c->rbuf[off], want);
            return; /* one error per message */
        }
    }
}

static void check_full(ctx *c, size_t n, long it, int side)
{
    for (size_t j = 0; j < n; j++) {
        unsigned char want = full_val(j, it, side);
        if (c->rbuf[j] != want) {
            report_mismatch(c, "validation", n, it, j, c->rbuf[j], want);
            return;
        }
    }
}

static void fill_full(unsigned char *buf, size_t n, long it, int side)
{
    for (size_t j = 0; j < n; j++)
        buf[j] = full_val(j, it, side);
}

static long auto_warmup(size_t n)
{
    long w = (long)((size_t)64 << 20) / (long)n; /* ~64 MiB of payload */
    if (w > 1000)
        w = 1000;
    if (w < 4)
        w = 4;
    return w;
}

/* ---------------------------------------------------------------------- */
/* Option parsing (no getopt: its state is global).                        */


static void usage(FILE *f)
{
    fputs("usage: pingpong [-m MAX_SIZE] [-r REPS] [-t BLOCK_MS] [-w WARMUP] [-q] [-c] [-a] [-v] [-p] [-n]\n"
          "  -m MAX_SIZE  largest message (default 16M; suffixes K, M, G = 2^10, 2^20, 2^30)\n"
          "               sizes are 8, 16, 32, ... up to MAX_SIZE\n"
          "  -r REPS      timed blocks per size (default 15)\n"
          "  -t BLOCK_MS  target duration of one timed block in ms (default 2)\n"
          "  -w WARMUP    warm-up round trips per size (default: 64 MiB / size, clamped to [4, 1000])\n"
          "  -q           quiet: no '#' header lines and no column header\n"
          "  -c           CSV output: size,lat_us_median,lat_us_min,bw_MBps\n"
          "               (pairs mode adds max_pair_lat_us_median,min_pair_bw_MBps)\n"
          "  -a           CSV: also lat_us_mean = all timed round trips / 2 / count (pairs mode:\n"
          "               also max_pair_lat_us_mean); the mean, unlike the median of blocks, counts\n"
          "               every stall (descheduling in oversubscribed runs)\n"
          "  -v           validation mode: every message's full content is checked, nothing is timed;\n"
          "               prints \"No Errors\" on success\n"
          "  -p           pairs mode: ranks 0-1, 2-3, ... ping-pong concurrently\n"
          "  -n           no timer-overhead correction (raw numbers)\n",
          f);
}

/* Returns 0 ok, 1 help printed / error (message printed by rank 0 only). */
static int parse_args(int argc, char **argv, options *o, int rank)
{
    o->max_size = (size_t)16 << 20;
    o->reps = 15;
    o->target_s = 2e-3;
    o->warmup = -1;
    o->quiet = o->csv = o->validate = o->pairs = o->raw = o->all = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == '\0' || a[2] != '\0') {
            if (rank == 0)
                fprintf(stderr, "pingpong: unknown argument '%s'\n", a);
            goto bad;
        }
        char opt = a[1];
        const char *val = NULL;
        if (opt == 'm' || opt == 'r' || opt == 't' || opt == 'w') {
            if (i + 1 >= argc) {
                if (rank == 0)
                    fprintf(stderr, "pingpong: option -%c needs a value\n", opt);
                goto bad;
            }
            val = argv[++i];
        }
        switch (opt) {
        case 'm':
            if (parse_size(val, &o->max_size) || o->max_size < MIN_SIZE || o->max_size > ((size_t)1 << 30)) {
                if (rank == 0)
                    fprintf(stderr, "pingpong: bad -m '%s' (8 .. 1G)\n", val);
                goto bad;
            }
            break;
        case 'r': {
            char *end;
            long v = strtol(val, &end, 10);
            if (*end || v < 1 || v > 100000) {
                if (rank == 0)
                    fprintf(stderr, "pingpong: bad -r '%s'\n", val);
                goto bad;
            }
            o->reps = (int)v;
            break;
        }
        case 't': {
            char *end;
            double v = strtod(val, &end);
            if (*end || !(v > 0.0) || v > 10000.0) {
                if (rank == 0)
                    fprintf(stderr, "pingpong: bad -t '%s'\n", val);
                goto bad;
            }
            o->target_s = v * 1e-3;
            break;
        }
        case 'w': {
            char *end;
            long v = strtol(val, &end, 10);
            if (*end || v < 2 || v > 10000000) {
                if (rank == 0)
                    fprintf(stderr, "pingpong: bad -w '%s' (>= 2)\n", val);
                goto bad;
            }
            o->warmup = v;
            break;
        }
        case 'q': o->quiet = 1; break;
        case 'c': o->csv = 1; break;
        case 'v': o->validate = 1; break;
        case 'p': o->pairs = 1; break;
        case 'n': o->raw = 1; break;
        case 'a': o->all = 1; break;
        case 'h':
            if (rank == 0)
                usage(stdout);
            return 1;
        default:
            if (rank == 0)
                fprintf(stderr, "pingpong: unknown option '%s'\n", a);
            goto bad;
        }
    }
    return 0;
bad:
    if (rank == 0)
        usage(stderr);
    return 1;
}

/* ---------------------------------------------------------------------- */
/* Validation pass: full pattern, poisoned receive buffer, every message   */
/* checked; alternates blocking and nonblocking (pre-posted) calls.        */

static void validate_size(ctx *c, size_t n, int nmsg)
{
    MPI_Request rq[2];
    MPI_Status sts[2];
    int side = c->is_ping ? 0 : 1;
    for (long it = 0; it < nmsg; it++) {
        int nonblocking = (int)(it & 1);
        memset(c->rbuf, 0xA5, n);
        if (c->is_ping) {
            fill_full(c->sbuf, n, it, side);
            if (nonblocking) {
                MPI_Irecv(c->rbuf, (int)n, MPI_BYTE, c->peer, TAG_PONG, c->comm, &rq[0]);
                MPI_Isend(c->sbuf, (int)n, MPI_BYTE, c->peer, TAG_PING, c->comm, &rq[1]);
                MPI_Waitall(2, rq, sts);
            } else {
                MPI_Send(c->sbuf, (int)n, MPI_BYTE, c->peer, TAG_PING, c->comm);
                MPI_Recv(c->rbuf, (int)n, MPI_BYTE, c->peer, TAG_PONG, c->comm, MPI_STATUS_IGNORE);
            }
            check_full(c, n, it, 1);
        } else {
            MPI_Status st;
            if (nonblocking) {
                MPI_Irecv(c->rbuf, (int)n, MPI_BYTE, c->peer, TAG_PING, c->comm, &rq[0]);
                MPI_Wait(&rq[0], &st);
            } else {
                MPI_Recv(c->rbuf, (int)n, MPI_BYTE, c->peer, TAG_PING, c->comm, &st);
            }
            if (st.MPI_SOURCE != c->peer || st.MPI_TAG != TAG_PING) {
                c->errors++;
                fprintf(stderr, "pingpong: rank %d: bad status source %d tag %d\n", c->rank, st.MPI_SOURCE, st.MPI_TAG);
            }
            check_full(c, n, it, 0);
            fill_full(c->sbuf, n, it, side);
            if (nonblocking) {
                MPI_Isend(c->sbuf, (int)n, MPI_BYTE, c->peer, TAG_PONG, c->comm, &rq[1]);
                MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
            } else {
                MPI_Send(c->sbuf, (int)n, MPI_BYTE, c->peer, TAG_PONG, c->comm);
            }
        }
    }
}

/* ---------------------------------------------------------------------- */
/* Timed measurement of one size (one-way latencies in seconds; only the    */
/* ping side's results mean anything).                                     */

typedef struct {
    double med, min, mean;
} stats;

static int k_for(double target, double per_rt)
{
    double k = per_rt > 0 ? target / per_rt : 1e6;
    return k < 1.0 ? 1 : (k > 1e6 ? 1000000 : (int)(k + 0.5));
}

static stats measure_size(ctx *c, const options *o, size_t n, int pairs, int npings)
{
    const int count = (int)n;
    const long warm = o->warmup > 0 ? o->warmup : auto_warmup(n);
    stats res = {NAN, NAN, NAN};
    long it = 0;
    int K = 1;

    /* --- warm-up, and choice of the block length K --- */
    if (c->is_ping) {
        long half = warm / 2;
        double t_half = now();
        for (long i = 0; i < warm; i++, it++) {
            if (i == half)
                t_half = now();
            rewrite_lines(c->sbuf, n, line_val(it, 0));
            MPI_Send(c->sbuf, count, MPI_BYTE, c->peer, TAG_PING, c->comm);
            MPI_Recv(c->rbuf, count, MPI_BYTE, c->peer, TAG_PONG, c->comm, MPI_STATUS_IGNORE);
        }
        K = k_for(o->target_s, (now() - t_half) / (double)(warm - half));
        if (pairs) {
            /* all pairs start with the same K, and this exchange lines them up */
            if (c->rank == 0) {
                for (int p = 1; p < npings; p++) {
                    int kp;
                    MPI_Recv(&kp, 1, MPI_INT, 2 * p, TAG_KEST, c->comm, MPI_STATUS_IGNORE);
                    if (kp < K)
                        K = kp;
                }
                for (int p = 1; p < npings; p++)
                    MPI_Send(&K, 1, MPI_INT, 2 * p, TAG_KGO, c->comm);
            } else {
                MPI_Send(&K, 1, MPI_INT, 0, TAG_KEST, c->comm);
                MPI_Recv(&K, 1, MPI_INT, 0, TAG_KGO, c->comm, MPI_STATUS_IGNORE);
            }
        }
        MPI_Send(&K, 1, MPI_INT, c->peer, TAG_K, c->comm);
    } else {
        for (long i = 0; i < warm; i++, it++) {
            MPI_Recv(c->rbuf, count, MPI_BYTE, c->peer, TAG_PING, c->comm, MPI_STATUS_IGNORE);
            rewrite_lines(c->sbuf, n, line_val(it, 1));
            MPI_Send(c->sbuf, count, MPI_BYTE, c->peer, TAG_PONG, c->comm);
        }
        MPI_Recv(&K, 1, MPI_INT, c->peer, TAG_K, c->comm, MPI_STATUS_IGNORE);
    }

    /* --- timed blocks --- */
    double *lat = c->is_ping ? malloc((size_t)o->reps * sizeof *lat) : NULL;
    if (c->is_ping && !lat)
        MPI_Abort(c->comm, 1);
    const double corr = o->raw ? 0.0 : 2.0 * c->tov; /* per round trip */
    double total = 0.0;                              /* sum of corrected round trips */
    long total_rt = 0;
    for (int r = 0; r < o->reps; r++) {
        if (c->is_ping) {
            double acc = 0.0, pong_rew = 0.0;
            for (int k = 0; k < K; k++, it++) {
                rewrite_lines(c->sbuf, n, line_val(it, 0));
                double t0 = now();
                MPI_Send(c->sbuf, count, MPI_BYTE, c->peer, TAG_PING, c->comm);
                MPI_Recv(c->rbuf, count, MPI_BYTE, c->peer, TAG_PONG, c->comm, MPI_STATUS_IGNORE);
                double t1 = now();
                acc += t1 - t0;
            }
            MPI_Recv(&pong_rew, 1, MPI_DOUBLE, c->peer, TAG_REW, c->comm, MPI_STATUS_IGNORE);
            double rt = (acc - pong_rew) / K - corr;
            lat[r] = rt / 2.0;
            total += rt * K;
            total_rt += K;
            check_lines(c, n, it - 1, 1);
            if (r + 1 < o->reps) {
                /* Re-size the next block only when this one missed the target
                 * by more than 4x (e.g. an oversubscribed run whose warm-up
                 * happened to be fast); a steady run keeps a constant K. */
                if (acc > 4.0 * o->target_s || acc < 0.25 * o->target_s)
                    K = k_for(o->target_s, acc / K);
                MPI_Send(&K, 1, MPI_INT, c->peer, TAG_K, c->comm);
            }
        } else {
            double rew = 0.0;
            for (int k = 0; k < K; k++, it++) {
                MPI_Recv(c->rbuf, count, MPI_BYTE, c->peer, TAG_PING, c->comm, MPI_STATUS_IGNORE);
                double r0 = now();
                rewrite_lines(c->sbuf, n, line_val(it, 1));
                double r1 = now();
                rew += r1 - r0;
                MPI_Send(c->sbuf, count, MPI_BYTE, c->peer, TAG_PONG, c->comm);
            }
            MPI_Send(&rew, 1, MPI_DOUBLE, c->peer, TAG_REW, c->comm);
            check_lines(c, n, it - 1, 0);
            if (r + 1 < o->reps)
                MPI_Recv(&K, 1, MPI_INT, c->peer, TAG_K, c->comm, MPI_STATUS_IGNORE);
        }
    }
    if (c->is_ping) {
        res.min = lat[0];
        for (int r = 1; r < o->reps; r++)
            if (lat[r] < res.min)
                res.min = lat[r];
        res.med = median(lat, o->reps);
        res.mean = total / (double)total_rt / 2.0;
        free(lat);
    }
    return res;
}

/* One output row.  In pairs mode `worst` holds the maxima over pairs. */
static void print_row(const options *o, size_t n, stats st, int pairs, stats worst)
{
    const double us = 1e6;
    double bw = (double)n / st.med / 1e6, wbw = (double)n / worst.med / 1e6;
    if (o->csv) {
        printf("%zu,%.4f,%.4f,%.2f", n, st.med * us, st.min * us, bw);
        if (pairs)
            printf(",%.4f,%.2f", worst.med * us, wbw);
        if (o->all)
            printf(",%.4f", st.mean * us);
        if (o->all && pairs)
            printf(",%.4f", worst.mean * us);
        printf("\n");
    } else {
        printf("%10zu %14.3f %12.3f %12.1f %13.3f", n, st.med * us, st.min * us, bw, st.mean * us);
        if (pairs)
            printf(" %16.3f %14.1f %16.3f", worst.med * us, wbw, worst.mean * us);
        printf("\n");
    }
    fflush(stdout);
}

static const char *impl_name(void)
{
#if defined(HMPI) && defined(HMPI_VERSION_STRING)
    return "HMPI " HMPI_VERSION_STRING;
#elif defined(OPEN_MPI)
#define PP_STR2(x) #x
#define PP_STR(x) PP_STR2(x)
    return "Open MPI " PP_STR(OMPI_MAJOR_VERSION) "." PP_STR(OMPI_MINOR_VERSION) "." PP_STR(OMPI_RELEASE_VERSION);
#elif defined(MPICH_VERSION)
    return "MPICH " MPICH_VERSION;
#else
    return "unknown MPI implementation";
#endif
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ctx c;
    memset(&c, 0, sizeof c);
    c.comm = MPI_COMM_WORLD;
    MPI_Comm_rank(c.comm, &c.rank);
    MPI_Comm_size(c.comm, &c.nranks);

    options o;
    if (parse_args(argc, argv, &o, c.rank)) {
        MPI_Finalize();
        return 1;
    }
    if (c.nranks < 2) {
        if (c.rank == 0)
            fprintf(stderr, "pingpong: needs at least 2 ranks\n");
        MPI_Finalize();
        return 1;
    }
    const int pairs = o.pairs && c.nranks >= 4;
    const int npings = pairs ? c.nranks / 2 : 1;
    const int nactive = 2 * npings;
    c.active = c.rank < nactive;
    c.is_ping = c.active && (c.rank % 2 == 0);
    c.peer = c.active ? (c.rank ^ 1) : -1;

    size_t sizes[MAX_SIZES];
    int nsizes = 0;
    for (size_t n = MIN_SIZE; n <= o.max_size && nsizes < MAX_SIZES; n *= 2)
        sizes[nsizes++] = n;

    /* processor names of the ranks of pair 0, for the header */
    char name[MPI_MAX_PROCESSOR_NAME + 1], name1[MPI_MAX_PROCESSOR_NAME + 1];
    int len = 0;
    memset(name, 0, sizeof name);
    memset(name1, 0, sizeof name1);
    MPI_Get_processor_name(name, &len);
    if (c.rank == 1)
        MPI_Send(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, TAG_REPORT, c.comm);
    if (c.rank == 0)
        MPI_Recv(name1, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 1, TAG_REPORT, c.comm, MPI_STATUS_IGNORE);

    int rc = 0;
    if (!c.active) {
        /* idle rank: wait inside MPI until rank 0 says we are done */
        int done;
        MPI_Recv(&done, 1, MPI_INT, 0, TAG_DONE, c.comm, MPI_STATUS_IGNORE);
        MPI_Finalize();
        return 0;
    }

    size_t alloc = (o.max_size + 4095) & ~(size_t)4095;
    c.sbuf = aligned_alloc(4096, alloc);
    c.rbuf = aligned_alloc(4096, alloc);
    if (!c.sbuf || !c.rbuf) {
        fprintf(stderr, "pingpong: rank %d: out of memory (%zu bytes)\n", c.rank, 2 * alloc);
        MPI_Abort(c.comm, 1);
    }
    memset(c.sbuf, 0, alloc); /* touch the pages now, not in the timed loop */
    memset(c.rbuf, 0, alloc);
    c.tov = calibrate_timer();

    if (c.rank == 0 && !o.quiet) {
        printf("# pingpong: %s, MPI %d.%d, %d ranks, %s\n", impl_name(), MPI_VERSION, MPI_SUBVERSION, c.nranks,
               o.validate ? "VALIDATION mode (not timed)"
                          : (pairs ? "pairs mode (0-1, 2-3, ... concurrently)" : "ranks 0-1 ping-pong, others idle in MPI_Recv"));
        printf("# rank 0 on %s, rank 1 on %s\n", name, name1);
        if (!o.validate) {
            printf("# reps=%d blocks/size, block target %.2f ms, warm-up %s, send buffer rewritten "
                   "(1 byte per 64-B line) before every send, rewrite excluded\n",
                   o.reps, o.target_s * 1e3, o.warmup > 0 ? "fixed" : "64MiB/size in [4,1000]");
            printf("# timer clock_gettime(CLOCK_MONOTONIC), bracket cost %.1f ns, %s\n", c.tov * 1e9,
                   o.raw ? "NOT corrected (-n)" : "corrected (2 brackets per round trip subtracted)");
            printf("# latency = one-way = round trip / 2: median and min over blocks, mean over all round trips; "
                   "bandwidth = size / median latency, MB = 1e6 bytes\n");
            if (o.csv)
                printf("size,lat_us_median,lat_us_min,bw_MBps%s%s%s\n",
                       pairs ? ",max_pair_lat_us_median,min_pair_bw_MBps" : "", o.all ? ",lat_us_mean" : "",
                       o.all && pairs ? ",max_pair_lat_us_mean" : "");
            else
                printf("%10s %14s %12s %12s %13s%s\n", "size[B]", "lat_med[us]", "lat_min[us]", "bw[MB/s]",
                       "lat_mean[us]", pairs ? "  maxpair_med[us]   minpair_bw  maxpair_mean[us]" : "");
            fflush(stdout);
        }
    }

    stats res[MAX_SIZES];
    for (int s = 0; s < nsizes; s++) {
        size_t n = sizes[s];
        res[s].med = res[s].min = res[s].mean = NAN;
        if (o.validate) {
            long nmsg = (long)((size_t)32 << 20) / (long)n;
            nmsg = nmsg < 4 ? 4 : (nmsg > 64 ? 64 : nmsg);
            validate_size(&c, n, (int)nmsg);
            if (c.rank == 0 && !o.quiet) {
                printf("# validated size %zu: %ld round trips (alternating blocking / nonblocking)\n", n, nmsg);
                fflush(stdout);
            }
        } else {
            res[s] = measure_size(&c, &o, n, pairs, npings);
            if (c.rank == 0 && !pairs)
                print_row(&o, n, res[s], 0, res[s]);
        }
    }

    /* --- final reports to rank 0, then release the idle ranks --- */
    const int rlen = 1 + 3 * nsizes;
    double *rep = calloc((size_t)rlen, sizeof *rep);
    if (!rep)
        MPI_Abort(c.comm, 1);
    if (c.rank != 0) {
        rep[0] = (double)c.errors;
        for (int s = 0; s < nsizes; s++) {
            rep[1 + 3 * s] = res[s].med;
            rep[2 + 3 * s] = res[s].min;
            rep[3 + 3 * s] = res[s].mean;
        }
        MPI_Send(rep, rlen, MPI_DOUBLE, 0, TAG_REPORT, c.comm);
    } else {
        stats worst[MAX_SIZES];
        long errors = c.errors;
        for (int s = 0; s < nsizes; s++)
            worst[s] = res[s];
        for (int r = 1; r < nactive; r++) {
            MPI_Recv(rep, rlen, MPI_DOUBLE, r, TAG_REPORT, c.comm, MPI_STATUS_IGNORE);
            errors += (long)rep[0];
            if (r % 2 == 0) {
                for (int s = 0; s < nsizes; s++) {
                    if (rep[1 + 3 * s] > worst[s].med)
                        worst[s].med = rep[1 + 3 * s];
                    if (rep[2 + 3 * s] > worst[s].min)
                        worst[s].min = rep[2 + 3 * s];
                    if (rep[3 + 3 * s] > worst[s].mean)
                        worst[s].mean = rep[3 + 3 * s];
                }
            }
        }
        if (pairs && !o.validate)
            for (int s = 0; s < nsizes; s++)
                print_row(&o, sizes[s], res[s], 1, worst[s]);
        int done = 1;
        for (int r = nactive; r < c.nranks; r++)
            MPI_Send(&done, 1, MPI_INT, r, TAG_DONE, c.comm);
        if (errors) {
            fprintf(stderr, "pingpong: %ld corrupted messages detected\n", errors);
            if (o.validate)
                printf("Found %ld errors\n", errors);
            rc = 1;
        } else if (o.validate) {
            printf("No Errors\n");
        }
        fflush(stdout);
    }
    free(rep);
    free(c.sbuf);
    free(c.rbuf);
    MPI_Finalize();
    return rc;
}
