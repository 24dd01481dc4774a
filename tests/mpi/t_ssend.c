/*
 * t_ssend: synchronous mode.
 *  - MPI_Issend does not complete before the matching receive is posted: the
 *    sender tests it 200 times (1 ms apart) while the receiver provably has not
 *    posted the receive (it first waits for a "go" that is sent only after the
 *    tests), then the receiver receives and the sender's Wait completes.
 *  - blocking MPI_Ssend exchange in both directions, data verified.
 *  - sizes 8 B and 1 MiB.
 * Pairs 0<->1, 2<->3, ...; the odd last rank checks Issend to itself (a
 * receive posted later completes it).
 */
#include "mpitest.h"

#define NTESTS 200

static void issend_not_early(int rank, int partner, int n, int key)
{
    unsigned char *s = mt_malloc((size_t)n), *r = mt_malloc((size_t)n);
    int go = 1, flag, i;
    MPI_Status st;
    MPI_Request rq;

    if (partner == rank) {
        mt_fill(s, (size_t)n, rank, key);
        MT_CHECK_RC(MPI_Issend(s, n, MPI_BYTE, rank, key, MPI_COMM_WORLD, &rq));
        for (i = 0; i < NTESTS / 4; i++) {
            flag = -1;
            MT_CHECK_RC(MPI_Test(&rq, &flag, MPI_STATUS_IGNORE));
            MT_CHECK(flag == 0, "self Issend (%d B) completed before the receive was posted", n);
            if (flag) break;
            mt_sleep_ms(1);
        }
        MT_CHECK_RC(MPI_Recv(r, n, MPI_BYTE, rank, key, MPI_COMM_WORLD, &st));
        if (!flag) MT_CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        MT_CHECK(mt_verify(r, (size_t)n, rank, key) == MT_OK, "self Issend (%d B): bad data", n);
    } else if (rank < partner) { /* sender */
        mt_fill(s, (size_t)n, rank, key);
        MT_CHECK_RC(MPI_Issend(s, n, MPI_BYTE, partner, key, MPI_COMM_WORLD, &rq));
        for (i = 0; i < NTESTS; i++) {
            flag = -1;
            MT_CHECK_RC(MPI_Test(&rq, &flag, MPI_STATUS_IGNORE));
            MT_CHECK(flag == 0, "Issend (%d B) completed before the receive was posted (test %d)", n, i);
            if (flag) break;
            mt_sleep_ms(1);
        }
        MT_CHECK_RC(MPI_Send(&go, 1, MPI_INT, partner, key + 1, MPI_COMM_WORLD));
        if (!flag) MT_CHECK_RC(MPI_Wait(&rq, &st));
        MT_CHECK(rq == MPI_REQUEST_NULL, "Issend request not freed");
    } else { /* receiver: the go message first, only then the synchronous one */
        MT_CHECK_RC(MPI_Recv(&go, 1, MPI_INT, partner, key + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK_RC(MPI_Recv(r, n, MPI_BYTE, partner, key, MPI_COMM_WORLD, &st));
        MT_CHECK(st.MPI_SOURCE == partner && st.MPI_TAG == key, "Issend receive: source %d tag %d", st.MPI_SOURCE,
                 st.MPI_TAG);
        MT_CHECK(mt_verify(r, (size_t)n, partner, key) == MT_OK, "Issend (%d B): bad data", n);
    }
    free(s);
    free(r);
}

/* Blocking Ssend both ways: lower rank Ssend then Recv, higher Recv then Ssend. */
static void ssend_exchange(int rank, int partner, int n, int key)
{
    unsigned char *s = mt_malloc((size_t)n), *r = mt_malloc((size_t)n);
    MPI_Status st;
    int count = -1;
    if (partner == rank) {
        free(s);
        free(r);
        return; /* a blocking Ssend to self with no posted receive would deadlock */
    }
    mt_fill(s, (size_t)n, rank, key);
    if (rank < partner) {
        MT_CHECK_RC(MPI_Ssend(s, n, MPI_BYTE, partner, key, MPI_COMM_WORLD));
        MT_CHECK_RC(MPI_Recv(r, n, MPI_BYTE, partner, key, MPI_COMM_WORLD, &st));
    } else {
        MT_CHECK_RC(MPI_Recv(r, n, MPI_BYTE, partner, key, MPI_COMM_WORLD, &st));
        MT_CHECK_RC(MPI_Ssend(s, n, MPI_BYTE, partner, key, MPI_COMM_WORLD));
    }
    MPI_Get_count(&st, MPI_BYTE, &count);
    MT_CHECK(count == n, "Ssend exchange: count %d, expected %d", count, n);
    MT_CHECK(mt_verify(r, (size_t)n, partner, key) == MT_OK, "Ssend exchange (%d B): bad data", n);

    /* Ssend to a receive that is already posted (Irecv first, handshake) */
    {
        MPI_Request rq;
        int tok = 0, tok_in;
        memset(r, 0, (size_t)n);
        MT_CHECK_RC(MPI_Irecv(r, n, MPI_BYTE, partner, key + 2, MPI_COMM_WORLD, &rq));
        MT_CHECK_RC(MPI_Sendrecv(&tok, 1, MPI_INT, partner, key + 3, &tok_in, 1, MPI_INT, partner, key + 3,
                                 MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK_RC(MPI_Ssend(s, n, MPI_BYTE, partner, key + 2, MPI_COMM_WORLD));
        MT_CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        MT_CHECK(mt_verify(r, (size_t)n, partner, key) == MT_OK, "Ssend to posted receive (%d B): bad data", n);
    }
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    int rank, size, partner;
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    partner = mt_partner(rank, size);

    issend_not_early(rank, partner, 8, 10);
    issend_not_early(rank, partner, 1 << 20, 20);
    ssend_exchange(rank, partner, 8, 30);
    ssend_exchange(rank, partner, 1 << 20, 40);
    return mt_finalize();
}
