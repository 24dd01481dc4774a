/*
 * handoff_floor.c - what two cores need to hand a cache line to each other,
 * with no MPI in between: the floor under any small collective.
 *
 * Two threads pinned to two CPUs (-a, -b; default 0 and 1) measure
 *  - "pingpong": one-way handoff of a line: thread A stores 2k-1 to a
 *    counter, B waits for it and stores 2k, A waits for that; time per
 *    round trip / 2. Repeated on -l lines at different pages and offsets
 *    (the home of a line in the shared cache depends on its address), -p
 *    passes over them; reported per line: the median over passes, and over
 *    lines the median, min and max of those;
 *  - "barrier": both threads at once publish a counter on a line of their
 *    own and wait for the other's to reach it (a flat barrier of two with
 *    single-writer flags, what MPI_Barrier on 2 ranks must do at least);
 *    time per round, median of -p passes.
 * Each pass runs -n rounds. CSV on stdout:
 *     test,cpus,lines,median_ns,min_ns,max_ns
 *
 * Why: a 2-rank MPI_Barrier cannot take less than "barrier", and a rooted
 * call in which a reader waits for a writer no less than "pingpong"
 * (docs/performance-collectives.md, stop 27, uses it to bound the targets
 * for 2 ranks on a 2-core machine).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STRIDE (4096 + 64) /* each line on its own page, at another offset */

typedef struct {
    _Alignas(128) atomic_long v;
} flag_t;

struct shared {
    int cpu[2];
    int lines, passes;
    long rounds;
    unsigned char *area;     /* lines * STRIDE bytes */
    flag_t pair[2];          /* barrier flags */
    atomic_int go;           /* which (pass, line) B serves next, -1: none yet */
    atomic_int barrier_go;
    double *pingpong_ns;     /* [pass * lines + line] */
    double *barrier_ns;      /* [pass] */
};

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int pin(int cpu)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    return pthread_setaffinity_np(pthread_self(), sizeof s, &s);
}

static atomic_long *line_at(struct shared *sh, int line)
{
    return (atomic_long *)(void *)(sh->area + (size_t)line * STRIDE);
}

static void barrier_rounds(struct shared *sh, int me)
{
    atomic_long *mine = &sh->pair[me].v, *other = &sh->pair[1 - me].v;
    long base = atomic_load(mine);
    for (long k = base + 1; k <= base + sh->rounds; k++) {
        atomic_store_explicit(mine, k, memory_order_release);
        while (atomic_load_explicit(other, memory_order_acquire) < k)
            ;
    }
}

static void *thread_b(void *arg)
{
    struct shared *sh = arg;
    if (pin(sh->cpu[1]) != 0)
        fprintf(stderr, "handoff_floor: cannot pin to CPU %d\n", sh->cpu[1]);
    for (int i = 0; i < sh->passes * sh->lines; i++) {
        while (atomic_load(&sh->go) != i)
            ;
        atomic_long *f = line_at(sh, i % sh->lines);
        for (long r = 1; r <= sh->rounds; r++) {
            while (atomic_load_explicit(f, memory_order_acquire) != 2 * r - 1)
                ;
            atomic_store_explicit(f, 2 * r, memory_order_release);
        }
    }
    for (int pass = 0; pass < sh->passes; pass++) {
        while (atomic_load(&sh->barrier_go) != pass)
            ;
        barrier_rounds(sh, 1);
    }
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    struct shared sh;
    memset(&sh, 0, sizeof sh);
    sh.cpu[0] = 0, sh.cpu[1] = 1, sh.lines = 32, sh.passes = 3, sh.rounds = 20000;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "-a") && v) sh.cpu[0] = atoi(v), i++;
        else if (!strcmp(argv[i], "-b") && v) sh.cpu[1] = atoi(v), i++;
        else if (!strcmp(argv[i], "-l") && v) sh.lines = atoi(v), i++;
        else if (!strcmp(argv[i], "-p") && v) sh.passes = atoi(v), i++;
        else if (!strcmp(argv[i], "-n") && v) sh.rounds = atol(v), i++;
        else {
            fprintf(stderr, "usage: %s [-a CPU] [-b CPU] [-l LINES] [-p PASSES] [-n ROUNDS]\n", argv[0]);
            return 2;
        }
    }
    if (sh.lines < 1 || sh.passes < 1 || sh.rounds < 1) {
        fprintf(stderr, "handoff_floor: -l, -p and -n must be positive\n");
        return 2;
    }
    sh.area = aligned_alloc(4096, (size_t)sh.lines * STRIDE + 4096);
    sh.pingpong_ns = calloc((size_t)(sh.passes * sh.lines), sizeof(double));
    sh.barrier_ns = calloc((size_t)sh.passes, sizeof(double));
    if (!sh.area || !sh.pingpong_ns || !sh.barrier_ns) {
        fprintf(stderr, "handoff_floor: out of memory\n");
        return 1;
    }
    memset(sh.area, 0, (size_t)sh.lines * STRIDE);
    atomic_init(&sh.go, -1);
    atomic_init(&sh.barrier_go, -1);
    if (pin(sh.cpu[0]) != 0)
        fprintf(stderr, "handoff_floor: cannot pin to CPU %d\n", sh.cpu[0]);
    pthread_t b;
    if (pthread_create(&b, NULL, thread_b, &sh) != 0) {
        fprintf(stderr, "handoff_floor: cannot start the second thread\n");
        return 1;
    }
    for (int i = 0; i < sh.passes * sh.lines; i++) {
        atomic_long *f = line_at(&sh, i % sh.lines);
        atomic_store(f, 0);
        atomic_store(&sh.go, i);
        double t0 = now_ns();
        for (long r = 1; r <= sh.rounds; r++) {
            atomic_store_explicit(f, 2 * r - 1, memory_order_release);
            while (atomic_load_explicit(f, memory_order_acquire) != 2 * r)
                ;
        }
        sh.pingpong_ns[i] = (now_ns() - t0) / (double)sh.rounds / 2;
    }
    for (int pass = 0; pass < sh.passes; pass++) {
        atomic_store(&sh.barrier_go, pass);
        double t0 = now_ns();
        barrier_rounds(&sh, 0);
        sh.barrier_ns[pass] = (now_ns() - t0) / (double)sh.rounds;
    }
    pthread_join(b, NULL);

    double *per_line = calloc((size_t)sh.lines, sizeof(double)), *col = calloc((size_t)sh.passes, sizeof(double));
    for (int l = 0; l < sh.lines; l++) {
        for (int p = 0; p < sh.passes; p++)
            col[p] = sh.pingpong_ns[p * sh.lines + l];
        per_line[l] = median(col, sh.passes);
    }
    double line_median = median(per_line, sh.lines); /* sorts per_line */
    printf("test,cpus,lines,median_ns,min_ns,max_ns\n");
    printf("pingpong,%d-%d,%d,%.1f,%.1f,%.1f\n", sh.cpu[0], sh.cpu[1], sh.lines, line_median, per_line[0],
           per_line[sh.lines - 1]);
    double bmed = median(sh.barrier_ns, sh.passes);
    printf("barrier,%d-%d,2,%.1f,%.1f,%.1f\n", sh.cpu[0], sh.cpu[1], bmed, sh.barrier_ns[0], sh.barrier_ns[sh.passes - 1]);
    free(per_line);
    free(col);
    free(sh.pingpong_ns);
    free(sh.barrier_ns);
    free(sh.area);
    return 0;
}
