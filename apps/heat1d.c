/*
 * heat1d: explicit finite-difference solution of the 1-D heat equation
 * u_t = alpha * u_xx on [0, 1] with u = 0 at both ends, the domain split in
 * equal blocks over the ranks. Each step exchanges one halo cell with each
 * neighbour (MPI_Sendrecv), and every `report` steps the ranks combine the
 * solution's L2 norm and maximum with point-to-point messages to rank 0.
 * At the end rank 0 gathers the solution, recomputes it serially and prints
 * the largest difference: the parallel result must match it exactly.
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

/* Combines (sum of squares, max) over all ranks at rank 0, then back to all. */
static void norms(double local_sq, double local_max, int rank, int size, double *l2, double *mx) {
    double v[2] = {local_sq, local_max};
    if (rank == 0) {
        for (int src = 1; src < size; ++src) {
            double w[2];
            MPI_Recv(w, 2, MPI_DOUBLE, src, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            v[0] += w[0];
            if (w[1] > v[1]) v[1] = w[1];
        }
        for (int dst = 1; dst < size; ++dst) MPI_Send(v, 2, MPI_DOUBLE, dst, 8, MPI_COMM_WORLD);
    } else {
        MPI_Send(v, 2, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);
        MPI_Recv(v, 2, MPI_DOUBLE, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    *l2 = sqrt(v[0]);
    *mx = v[1];
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    long cells = argc > 1 ? atol(argv[1]) : 4096;
    int steps = argc > 2 ? atoi(argv[2]) : 40000;
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
            norms(sq, mx, rank, size, &l2, &gmax);
            if (rank == 0) printf("step %6d  t = %.6e  |u|_2 = %.12f  max|u| = %.12f\n", s, s * dt, l2, gmax);
        }
    }
    double elapsed = MPI_Wtime() - t0;

    /* Gather the solution at rank 0 and compare with a serial run. */
    if (rank == 0) {
        double *all = malloc(sizeof(double) * (size_t)cells);
        memcpy(all, &u[1], sizeof(double) * (size_t)n);
        long at = n;
        for (int src = 1; src < size; ++src) {
            MPI_Status st;
            int got;
            MPI_Recv(all + at, (int)(cells - at), MPI_DOUBLE, src, 9, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_DOUBLE, &got);
            at += got;
        }
        double *a = calloc((size_t)cells + 2, sizeof(double)), *b = calloc((size_t)cells + 2, sizeof(double));
        for (long i = 1; i <= cells; ++i) a[i] = initial((double)i * dx);
        for (int s = 0; s < steps; ++s) { step(a, b, cells, r); double *t = a; a = b; b = t; }
        double diff = 0;
        for (long i = 0; i < cells; ++i) { double d = fabs(all[i] - a[i + 1]); if (d > diff) diff = d; }
        printf("heat1d: %ld cells, %d steps, %d ranks, %.3f s; max difference from the serial solution: %.3g\n",
               cells, steps, size, elapsed, diff);
        printf("%s\n", at == cells && diff == 0 ? "result: OK" : "result: MISMATCH");
        int bad = !(at == cells && diff == 0);
        free(all); free(a); free(b); free(u); free(next);
        MPI_Finalize();
        return bad;
    }
    MPI_Send(&u[1], (int)n, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD);
    free(u); free(next);
    MPI_Finalize();
    return 0;
}
