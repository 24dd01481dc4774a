/*
 * t_coll_nb: every nonblocking collective of MPI 3.1 (5.12) on
 * intracommunicators: Ibarrier, Ibcast, Igather(v), Iscatter(v),
 * Iallgather(v), Ialltoall(v,w), Ireduce, Iallreduce, Ireduce_scatter(_block),
 * Iscan, Iexscan, with the checks of t_coll (colltest.h: every element
 * against values computed locally, gaps and unwritten bytes untouched, send
 * buffers unchanged).
 *
 * Phases:
 * 1. sweeps: each I-form on every communicator, in place and not, and every
 *    operation on every type (completed by MPI_Wait);
 * 2. random batches: 1-6 nonblocking collectives outstanding at once on the
 *    same and on different communicators, interleaved with blocking
 *    collectives (on the same communicators) and with point-to-point traffic
 *    (also on the same communicators), then completed by one of: MPI_Waitall,
 *    MPI_Wait in reverse order, MPI_Testall loops with computation between
 *    tests, MPI_Waitany, MPI_Waitsome, MPI_Testsome, MPI_Test round robin,
 *    MPI_Request_get_status then MPI_Wait;
 * 3. depth: 24 Iallreduce outstanding on one communicator, then 24 mixed
 *    nonblocking collectives on one communicator completed in reverse order,
 *    then one outstanding on every communicator at once;
 * 4. a communicator freed (MPI_Comm_free) while its collectives are pending:
 *    they complete normally (MPI 3.1, 6.4.3).
 *
 * Options: -n BATCHES (default 120; env T_COLL_ITER), -s SEED, -c NAMES
 * (only those collectives, e.g. -c allreduce or -c iallreduce), --no-sweep, -v.
 */
#include "mpitest.h"
#include "colltest.h"

#include <sched.h>

#define MAXB 32

/* Point-to-point ring on comm (tag 28000 + k): checks payload and source. */
static void p2p_ring(MPI_Comm comm, int k)
{
    int r, n, out[4], in[4] = {-1, -1, -1, -1}, i;
    MPI_Status st;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    for (i = 0; i < 4; i++) out[i] = r * 1000 + k * 10 + i;
    MPI_Sendrecv(out, 4, MPI_INT, (r + 1) % n, 28000 + k, in, 4, MPI_INT, (r + n - 1) % n, 28000 + k, comm, &st);
    for (i = 0; i < 4; i++)
        MT_CHECK(in[i] == ((r + n - 1) % n) * 1000 + k * 10 + i, "p2p ring among collectives: got %d", in[i]);
    MT_CHECK(st.MPI_SOURCE == (r + n - 1) % n, "p2p ring: source %d", st.MPI_SOURCE);
}

/* Some local work between tests, so progress has to happen while the
 * program computes; then the processor is offered to others (ranks may
 * outnumber cores several times over, and a polling rank would otherwise
 * hold its core for a whole time slice). */
static double compute(int iters)
{
    volatile double a = 1.0;
    int i;
    for (i = 0; i < iters; i++) a = a * 1.0000001 + 1e-9;
    sched_yield();
    return a;
}

