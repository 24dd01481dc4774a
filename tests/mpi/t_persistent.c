/*
 * t_persistent: persistent requests.
 *  - Send_init, Ssend_init, Rsend_init, Bsend_init against four Recv_init, with
 *    Startall / Start, 60 iterations, buffer contents changed every iteration
 *    (the request is bound to the buffer, not to the data); one message is
 *    256 KiB. Rsend is started only after the receiver's receives are started
 *    (handshake each iteration). Waitall / Wait / Test keep the requests
 *    allocated (inactive), not MPI_REQUEST_NULL.
 *  - Wait and Test on an inactive persistent request return at once with an
 *    empty status; Waitall over a mix of inactive and null requests too.
 *  - MPI_Request_free on inactive persistent requests sets MPI_REQUEST_NULL.
 * Pairs: even rank sends, odd rank receives, roles swap on odd iterations; the
 * odd last rank of an odd-sized job does it all with itself.
 */
#include "mpitest.h"

#define ITER 60
#define NK 4
static const int counts[NK] = {16, 65536, 1000, 1}; /* ints: Send, Ssend, Rsend, Bsend */

static int value(int src, int it, int k, int j) { return src * 1000000 + it * 10000 + k * 1000 + (j % 1000); }

static void check_empty(const MPI_Status *st, const char *what)
{
    int count = -1, flag = 1;
    MT_CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG, "%s: status not empty (source %d tag %d)",
             what, st->MPI_SOURCE, st->MPI_TAG);
    MPI_Get_count(st, MPI_INT, &count);
    MT_CHECK(count == 0, "%s: empty status count %d", what, count);
    MPI_Test_cancelled(st, &flag);
    MT_CHECK(!flag, "%s: empty status reports cancelled", what);
}

