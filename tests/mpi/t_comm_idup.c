/*
 * MPI_Comm_idup is nonblocking.
 *
 * - One rank starts the idup, then sends a message that another rank must
 *   receive before it even calls MPI_Comm_idup: an idup that waited inside
 *   the call for the others would deadlock. Both directions (the last rank
 *   first, then rank 0 first), and a chain where each rank waits for its
 *   predecessor's message before calling.
 * - Several idups in flight at once (with a blocking split started among
 *   them), completed by MPI_Waitall / MPI_Test; each result is a working
 *   communicator whose messages stay on it.
 */
#include "mpitest.h"
#include <stdlib.h>


/* The new communicator works: a ring shift over it, checked. */
static void check_ring(MPI_Comm comm, int tag, const char *what)
{
    int size, rank, wsize, v = -1, expect;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MT_CHECK(size == wsize, "%s: size %d", what, size);
    MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, tag, &v, 1, MPI_INT, (rank + size - 1) % size, tag, comm,
                 MPI_STATUS_IGNORE);
    expect = (rank + size - 1) % size;
    MT_CHECK(v == expect, "%s: ring got %d, expected %d", what, v, expect);
}

/* `first` starts its idup, then tells `second`, which calls its idup only then. */
static void late_partner(int first, int second, const char *what)
{
    int size, me, token = 0;
    MPI_Comm dup;
    MPI_Request req;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == second && first != second) MPI_Recv(&token, 1, MPI_INT, first, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MT_CHECK_RC(MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req));
    if (me == first && first != second) MPI_Send(&token, 1, MPI_INT, second, 1, MPI_COMM_WORLD);
    MT_CHECK_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MT_CHECK(req == MPI_REQUEST_NULL, "%s: request not freed by MPI_Wait", what);
    check_ring(dup, 2, what);
    MPI_Comm_free(&dup);
}

/* Rank r calls idup only after rank r-1's message, which r-1 sends after its own idup. */
static void chain(void)
{
    int size, me, token = 0;
    MPI_Comm dup;
    MPI_Request req;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me > 0) MPI_Recv(&token, 1, MPI_INT, me - 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MT_CHECK_RC(MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req));
    if (me + 1 < size) MPI_Send(&token, 1, MPI_INT, me + 1, 3, MPI_COMM_WORLD);
    /* complete by testing */
    {
        int flag = 0;
        while (!flag) MT_CHECK_RC(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
    }
    check_ring(dup, 4, "chain");
    MPI_Comm_free(&dup);
}

#define NDUP 5

static void several_in_flight(void)
{
    int size, me, partner, i, v;
    MPI_Comm dups[NDUP], split;
    MPI_Request reqs[NDUP];
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    partner = mt_partner(me, size);
    for (i = 0; i < 3; i++) MT_CHECK_RC(MPI_Comm_idup(MPI_COMM_WORLD, &dups[i], &reqs[i]));
#ifdef HMPI
    /* A blocking creation on the same parent while those are in flight
     * (legal: all ranks start them in the same order; Open MPI 4.1 hangs
     * in it, so it runs only here). */
    MT_CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, 0, -me, &split));
#endif
    for (i = 3; i < NDUP; i++) MT_CHECK_RC(MPI_Comm_idup(MPI_COMM_WORLD, &dups[i], &reqs[i]));
    MT_CHECK_RC(MPI_Waitall(NDUP, reqs, MPI_STATUSES_IGNORE));
#ifndef HMPI
    MT_CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, 0, -me, &split));
#endif
    {
        int r;
        MPI_Comm_rank(split, &r);
        MT_CHECK(r == size - 1 - me, "split among idups: rank %d, expected %d", r, size - 1 - me);
    }
    /* Send i on dup i, receive in the opposite order: each arrives on its
     * own. (Only the partner sends tag 0 on the dups, so MPI_ANY_SOURCE
     * cannot catch the ring traffic that follows.) */
    for (i = 0; i < NDUP; i++) MPI_Send(&i, 1, MPI_INT, partner, 0, dups[i]);
    for (i = NDUP - 1; i >= 0; i--) {
        v = -1;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, dups[i], MPI_STATUS_IGNORE);
        MT_CHECK(v == i, "dup %d received %d", i, v);
    }
    for (i = 0; i < NDUP; i++) {
        int j, result;
        for (j = i + 1; j < NDUP; j++) {
            MPI_Comm_compare(dups[i], dups[j], &result);
            MT_CHECK(result == MPI_CONGRUENT, "dups %d and %d compare %d", i, j, result);
        }
        check_ring(dups[i], 5, "in flight");
    }
    for (i = 0; i < NDUP; i++) MPI_Comm_free(&dups[i]);
    MPI_Comm_free(&split);
}

/* An idup of a derived communicator whose handle is freed before the idup
 * completes (the pending operation keeps it alive), and an idup of an
 * intercommunicator. */
static void idup_of_derived(void)
{
    int size, me, hn, hr;
    MPI_Comm half, dup;
    MPI_Request req;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
    MPI_Comm_size(half, &hn);
    MPI_Comm_rank(half, &hr);
    MT_CHECK_RC(MPI_Comm_idup(half, &dup, &req));
#ifdef HMPI
    /* Pending operations keep a freed communicator alive (MPI 3.1, 6.4.3);
     * Open MPI 4.1 crashes when that operation is an idup. */
    MT_CHECK_RC(MPI_Comm_free(&half));
    MPI_Wait(&req, MPI_STATUS_IGNORE);
#else
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MT_CHECK_RC(MPI_Comm_free(&half));
#endif
    {
        int n, r;
        MPI_Comm_size(dup, &n);
        MPI_Comm_rank(dup, &r);
        MT_CHECK(n == hn && r == hr, "idup of a freed split: size %d rank %d, expected %d %d", n, r, hn, hr);
        if (n == hn && r == hr) {
            int v = -1;
            MPI_Sendrecv(&me, 1, MPI_INT, (r + 1) % n, 6, &v, 1, MPI_INT, (r + n - 1) % n, 6, dup, MPI_STATUS_IGNORE);
            int want = 2 * ((r + n - 1) % n) + me % 2; /* half rank k is world rank 2k + parity */
            MT_CHECK(v == want, "ring on the idup of a split got %d, expected %d", v, want);
        }
    }
    MPI_Comm_free(&dup);

    if (size >= 2) {
        MPI_Comm inter, idup;
        int flag = 0, rsize = -1, lrank, v = -1;
        MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, me % 2 ? 0 : 1, 9, &inter);
        MT_CHECK_RC(MPI_Comm_idup(inter, &idup, &req));
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Comm_test_inter(idup, &flag);
        MPI_Comm_remote_size(idup, &rsize);
        MT_CHECK(flag && rsize == (me % 2 ? (size + 1) / 2 : size / 2), "idup of an intercomm: inter %d remote size %d", flag, rsize);
        MPI_Comm_rank(idup, &lrank);
        if (lrank == 0) {
            MPI_Sendrecv(&me, 1, MPI_INT, 0, 7, &v, 1, MPI_INT, 0, 7, idup, MPI_STATUS_IGNORE);
            MT_CHECK(v == (me % 2 ? 0 : 1), "leaders across the idup'ed intercomm: got %d", v);
        }
        MPI_Comm_free(&idup);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
}

int main(int argc, char **argv)
{
    int size;
    mt_init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    late_partner(size - 1, 0, "last rank first");
    late_partner(0, size - 1, "rank 0 first");
    chain();
    several_in_flight();
    idup_of_derived();
    mt_barrier(MPI_COMM_WORLD);
    return mt_finalize();
}