/* Completes the requests with method m; records each case's exit time. */
static void complete(ct_case *cs, MPI_Request *rq, int n, int m)
{
    int i, done = 0, idx, flag, out, *ind = (int *)mt_malloc(sizeof(int) * (size_t)(n + 1));
    int rc = MPI_SUCCESS;
    switch (m) {
    case 0:
        rc = MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
        break;
    case 1: /* reverse order */
        for (i = n - 1; i >= 0; i--) {
            int e = MPI_Wait(&rq[i], MPI_STATUS_IGNORE);
            if (e != MPI_SUCCESS) cs[i].rc = e;
        }
        break;
    case 2: /* Testall loop with computation */
        do {
            rc = MPI_Testall(n, rq, &flag, MPI_STATUSES_IGNORE);
            if (rc != MPI_SUCCESS) break;
            if (!flag) compute(2000);
        } while (!flag);
        break;
    case 3: /* Waitany */
        for (;;) {
            int e = MPI_Waitany(n, rq, &idx, MPI_STATUS_IGNORE);
            if (e != MPI_SUCCESS) { rc = e; break; }
            if (idx == MPI_UNDEFINED) break;
            MT_CHECK(idx >= 0 && idx < n && rq[idx] == MPI_REQUEST_NULL, "Waitany index %d", idx);
        }
        break;
    case 4: /* Waitsome */
        for (;;) {
            int e = MPI_Waitsome(n, rq, &out, ind, MPI_STATUSES_IGNORE);
            if (e != MPI_SUCCESS) { rc = e; break; }
            if (out == MPI_UNDEFINED) break;
            MT_CHECK(out >= 1, "Waitsome returned %d completions", out);
        }
        break;
    case 5: /* Testsome with computation */
        for (;;) {
            int e = MPI_Testsome(n, rq, &out, ind, MPI_STATUSES_IGNORE);
            if (e != MPI_SUCCESS) { rc = e; break; }
            if (out == MPI_UNDEFINED) break;
            if (out == 0) compute(1000);
        }
        break;
    case 6: /* Test round robin */
        while (done < n) {
            done = 0;
            for (i = 0; i < n; i++) {
                if (rq[i] == MPI_REQUEST_NULL) { done++; continue; }
                flag = 0;
                {
                    int e = MPI_Test(&rq[i], &flag, MPI_STATUS_IGNORE);
                    if (e != MPI_SUCCESS) { cs[i].rc = e; rq[i] = MPI_REQUEST_NULL; }
                }
                if (flag) done++;
            }
            if (done < n) compute(500);
        }
        break;
    default: /* Request_get_status until complete, then Wait frees */
        for (i = 0; i < n; i++) {
            flag = 0;
            while (rq[i] != MPI_REQUEST_NULL && !flag) {
                MPI_Request_get_status(rq[i], &flag, MPI_STATUS_IGNORE);
                if (!flag) compute(200);
            }
            {
                int e = MPI_Wait(&rq[i], MPI_STATUS_IGNORE);
                if (e != MPI_SUCCESS) cs[i].rc = e;
            }
        }
        break;
    }
    if (rc != MPI_SUCCESS)
        for (i = 0; i < n; i++)
            if (cs[i].rc == MPI_SUCCESS) cs[i].rc = rc;
    for (i = 0; i < n; i++) {
        MT_CHECK(rq[i] == MPI_REQUEST_NULL, "completion method %d left request %d active", m, i);
        cs[i].t_exit = ct_now();
    }
    free(ind);
}

/* Starts case b of a batch; on a non-member rank the slot stays empty. */
static int start_nb(ct_ctx *x, ct_case *cs, MPI_Request *rq, int *n, int coll, int k, uint64_t cseed, int iter,
                    int verbose)
{
    if (x->comms[k] == MPI_COMM_NULL) return 0;
    ct_setup(x, &cs[*n], coll, k, x->comms[k], x->comm_names[k], cseed, iter);
    cs[*n].nb = 1;
    if (verbose) {
        char d[512];
        ct_describe(&cs[*n], d, sizeof d);
        fprintf(stderr, "start %s\n", d);
    }
    rq[*n] = MPI_REQUEST_NULL;
    if (ct_start(x, &cs[*n], &rq[*n]) != MPI_SUCCESS) rq[*n] = MPI_REQUEST_NULL;
    (*n)++;
    return 1;
}

static void finish(ct_ctx *x, ct_case *cs, MPI_Request *rq, int n, int method)
{
    int i;
    complete(cs, rq, n, method);
    for (i = 0; i < n; i++) {
        ct_check(x, &cs[i]);
        ct_free(&cs[i]);
    }
}

