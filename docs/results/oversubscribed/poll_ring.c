/* poll_ring.c - a ring exchange completed by the application's own polling,
 * as programs that overlap work with communication do: every rank sends one
 * double to the right and receives one from the left, then polls until both
 * are done, N times; rank 0 prints the time per step.
 *   mode 0: MPI_Irecv + MPI_Isend, then while (!flag) MPI_Testall
 *   mode 1: MPI_Isend, then while (!flag) MPI_Iprobe, MPI_Recv, MPI_Wait
 *     hmpicc -O2 poll_ring.c -o poll_ring
 *     hmpirun -np 4 ./poll_ring 0 2000     (4 ranks on 2 cores: oversubscribed)
 * With ranks outnumbering cores, a poll that finds nothing must give the
 * core away (docs/environment.md, "Waiting"), or the rank polled for waits
 * in the run queue for the rest of the poller's time slice. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int mode = argc > 1 ? atoi(argv[1]) : 0;
    const int n = argc > 2 ? atoi(argv[2]) : 1000;
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    double out = rank, in = -1;
    int wrong = 0;
    const double t0 = MPI_Wtime();
    for (int i = 0; i < n; i++) {
        MPI_Request req[2];
        int flag = 0;
        if (mode == 0) {
            MPI_Irecv(&in, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
            MPI_Isend(&out, 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[1]);
            while (!flag)
                MPI_Testall(2, req, &flag, MPI_STATUSES_IGNORE);
        } else {
            MPI_Isend(&out, 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[1]);
            while (!flag)
                MPI_Iprobe(left, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            MPI_Recv(&in, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        }
        wrong += in != left;
    }
    const double t = MPI_Wtime() - t0;
    if (rank == 0)
        printf("mode %d, %d ranks: %.2f us per step%s\n", mode, size, t / n * 1e6, wrong ? " (WRONG DATA)" : "");
    MPI_Finalize();
    return wrong != 0;
}
