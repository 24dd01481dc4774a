/*
 * pull_patterns.c - what a line costs a thread that pulls it from another
 * core's cache while every thread does the same, in four patterns the
 * collectives use, and what rewriting a line costs its writer once others
 * have read it:
 *
 *  - "ring": thread i copies (t-1) blocks that thread i-1 just wrote, one
 *    stream from one source (hmpi-calibrate's ring: C, C_mem);
 *  - "alltoall": thread i copies block i of every other thread's buffer,
 *    peers in the staggered order i+1, i+2, ...: every line has one reader
 *    (pairwise Alltoall);
 *  - "allgather": thread i copies every other thread's one block, same
 *    order: every line has t-1 readers (direct and inline Allgather, the
 *    inline reductions);
 *  - "fanout": thread 0 alone writes t-1 blocks and thread i copies block
 *    i-1: one writer, one reader per line (Scatter's root and its readers;
 *    thread 0 reads nothing, and the mean is over the t-1 readers).
 *
 * A round: every writer rewrites its source (memset and a full fence,
 * timed: "write"), a barrier, every thread copies what the pattern gives
 * it into a private buffer (timed: "read"), a barrier. Per thread the
 * median over the rounds, then the mean over threads, per line the thread
 * wrote or read. So "read" compares with the model's per-line copy cost
 * under t readers (max(c, C t)), and "write" with rewrite_line (params.hpp:
 * one writer, its domain's other cores the readers) where t writers store
 * at once.
 *
 * Each pattern runs twice: its readers copy (memcpy), and then fold what
 * they pull into their private buffer (sum of doubles, two at a time) as
 * the reductions do: "fold" is the second run's read time per line, to
 * set against the model's fold cost per line under t readers (max(b, B
 * t), calibrated on a ring too).
 *
 * Output, CSV on stdout:
 *     pattern,threads,block_bytes,read_ns_line,write_ns_line,fold_ns_line
 *
 * Why: at 16 ranks on a 16-core Xeon (stop 47) pairwise Alltoall took
 * about twice the model's prediction from the ring's C, inline Allgather
 * 1.4-5 us more than direct at 1-4 KiB (its copy-in, every rank at once,
 * into lines 15 others read); this separates the patterns from the
 * algorithms.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"

enum { MAX_THREADS = 256, MAX_SIZES = 16 };
enum pattern { RING, ALLTOALL, ALLGATHER, FANOUT, PATTERNS };
static const char *const pattern_names[PATTERNS] = {"ring", "alltoall", "allgather", "fanout"};

static int threads, rounds = 40;
static size_t block;
static enum pattern current;
static int folding; /* this run's readers fold instead of copying */
static unsigned char *source[MAX_THREADS]; /* per thread: threads blocks */
static unsigned char *sink[MAX_THREADS];   /* per thread: threads blocks */
static double *read_ns, *write_ns;         /* [thread][round] */

static atomic_int arrived, generation;

static void barrier(void)
{
    int gen = atomic_load_explicit(&generation, memory_order_acquire);
    if (atomic_fetch_add_explicit(&arrived, 1, memory_order_acq_rel) == threads - 1) {
        atomic_store_explicit(&arrived, 0, memory_order_relaxed);
        atomic_store_explicit(&generation, gen + 1, memory_order_release);
    } else {
        while (atomic_load_explicit(&generation, memory_order_acquire) == gen) {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        }
    }
}

/* The bytes a writer writes each round: the lines its readers pull (ring,
 * fanout: blocks 0..t-2; alltoall: every block but its own; allgather:
 * block 0). */
static size_t written_bytes(void)
{
    return current == ALLGATHER ? block : (size_t)(threads - 1) * block;
}

/* to[i] += from[i] over `bytes` of doubles, two lanes at a time (the
 * baseline's 16-byte vectors; both buffers are page-aligned and the
 * offsets multiples of 64). */
typedef double double2 __attribute__((vector_size(16)));
static void fold_bytes(unsigned char *to, const unsigned char *from, size_t bytes)
{
    double2 *d = (double2 *)(void *)to;
    const double2 *s = (const double2 *)(const void *)from;
    for (size_t i = 0; i < bytes / sizeof(double2); i++) d[i] += s[i];
}

static void take(unsigned char *to, const unsigned char *from, size_t bytes)
{
    if (folding) fold_bytes(to, from, bytes);
    else memcpy(to, from, bytes);
}

static void pull(int me)
{
    unsigned char *to = sink[me];
    if (current == FANOUT) {
        if (me > 0) take(to, source[0] + (size_t)(me - 1) * block, block);
        return;
    }
    if (current == RING) {
        int from = (me + threads - 1) % threads;
        take(to, source[from], (size_t)(threads - 1) * block);
        return;
    }
    for (int k = 1; k < threads; k++) {
        int from = (me + k) % threads;
        const unsigned char *src = source[from] + (current == ALLTOALL ? (size_t)me * block : 0);
        take(to + (size_t)k * block, src, block);
    }
}

