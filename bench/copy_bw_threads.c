/*
 * copy_bw_threads.c - the copy bandwidth of N threads copying at once, the
 * "measured copy bandwidth" that bounds a large collective on N ranks.
 *
 * An allreduce of m bytes on N ranks reads the N inputs and writes the N
 * results: 2 N m bytes of data access at least. A copy of one byte is one
 * read and one write, so N threads copying at once, each its own m bytes,
 * make the same data access volume; the time they take is the bound
 * bench/coll/analyze.py reports (bench/coll/README.md, "large Allreduce
 * bound"). One thread's memcpy (memcpy_bw.c) does not give it: N cores
 * may share the memory system or not.
 *
 * Method, as memcpy_bw's where it applies: N threads, thread i pinned to
 * the i-th CPU of the process's affinity mask (as hmpirun --bind-to core
 * places rank i), each with its own source and destination, first touched
 * by itself. Per copy: every thread rewrites its source (one byte per
 * 64-byte line), all meet at a barrier, thread 0 reads the clock, every
 * thread copies, all meet at a second barrier, thread 0 reads the clock
 * again: the time of the slowest copy, plus a barrier. REPS blocks of K
 * copies (a block takes about -t ms); reported: median and min over blocks
 * of the time per copy, and the aggregate bandwidth N * size / median
 * (MB = 1e6 bytes). Sizes from 64 KiB (below, the barriers dominate).
 *
 * CSV (-c): threads,size,lat_us_median,lat_us_min,bw_MBps
 *
 * -f (fold-push): instead of copying, the threads do the data movement of
 * an allreduce that reads every input once and writes every result once
 * (collectives/allreduce/tiled_push.cpp): each thread's SIZE-byte buffer
 * of doubles is one rank's input, thread k sums slice k (its SIZE/N bytes,
 * whole lines) of all N inputs a line at a time and streams the line into
 * slice k of all N destinations with non-temporal stores. Per thread that
 * reads SIZE bytes and writes SIZE bytes, the copy's volume, but N-1 of
 * every N lines it reads were just written by another core. Its time is the floor a large allreduce of that kind
 * reaches on the machine, to set beside the copy's bound (run.sh,
 * bench/coll/bound16.sh). Sources are rewritten as for the copy (one
 * double per line), the first double of every destination line checked.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_common.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define MIN_COPY ((size_t)64 << 10)
#define MAX_THREADS 1024

struct shared {
    pthread_barrier_t barrier;
    int threads, reps;
    size_t min_size, max_size;
    double target, corr;
    int fold;    /* -f: fold-push instead of copy */
    long copies; /* per block for the current size, set by thread 0 between two barriers */
    double *fold_src[MAX_THREADS], *fold_dst[MAX_THREADS]; /* -f: every thread's buffers, for all */
    double *lat; /* per size and block, written by thread 0 */
    int cpus[MAX_THREADS];
    long errors[MAX_THREADS];
};

struct worker {
    struct shared *sh;
    int id;
};

static long check_lines(const unsigned char *buf, size_t n, unsigned char v)
{
    for (size_t off = 0; off < n; off += LINE)
        if (buf[off] != v)
            return 1;
    return 0;
}

/* One timed copy of every thread; returns the time (thread 0's clock). */
static double copy_all(struct shared *sh, int id, unsigned char *src, unsigned char *dst, size_t n,
                       unsigned char v)
{
    rewrite_lines(src, n, v);
    pthread_barrier_wait(&sh->barrier);
    double t0 = id == 0 ? now() : 0.0;
    memcpy(dst, src, n);
    pthread_barrier_wait(&sh->barrier);
    return id == 0 ? now() - t0 : 0.0;
}

/* Every thread's source: one double per line, (v + id); the rest stays 0. */
static void rewrite_doubles(double *src, size_t n, unsigned char v, int id)
{
    for (size_t i = 0; i < n / sizeof(double); i += LINE / sizeof(double))
        src[i] = (double)v + (double)id;
}

/* Lines of `dst` whose first double is not the sum over the N sources. */
static long check_fold(const double *dst, size_t n, unsigned char v, int threads)
{
    const double want = (double)threads * (double)v + (double)threads * (threads - 1) / 2.0;
    long bad = 0;
    for (size_t i = 0; i < n / sizeof(double); i += LINE / sizeof(double))
        bad += dst[i] != want;
    return bad != 0;
}

