/*
 * coll_bench.c - latency of the MPI collectives, 8 B to 16 MiB, in standard
 * MPI C (no HMPI extensions), so that the same source builds with HMPI's
 * hmpicc and with Open MPI's and MPICH's mpicc and the three can be compared
 * (bench/coll/run.sh does that; bench/coll/README.md explains the method).
 *
 * Per collective and size: warm-up calls, then REPS repetitions of ITERS
 * timed calls. Every call is preceded by a rewrite of the whole send buffer
 * (so the data is freshly written, as when an application has just produced
 * it; untimed) and an MPI_Barrier; only the call itself is timed. Each rank
 * averages its own call times over a repetition; rank 0 gets the average and
 * the maximum of those per-rank averages (MPI_Reduce) and prints the median
 * of each over the repetitions as one CSV line:
 *
 *     impl,collective,bytes,ranks,avg_us,max_us,iters
 *
 * bytes is the per-rank message: the whole input vector for the reductions
 * (MPI_DOUBLE, MPI_SUM: bytes = count * 8) and for Bcast, one rank's block
 * for Gather(v), Scatter, Allgather(v) and Alltoall (MPI_BYTE), 0 for
 * Barrier. Reduce_scatter_block reduces a vector of p * floor(count / p)
 * (at least p) doubles and reports that size.
 *
 * --read-results makes every rank read its results after each call (one
 * byte per cache line of its receive buffer, untimed), as an application
 * that uses them would. Without it the receive buffers are never read, so
 * where an implementation's senders store into them (push-style copies),
 * those lines can stay in the senders' caches from one call to the next,
 * and each call's copies are local.
 *
 * --start scheduled replaces the barrier before each call by a start time
 * common to all ranks: rank 0 sends a CLOCK_MONOTONIC time once per
 * repetition, call i starts at that time plus i periods (the period: 2 x
 * the slowest rank's warm-up call and buffer rewrite, plus 5 us), every rank
 * spinning until then. A barrier releases its ranks one after another, the
 * rank that arrived last first, and which one that is depends on the
 * previous call, so barrier-timed calls start systematically skewed
 * (bench/coll/entry_skew.c; docs/model.md, "The benchmark's entry skew");
 * scheduled calls start within a clock read of each other, as the model
 * assumes. One clock for all ranks: one node only. A call whose rank
 * arrives after its start time is counted; rank 0 reports the count on
 * stderr when it is over 1% of the calls.
 *
 * --validate runs a few calls per collective and size with distinct data,
 * poisoned receive buffers and a root that moves, checks every element
 * against values computed locally, prints the failures and exits non-zero
 * when there is one (" No Errors" otherwise).
 *
 * The program keeps no mutable global or static state and does not call
 * getopt, so it runs unchanged when ranks are threads of one process (HMPI).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <mpi.h>
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bench_common.h"

enum coll {
    C_BARRIER,
    C_BCAST,
    C_REDUCE,
    C_ALLREDUCE,
    C_REDUCE_SCATTER_BLOCK,
    C_REDUCE_SCATTER,
    C_ALLGATHER,
    C_GATHER,
    C_SCATTER,
    C_ALLTOALL,
    C_SCAN,
    C_EXSCAN,
    C_ALLGATHERV,
    C_GATHERV,
    C_COUNT
};

/* Lower-case names, as hmpi-info and HMPI_<COLL>_ALGORITHM spell them. */
static const char *const coll_names[C_COUNT] = {
    "barrier",  "bcast",     "reduce",  "allreduce", "reduce_scatter_block", "reduce_scatter", "allgather",
    "gather",   "scatter",   "alltoall", "scan",     "exscan",               "allgatherv",     "gatherv",
};
enum { DEFAULT_COLLS = C_EXSCAN + 1 }; /* the v forms only when asked for */

static int is_reduction(int c)
{
    return c == C_REDUCE || c == C_ALLREDUCE || c == C_REDUCE_SCATTER_BLOCK || c == C_REDUCE_SCATTER ||
           c == C_SCAN || c == C_EXSCAN;
}

#define MAX_SIZES 64

struct options {
    const char *impl;     /* label in the CSV's first column */
    int colls[C_COUNT];   /* selected, in the order given */
    int ncolls;
    size_t sizes[MAX_SIZES];
    int nsizes;
    size_t min_size, max_size;
    int iters;            /* fixed iterations per repetition; 0 = auto */
    double time_ms;       /* auto: a repetition takes about this long */
    int min_iters, max_iters;
    int reps;
    int warmup;           /* fixed warm-up calls; -1 = auto */
    int root;
    int rotate_root;      /* --root rotate: call i's root is i mod size */
    int validate;
    int header;
    int timer_correction;
    int read_results;     /* read the receive buffer after each timed call */
    int scheduled;        /* --start scheduled: calls start at common times, no barrier */
};

