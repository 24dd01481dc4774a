/*
 * copy_rewrite.c - one core copying into lines another core has just read,
 * with memcpy and with a string move (x86 rep movsb), against the same
 * copies into lines nobody else read.
 *
 * Two threads pinned to CPUs 0 and 1. Each round: the reader (CPU 1) reads
 * one byte of every line of the destination (or, for "own lines", does
 * nothing), then the writer (CPU 0) copies SIZE bytes into it and is
 * timed. Reported: the mean over 20 rounds after 3 warm-ups, and per line.
 * Why: runtime/primitives/copy.cpp (StoreKind::rewrite) and docs/model.md
 * ("Since stop 40 the runtime does not pay it").
 *
 * usage: copy_rewrite SIZE MODE SHARED [SRC_OFFSET DST_OFFSET]
 *   MODE 0: memcpy, 1: rep movsb; SHARED 0: own lines, 1: lines the other core read
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct run {
    size_t n;
    char *src, *dst;
    int shared;
    atomic_int turn; /* 1: reader's, 0: writer's, 9: stop */
};

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static void pin(int cpu) {
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    pthread_setaffinity_np(pthread_self(), sizeof s, &s);
}

static void string_move(void* d, const void* s, size_t n) {
#if defined(__x86_64__)
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
#else
    memcpy(d, s, n);
#endif
}

static void* reader(void* arg) {
    struct run* r = arg;
    pin(1);
    volatile long sink = 0;
    for (;;) {
        int t;
        while ((t = atomic_load(&r->turn)) != 1)
            if (t == 9) return NULL;
        if (r->shared)
            for (size_t i = 0; i < r->n; i += 64) sink += r->dst[i];
        atomic_store(&r->turn, 0);
    }
}

int main(int argc, char** argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: copy_rewrite SIZE MODE SHARED [SRC_OFFSET DST_OFFSET]\n");
        return 2;
    }
    struct run r = {0};
    r.n = strtoull(argv[1], NULL, 10);
    const int mode = atoi(argv[2]);
    r.shared = atoi(argv[3]);
    const int so = argc > 4 ? atoi(argv[4]) : 0, dof = argc > 5 ? atoi(argv[5]) : 0;
    r.src = (char*)aligned_alloc(4096, r.n + 4096) + so;
    r.dst = (char*)aligned_alloc(4096, r.n + 4096) + dof;
    memset(r.src, 1, r.n);
    memset(r.dst, 2, r.n);
    pin(0);
    pthread_t t;
    pthread_create(&t, NULL, reader, &r);
    const int reps = 20, warm = 3;
    double total = 0;
    for (int k = 0; k < reps + warm; ++k) {
        atomic_store(&r.turn, 1);
        while (atomic_load(&r.turn) != 0) {
        }
        r.src[(size_t)k % r.n]++;
        const double t0 = now_ns();
        if (mode) string_move(r.dst, r.src, r.n);
        else memcpy(r.dst, r.src, r.n);
        if (k >= warm) total += now_ns() - t0;
    }
    atomic_store(&r.turn, 9);
    pthread_join(t, NULL);
    printf("%zu bytes, src +%d, dst +%d, %s into %s: %.1f us (%.2f ns/line)\n", r.n, so, dof,
           mode ? "rep movsb" : "memcpy", r.shared ? "lines the other core read" : "its own lines",
           total / reps / 1e3, total / reps / (double)(r.n / 64));
    return 0;
}