/* Thread `id`'s slice of every input summed and stored into every
 * destination, line by line: the sum of one line is held in registers and
 * streamed out at once. (Folding a strip into a scratch first and
 * streaming the strip out afterwards took 1.5-3x longer on the 2-core EPYC
 * guest with strips up to 8 KiB: each burst of non-temporal stores holds
 * up the next strip's loads.) */
static void fold_push(struct shared *sh, int id, size_t n)
{
    const int p = sh->threads;
    const size_t lines = n / LINE, per_line = LINE / sizeof(double);
    const size_t lo = lines * (size_t)id / (size_t)p * per_line, hi = lines * (size_t)(id + 1) / (size_t)p * per_line;
    for (size_t a = lo; a < hi; a += per_line) {
#if defined(__SSE2__)
        const double *s0 = sh->fold_src[0] + a;
        __m128d x0 = _mm_load_pd(s0), x1 = _mm_load_pd(s0 + 2), x2 = _mm_load_pd(s0 + 4), x3 = _mm_load_pd(s0 + 6);
        for (int k = 1; k < p; k++) {
            const double *sk = sh->fold_src[k] + a;
            x0 = _mm_add_pd(x0, _mm_load_pd(sk));
            x1 = _mm_add_pd(x1, _mm_load_pd(sk + 2));
            x2 = _mm_add_pd(x2, _mm_load_pd(sk + 4));
            x3 = _mm_add_pd(x3, _mm_load_pd(sk + 6));
        }
        for (int j = 0; j < p; j++) {
            double *d = sh->fold_dst[j] + a;
            _mm_stream_pd(d, x0);
            _mm_stream_pd(d + 2, x1);
            _mm_stream_pd(d + 4, x2);
            _mm_stream_pd(d + 6, x3);
        }
#else
        double sum[LINE / sizeof(double)];
        memcpy(sum, sh->fold_src[0] + a, sizeof sum);
        for (int k = 1; k < p; k++)
            for (size_t i = 0; i < per_line; i++)
                sum[i] += sh->fold_src[k][a + i];
        for (int j = 0; j < p; j++)
            memcpy(sh->fold_dst[j] + a, sum, sizeof sum);
#endif
    }
#if defined(__SSE2__)
    _mm_sfence();
#endif
}

/* One timed fold-push of every thread; returns the time (thread 0's clock). */
static double fold_all(struct shared *sh, int id, size_t n, unsigned char v)
{
    rewrite_doubles(sh->fold_src[id], n, v, id);
    pthread_barrier_wait(&sh->barrier);
    double t0 = id == 0 ? now() : 0.0;
    fold_push(sh, id, n);
    pthread_barrier_wait(&sh->barrier);
    return id == 0 ? now() - t0 : 0.0;
}

static double step(struct shared *sh, int id, unsigned char *src, unsigned char *dst, size_t n, unsigned char v)
{
    return sh->fold ? fold_all(sh, id, n, v) : copy_all(sh, id, src, dst, n, v);
}

static long check(struct shared *sh, const unsigned char *dst, size_t n, unsigned char v)
{
    return sh->fold ? check_fold((const double *)dst, n, v, sh->threads) : check_lines(dst, n, v);
}

static void *run(void *arg)
{
    struct worker *w = arg;
    struct shared *sh = w->sh;
    const int id = w->id;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(sh->cpus[id], &one);
    if (pthread_setaffinity_np(pthread_self(), sizeof one, &one) != 0 && id == 0)
        fprintf(stderr, "copy_bw_threads: could not pin the threads (unpinned)\n");
    const size_t alloc = (sh->max_size + 4095) & ~(size_t)4095;
    unsigned char *src = aligned_alloc(4096, alloc), *dst = aligned_alloc(4096, alloc);
    if (!src || !dst) {
        fprintf(stderr, "copy_bw_threads: out of memory\n");
        exit(1);
    }
    memset(src, 0, alloc); /* first touch by the copying thread */
    memset(dst, 0, alloc);
    sh->fold_src[id] = (double *)src;
    sh->fold_dst[id] = (double *)dst;
    pthread_barrier_wait(&sh->barrier); /* -f: every thread's buffers are known */
    long it = 0, errors = 0;
    int size_index = 0;
    for (size_t n = sh->min_size; n <= sh->max_size; n *= 2, ++size_index) {
        /* Warm-up; thread 0's estimate of one copy sets K for everyone. */
        const long warm = 4;
        double est = 0.0;
        for (long i = 0; i < warm; i++, it++)
            est = step(sh, id, src, dst, n, (unsigned char)(it + 1));
        errors += check(sh, dst, n, (unsigned char)it);
        if (id == 0) {
            double kd = est > 0 ? sh->target / est : 1e6;
            sh->copies = kd < 1.0 ? 1 : (kd > 1e6 ? 1000000 : (long)(kd + 0.5));
        }
        pthread_barrier_wait(&sh->barrier);
        const long k_copies = sh->copies;
        for (int r = 0; r < sh->reps; r++) {
            double acc = 0.0;
            for (long k = 0; k < k_copies; k++, it++)
                acc += step(sh, id, src, dst, n, (unsigned char)(it + 1));
            errors += check(sh, dst, n, (unsigned char)it);
            if (id == 0)
                sh->lat[size_index * sh->reps + r] = acc / (double)k_copies - sh->corr;
        }
        pthread_barrier_wait(&sh->barrier); /* copies is rewritten for the next size */
    }
    sh->errors[id] = errors;
    pthread_barrier_wait(&sh->barrier); /* -f: nobody frees a buffer another still reads */
    free(src);
    free(dst);
    return NULL;
}

