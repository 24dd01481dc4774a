/*
 * t_coll: every blocking collective of MPI 3.1 (chapter 5) on
 * intracommunicators, checked element by element against values computed
 * locally (colltest.h has the reference machinery):
 * Barrier, Bcast, Gather(v), Scatter(v), Allgather(v), Alltoall(v,w),
 * Reduce, Allreduce, Reduce_scatter(_block), Scan, Exscan.
 *
 * Two phases:
 * 1. sweeps: every selected collective on every communicator, with and
 *    without MPI_IN_PLACE; every predefined operation on every type it is
 *    defined on (plus a commutative and a non-commutative user operation) for
 *    each selected reduction; MPI_BOTTOM with absolute-address datatypes in
 *    Bcast, Allgather and Alltoallw;
 * 2. random cases: a PRNG seeded from -s (same sequence on every rank) picks
 *    the collective, communicator, count (0 to a few MiB), root, types (send
 *    and receive types that differ but match in signature, derived types
 *    with gaps), operation and in-place use.
 * Communicators: world, self, a dup, split halves with reversed ranks,
 * groups of three, a subgroup from MPI_Comm_create, and the merge of an
 * intercommunicator (1/3 | 2/3).
 *
 * Options:
 *   -n ITER     random cases (default 300; env T_COLL_ITER)
 *   -s SEED     PRNG seed (default 1; env T_COLL_SEED)
 *   -c NAMES    only these collectives, comma-separated (e.g. -c allreduce)
 *   -b PERMILLE share of cases with buffers from 32 KiB to a few MiB (default 20)
 *   --stress    a million random cases (or -n / T_COLL_ITER), small sizes
 *               mostly, progress every 10000 on stderr from rank 0
 *   --no-sweep  skip phase 1
 *   -q          no summary line
 *   -v          print every case before it runs (every rank, stderr)
 * A failure prints the collective, iteration, communicator, counts, types,
 * operation, root, rank, and the first wrong element with the expected and
 * actual values (a few per rank; all are counted).
 */
#include "mpitest.h"
#include "colltest.h"

static void usage(void)
{
    fprintf(stderr, "usage: t_coll [-n ITER] [-s SEED] [-c coll[,coll...]] [-b PERMILLE] [--stress] [--no-sweep] [-q] [-v]\n");
}

/* Absolute addresses: buffers passed as MPI_BOTTOM with a datatype built
 * from MPI_Get_address of two separate arrays (MPI 3.1, 4.1.12). Bcast and
 * Allgather send/receive through such a type; Alltoallw sends block j from
 * its own pair of arrays (one absolute type per destination). Values are
 * pure functions of (rank, array, index). */
#define BOT_A 5
#define BOT_B 3
static int bot_val(int rank, int arr, int i, int salt)
{
    return rank * 1000 + arr * 100 + i + salt * 100000;
}

static MPI_Datatype bot_type(int *a, int *b)
{
    MPI_Datatype t, types[2] = {MPI_INT, MPI_INT};
    int bl[2] = {BOT_A, BOT_B};
    MPI_Aint disp[2];
    MPI_Get_address(a, &disp[0]);
    MPI_Get_address(b, &disp[1]);
    MPI_Type_create_struct(2, bl, disp, types, &t);
    MPI_Type_commit(&t);
    return t;
}

