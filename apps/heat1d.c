/*
 * heat1d: explicit finite-difference solution of the 1-D heat equation
 * u_t = alpha * u_xx on [0, 1] with u = 0 at both ends, the domain split in
 * equal blocks over the ranks. Each step exchanges one halo cell with each
 * neighbour (MPI_Sendrecv), and every `report` steps the ranks combine the
 * solution's L2 norm and maximum (MPI_Allreduce). Rank 0 reads the problem
 * size and broadcasts it (MPI_Bcast); at the end it gathers the solution
 * (MPI_Gather of the block sizes, MPI_Gatherv of the blocks), recomputes it
 * serially and prints the largest difference: the parallel result must
 * match it exactly.
 *
 * usage: heat1d [cells [steps]]   (defaults: 4096 cells, 40000 steps)
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double initial(double x) { return sin(M_PI * x) + 0.5 * sin(3 * M_PI * x); }

static void step(const double *u, double *next, long n, double r) {
    for (long i = 1; i <= n; ++i) next[i] = u[i] + r * (u[i - 1] - 2 * u[i] + u[i + 1]);
}

/* Combines (sum of squares, max) over all ranks. */
static void norms(double local_sq, double local_max, double *l2, double *mx) {
    double sq;
    MPI_Allreduce(&local_sq, &sq, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&local_max, mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    *l2 = sqrt(sq);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    long problem[2] = {4096, 40000}; /* cells, steps */
    if (rank == 0) {
        if (argc > 1) problem[0] = atol(argv[1]);
        if (argc > 2) problem[1] = atol(argv[2]);
    }
    MPI_Bcast(problem, 2, MPI_LONG, 0, MPI_COMM_WORLD);
    long cells = problem[0];
    int steps = (int)problem[1];
    if (cells < size) cells = size;
    const double dx = 1.0 / (double)(cells + 1), alpha = 1.0, dt = 0.4 * dx * dx / alpha, r = alpha * dt / (dx * dx);

    /* Block decomposition: rank gets cells [first, first + n). */
    long base = cells / size, extra = cells % size;
    long n = base + (rank < extra ? 1 : 0);
    long first = rank * base + (rank < extra ? rank : extra);
    double *u = calloc((size_t)n + 2, sizeof(double)), *next = calloc((size_t)n + 2, sizeof(double));
    for (long i = 1; i <= n; ++i) u[i] = initial((double)(first + i) * dx);

    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    const int report = steps / 4 > 0 ? steps / 4 : 1;
    double t0 = MPI_Wtime();
    for (int s = 1; s <= steps; ++s) {
        /* Halo exchange: my first cell goes left, my last goes right. */
        MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 0, &u[n + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[n], 1, MPI_DOUBLE, right, 1, &u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (left == MPI_PROC_NULL) u[0] = 0;
        if (right == MPI_PROC_NULL) u[n + 1] = 0;
        step(u, next, n, r);
        double *t = u; u = next; next = t;
        if (s % report == 0) {
            double sq = 0, mx = 0;
            for (long i = 1; i <= n; ++i) { sq += u[i] * u[i] * dx; if (fabs(u[i]) > mx) mx = fabs(u[i]); }
            double l2, gmax;
            norms(sq, mx, &l2, &gmax);
            if (rank == 0) printf("step %6d  t = %.6e  |u|_2 = %.12f  max|u| = %.12f\n", s, s * dt, l2, gmax);
        }
    }
    double elapsed = MPI_Wtime() - t0;

    /* Gather the solution at rank 0 and compare with a serial run. */
    int mine = (int)n, *counts = NULL, *displs = NULL;
    double *all = NULL;
    if (rank == 0) {
        counts = malloc(sizeof(int) * (size_t)size);
        displs = malloc(sizeof(int) * (size_t)size);
        all = malloc(sizeof(double) * (size_t)cells);
    }
    MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    long at = 0;
    if (rank == 0)
        for (int i = 0; i < size; ++i) { displs[i] = (int)at; at += counts[i]; }
    MPI_Gatherv(&u[1], mine, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    int bad = 0;
    if (rank == 0) {
        double *a = calloc((size_t)cells + 2, sizeof(double)), *b = calloc((size_t)cells + 2, sizeof(double));
        for (long i = 1; i <= cells; ++i) a[i] = initial((double)i * dx);
        for (int s = 0; s < steps; ++s) { step(a, b, cells, r); double *t = a; a = b; b = t; }
        double diff = 0;
        for (long i = 0; i < cells; ++i) { double d = fabs(all[i] - a[i + 1]); if (d > diff) diff = d; }
        printf("heat1d: %ld cells, %d steps, %d ranks, %.3f s; max difference from the serial solution: %.3g\n",
               cells, steps, size, elapsed, diff);
        printf("%s\n", at == cells && diff == 0 ? "result: OK" : "result: MISMATCH");
        bad = !(at == cells && diff == 0);
        free(a); free(b); free(all); free(counts); free(displs);
    }
    /* Every rank exits with the verdict. */
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(u); free(next);
    MPI_Finalize();
    return bad;
}
