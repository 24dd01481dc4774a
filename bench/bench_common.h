/*
 * Helpers shared by the benchmarks (pingpong.c, memcpy_bw.c): a monotonic
 * clock and its calibrated cost, medians, the per-iteration buffer rewrite,
 * and size arguments with K/M/G suffixes. Header-only, so each benchmark
 * stays one source file that any MPI's compiler wrapper can build.
 */
#ifndef HMPI_BENCH_COMMON_H
#define HMPI_BENCH_COMMON_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#define LINE 64

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n-1]; reorders v. */
static inline double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static inline double calibrate_timer(void)
{
    enum { N = 20001 };
    double *d = malloc(N * sizeof *d);
    if (!d)
        return 0.0;
    for (int i = 0; i < 1000; i++) /* warm the timer path */
        (void)now();
    for (int i = 0; i < N; i++) {
        double a = now();
        double b = now();
        d[i] = b - a;
    }
    double m = median(d, N);
    free(d);
    return m;
}

/* The per-send rewrite: one byte per 64-byte line. */
static inline void rewrite_lines(unsigned char *buf, size_t n, unsigned char v)
{
    for (size_t off = 0; off < n; off += LINE)
        buf[off] = v;
}


static inline int parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        return -1;
    unsigned long long mul = 1;
    if (*end == 'k' || *end == 'K')
        mul = 1ull << 10, end++;
    else if (*end == 'm' || *end == 'M')
        mul = 1ull << 20, end++;
    else if (*end == 'g' || *end == 'G')
        mul = 1ull << 30, end++;
    if (mul > 1 && (*end == 'i' || *end == 'I'))
        end++;
    if ((*end == 'b' || *end == 'B'))
        end++;
    if (*end != '\0')
        return -1;
    *out = (size_t)(v * mul);
    return 0;
}

#endif /* HMPI_BENCH_COMMON_H */