static void bottom_cases(MPI_Comm comm, const char *name, long mask, int salt)
{
    int me, n, i, j, root;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    root = n - 1;
    if (mask & (1l << C_BCAST)) {
        int a[BOT_A], b[BOT_B], rc;
        MPI_Datatype t = bot_type(a, b);
        for (i = 0; i < BOT_A; i++) a[i] = me == root ? bot_val(root, 0, i, salt) : -1;
        for (i = 0; i < BOT_B; i++) b[i] = me == root ? bot_val(root, 1, i, salt) : -1;
        rc = MPI_Bcast(MPI_BOTTOM, 1, t, root, comm);
        MT_CHECK(rc == MPI_SUCCESS, "bcast MPI_BOTTOM (%s): returned %d", name, rc);
        for (i = 0; i < BOT_A; i++) MT_CHECK(a[i] == bot_val(root, 0, i, salt), "bcast MPI_BOTTOM (%s) rank %d: a[%d] = %d", name, me, i, a[i]);
        for (i = 0; i < BOT_B; i++) MT_CHECK(b[i] == bot_val(root, 1, i, salt), "bcast MPI_BOTTOM (%s) rank %d: b[%d] = %d", name, me, i, b[i]);
        MPI_Type_free(&t);
    }
    if (mask & (1l << C_ALLGATHER)) {
        int a[BOT_A], b[BOT_B], rc, *r = ct_ints(n * (BOT_A + BOT_B));
        MPI_Datatype t = bot_type(a, b);
        for (i = 0; i < BOT_A; i++) a[i] = bot_val(me, 0, i, salt);
        for (i = 0; i < BOT_B; i++) b[i] = bot_val(me, 1, i, salt);
        rc = MPI_Allgather(MPI_BOTTOM, 1, t, r, BOT_A + BOT_B, MPI_INT, comm);
        MT_CHECK(rc == MPI_SUCCESS, "allgather from MPI_BOTTOM (%s): returned %d", name, rc);
        for (j = 0; j < n; j++)
            for (i = 0; i < BOT_A + BOT_B; i++) {
                int want = i < BOT_A ? bot_val(j, 0, i, salt) : bot_val(j, 1, i - BOT_A, salt);
                MT_CHECK(r[j * (BOT_A + BOT_B) + i] == want, "allgather from MPI_BOTTOM (%s) rank %d: block %d element %d = %d, expected %d",
                         name, me, j, i, r[j * (BOT_A + BOT_B) + i], want);
            }
        free(r);
        MPI_Type_free(&t);
    }
    if (mask & (1l << C_ALLTOALLW)) {
        int *a = ct_ints(n * BOT_A), *b = ct_ints(n * BOT_B), *r = ct_ints(n * (BOT_A + BOT_B) + 1), rc;
        int *sc = ct_ints(n), *sd = ct_ints(n), *rcn = ct_ints(n), *rd = ct_ints(n);
        MPI_Datatype *st = (MPI_Datatype *)mt_malloc(sizeof(MPI_Datatype) * (size_t)n);
        MPI_Datatype *rt = (MPI_Datatype *)mt_malloc(sizeof(MPI_Datatype) * (size_t)n);
        for (j = 0; j < n; j++) {
            for (i = 0; i < BOT_A; i++) a[j * BOT_A + i] = bot_val(me, 0, i, salt + j);
            for (i = 0; i < BOT_B; i++) b[j * BOT_B + i] = bot_val(me, 1, i, salt + j);
            st[j] = bot_type(a + j * BOT_A, b + j * BOT_B);
            sc[j] = 1;
            sd[j] = 0;
            rt[j] = MPI_INT;
            rcn[j] = BOT_A + BOT_B;
            rd[j] = (int)((size_t)j * (BOT_A + BOT_B) * sizeof(int));
        }
        r[n * (BOT_A + BOT_B)] = -77;
        rc = MPI_Alltoallw(MPI_BOTTOM, sc, sd, st, r, rcn, rd, rt, comm);
        MT_CHECK(rc == MPI_SUCCESS, "alltoallw from MPI_BOTTOM (%s): returned %d", name, rc);
        for (j = 0; j < n; j++)
            for (i = 0; i < BOT_A + BOT_B; i++) {
                int want = i < BOT_A ? bot_val(j, 0, i, salt + me) : bot_val(j, 1, i - BOT_A, salt + me);
                MT_CHECK(r[j * (BOT_A + BOT_B) + i] == want, "alltoallw from MPI_BOTTOM (%s) rank %d: block %d element %d = %d, expected %d",
                         name, me, j, i, r[j * (BOT_A + BOT_B) + i], want);
            }
        MT_CHECK(r[n * (BOT_A + BOT_B)] == -77, "alltoallw from MPI_BOTTOM (%s): wrote past the receive buffer", name);
        for (j = 0; j < n; j++) MPI_Type_free(&st[j]);
        free(a); free(b); free(r); free(sc); free(sd); free(rcn); free(rd); free(st); free(rt);
    }
}

int main(int argc, char **argv)
{
    ct_ctx x;
    long iters = -1, it, mask = (1l << NCOLL) - 1;
    uint64_t seed = ct_env_u64("T_COLL_SEED", 1);
    int stress = 0, sweep = 1, quiet = 0, verbose = 0, big = -1, a, coll, k;
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
                fprintf(stderr, "t_coll: unknown collective in '%s'\n", argv[a]);
                usage();
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
        } else if (!strcmp(argv[a], "-b") && a + 1 < argc)
            big = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--stress"))
            stress = 1;
        else if (!strcmp(argv[a], "--no-sweep"))
            sweep = 0;
        else if (!strcmp(argv[a], "-q"))
            quiet = 1;
        else if (!strcmp(argv[a], "-v"))
            verbose = 1;
        else {
            usage();
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (iters < 0) iters = (long)ct_env_u64("T_COLL_ITER", stress ? 1000000 : 300);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    ct_ctx_init(&x, MPI_COMM_WORLD, "t_coll");
    ct_ctx_comms(&x, MPI_COMM_WORLD);
    if (stress) x.big_permille = 2;
    if (big >= 0) x.big_permille = big;
    t0 = MPI_Wtime();

    if (sweep) {
        ct_sweep(&x, mask, seed, 0, verbose);
        for (k = 0; k < x.ncomms; k++)
            if (x.comms[k] != MPI_COMM_NULL) bottom_cases(x.comms[k], x.comm_names[k], mask, k);
    }

    for (it = 0; it < iters; it++) {
        uint64_t cseed = ct_iter_seed(seed, it);
        k = ct_pick_comm(&x, ct_h(cseed, 1));
        coll = ct_pick_coll(mask, ct_h(cseed, 2));
        ct_run_one(&x, coll, k, cseed, (int)it, 0, verbose);
        if (stress && x.wrank == 0 && (it + 1) % 10000 == 0) {
            fprintf(stderr, "t_coll: %ld/%ld random collectives, %.1f s\n", it + 1, iters, MPI_Wtime() - t0);
            fflush(stderr);
        }
    }

    ct_ctx_free(&x);
    if (!quiet && x.wrank == 0) {
        printf("t_coll: %ld random cases (seed %llu) in %.2f s\n", iters, (unsigned long long)seed, MPI_Wtime() - t0);
        fflush(stdout);
    }
    return mt_finalize();
}