/* Buffers of one (collective, size) measurement. */
struct bufs {
    void *send, *recv;
    size_t send_bytes, recv_bytes;
    int *counts, *displs; /* reduce_scatter recvcounts; v forms counts/displs */
    unsigned char kept;   /* --read-results: what the reads returned, kept so they happen */
};

/* One call's arguments. */
struct call {
    int coll;
    size_t bytes;    /* reported size */
    size_t count;    /* elements per rank message (doubles or bytes) */
    size_t block;    /* reduce_scatter_block: doubles per rank's result */
    int root;
    int rank, size;
    int read_results;
    int rotate_root;
};

/* ------------------------------------------------------------ utilities -- */

static int usage(int rank)
{
    if (rank == 0)
        fprintf(stderr,
                "usage: coll_bench [options]\n"
                "  -c LIST         collectives, comma-separated (default: barrier,bcast,reduce,allreduce,\n"
                "                  reduce_scatter_block,reduce_scatter,allgather,gather,scatter,alltoall,\n"
                "                  scan,exscan; 'all' adds allgatherv,gatherv)\n"
                "  --min SIZE      smallest size (default 8; K/M/G suffixes)\n"
                "  --max SIZE      largest size (default 16M)\n"
                "  --sizes LIST    explicit comma-separated sizes instead of the powers of two\n"
                "  --iters N       timed calls per repetition (default: auto, see --time-ms)\n"
                "  --time-ms T     auto iterations: a repetition takes about T ms (default 10)\n"
                "  --min-iters N   auto bounds (default 3 .. 100000)\n"
                "  --max-iters N\n"
                "  --reps N        repetitions; the median is reported (default 5)\n"
                "  --warmup N      warm-up calls per size (default: auto, about T/4 ms, 2 .. 1000)\n"
                "  --root R        root of the rooted collectives (default 0); 'rotate': call i's\n"
                "                  root is i mod size, the same on every rank (as the Intel MPI\n"
                "                  Benchmarks do), so no rank's place in the barrier's release\n"
                "                  order favours a fixed root\n"
                "  --impl NAME     label of the first CSV column (default: from MPI_Get_library_version)\n"
                "  --read-results  every rank reads its results after each call (untimed)\n"
                "  --start S       'barrier' (default): an MPI_Barrier before each call; 'scheduled':\n"
                "                  each call starts at a time common to all ranks (one node only)\n"
                "  --validate      check results instead of timing; exit status 1 on a failure\n"
                "  --no-header     omit the CSV header line\n"
                "  -n              no timer-cost correction\n");
    return 2;
}

static int parse_int(const char *s, int lo, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > 1000000000L)
        return -1;
    *out = (int)v;
    return 0;
}

/* Case-insensitive: "Allreduce", "ALLREDUCE" and "allreduce" all work. */
static int same_name(const char *a, const char *b, size_t n)
{
    if (strlen(a) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
            return 0;
    return 1;
}

static int coll_from_name(const char *s, size_t n)
{
    for (int c = 0; c < C_COUNT; c++)
        if (same_name(coll_names[c], s, n))
            return c;
    return -1;
}

static int add_coll(struct options *o, int c)
{
    for (int i = 0; i < o->ncolls; i++)
        if (o->colls[i] == c)
            return 0;
    o->colls[o->ncolls++] = c;
    return 0;
}

static int parse_colls(struct options *o, const char *list, int rank)
{
    o->ncolls = 0;
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (same_name("all", p, n)) {
            for (int c = 0; c < C_COUNT; c++)
                add_coll(o, c);
        } else if (n > 0) {
            int c = coll_from_name(p, n);
            if (c < 0) {
                if (rank == 0)
                    fprintf(stderr, "coll_bench: unknown collective '%.*s'\n", (int)n, p);
                return -1;
            }
            add_coll(o, c);
        }
        p += n + (e != NULL);
    }
    return o->ncolls > 0 ? 0 : -1;
}