static void persistent_all(int rank, int partner)
{
    int *sbuf[NK], *rbuf[NK], k, it, j, tok = 0, tok_in;
    MPI_Request sreq[NK], rreq[NK];
    MPI_Status st[NK];
    int bsize = 2 * (counts[3] * (int)sizeof(int) + MPI_BSEND_OVERHEAD), dsize;
    void *battach = mt_malloc((size_t)bsize), *bdet;
    const int self = partner == rank;

    MT_CHECK_RC(MPI_Buffer_attach(battach, bsize));
    for (k = 0; k < NK; k++) {
        sbuf[k] = mt_malloc(sizeof(int) * (size_t)counts[k]);
        rbuf[k] = mt_malloc(sizeof(int) * (size_t)counts[k]);
        MT_CHECK_RC(MPI_Recv_init(rbuf[k], counts[k], MPI_INT, partner, 10 + k, MPI_COMM_WORLD, &rreq[k]));
    }
    MT_CHECK_RC(MPI_Send_init(sbuf[0], counts[0], MPI_INT, partner, 10, MPI_COMM_WORLD, &sreq[0]));
    MT_CHECK_RC(MPI_Ssend_init(sbuf[1], counts[1], MPI_INT, partner, 11, MPI_COMM_WORLD, &sreq[1]));
    MT_CHECK_RC(MPI_Rsend_init(sbuf[2], counts[2], MPI_INT, partner, 12, MPI_COMM_WORLD, &sreq[2]));
#if defined(OPEN_MPI)
    /* Open MPI 4.1.4 resends the first start's data on every later start of a
     * persistent buffered send to self; use a standard send to self there. */
    if (self)
        MT_CHECK_RC(MPI_Send_init(sbuf[3], counts[3], MPI_INT, partner, 13, MPI_COMM_WORLD, &sreq[3]));
    else
#endif
        MT_CHECK_RC(MPI_Bsend_init(sbuf[3], counts[3], MPI_INT, partner, 13, MPI_COMM_WORLD, &sreq[3]));

    for (it = 0; it < ITER; it++) {
        int sender = (it % 2 == 0) ? (rank < partner ? rank : partner) : (rank < partner ? partner : rank);
        int do_send = self || rank == sender, do_recv = self || rank != sender;
        if (do_recv) {
            for (k = 0; k < NK; k++) memset(rbuf[k], 0xff, sizeof(int) * (size_t)counts[k]);
            if (it % 3 == 0)
                MT_CHECK_RC(MPI_Startall(NK, rreq));
            else
                for (k = 0; k < NK; k++) MT_CHECK_RC(MPI_Start(&rreq[k]));
            if (!self) MT_CHECK_RC(MPI_Send(&tok, 1, MPI_INT, partner, 20, MPI_COMM_WORLD));
        }
        if (do_send) {
            for (k = 0; k < NK; k++)
                for (j = 0; j < counts[k]; j++) sbuf[k][j] = value(rank, it, k, j);
            if (!self) /* the receives are started before the ready send */
                MT_CHECK_RC(MPI_Recv(&tok_in, 1, MPI_INT, partner, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            if (it % 2 == 0)
                MT_CHECK_RC(MPI_Startall(NK, sreq));
            else
                for (k = NK - 1; k >= 0; k--) MT_CHECK_RC(MPI_Start(&sreq[k]));
        }
        if (do_recv) {
            if (it % 4 == 1) { /* complete with Test, one by one */
                for (k = 0; k < NK; k++) {
                    int flag = 0;
                    while (!flag) MT_CHECK_RC(MPI_Test(&rreq[k], &flag, &st[k]));
                }
            } else
                MT_CHECK_RC(MPI_Waitall(NK, rreq, st));
            for (k = 0; k < NK; k++) {
                int count = -1;
                MT_CHECK(rreq[k] != MPI_REQUEST_NULL, "iteration %d: completion freed persistent receive %d", it, k);
                MT_CHECK(st[k].MPI_SOURCE == partner && st[k].MPI_TAG == 10 + k, "iteration %d recv %d: source %d tag %d",
                         it, k, st[k].MPI_SOURCE, st[k].MPI_TAG);
                MPI_Get_count(&st[k], MPI_INT, &count);
                MT_CHECK(count == counts[k], "iteration %d recv %d: count %d", it, k, count);
                for (j = 0; j < counts[k]; j++)
                    if (rbuf[k][j] != value(partner, it, k, j)) break;
                MT_CHECK(j == counts[k], "iteration %d recv %d: wrong data at %d (got %d, expected %d)", it, k, j,
                         j < counts[k] ? rbuf[k][j] : 0, j < counts[k] ? value(partner, it, k, j) : 0);
            }
        }
        if (do_send) {
            MT_CHECK_RC(MPI_Waitall(NK, sreq, MPI_STATUSES_IGNORE));
            for (k = 0; k < NK; k++)
                MT_CHECK(sreq[k] != MPI_REQUEST_NULL, "iteration %d: completion freed persistent send %d", it, k);
        }
    }

    /* inactive persistent requests: Wait / Test / Waitall return at once, empty status */
    {
        MPI_Status s1;
        MPI_Request mix[3];
        MPI_Status ms[3];
        int flag = 0;
        MT_CHECK_RC(MPI_Wait(&rreq[0], &s1));
        MT_CHECK(rreq[0] != MPI_REQUEST_NULL, "Wait on an inactive persistent request freed it");
        check_empty(&s1, "Wait(inactive)");
        MT_CHECK_RC(MPI_Test(&sreq[0], &flag, &s1));
        MT_CHECK(flag == 1 && sreq[0] != MPI_REQUEST_NULL, "Test(inactive): flag %d", flag);
        check_empty(&s1, "Test(inactive)");
        mix[0] = rreq[1];
        mix[1] = MPI_REQUEST_NULL;
        mix[2] = sreq[1];
        MT_CHECK_RC(MPI_Waitall(3, mix, ms));
        for (k = 0; k < 3; k++) check_empty(&ms[k], "Waitall(inactive/null)");
        MT_CHECK(mix[0] == rreq[1] && mix[2] == sreq[1], "Waitall changed inactive persistent handles");
    }

    for (k = 0; k < NK; k++) {
        MT_CHECK_RC(MPI_Request_free(&sreq[k]));
        MT_CHECK_RC(MPI_Request_free(&rreq[k]));
        MT_CHECK(sreq[k] == MPI_REQUEST_NULL && rreq[k] == MPI_REQUEST_NULL, "Request_free did not null request %d", k);
        free(sbuf[k]);
        free(rbuf[k]);
    }
    MT_CHECK_RC(MPI_Buffer_detach(&bdet, &dsize));
    MT_CHECK(bdet == battach && dsize == bsize, "Buffer_detach: %p/%d, attached %p/%d", bdet, dsize, battach, bsize);
    free(battach);
}

/* A persistent request created and freed without ever being started, and one
 * started to MPI_PROC_NULL. */
static void never_started(void)
{
    int b[2] = {1, 2};
    MPI_Request r;
    MPI_Status st;
    MT_CHECK_RC(MPI_Send_init(b, 2, MPI_INT, 0, 30, MPI_COMM_WORLD, &r));
    MT_CHECK_RC(MPI_Request_free(&r));
    MT_CHECK(r == MPI_REQUEST_NULL, "Request_free(never started) did not null");
    MT_CHECK_RC(MPI_Recv_init(b, 2, MPI_INT, MPI_PROC_NULL, 30, MPI_COMM_WORLD, &r));
    MT_CHECK_RC(MPI_Start(&r));
    MT_CHECK_RC(MPI_Wait(&r, &st));
    MT_CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG, "Recv_init(PROC_NULL): source %d tag %d",
             st.MPI_SOURCE, st.MPI_TAG);
    MT_CHECK(b[0] == 1 && b[1] == 2, "Recv_init(PROC_NULL) wrote the buffer");
    MT_CHECK_RC(MPI_Request_free(&r));
}

int main(int argc, char **argv)
{
    int rank, size;
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    persistent_all(rank, mt_partner(rank, size));
    never_started();
    return mt_finalize();
}
