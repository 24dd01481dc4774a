/*
 * core_sharing.c - whether two CPUs share one core's resources: each of two
 * pinned threads runs the same work alone, then both at once, and the
 * slowdown of "together" against "alone" is reported per kind of work.
 *
 *  - "alu": eight independent integer multiply-add chains (the core's
 *    execution ports; two hardware threads of one core share them);
 *  - "copy_l2": copies within a buffer of -w bytes a thread (default
 *    256 KiB), half into the other half and back, which stays in a private
 *    L2 (two hardware threads of one core share it, and its bandwidth).
 *
 * Two separate cores give ratios near 1; two hardware threads of one core
 * (SMT siblings, which a hypervisor may hand a guest as two "cores")
 * give 1.3-2. Output, CSV on stdout:
 *     work,cpus,alone_ns,together_ns,ratio
 * alone_ns is the mean of both threads alone, together_ns the slower of
 * the two at once (ns per iteration for alu, per 64-byte line for copy_l2),
 * each the best of -p passes.
 *
 * Why: the 2-core EPYC guest runs in two states (docs/performance-
 * collectives.md): a line handoff of 200-600 ns or of 40-110 ns. This tells
 * whether the fast one is two hardware threads of one core, whose shared
 * caches and ports the model's per-thread costs do not describe.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

enum { ALU_ITERS = 20000000 };

struct job {
    int cpu;
    size_t bytes;
    int passes;
    atomic_int *start; /* both threads spin until it reaches `waiters` */
    int waiters;
    double alu_ns, copy_ns; /* out: best pass */
};

static uint64_t alu_pass(void)
{
    uint64_t x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    for (long i = 0; i < ALU_ITERS; i++) {
        for (int j = 0; j < 8; j++) x[j] = x[j] * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
        __asm__ volatile("" : "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3]), "+r"(x[4]), "+r"(x[5]), "+r"(x[6]),
                         "+r"(x[7]));
    }
    return x[0] ^ x[7];
}

static void *run(void *arg)
{
    struct job *jb = arg;
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(jb->cpu, &s);
    if (pthread_setaffinity_np(pthread_self(), sizeof s, &s) != 0)
        fprintf(stderr, "core_sharing: cannot pin to CPU %d\n", jb->cpu);
    unsigned char *buf = aligned_alloc(4096, jb->bytes);
    if (!buf) return NULL;
    memset(buf, 1, jb->bytes);
    const size_t half = jb->bytes / 2;
    const int reps = (int)(((size_t)256 << 20) / jb->bytes) + 1;
    atomic_fetch_add(jb->start, 1);
    while (atomic_load(jb->start) < jb->waiters)
        ;
    jb->alu_ns = jb->copy_ns = 1e300;
    volatile uint64_t sink = 0;
    for (int p = 0; p < jb->passes; p++) {
        double t0 = now();
        sink += alu_pass();
        double t = 1e9 * (now() - t0) / ALU_ITERS;
        if (t < jb->alu_ns) jb->alu_ns = t;
        t0 = now();
        for (int r = 0; r < reps; r++) {
            memcpy(buf + half, buf, half);
            memcpy(buf, buf + half, half);
        }
        t = 1e9 * (now() - t0) / reps / ((double)jb->bytes / LINE);
        if (t < jb->copy_ns) jb->copy_ns = t;
    }
    (void)sink;
    free(buf);
    return NULL;
}

/* Runs the jobs of `cpus` (n of them) at once. */
static void run_jobs(struct job *jobs, int n)
{
    atomic_int start = 0;
    pthread_t th[2];
    for (int i = 0; i < n; i++) {
        jobs[i].start = &start;
        jobs[i].waiters = n;
        pthread_create(&th[i], NULL, run, &jobs[i]);
    }
    for (int i = 0; i < n; i++) pthread_join(th[i], NULL);
}

int main(int argc, char **argv)
{
    int cpu[2] = {0, 1}, passes = 3;
    size_t bytes = (size_t)256 << 10;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "-a") && v) cpu[0] = atoi(v), i++;
        else if (!strcmp(argv[i], "-b") && v) cpu[1] = atoi(v), i++;
        else if (!strcmp(argv[i], "-p") && v) passes = atoi(v), i++;
        else if (!strcmp(argv[i], "-w") && v) bytes = (size_t)atol(v), i++;
        else {
            fprintf(stderr, "usage: %s [-a CPU] [-b CPU] [-p PASSES] [-w BYTES]\n", argv[0]);
            return 2;
        }
    }
    if (passes < 1 || bytes < 4096) {
        fprintf(stderr, "core_sharing: -p must be positive and -w at least 4096\n");
        return 2;
    }
    struct job alone[2], both[2];
    for (int i = 0; i < 2; i++) {
        alone[i] = (struct job){.cpu = cpu[i], .bytes = bytes, .passes = passes};
        run_jobs(&alone[i], 1);
        both[i] = (struct job){.cpu = cpu[i], .bytes = bytes, .passes = passes};
    }
    run_jobs(both, 2);
    const double alu_alone = (alone[0].alu_ns + alone[1].alu_ns) / 2;
    const double copy_alone = (alone[0].copy_ns + alone[1].copy_ns) / 2;
    const double alu_both = both[0].alu_ns > both[1].alu_ns ? both[0].alu_ns : both[1].alu_ns;
    const double copy_both = both[0].copy_ns > both[1].copy_ns ? both[0].copy_ns : both[1].copy_ns;
    printf("work,cpus,alone_ns,together_ns,ratio\n");
    printf("alu,%d-%d,%.3f,%.3f,%.2f\n", cpu[0], cpu[1], alu_alone, alu_both, alu_both / alu_alone);
    printf("copy_l2,%d-%d,%.3f,%.3f,%.2f\n", cpu[0], cpu[1], copy_alone, copy_both, copy_both / copy_alone);
    return 0;
}
