/*
 * t_cancel: cancelling receives.
 *  1. An Irecv that can never match (unique tag, ANY_SOURCE and a specific
 *     source): MPI_Cancel + MPI_Wait complete it, MPI_Test_cancelled is true,
 *     the request becomes MPI_REQUEST_NULL. Also with MPI_Test polling.
 *  2. A cancelled receive does not swallow a message sent afterwards: the next
 *     receive gets it.
 *  3. Cancelling a receive that already completed (known complete through
 *     MPI_Request_get_status, which does not free it) has no effect:
 *     Test_cancelled is false and the data is there.
 *  4. Cancel racing with an incoming message (small and large): either the
 *     cancel succeeded and the message is still receivable, or the receive
 *     completed with the right data.
 *  5. A persistent receive (Recv_init + Start) cancelled: Test_cancelled true,
 *     the request stays allocated and can be started again.
 * Part 1 runs everywhere; the rest uses pairs (the odd last rank with itself).
 */
#include "mpitest.h"

static void never_matching(int rank, int size)
{
    int buf[4], flag = 0, i;
    MPI_Request rq;
    MPI_Status st;
    for (i = 0; i < 3; i++) {
        int src = i == 0 ? MPI_ANY_SOURCE : (i == 1 ? (rank + 1) % size : rank);
        MT_CHECK_RC(MPI_Irecv(buf, 4, MPI_INT, src, 9000 + i, MPI_COMM_WORLD, &rq));
        MT_CHECK_RC(MPI_Cancel(&rq));
        MT_CHECK(rq != MPI_REQUEST_NULL, "MPI_Cancel freed the request");
        if (i == 2) {
            flag = 0;
            while (!flag) MT_CHECK_RC(MPI_Test(&rq, &flag, &st));
        } else
            MT_CHECK_RC(MPI_Wait(&rq, &st));
        MT_CHECK(rq == MPI_REQUEST_NULL, "completion of a cancelled receive did not free it");
        flag = 0;
        MT_CHECK_RC(MPI_Test_cancelled(&st, &flag));
        MT_CHECK(flag, "Test_cancelled false for a never-matching receive (source %d)", src);
    }
}