static int parse_sizes(struct options *o, const char *list, int rank)
{
    char tmp[64];
    o->nsizes = 0;
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n > 0) {
            if (n >= sizeof tmp || o->nsizes == MAX_SIZES)
                return -1;
            memcpy(tmp, p, n);
            tmp[n] = '\0';
            size_t v;
            if (parse_size(tmp, &v) || v == 0) {
                if (rank == 0)
                    fprintf(stderr, "coll_bench: bad size '%s'\n", tmp);
                return -1;
            }
            o->sizes[o->nsizes++] = v;
        }
        p += n + (e != NULL);
    }
    return o->nsizes > 0 ? 0 : -1;
}

static int parse_args(int argc, char **argv, struct options *o, int rank)
{
    memset(o, 0, sizeof *o);
    for (int c = 0; c < DEFAULT_COLLS; c++)
        o->colls[o->ncolls++] = c;
    o->min_size = 8;
    o->max_size = (size_t)16 << 20;
    o->time_ms = 10;
    o->min_iters = 3;
    o->max_iters = 100000;
    o->reps = 5;
    o->warmup = -1;
    o->header = 1;
    o->timer_correction = 1;
    int explicit_sizes = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = 1, bad = 0;
        if (!strcmp(a, "-c") || !strcmp(a, "--colls"))
            bad = !v || parse_colls(o, v, rank);
        else if (!strcmp(a, "--min"))
            bad = !v || parse_size(v, &o->min_size);
        else if (!strcmp(a, "--max"))
            bad = !v || parse_size(v, &o->max_size);
        else if (!strcmp(a, "--sizes"))
            bad = !v || parse_sizes(o, v, rank), explicit_sizes = 1;
        else if (!strcmp(a, "--iters"))
            bad = !v || parse_int(v, 1, &o->iters);
        else if (!strcmp(a, "--time-ms")) {
            char *end;
            o->time_ms = v ? strtod(v, &end) : 0;
            bad = !v || end == v || *end || !(o->time_ms > 0);
        } else if (!strcmp(a, "--min-iters"))
            bad = !v || parse_int(v, 1, &o->min_iters);
        else if (!strcmp(a, "--max-iters"))
            bad = !v || parse_int(v, 1, &o->max_iters);
        else if (!strcmp(a, "--reps"))
            bad = !v || parse_int(v, 1, &o->reps);
        else if (!strcmp(a, "--warmup"))
            bad = !v || parse_int(v, 0, &o->warmup);
        else if (!strcmp(a, "--root") && v && !strcmp(v, "rotate"))
            o->rotate_root = 1, o->root = 0;
        else if (!strcmp(a, "--root"))
            bad = !v || parse_int(v, 0, &o->root);
        else if (!strcmp(a, "--impl"))
            bad = !v, o->impl = v;
        else {
            takes = 0;
            if (!strcmp(a, "--validate"))
                o->validate = 1;
            else if (!strcmp(a, "--no-header"))
                o->header = 0;
            else if (!strcmp(a, "--read-results"))
                o->read_results = 1;
            else if (!strcmp(a, "--start") && v && (!strcmp(v, "barrier") || !strcmp(v, "scheduled")))
                o->scheduled = !strcmp(v, "scheduled"), takes = 1;
            else if (!strcmp(a, "-n"))
                o->timer_correction = 0;
            else if (!strcmp(a, "-h") || !strcmp(a, "--help"))
                return -1;
            else {
                if (rank == 0)
                    fprintf(stderr, "coll_bench: unknown argument '%s'\n", a);
                return -1;
            }
        }
        if (bad) {
            if (rank == 0)
                fprintf(stderr, "coll_bench: bad or missing value for %s\n", a);
            return -1;
        }
        i += takes;
    }
    if (o->min_iters > o->max_iters)
        o->max_iters = o->min_iters;
    if (!explicit_sizes) {
        if (o->min_size == 0 || o->min_size > o->max_size)
            return -1;
        for (size_t s = o->min_size; s <= o->max_size && o->nsizes < MAX_SIZES; s *= 2)
            o->sizes[o->nsizes++] = s;
    }
    return 0;
}