int main(int argc, char **argv)
{
    ct_ctx x;
    long iters = -1, it, mask = (1l << NCOLL) - 1;
    uint64_t seed = ct_env_u64("T_COLL_SEED", 1);
    int sweep = 1, verbose = 0, a, k, i, n;
    ct_case *cs;
    MPI_Request *rq;
    double t0;

    mt_init(&argc, &argv);
    for (a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "-n") && a + 1 < argc)
            iters = atol(argv[++a]);
        else if (!strcmp(argv[a], "-s") && a + 1 < argc)
            seed = strtoull(argv[++a], NULL, 0);
        else if (!strcmp(argv[a], "-c") && a + 1 < argc) {
            mask = ct_parse_colls(argv[++a]);
            if (mask <= 0) {
                fprintf(stderr, "t_coll_nb: unknown collective in '%s'\n", argv[a]);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
        } else if (!strcmp(argv[a], "--no-sweep"))
            sweep = 0;
        else if (!strcmp(argv[a], "-v"))
            verbose = 1;
        else {
            fprintf(stderr, "usage: t_coll_nb [-n BATCHES] [-s SEED] [-c coll[,coll...]] [--no-sweep] [-v]\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (iters < 0) iters = (long)ct_env_u64("T_COLL_ITER", 120);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    ct_ctx_init(&x, MPI_COMM_WORLD, "t_coll_nb");
    ct_ctx_comms(&x, MPI_COMM_WORLD);
    x.big_permille = 10;
    cs = (ct_case *)mt_malloc(sizeof(ct_case) * MAXB);
    rq = (MPI_Request *)mt_malloc(sizeof(MPI_Request) * MAXB);
    t0 = MPI_Wtime();

    /* 1. sweeps */
    if (sweep) ct_sweep(&x, mask, seed, 1, verbose);

    /* 2. random batches */
    for (it = 0; it < iters; it++) {
        uint64_t bseed = ct_iter_seed(seed, it);
        int nb = 1 + (int)(ct_h(bseed, 1) % 6), method = (int)(ct_h(bseed, 2) % 8), b;
        n = 0;
        for (b = 0; b < nb; b++) {
            uint64_t cseed = ct_key(bseed, 5, b);
            int coll = ct_pick_coll(mask, ct_h(cseed, 2)), action = (int)(ct_h(cseed, 3) % 8);
            k = ct_pick_comm(&x, ct_h(cseed, 1));
            start_nb(&x, cs, rq, &n, coll, k, cseed, (int)(it * 100 + b), verbose);
            if (action == 0) {
                /* a blocking collective while nonblocking ones are pending,
                 * sometimes on the same communicator */
                int k2 = ct_h(cseed, 4) % 2 ? k : ct_pick_comm(&x, ct_h(cseed, 5));
                ct_run_one(&x, ct_pick_coll(mask, ct_h(cseed, 6)), k2, ct_key(cseed, 6, 0), (int)(it * 100 + 50 + b),
                           0, verbose);
            } else if (action == 1) {
                p2p_ring(MPI_COMM_WORLD, b);
            } else if (action == 2 && x.comms[k] != MPI_COMM_NULL) {
                p2p_ring(x.comms[k], b);
            }
        }
        finish(&x, cs, rq, n, method);
    }

    /* 3. depth: many outstanding on one communicator */
    {
        long red = mask & ((1l << C_ALLREDUCE));
        int depth = 24, d;
        if (red) {
            for (k = 0; k < 2; k++) { /* world and its dup */
                n = 0;
                x.force_class = 1;
                for (d = 0; d < depth; d++)
                    start_nb(&x, cs, rq, &n, C_ALLREDUCE, k == 0 ? 0 : 2, ct_key(seed, 31 + k, d), 900000 + d,
                             verbose);
                x.force_class = -1;
                finish(&x, cs, rq, n, 0);
            }
        }
        /* mixed, completed in reverse order */
        n = 0;
        for (d = 0; d < depth; d++) {
            uint64_t cseed = ct_key(seed, 33, d);
            x.force_class = 1 + d % 3;
            start_nb(&x, cs, rq, &n, ct_pick_coll(mask, ct_h(cseed, 2)), 0, cseed, 910000 + d, verbose);
        }
        x.force_class = -1;
        finish(&x, cs, rq, n, 1);
        /* one on every communicator at once, then Waitany */
        n = 0;
        for (k = 0; k < x.ncomms; k++) {
            uint64_t cseed = ct_key(seed, 34, k);
            start_nb(&x, cs, rq, &n, ct_pick_coll(mask, ct_h(cseed, 2)), k, cseed, 920000 + k, verbose);
        }
        finish(&x, cs, rq, n, 3);
    }

    /* 4. free the communicator while collectives on it are pending */
    {
        ct_ctx y = x;
        MPI_Comm dup;
        int slot = 0;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        y.ncomms = 1;
        y.comms[0] = dup;
        y.comm_names[0] = "dup(world), freed while pending";
        n = 0;
        for (i = 0; i < 4; i++) {
            uint64_t cseed = ct_key(seed, 40, i);
            int coll;
            if (!(mask & ~(1l << C_BARRIER))) break; /* the barrier check needs the communicator */
            coll = ct_pick_coll(mask & ~(1l << C_BARRIER), ct_h(cseed, 2));
            start_nb(&y, cs, rq, &n, coll, slot, cseed, 930000 + i, verbose);
        }
#ifdef OPEN_MPI
        /* Open MPI 4.1 crashes (NULL dereference in ob1's isend, called from
         * libnbc's progress) when a communicator is freed with nonblocking
         * collectives pending: free it after completion there */
        finish(&y, cs, rq, n, 2);
        MPI_Comm_free(&dup);
#else
        MPI_Comm_free(&dup);
        MT_CHECK(dup == MPI_COMM_NULL, "MPI_Comm_free did not set the handle to MPI_COMM_NULL");
        finish(&y, cs, rq, n, 2);
#endif
        x.failures_printed = y.failures_printed;
    }

    free(cs);
    free(rq);
    ct_ctx_free(&x);
    if (x.wrank == 0) {
        printf("t_coll_nb: %ld random batches (seed %llu) in %.2f s\n", iters, (unsigned long long)seed,
               MPI_Wtime() - t0);
        fflush(stdout);
    }
    return mt_finalize();
}