static void usage(FILE *f)
{
    fputs("usage: copy_bw_threads -p THREADS [-m MAX_SIZE] [-s SIZE] [-r REPS] [-t BLOCK_MS] [-f] [-q] [-c] [-n]\n"
          "  -p THREADS   threads copying at once, pinned to the first THREADS CPUs of the affinity mask\n"
          "  -m MAX_SIZE  largest copy per thread (default 16M; suffixes K, M, G); sizes from 64K\n"
          "  -s SIZE      this size only\n"
          "  -r REPS      timed blocks per size (default 9)\n"
          "  -t BLOCK_MS  target duration of one block in ms (default 20)\n"
          "  -f           fold-push: each thread sums its slice of every thread's doubles and stores it into\n"
          "               every thread's destination (an allreduce's least data movement) instead of copying\n"
          "  -q           quiet: no '#' header lines and no column header\n"
          "  -c           CSV output: threads,size,lat_us_median,lat_us_min,bw_MBps (bw: all threads together)\n"
          "  -n           no timer-overhead correction\n",
          f);
}

int main(int argc, char **argv)
{
    static struct shared sh;
    sh.threads = 0;
    sh.reps = 9;
    sh.min_size = MIN_COPY;
    sh.max_size = (size_t)16 << 20;
    sh.target = 20e-3;
    int quiet = 0, csv = 0, raw = 0, only = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == '\0' || a[2] != '\0') {
            fprintf(stderr, "copy_bw_threads: unknown argument '%s'\n", a);
            usage(stderr);
            return 1;
        }
        const char opt = a[1];
        const char *val = NULL;
        if (strchr("pmsrt", opt)) {
            if (i + 1 >= argc) {
                fprintf(stderr, "copy_bw_threads: option -%c needs a value\n", opt);
                return 1;
            }
            val = argv[++i];
        }
        char *end = NULL;
        size_t size = 0;
        switch (opt) {
        case 'p':
            sh.threads = (int)strtol(val, &end, 10);
            if (*end || sh.threads < 1 || sh.threads > MAX_THREADS) {
                fprintf(stderr, "copy_bw_threads: bad -p '%s' (1..%d)\n", val, MAX_THREADS);
                return 1;
            }
            break;
        case 'm':
        case 's':
            if (parse_size(val, &size) || size < MIN_COPY || size > ((size_t)1 << 30)) {
                fprintf(stderr, "copy_bw_threads: bad -%c '%s' (64K..1G)\n", opt, val);
                return 1;
            }
            sh.max_size = size;
            if (opt == 's')
                only = 1, sh.min_size = size;
            break;
        case 'r':
            sh.reps = (int)strtol(val, &end, 10);
            if (*end || sh.reps < 1 || sh.reps > 10000) {
                fprintf(stderr, "copy_bw_threads: bad -r '%s'\n", val);
                return 1;
            }
            break;
        case 't':
            sh.target = strtod(val, &end) * 1e-3;
            if (*end || !(sh.target > 0.0) || sh.target > 10.0) {
                fprintf(stderr, "copy_bw_threads: bad -t '%s'\n", val);
                return 1;
            }
            break;
        case 'f': sh.fold = 1; break;
        case 'q': quiet = 1; break;
        case 'c': csv = 1; break;
        case 'n': raw = 1; break;
        case 'h': usage(stdout); return 0;
        default:
            fprintf(stderr, "copy_bw_threads: unknown option '%s'\n", a);
            usage(stderr);
            return 1;
        }
    }
    if (sh.threads < 1) {
        fprintf(stderr, "copy_bw_threads: -p THREADS is required\n");
        usage(stderr);
        return 1;
    }
    if (!only && sh.min_size > sh.max_size)
        sh.min_size = sh.max_size;

    cpu_set_t mask;
    if (sched_getaffinity(0, sizeof mask, &mask) != 0) {
        fprintf(stderr, "copy_bw_threads: sched_getaffinity: %s\n", strerror(errno));
        return 1;
    }
    int found = 0;
    for (int c = 0; c < CPU_SETSIZE && found < sh.threads; c++)
        if (CPU_ISSET(c, &mask))
            sh.cpus[found++] = c;
    if (found < sh.threads) {
        fprintf(stderr, "copy_bw_threads: %d threads but only %d CPUs in the affinity mask\n", sh.threads, found);
        return 1;
    }
    int sizes = 0;
    for (size_t n = sh.min_size; n <= sh.max_size; n *= 2)
        sizes++;
    sh.lat = calloc((size_t)sizes * (size_t)sh.reps, sizeof *sh.lat);
    if (!sh.lat || pthread_barrier_init(&sh.barrier, NULL, (unsigned)sh.threads) != 0) {
        fprintf(stderr, "copy_bw_threads: out of memory\n");
        return 1;
    }
    const double tov = calibrate_timer();
    sh.corr = raw ? 0.0 : tov;
    if (!quiet) {
        if (sh.fold)
            printf("# copy_bw_threads -f: %d threads (CPUs %d..%d of the mask) each summing its slice of all %d "
                   "sources and storing it into all %d destinations (non-temporal); sources rewritten before "
                   "every fold-push, outside the timed window\n",
                   sh.threads, sh.cpus[0], sh.cpus[sh.threads - 1], sh.threads, sh.threads);
        else
            printf("# copy_bw_threads: %d threads (CPUs %d..%d of the mask) copying at once, each its own buffers; "
                   "sources rewritten before every copy, outside the timed window\n",
                   sh.threads, sh.cpus[0], sh.cpus[sh.threads - 1]);
        printf("# lat = time of the slowest thread's copy, barrier to barrier (median and min over %d blocks); "
               "bw = threads x size / median, MB = 1e6 bytes\n",
               sh.reps);
        if (csv)
            printf("threads,size,lat_us_median,lat_us_min,bw_MBps\n");
        else
            printf("%8s %10s %14s %12s %12s\n", "threads", "size[B]", "lat_med[us]", "lat_min[us]", "bw[MB/s]");
        fflush(stdout);
    }

    pthread_t *tid = malloc((size_t)sh.threads * sizeof *tid);
    struct worker *w = malloc((size_t)sh.threads * sizeof *w);
    if (!tid || !w) {
        fprintf(stderr, "copy_bw_threads: out of memory\n");
        return 1;
    }
    for (int i = 0; i < sh.threads; i++) {
        w[i] = (struct worker){&sh, i};
        if (pthread_create(&tid[i], NULL, run, &w[i]) != 0) {
            fprintf(stderr, "copy_bw_threads: pthread_create failed\n");
            return 1;
        }
    }
    long errors = 0;
    for (int i = 0; i < sh.threads; i++) {
        pthread_join(tid[i], NULL);
        errors += sh.errors[i];
    }
    int s = 0;
    for (size_t n = sh.min_size; n <= sh.max_size; n *= 2, s++) {
        double *lat = sh.lat + s * sh.reps;
        double mn = lat[0];
        for (int r = 1; r < sh.reps; r++)
            if (lat[r] < mn)
                mn = lat[r];
        const double med = median(lat, sh.reps);
        const double bw = (double)sh.threads * (double)n / med / 1e6;
        if (csv)
            printf("%d,%zu,%.4f,%.4f,%.2f\n", sh.threads, n, med * 1e6, mn * 1e6, bw);
        else
            printf("%8d %10zu %14.3f %12.3f %12.1f\n", sh.threads, n, med * 1e6, mn * 1e6, bw);
    }
    free(tid);
    free(w);
    free(sh.lat);
    if (errors) {
        fprintf(stderr, "copy_bw_threads: %ld %s with wrong content\n", errors, sh.fold ? "fold-pushes" : "copies");
        return 1;
    }
    return 0;
}