static void *alloc_bytes(size_t n)
{
    size_t rounded = ((n ? n : 1) + 4095) & ~(size_t)4095;
    void *p = aligned_alloc(4096, rounded);
    if (!p) {
        fprintf(stderr, "coll_bench: out of memory (%zu bytes)\n", rounded);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    memset(p, 0, rounded); /* first touch by the owning rank */
    return p;
}

/* The call's shape: element count per message and buffer sizes. */
static void shape(struct call *k, size_t bytes, struct bufs *b)
{
    const size_t p = (size_t)k->size;
    memset(b, 0, sizeof *b);
    k->bytes = bytes;
    k->count = is_reduction(k->coll) ? (bytes + 7) / 8 : bytes;
    k->block = 0;
    switch (k->coll) {
    case C_BARRIER:
        k->bytes = k->count = 0;
        break;
    case C_BCAST:
        b->send_bytes = k->count; /* the one buffer */
        break;
    case C_REDUCE:
    case C_ALLREDUCE:
    case C_SCAN:
    case C_EXSCAN:
        b->send_bytes = b->recv_bytes = k->count * 8;
        break;
    case C_REDUCE_SCATTER_BLOCK:
        k->block = k->count / p ? k->count / p : 1;
        k->count = k->block * p;
        k->bytes = k->count * 8;
        b->send_bytes = k->count * 8;
        b->recv_bytes = k->block * 8;
        break;
    case C_REDUCE_SCATTER:
        b->send_bytes = k->count * 8;
        b->recv_bytes = (k->count / p + 1) * 8;
        b->counts = malloc(p * sizeof(int));
        for (size_t i = 0; i < p; i++) /* uneven counts are allowed: spread the remainder */
            b->counts[i] = (int)(k->count / p + (i < k->count % p));
        break;
    case C_ALLGATHER:
    case C_ALLGATHERV:
    case C_GATHER:
    case C_GATHERV:
        b->send_bytes = k->count;
        b->recv_bytes = k->count * p;
        break;
    case C_SCATTER:
        b->send_bytes = k->count * p;
        b->recv_bytes = k->count;
        break;
    case C_ALLTOALL:
        b->send_bytes = b->recv_bytes = k->count * p;
        break;
    }
    if (k->coll == C_ALLGATHERV || k->coll == C_GATHERV) {
        b->counts = malloc(p * sizeof(int));
        b->displs = malloc(p * sizeof(int));
        for (size_t i = 0; i < p; i++) {
            b->counts[i] = (int)k->count;
            b->displs[i] = (int)(i * k->count);
        }
    }
    /* Rooted buffers that only the root uses are still allocated on every
     * rank (small waste, simpler); the root's are the ones that matter. */
    b->send = alloc_bytes(b->send_bytes);
    b->recv = alloc_bytes(b->recv_bytes);
}

static void free_bufs(struct bufs *b)
{
    free(b->send);
    free(b->recv);
    free(b->counts);
    free(b->displs);
}

/* Does this rank provide input data to the call? */
static int has_input(const struct call *k)
{
    if (k->coll == C_BCAST || k->coll == C_SCATTER)
        return k->rank == k->root;
    return k->coll != C_BARRIER;
}

static int do_call(const struct call *k, struct bufs *b)
{
    const int n = (int)k->count;
    MPI_Comm w = MPI_COMM_WORLD;
    switch (k->coll) {
    case C_BARRIER: return MPI_Barrier(w);
    case C_BCAST: return MPI_Bcast(b->send, n, MPI_BYTE, k->root, w);
    case C_REDUCE: return MPI_Reduce(b->send, b->recv, n, MPI_DOUBLE, MPI_SUM, k->root, w);
    case C_ALLREDUCE: return MPI_Allreduce(b->send, b->recv, n, MPI_DOUBLE, MPI_SUM, w);
    case C_REDUCE_SCATTER_BLOCK:
        return MPI_Reduce_scatter_block(b->send, b->recv, (int)k->block, MPI_DOUBLE, MPI_SUM, w);
    case C_REDUCE_SCATTER: return MPI_Reduce_scatter(b->send, b->recv, b->counts, MPI_DOUBLE, MPI_SUM, w);
    case C_ALLGATHER: return MPI_Allgather(b->send, n, MPI_BYTE, b->recv, n, MPI_BYTE, w);
    case C_GATHER: return MPI_Gather(b->send, n, MPI_BYTE, b->recv, n, MPI_BYTE, k->root, w);
    case C_SCATTER: return MPI_Scatter(b->send, n, MPI_BYTE, b->recv, n, MPI_BYTE, k->root, w);
    case C_ALLTOALL: return MPI_Alltoall(b->send, n, MPI_BYTE, b->recv, n, MPI_BYTE, w);
    case C_SCAN: return MPI_Scan(b->send, b->recv, n, MPI_DOUBLE, MPI_SUM, w);
    case C_EXSCAN: return MPI_Exscan(b->send, b->recv, n, MPI_DOUBLE, MPI_SUM, w);
    case C_ALLGATHERV:
        return MPI_Allgatherv(b->send, n, MPI_BYTE, b->recv, b->counts, b->displs, MPI_BYTE, w);
    case C_GATHERV:
        return MPI_Gatherv(b->send, n, MPI_BYTE, b->recv, b->counts, b->displs, MPI_BYTE, k->root, w);
    }
    return MPI_ERR_ARG;
}

/* ------------------------------------------------------------- timing ---- */

/* The untimed per-call rewrite of the whole send buffer, with a value that
 * depends on the iteration (and the rank). Doubles get small normal values
 * (never denormals or NaNs, which would slow some reductions down). */
static void rewrite_send(const struct call *k, struct bufs *b, int iter)
{
    if (!has_input(k) || b->send_bytes == 0)
        return;
    if (is_reduction(k->coll)) {
        double *d = b->send;
        const double v = (double)(1 + (iter & 7) + k->rank);
        for (size_t i = 0; i < k->count; i++)
            d[i] = v;
    } else {
        memset(b->send, 1 + ((iter * 7 + k->rank * 13) & 0x7f), b->send_bytes);
    }
}

/* The untimed read of this rank's results (--read-results): one byte of
 * every cache line, so each line comes into this rank's cache. Returns
 * their XOR, for the caller to keep. */
static unsigned char read_results(const struct call *k, const struct bufs *b)
{
    const unsigned char *p = (const unsigned char *)b->recv;
    size_t n = b->recv_bytes;
    if (k->coll == C_BCAST) {
        p = (const unsigned char *)b->send; /* the one buffer */
        n = b->send_bytes;
    } else if ((k->coll == C_REDUCE || k->coll == C_GATHER || k->coll == C_GATHERV) && k->rank != k->root) {
        n = 0; /* only the root receives */
    }
    unsigned char x = 0;
    for (size_t i = 0; i < n; i += 64)
        x ^= p[i];
    return x;
}

/* Runs `n` barrier-separated calls (period 0) or calls started `period`
 * seconds apart at times common to all ranks (--start scheduled; `late`
 * counts this rank's calls that it reached after their start time);
 * returns this rank's summed call time. With `each`, also stores every
 * call's time there. */
static double timed_calls(const struct call *kk, struct bufs *b, int n, int iter0, double timer_cost, double *each,
                          double period, long *late)
{
    struct call call = *kk, *k = &call;
    double total = 0, base = 0;
    if (period > 0) {
        /* Far enough ahead for every rank to have the time before it comes. */
        MPI_Barrier(MPI_COMM_WORLD);
        base = now() + 200e-6;
        MPI_Bcast(&base, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
    for (int i = 0; i < n; i++) {
        if (k->rotate_root)
            k->root = (iter0 + i) % k->size;
        rewrite_send(k, b, iter0 + i);
        if (period > 0) {
            const double start = base + i * period;
            if (now() > start)
                ++*late;
            while (now() < start)
                ;
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
        }
        double t0 = now();
        do_call(k, b);
        double t1 = now();
        if (k->read_results)
            b->kept ^= read_results(k, b);
        total += t1 - t0 - timer_cost;
        if (each)
            each[i] = t1 - t0 - timer_cost;
    }
    return total;
}

/* Warm-up calls; returns the typical call time all ranks agree on: the
 * largest over ranks of each rank's median (a median, so that one call
 * delayed by the machine does not shrink the iteration count). */
static double warm_up(const struct call *k, struct bufs *b, int n, int iter0, double timer_cost)
{
    double *each = malloc((size_t)n * sizeof *each);
    timed_calls(k, b, n, iter0, timer_cost, each, 0, NULL);
    double mine = median(each, n), agreed = 0;
    free(each);
    MPI_Allreduce(&mine, &agreed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return agreed > 1e-8 ? agreed : 1e-8;
}

static double max_d(double a, double b)
{
    return a > b ? a : b;
}

static int clamp_int(double v, int lo, int hi)
{
    if (!(v >= lo))
        return lo;
    if (v > hi)
        return hi;
    return (int)v;
}

static void measure(const struct options *o, struct call *k, size_t bytes, double timer_cost)
{
    struct bufs b;
    shape(k, bytes, &b);
    /* Probe with one call, agree (max over ranks) on its duration, derive
     * the warm-up and the iteration count from it: every rank must make the
     * same number of calls. */
    const double target = o->time_ms * 1e-3;
    const int probes = 3;
    double per_call = warm_up(k, &b, probes, 0, timer_cost);
    int warm = o->warmup >= 0 ? o->warmup : clamp_int(target / 4 / per_call, 2, 1000);
    if (warm > 0)
        per_call = warm_up(k, &b, warm, probes, timer_cost);
    /* --start scheduled: the period between calls' start times, from the
     * slowest rank's call and its rewrite of the send buffer (timed here,
     * the largest of three). */
    double period = 0, rewrite = 0;
    long late = 0;
    if (o->scheduled) {
        double mine_rw = 0;
        for (int i = 0; i < 3; i++) {
            const double t = now();
            rewrite_send(k, &b, probes + warm + i);
            mine_rw = max_d(mine_rw, now() - t);
        }
        MPI_Allreduce(&mine_rw, &rewrite, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        period = 2 * (per_call + rewrite) + 5e-6;
    }
    int iters = o->iters > 0 ? o->iters
                             : clamp_int(target / (period > 0 ? period : per_call), o->min_iters, o->max_iters);

    double *avg = malloc((size_t)o->reps * sizeof *avg), *mx = malloc((size_t)o->reps * sizeof *mx);
    int done = probes + warm;
    for (int r = 0; r < o->reps; r++) {
        double mine = timed_calls(k, &b, iters, done, timer_cost, NULL, period, &late) / iters;
        done += iters;
        double sum = 0, max = 0;
        MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(&mine, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        avg[r] = sum / k->size;
        mx[r] = max;
        /* A warm-up disturbed by the machine can leave far too few
         * iterations: re-size from this repetition (all ranks know `max`). */
        if (period > 0 && max > 0) {
            /* Calls slower than the warm-up's: a longer period, so that the
             * next repetition's ranks are there before its start times. */
            period = max_d(period, 2 * (max + rewrite) + 5e-6);
            if (o->iters == 0)
                iters = clamp_int(target / period, o->min_iters, o->max_iters);
        } else if (o->iters == 0 && max > 0 && (iters * max < target / 4 || iters * max > target * 4)) {
            iters = clamp_int(target / max, o->min_iters, o->max_iters);
        }
    }
    if (o->scheduled) {
        long all_late = 0;
        MPI_Reduce(&late, &all_late, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        const double calls = (double)o->reps * iters * k->size;
        if (k->rank == 0 && all_late > 0.01 * calls)
            fprintf(stderr, "coll_bench: --start scheduled: %ld of about %.0f calls of %s at %zu B started late\n",
                    all_late, calls, coll_names[k->coll], k->bytes);
    }
    if (k->rank == 0) {
        printf("%s,%s,%zu,%d,%.3f,%.3f,%d\n", o->impl, coll_names[k->coll], k->bytes, k->size,
               1e6 * median(avg, o->reps), 1e6 * median(mx, o->reps), iters);
        fflush(stdout);
    }
    free(avg);
    free(mx);
    free_bufs(&b);
}

/* ---------------------------------------------------------- validation -- */

/* Byte j of rank r's input in call `it` (distinct per rank, position, call). */
static unsigned char pattern(int r, size_t j, int it)
{
    uint32_t h = (uint32_t)r * 2654435761u ^ (uint32_t)j * 40503u ^ (uint32_t)(j >> 16) * 977u ^ (uint32_t)it * 97u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    return (unsigned char)(h ^ (h >> 15));
}

/* Element j of rank r's input vector in call `it`: small integers, so every
 * sum is exact in double and the order of additions does not matter. */
static double dvalue(int r, size_t j, int it)
{
    return (double)((r + 1) * (int)(j % 13 + 1) + (it % 7) - 3);
}

/* Sum of dvalue over ranks lo..hi-1. */
static double dsum(int lo, int hi, size_t j, int it)
{
    double s = 0;
    for (int r = lo; r < hi; r++)
        s += dvalue(r, j, it);
    return s;
}

struct checker {
    long errors;
    int shown;
    const char *name;
    size_t bytes;
    int rank;
};

static void fail_byte(struct checker *c, size_t j, unsigned got, unsigned want)
{
    if (c->errors++ < 3)
        fprintf(stderr, "coll_bench: validate %s %zu B: rank %d byte %zu is %u, expected %u\n", c->name, c->bytes,
                c->rank, j, got, want);
}

static void fail_double(struct checker *c, size_t j, double got, double want)
{
    if (c->errors++ < 3)
        fprintf(stderr, "coll_bench: validate %s %zu B: rank %d element %zu is %g, expected %g\n", c->name,
                c->bytes, c->rank, j, got, want);
}

static void check_blocks(struct checker *c, const unsigned char *buf, int first, int nblocks, size_t count, int it)
{
    for (int i = 0; i < nblocks; i++)
        for (size_t j = 0; j < count; j++) {
            unsigned char want = pattern(first + i, j, it);
            if (buf[(size_t)i * count + j] != want)
                fail_byte(c, (size_t)i * count + j, buf[(size_t)i * count + j], want);
        }
}

/* One validated call: fill inputs, poison outputs, call, check. */
static long validate_call(struct call *k, struct bufs *b, int it)
{
    const int r = k->rank, p = k->size;
    struct checker c = {0, 0, coll_names[k->coll], k->bytes, r};
    unsigned char *sb = b->send, *rb = b->recv;
    double *sd = b->send, *rd = b->recv;
    if (is_reduction(k->coll)) {
        for (size_t j = 0; j < k->count; j++)
            sd[j] = dvalue(r, j, it);
    } else if (k->coll == C_ALLTOALL) {
        for (int d = 0; d < p; d++) /* block d goes to rank d: pattern of (r * p + d) */
            for (size_t j = 0; j < k->count; j++)
                sb[(size_t)d * k->count + j] = pattern(r * p + d, j, it);
    } else if (k->coll == C_SCATTER) {
        if (r == k->root)
            for (int d = 0; d < p; d++)
                for (size_t j = 0; j < k->count; j++)
                    sb[(size_t)d * k->count + j] = pattern(d, j, it);
    } else if (k->coll == C_BCAST) {
        if (r == k->root)
            for (size_t j = 0; j < k->count; j++)
                sb[j] = pattern(k->root, j, it);
        else
            memset(sb, 0xA5, k->count); /* poison: must be overwritten */
    } else if (k->coll != C_BARRIER) {
        for (size_t j = 0; j < k->count; j++)
            sb[j] = pattern(r, j, it);
    }
    memset(rb, 0xFF, b->recv_bytes); /* bytes 0xFF; as doubles, NaN: never equal to a result */

    int rc = do_call(k, b);
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "coll_bench: validate %s %zu B: rank %d: call returned %d\n", c.name, k->bytes, r, rc);
        return 1;
    }

    switch (k->coll) {
    case C_BARRIER:
        break;
    case C_BCAST:
        check_blocks(&c, sb, k->root, 1, k->count, it);
        break;
    case C_REDUCE:
        if (r == k->root)
            for (size_t j = 0; j < k->count; j++)
                if (rd[j] != dsum(0, p, j, it))
                    fail_double(&c, j, rd[j], dsum(0, p, j, it));
        break;
    case C_ALLREDUCE:
        for (size_t j = 0; j < k->count; j++)
            if (rd[j] != dsum(0, p, j, it))
                fail_double(&c, j, rd[j], dsum(0, p, j, it));
        break;
    case C_SCAN:
    case C_EXSCAN: {
        int hi = k->coll == C_SCAN ? r + 1 : r;
        if (hi > 0) /* Exscan's result on rank 0 is undefined */
            for (size_t j = 0; j < k->count; j++)
                if (rd[j] != dsum(0, hi, j, it))
                    fail_double(&c, j, rd[j], dsum(0, hi, j, it));
        break;
    }
    case C_REDUCE_SCATTER_BLOCK:
        for (size_t j = 0; j < k->block; j++) {
            size_t g = (size_t)r * k->block + j;
            if (rd[j] != dsum(0, p, g, it))
                fail_double(&c, g, rd[j], dsum(0, p, g, it));
        }
        break;
    case C_REDUCE_SCATTER: {
        size_t off = 0;
        for (int i = 0; i < r; i++)
            off += (size_t)b->counts[i];
        for (size_t j = 0; j < (size_t)b->counts[r]; j++)
            if (rd[j] != dsum(0, p, off + j, it))
                fail_double(&c, off + j, rd[j], dsum(0, p, off + j, it));
        break;
    }
    case C_ALLGATHER:
    case C_ALLGATHERV:
        check_blocks(&c, rb, 0, p, k->count, it);
        break;
    case C_GATHER:
    case C_GATHERV:
        if (r == k->root)
            check_blocks(&c, rb, 0, p, k->count, it);
        break;
    case C_SCATTER:
        check_blocks(&c, rb, r, 1, k->count, it);
        break;
    case C_ALLTOALL:
        for (int s = 0; s < p; s++)
            for (size_t j = 0; j < k->count; j++) {
                unsigned char want = pattern(s * p + r, j, it);
                if (rb[(size_t)s * k->count + j] != want)
                    fail_byte(&c, (size_t)s * k->count + j, rb[(size_t)s * k->count + j], want);
            }
        break;
    }
    if (c.errors > 3)
        fprintf(stderr, "coll_bench: validate %s %zu B: rank %d: %ld wrong elements in all\n", c.name, k->bytes, r,
                c.errors);
    return c.errors;
}

/* Three calls per collective and size (distinct data, the root moving
 * over the ranks); returns the number of failures seen by all ranks. */
static long validate(const struct options *o, struct call *k, size_t bytes)
{
    struct bufs b;
    shape(k, bytes, &b);
    long errors = 0;
    for (int it = 0; it < 3; it++) {
        k->root = (o->root + it * (k->size / 2 + 1)) % k->size;
        errors += validate_call(k, &b, it) ? 1 : 0;
    }
    k->root = o->root % k->size;
    free_bufs(&b);
    long total = 0;
    MPI_Allreduce(&errors, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (k->rank == 0)
        printf("# validate %s %zu B: %s\n", coll_names[k->coll], k->bytes, total ? "FAILED" : "ok");
    return total;
}

/* ---------------------------------------------------------------- main -- */

static const char *guess_impl(char *buf)
{
    int len = 0;
    MPI_Get_library_version(buf, &len);
    if (strstr(buf, "Open MPI"))
        return "ompi";
    if (strstr(buf, "MPICH"))
        return "mpich";
    if (strstr(buf, "HMPI"))
        return "hmpi";
    return "mpi";
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    struct options o;
    if (parse_args(argc, argv, &o, rank)) {
        int rc = usage(rank);
        MPI_Finalize();
        return rc;
    }
    char *version = malloc(MPI_MAX_LIBRARY_VERSION_STRING);
    if (!o.impl)
        o.impl = guess_impl(version);
    if (o.root >= size) {
        if (rank == 0)
            fprintf(stderr, "coll_bench: --root %d but only %d ranks\n", o.root, size);
        MPI_Finalize();
        return 2;
    }
    (void)rewrite_lines; /* bench_common.h's one-byte-per-line rewrite: this benchmark rewrites every byte */
    double timer_cost = o.timer_correction && !o.validate ? calibrate_timer() : 0.0;
    /* Every rank uses rank 0's timer cost, so the correction is uniform. */
    MPI_Bcast(&timer_cost, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0 && o.header) {
        if (o.validate)
            printf("# coll_bench: %s, %d ranks, validation (3 calls per collective and size)\n", o.impl, size);
        else
            printf("# coll_bench: %s, %d ranks, timing, %d repetitions of %s %.1f ms, timer cost %.1f ns %s%s%s%s\n",
                   o.impl, size, o.reps, o.iters ? "fixed iterations, not" : "about", o.time_ms, 1e9 * timer_cost,
                   o.timer_correction ? "(subtracted)" : "(not subtracted)",
                   o.read_results ? ", results read after each call" : "",
                   o.rotate_root ? ", root rotating over the ranks" : "",
                   o.scheduled ? ", calls started at common times (no barrier)" : "");
        if (o.scheduled && !o.validate && size > sysconf(_SC_NPROCESSORS_ONLN))
            fprintf(stderr, "coll_bench: --start scheduled with more ranks than CPUs: ranks waiting for a start "
                            "time keep the CPUs others need, and the times mean little\n");
        if (!o.validate)
            printf("impl,collective,bytes,ranks,avg_us,max_us,iters\n");
        fflush(stdout);
    }
    long failures = 0;
    for (int ci = 0; ci < o.ncolls; ci++) {
        struct call k = {o.colls[ci], 0, 0, 0, o.root, rank, size, o.read_results, o.rotate_root};
        size_t last_bytes = (size_t)-1;
        for (int si = 0; si < o.nsizes; si++) {
            /* Barrier has no size; Reduce_scatter_block rounds small sizes
             * up to p doubles: run each distinct size once. */
            size_t bytes = o.sizes[si];
            if (k.coll == C_BARRIER)
                bytes = 0;
            else if (k.coll == C_REDUCE_SCATTER_BLOCK) {
                size_t count = (bytes + 7) / 8, blk = count / (size_t)size ? count / (size_t)size : 1;
                bytes = blk * (size_t)size * 8;
            }
            if (bytes == last_bytes)
                continue;
            last_bytes = bytes;
            if (o.validate)
                failures += validate(&o, &k, o.sizes[si]);
            else
                measure(&o, &k, o.sizes[si], timer_cost);
        }
    }
    if (o.validate && rank == 0)
        printf(failures ? "# validation FAILED: %ld failing calls\n" : " No Errors\n", failures);
    free(version);
    MPI_Finalize();
    return failures ? 1 : 0;
}
