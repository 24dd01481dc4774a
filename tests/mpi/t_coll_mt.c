/*
 * t_coll_mt: collectives from several threads of each process at once
 * (MPI_THREAD_MULTIPLE). Each of NTHREADS threads owns its communicators (a
 * dup of world, a split of that dup into halves with reversed ranks, a dup
 * of MPI_COMM_SELF), created by the main thread in a fixed order before the
 * threads start, and runs random collectives on them, blocking and
 * nonblocking, checked as in t_coll (colltest.h). Thread t of every process
 * draws the same sequence, so the collectives on each communicator are
 * called in the same order everywhere, while the threads of one process
 * interleave freely.
 *
 * Options: -n ITER per thread (default 120; env T_COLL_ITER), -s SEED.
 */
#include "mpitest.h"
#include "colltest.h"

#include <pthread.h>

#define NTHREADS 3

typedef struct {
    ct_ctx x; /* a copy of the process's context with the thread's communicators */
    int tid;
    uint64_t seed;
    long iters;
} worker_arg;

static void *worker(void *p)
{
    worker_arg *a = (worker_arg *)p;
    long it;
    for (it = 0; it < a->iters; it++) {
        uint64_t cseed = ct_iter_seed(a->seed * 31 + (uint64_t)a->tid, it);
        int k = ct_pick_comm(&a->x, ct_h(cseed, 1));
        int coll = ct_pick_coll((1l << NCOLL) - 1, ct_h(cseed, 2));
        ct_run_one(&a->x, coll, k, cseed, (int)it, ct_h(cseed, 3) % 3 == 0, 0);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = 0, rank, t, a, rc;
    long iters = -1;
    uint64_t seed = ct_env_u64("T_COLL_SEED", 1);
    ct_ctx base;
    worker_arg args[NTHREADS];
    pthread_t th[NTHREADS];
    double t0;

    mt_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    for (a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "-n") && a + 1 < argc)
            iters = atol(argv[++a]);
        else if (!strcmp(argv[a], "-s") && a + 1 < argc)
            seed = strtoull(argv[++a], NULL, 0);
        else {
            fprintf(stderr, "usage: t_coll_mt [-n ITER] [-s SEED]\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (iters < 0) iters = (long)ct_env_u64("T_COLL_ITER", 120);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (provided < MPI_THREAD_MULTIPLE) {
#ifdef OPEN_MPI
        /* a build without thread support: nothing to test */
        if (rank == 0) printf("t_coll_mt: MPI_THREAD_MULTIPLE not provided (%d): skipped\n", provided);
        return mt_finalize();
#else
        MT_CHECK(0, "MPI_Init_thread provided %d, not MPI_THREAD_MULTIPLE", provided);
        return mt_finalize();
#endif
    }
    ct_ctx_init(&base, MPI_COMM_WORLD, "t_coll_mt");
    base.big_permille = 5;
    t0 = MPI_Wtime();

    /* every thread's communicators, in the same order on every process */
    for (t = 0; t < NTHREADS; t++) {
        MPI_Comm dup, half, self;
        int r;
        args[t].x = base;
        args[t].x.ncomms = 0;
        args[t].tid = t;
        args[t].seed = seed;
        args[t].iters = iters;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Comm_rank(dup, &r);
        MPI_Comm_split(dup, r % 2, -r, &half);
        MPI_Comm_dup(MPI_COMM_SELF, &self);
        MPI_Comm_set_errhandler(self, MPI_ERRORS_RETURN);
        ct_ctx_add_comm(&args[t].x, dup, "dup(world) of the thread", 50);
        ct_ctx_add_comm(&args[t].x, half, "split(thread's dup, rank%2, key=-rank)", 35);
        ct_ctx_add_comm(&args[t].x, self, "dup(self) of the thread", 15);
    }
    for (t = 0; t < NTHREADS; t++) {
        rc = pthread_create(&th[t], NULL, worker, &args[t]);
        MT_CHECK(rc == 0, "pthread_create: %d", rc);
    }
    for (t = 0; t < NTHREADS; t++) pthread_join(th[t], NULL);

    for (t = 0; t < NTHREADS; t++) {
        int k;
        for (k = 0; k < args[t].x.ncomms; k++) MPI_Comm_free(&args[t].x.comms[k]);
    }
    ct_ctx_free(&base);
    if (rank == 0) {
        printf("t_coll_mt: %d threads x %ld random cases (seed %llu) in %.2f s\n", NTHREADS, iters,
               (unsigned long long)seed, MPI_Wtime() - t0);
        fflush(stdout);
    }
    return mt_finalize();
}
