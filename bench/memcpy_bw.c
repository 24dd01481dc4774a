/*
 * memcpy_bw.c - single-thread memcpy bandwidth, the reference for
 * "large-message bandwidth at least that of a single-thread memcpy".
 *
 * Same sizes, same methodology and same CSV columns as pingpong.c:
 *  - before every copy the source is rewritten (one byte per 64-byte line,
 *    iteration-dependent value), outside the timed window;
 *  - each copy is bracketed by clock_gettime(CLOCK_MONOTONIC); the calibrated
 *    cost of one bracket is subtracted (-n disables this); copies smaller
 *    than 16 KiB are batched, B = 16 KiB / size copies between distinct
 *    (src, dst) slots per bracket, each source slot rewritten before the
 *    bracket, so the timer cost is amortized;
 *  - per size: warm-up copies, then REPS blocks of K copies (K chosen so a
 *    block takes about -t ms); reported: median and min over blocks of the
 *    time per copy ("lat", in us), and bandwidth = size / median time
 *    (MB = 1e6 bytes).
 * The destination buffer is reused across copies, like a receive buffer.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SIZES 64
#define MIN_SIZE 8

#include "bench_common.h"

static long check_lines(const unsigned char *buf, size_t n, unsigned char v)
{
    for (size_t off = 0; off < n; off += LINE)
        if (buf[off] != v)
            return 1;
    return 0;
}

static void usage(FILE *f)
{
    fputs("usage: memcpy_bw [-m MAX_SIZE] [-r REPS] [-t BLOCK_MS] [-w WARMUP] [-q] [-c] [-n]\n"
          "  -m MAX_SIZE  largest copy (default 16M; suffixes K, M, G)\n"
          "  -r REPS      timed blocks per size (default 15)\n"
          "  -t BLOCK_MS  target duration of one block in ms (default 2)\n"
          "  -w WARMUP    warm-up copies per size (default: 64 MiB / size, clamped to [4, 1000])\n"
          "  -q           quiet: no '#' header lines and no column header\n"
          "  -c           CSV output: size,lat_us_median,lat_us_min,bw_MBps (lat = time per copy)\n"
          "  -n           no timer-overhead correction\n",
          f);
}

int main(int argc, char **argv)
{
    size_t max_size = (size_t)16 << 20;
    int reps = 15, quiet = 0, csv = 0, raw = 0;
    double target = 2e-3;
    long warmup = -1;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == '\0' || a[2] != '\0') {
            fprintf(stderr, "memcpy_bw: unknown argument '%s'\n", a);
            usage(stderr);
            return 1;
        }
        char opt = a[1];
        const char *val = NULL;
        if (opt == 'm' || opt == 'r' || opt == 't' || opt == 'w') {
            if (i + 1 >= argc) {
                fprintf(stderr, "memcpy_bw: option -%c needs a value\n", opt);
                return 1;
            }
            val = argv[++i];
        }
        char *end = NULL;
        switch (opt) {
        case 'm':
            if (parse_size(val, &max_size) || max_size < MIN_SIZE || max_size > ((size_t)1 << 30)) {
                fprintf(stderr, "memcpy_bw: bad -m '%s'\n", val);
                return 1;
            }
            break;
        case 'r':
            reps = (int)strtol(val, &end, 10);
            if (*end || reps < 1 || reps > 100000) {
                fprintf(stderr, "memcpy_bw: bad -r '%s'\n", val);
                return 1;
            }
            break;
        case 't':
            target = strtod(val, &end) * 1e-3;
            if (*end || !(target > 0.0) || target > 10.0) {
                fprintf(stderr, "memcpy_bw: bad -t '%s'\n", val);
                return 1;
            }
            break;
        case 'w':
            warmup = strtol(val, &end, 10);
            if (*end || warmup < 2) {
                fprintf(stderr, "memcpy_bw: bad -w '%s'\n", val);
                return 1;
            }
            break;
        case 'q': quiet = 1; break;
        case 'c': csv = 1; break;
        case 'n': raw = 1; break;
        case 'h': usage(stdout); return 0;
        default:
            fprintf(stderr, "memcpy_bw: unknown option '%s'\n", a);
            usage(stderr);
            return 1;
        }
    }

    size_t alloc = (max_size + 4095) & ~(size_t)4095;
    unsigned char *src = aligned_alloc(4096, alloc);
    unsigned char *dst = aligned_alloc(4096, alloc);
    double *lat = malloc((size_t)reps * sizeof *lat);
    if (!src || !dst || !lat) {
        fprintf(stderr, "memcpy_bw: out of memory\n");
        return 1;
    }
    memset(src, 0, alloc);
    memset(dst, 0, alloc);
    const double tov = calibrate_timer();
    const double corr = raw ? 0.0 : tov;

    if (!quiet) {
        printf("# memcpy_bw: single-thread memcpy, source rewritten (1 byte per 64-B line) before every copy, "
               "rewrite excluded\n");
        printf("# reps=%d blocks/size, block target %.2f ms, timer clock_gettime(CLOCK_MONOTONIC), bracket cost "
               "%.1f ns, %s\n",
               reps, target * 1e3, tov * 1e9, raw ? "NOT corrected (-n)" : "corrected");
        printf("# lat = time per copy (median and min over blocks), bandwidth = size / median, MB = 1e6 bytes\n");
        if (csv)
            printf("size,lat_us_median,lat_us_min,bw_MBps\n");
        else
            printf("%10s %14s %12s %12s\n", "size[B]", "lat_med[us]", "lat_min[us]", "bw[MB/s]");
        fflush(stdout);
    }

    long errors = 0;
    const size_t batch_bytes = alloc < 16384 ? alloc : 16384;
    for (size_t n = MIN_SIZE; n <= max_size; n *= 2) {
        /* Small copies are far shorter than a timer call: each bracket then
         * covers B copies between B distinct (src, dst) slots, every source
         * slot rewritten before the bracket, so the bracket cost is
         * amortized and every copy still reads a freshly rewritten source. */
        const size_t B = n >= batch_bytes ? 1 : batch_bytes / n;
        long it = 0;
        long warm = warmup > 0 ? warmup : (long)(((size_t)64 << 20) / (n * B));
        if (warm > 1000)
            warm = 1000;
        if (warm < 4)
            warm = 4;
        long half = warm / 2;
        double t_half = now();
        for (long i = 0; i < warm; i++, it++) {
            if (i == half)
                t_half = now();
            rewrite_lines(src, n * B, (unsigned char)(it + 1));
            for (size_t b = 0; b < B; b++)
                memcpy(dst + b * n, src + b * n, n);
        }
        errors += check_lines(dst, n * B, (unsigned char)it);
        double est = (now() - t_half) / (double)(warm - half);
        double kd = est > 0 ? target / est : 1e6;
        long K = kd < 1.0 ? 1 : (kd > 1e7 ? 10000000 : (long)(kd + 0.5));

        for (int r = 0; r < reps; r++) {
            double acc = 0.0;
            for (long k = 0; k < K; k++, it++) {
                rewrite_lines(src, n * B, (unsigned char)(it + 1));
                double t0 = now();
                for (size_t b = 0; b < B; b++)
                    memcpy(dst + b * n, src + b * n, n);
                double t1 = now();
                acc += t1 - t0;
            }
            /* reading dst also keeps the copies from being optimized away */
            errors += check_lines(dst, n * B, (unsigned char)it);
            lat[r] = (acc / (double)K - corr) / (double)B;
        }
        double mn = lat[0];
        for (int r = 1; r < reps; r++)
            if (lat[r] < mn)
                mn = lat[r];
        double med = median(lat, reps);
        double bw = (double)n / med / 1e6;
        if (csv)
            printf("%zu,%.4f,%.4f,%.2f\n", n, med * 1e6, mn * 1e6, bw);
        else
            printf("%10zu %14.3f %12.3f %12.1f\n", n, med * 1e6, mn * 1e6, bw);
        fflush(stdout);
    }
    free(src);
    free(dst);
    free(lat);
    if (errors) {
        fprintf(stderr, "memcpy_bw: %ld copies with wrong content\n", errors);
        return 1;
    }
    return 0;
}
