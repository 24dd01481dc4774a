/* Cost of privatized globals (docs/privatization.md): the same code built with hmpicc
 * (privatized: each function computes template + rank delta once on entry) and with
 * HMPI_PRIVATIZE=0 (plain globals), timed on one rank.
 *   loop: a tight loop summing and updating a global array (accesses inside one function);
 *   calls: many calls of tiny non-inlined functions that each touch a global (the per-entry
 *          computation is paid on every call).
 * Prints ns per element / per call, best of 5. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#define N 4096
double data[N];
long counter;
static long hits;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

__attribute__((noinline)) static double loop_pass(void) {
    double s = 0;
    for (int i = 0; i < N; ++i) {
        s += data[i];
        data[i] = s * 0.5;
    }
    return s;
}

__attribute__((noinline)) void bump(long v) { counter += v; }
__attribute__((noinline)) void bump_two(long v) { counter += v; hits++; }

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    const int reps = 2000;
    const long calls = 50000000;
    double best_loop = 1e30, best_calls = 1e30, sink = 0;
    for (int trial = 0; trial < 5; ++trial) {
        double t0 = now();
        for (int r = 0; r < reps; ++r) sink += loop_pass();
        double t1 = now();
        for (long i = 0; i < calls; ++i) {
            bump(i);
            bump_two(1);
        }
        double t2 = now();
        if (t1 - t0 < best_loop) best_loop = t1 - t0;
        if (t2 - t1 < best_calls) best_calls = t2 - t1;
    }
    printf("loop:  %.3f ns per element\n", best_loop / ((double)reps * N) * 1e9);
    printf("calls: %.3f ns per call\n", best_calls / (2.0 * calls) * 1e9);
    if (sink == 42 && counter == 42) printf("%ld\n", hits);
    MPI_Finalize();
    return 0;
}