static void *run(void *arg)
{
    int me = (int)(long)arg;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(me, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    for (int r = -3; r < rounds; r++) {
        barrier();
        double t0 = now();
        if (current == FANOUT && me > 0) {
            /* not a writer */
        } else if (current == ALLTOALL) {
            for (int j = 0; j < threads; j++)
                if (j != me) memset(source[me] + (size_t)j * block, r & 0xff, block);
        } else {
            memset(source[me], r & 0xff, written_bytes());
        }
        /* Drain the store buffer, so the time holds every store's
         * ownership request (the invalidations of the readers' copies). */
        atomic_thread_fence(memory_order_seq_cst);
        double t1 = now();
        barrier();
        double t2 = now();
        pull(me);
        double t3 = now();
        if (r >= 0) {
            write_ns[me * rounds + r] = 1e9 * (t1 - t0);
            read_ns[me * rounds + r] = 1e9 * (t3 - t2);
        }
    }
    return NULL;
}

/* The mean over threads first..last-1 of each one's median over the rounds. */
static double mean_of_medians(double *v, int first, int last)
{
    double sum = 0;
    for (int i = first; i < last; i++) sum += median(v + i * rounds, rounds);
    return sum / (last - first);
}

/* aligned_alloc needs a size that is a multiple of the alignment (C11). */
static unsigned char *page_aligned(size_t bytes)
{
    enum { PAGE = 4096 };
    return aligned_alloc(PAGE, (bytes + PAGE - 1) / PAGE * PAGE);
}

static void usage(void)
{
    fprintf(stderr, "usage: pull_patterns [-t THREADS] [-r ROUNDS] [-m BLOCK[,BLOCK...]]\n"
                    "  -t threads, pinned to CPUs 0..t-1 (default: the CPUs, at most 16)\n"
                    "  -r rounds per pattern and size (default 40)\n"
                    "  -m block bytes, multiples of 64 (default 1K,4K,32K)\n");
}

int main(int argc, char **argv)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    threads = cpus < 16 ? (int)cpus : 16;
    size_t sizes[MAX_SIZES] = {1024, 4096, 32768};
    int nsizes = 3, opt;
    while ((opt = getopt(argc, argv, "t:r:m:h")) != -1) {
        switch (opt) {
        case 't': threads = atoi(optarg); break;
        case 'r': rounds = atoi(optarg); break;
        case 'm': {
            nsizes = 0;
            for (char *tok = strtok(optarg, ","); tok; tok = strtok(NULL, ",")) {
                if (nsizes == MAX_SIZES || parse_size(tok, &sizes[nsizes]) != 0 || sizes[nsizes] < LINE ||
                    sizes[nsizes] % LINE) {
                    fprintf(stderr, "pull_patterns: -m: '%s' is not a block size (a multiple of 64 bytes)\n", tok);
                    return 2;
                }
                nsizes++;
            }
            break;
        }
        case 'h': usage(); return 0;
        default: usage(); return 2;
        }
    }
    if (threads < 2 || threads > MAX_THREADS || threads > cpus) {
        fprintf(stderr, "pull_patterns: -t %d: need 2 to %ld threads (one per CPU)\n", threads, cpus);
        return 2;
    }
    if (rounds < 1 || nsizes == 0) {
        usage();
        return 2;
    }
    read_ns = malloc(sizeof(double) * (size_t)threads * (size_t)rounds);
    write_ns = malloc(sizeof(double) * (size_t)threads * (size_t)rounds);
    if (!read_ns || !write_ns) return 1;
    printf("pattern,threads,block_bytes,read_ns_line,write_ns_line,fold_ns_line\n");
    for (int s = 0; s < nsizes; s++) {
        block = sizes[s];
        for (int i = 0; i < threads; i++) {
            source[i] = page_aligned((size_t)threads * block);
            sink[i] = page_aligned((size_t)threads * block);
            if (!source[i] || !sink[i]) return 1;
            memset(source[i], 1, (size_t)threads * block);
            memset(sink[i], 1, (size_t)threads * block);
        }
        for (int p = 0; p < PATTERNS; p++) {
            current = (enum pattern)p;
            int fanout = current == FANOUT;
            double read_lines = (double)(fanout ? 1 : threads - 1) * (double)block / LINE;
            double write_lines = (double)written_bytes() / LINE;
            double read = 0, write = 0, fold = 0;
            for (folding = 0; folding < 2; folding++) {
                pthread_t tid[MAX_THREADS];
                for (long i = 0; i < threads; i++) pthread_create(&tid[i], NULL, run, (void *)i);
                for (int i = 0; i < threads; i++) pthread_join(tid[i], NULL);
                if (folding) {
                    fold = mean_of_medians(read_ns, fanout, threads) / read_lines;
                } else {
                    read = mean_of_medians(read_ns, fanout, threads) / read_lines;
                    write = mean_of_medians(write_ns, 0, fanout ? 1 : threads) / write_lines;
                }
            }
            printf("%s,%d,%zu,%.3f,%.3f,%.3f\n", pattern_names[p], threads, block, read, write, fold);
            fflush(stdout);
        }
        for (int i = 0; i < threads; i++) {
            free(source[i]);
            free(sink[i]);
        }
    }
    return 0;
}
