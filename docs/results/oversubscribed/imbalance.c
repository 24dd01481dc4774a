/* imbalance.c - ranks that compute unequal amounts between collectives, to
 * check that waiters which yield (docs/environment.md, "Waiting") take no
 * time from the ranks still computing. Call i: rank r runs W * (1 + (r + i)
 * mod p) iterations of a dependent multiply-add, then MPI_Allreduce of one
 * double; N calls; rank 0 prints the wall time.
 *     hmpicc -O2 imbalance.c -o imbalance
 *     hmpirun -np 8 ./imbalance 1000 2500       (1-8 us of work per call)
 *     hmpirun -np 8 ./imbalance 1000000 20      (1-8 ms)
 * with and without HMPI_SPIN_US=2 HMPI_YIELD_US=20 (the previous schedule). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double work(long n)
{
    volatile double x = 1.0;
    for (long i = 0; i < n; i++)
        x = x * 1.0000001 + 1e-9;
    return x;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const long w = argc > 1 ? atol(argv[1]) : 1000;
    const int n = argc > 2 ? atoi(argv[2]) : 1000;
    double acc = 0, t0 = MPI_Wtime();
    for (int i = 0; i < n; i++) {
        acc += work(w * (1 + (rank + i) % size));
        double sum;
        MPI_Allreduce(&acc, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    if (rank == 0)
        printf("W=%ld N=%d time %.3f s\n", w, n, MPI_Wtime() - t0);
    MPI_Finalize();
    return 0;
}