static void cancel_then_send(int rank, int partner)
{
    int v = -1, flag = 0, go = 0;
    MPI_Request rq;
    MPI_Status st;
    MT_CHECK_RC(MPI_Irecv(&v, 1, MPI_INT, partner, 9100, MPI_COMM_WORLD, &rq));
    MT_CHECK_RC(MPI_Cancel(&rq));
    MT_CHECK_RC(MPI_Wait(&rq, &st));
    MT_CHECK_RC(MPI_Test_cancelled(&st, &flag));
    MT_CHECK(flag, "cancel before send: Test_cancelled false");
    /* now the partner may send (it waits for our go) */
    MT_CHECK_RC(MPI_Sendrecv(&go, 1, MPI_INT, partner, 9101, &flag, 1, MPI_INT, partner, 9101, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE));
    go = rank + 55;
    if (partner == rank) {
        MT_CHECK_RC(MPI_Isend(&go, 1, MPI_INT, partner, 9100, MPI_COMM_WORLD, &rq));
        MT_CHECK_RC(MPI_Recv(&v, 1, MPI_INT, partner, 9100, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else {
        MT_CHECK_RC(MPI_Sendrecv(&go, 1, MPI_INT, partner, 9100, &v, 1, MPI_INT, partner, 9100, MPI_COMM_WORLD,
                                 MPI_STATUS_IGNORE));
    }
    MT_CHECK(v == partner + 55, "message after a cancelled receive: got %d", v);
}

static void cancel_completed(int rank, int partner)
{
    int s[8], r[8], i, flag = 0;
    MPI_Request rq, sq;
    MPI_Status st;
    for (i = 0; i < 8; i++) s[i] = rank * 8 + i;
    MT_CHECK_RC(MPI_Irecv(r, 8, MPI_INT, partner, 9200, MPI_COMM_WORLD, &rq));
    MT_CHECK_RC(MPI_Isend(s, 8, MPI_INT, partner, 9200, MPI_COMM_WORLD, &sq));
    while (!flag) MT_CHECK_RC(MPI_Request_get_status(rq, &flag, MPI_STATUS_IGNORE));
    MT_CHECK_RC(MPI_Cancel(&rq));
    MT_CHECK_RC(MPI_Wait(&rq, &st));
    flag = 1;
    MT_CHECK_RC(MPI_Test_cancelled(&st, &flag));
    MT_CHECK(!flag, "Test_cancelled true for a receive that had completed");
    MT_CHECK(st.MPI_SOURCE == partner && st.MPI_TAG == 9200, "completed-then-cancelled: source %d tag %d",
             st.MPI_SOURCE, st.MPI_TAG);
    for (i = 0; i < 8; i++) MT_CHECK(r[i] == partner * 8 + i, "completed-then-cancelled: r[%d]=%d", i, r[i]);
    MT_CHECK_RC(MPI_Wait(&sq, MPI_STATUS_IGNORE));
}

/* The partner sends while we cancel: both outcomes are legal, none may lose
 * or duplicate the message. */
static void cancel_race(int rank, int partner, int n, int iters)
{
    unsigned char *s = mt_malloc((size_t)n), *r = mt_malloc((size_t)n);
    int it, cancelled = 0;
    for (it = 0; it < iters; it++) {
        int tag = 9300 + it % 50, flag = -1, count = -1;
        MPI_Request rq, sq;
        MPI_Status st;
        mt_fill(s, (size_t)n, rank, it);
        memset(r, 0, (size_t)n);
        MT_CHECK_RC(MPI_Irecv(r, n, MPI_BYTE, partner, tag, MPI_COMM_WORLD, &rq));
        MT_CHECK_RC(MPI_Isend(s, n, MPI_BYTE, partner, tag, MPI_COMM_WORLD, &sq));
        MT_CHECK_RC(MPI_Cancel(&rq));
        MT_CHECK_RC(MPI_Wait(&rq, &st));
        MT_CHECK_RC(MPI_Test_cancelled(&st, &flag));
        if (flag) { /* not received: it must still be there */
            cancelled++;
            MT_CHECK_RC(MPI_Recv(r, n, MPI_BYTE, partner, tag, MPI_COMM_WORLD, &st));
        }
        MPI_Get_count(&st, MPI_BYTE, &count);
        MT_CHECK(count == n && st.MPI_SOURCE == partner && st.MPI_TAG == tag,
                 "race %d (%s): count %d source %d tag %d", it, flag ? "cancelled" : "completed", count, st.MPI_SOURCE,
                 st.MPI_TAG);
        MT_CHECK(mt_verify(r, (size_t)n, partner, it) == MT_OK, "race %d (%s): bad data", it,
                 flag ? "cancelled" : "completed");
        MT_CHECK_RC(MPI_Wait(&sq, MPI_STATUS_IGNORE));
    }
    (void)cancelled;
    free(s);
    free(r);
}

static void cancel_persistent(int rank, int partner)
{
    int v = -1, flag = 0, w = rank + 77;
    MPI_Request rq;
    MPI_Status st;
    MT_CHECK_RC(MPI_Recv_init(&v, 1, MPI_INT, partner, 9400, MPI_COMM_WORLD, &rq));
    MT_CHECK_RC(MPI_Start(&rq));
    MT_CHECK_RC(MPI_Cancel(&rq));
    MT_CHECK_RC(MPI_Wait(&rq, &st));
    MT_CHECK(rq != MPI_REQUEST_NULL, "Wait freed a persistent request");
    MT_CHECK_RC(MPI_Test_cancelled(&st, &flag));
    MT_CHECK(flag, "cancelled persistent receive: Test_cancelled false");
    /* start it again; now the partner sends (after a handshake) */
    MT_CHECK_RC(MPI_Start(&rq));
    MT_CHECK_RC(MPI_Sendrecv(&w, 1, MPI_INT, partner, 9401, &flag, 1, MPI_INT, partner, 9401, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE));
    MT_CHECK_RC(MPI_Send(&w, 1, MPI_INT, partner, 9400, MPI_COMM_WORLD)); /* our receive is posted, as is the partner's */
    MT_CHECK_RC(MPI_Wait(&rq, &st));
    flag = 1;
    MT_CHECK_RC(MPI_Test_cancelled(&st, &flag));
    MT_CHECK(!flag && v == partner + 77, "restarted persistent receive: cancelled %d value %d", flag, v);
    MT_CHECK_RC(MPI_Request_free(&rq));
}

int main(int argc, char **argv)
{
    int rank, size, partner;
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    partner = mt_partner(rank, size);

    never_matching(rank, size);
    cancel_then_send(rank, partner);
    cancel_completed(rank, partner);
    cancel_race(rank, partner, 8, 200);
    cancel_race(rank, partner, 1 << 20, 10);
    cancel_persistent(rank, partner);
    return mt_finalize();
}
