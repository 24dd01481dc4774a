/*
 * t_procnull: communication with MPI_PROC_NULL (MPI-3.1 3.11).
 * Send, Ssend, Rsend, Bsend, Isend, Issend, Irsend, Ibsend, Recv, Irecv,
 * Sendrecv, Sendrecv_replace, Send_init/Recv_init + Start to MPI_PROC_NULL
 * complete at once (sends need no matching receive, receives no message), the
 * receive buffer is not touched, and the status has source = MPI_PROC_NULL,
 * tag = MPI_ANY_TAG, count 0. Also a non-periodic shift (the ends talk to
 * PROC_NULL) as real codes use it. Works on 1 rank.
 */
#include "mpitest.h"

static void check_pn(const MPI_Status *st, const char *what)
{
    int count = -1;
    MT_CHECK(st->MPI_SOURCE == MPI_PROC_NULL, "%s: source %d, expected MPI_PROC_NULL", what, st->MPI_SOURCE);
    MT_CHECK(st->MPI_TAG == MPI_ANY_TAG, "%s: tag %d, expected MPI_ANY_TAG", what, st->MPI_TAG);
    MPI_Get_count(st, MPI_INT, &count);
    MT_CHECK(count == 0, "%s: count %d", what, count);
    MPI_Get_elements(st, MPI_INT, &count);
    MT_CHECK(count == 0, "%s: elements %d", what, count);
}

/* A nonblocking operation on PROC_NULL: Test until complete (it must complete
 * without any other rank doing anything). */
static void test_done(MPI_Request *rq, MPI_Status *st, const char *what)
{
    int flag = 0;
    while (!flag) MT_CHECK_RC(MPI_Test(rq, &flag, st));
    MT_CHECK(*rq == MPI_REQUEST_NULL, "%s: request not freed", what);
}

int main(int argc, char **argv)
{
    int rank, size, i;
    int buf[8], sb[8];
    MPI_Status st;
    MPI_Request rq;
    void *att, *det;
    int asz = 4 * (8 * (int)sizeof(int) + MPI_BSEND_OVERHEAD), dsz;

    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 0; i < 8; i++) {
        buf[i] = -1;
        sb[i] = i;
    }
    att = mt_malloc((size_t)asz);
    MT_CHECK_RC(MPI_Buffer_attach(att, asz));

    /* blocking sends of every mode: no receive exists, they must return */
    MT_CHECK_RC(MPI_Send(sb, 8, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
    MT_CHECK_RC(MPI_Ssend(sb, 8, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
    MT_CHECK_RC(MPI_Rsend(sb, 8, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
    MT_CHECK_RC(MPI_Bsend(sb, 8, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));

    /* blocking receive */
    MT_CHECK_RC(MPI_Recv(buf, 8, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st));
    check_pn(&st, "Recv");
    MT_CHECK_RC(MPI_Recv(buf, 8, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    check_pn(&st, "Recv(ANY_TAG)");
    for (i = 0; i < 8; i++) MT_CHECK(buf[i] == -1, "Recv(PROC_NULL) wrote buf[%d]", i);

    /* nonblocking */
    MT_CHECK_RC(MPI_Isend(sb, 8, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &rq));
    test_done(&rq, &st, "Isend");
    MT_CHECK_RC(MPI_Issend(sb, 8, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &rq));
    test_done(&rq, &st, "Issend");
    MT_CHECK_RC(MPI_Irsend(sb, 8, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &rq));
    test_done(&rq, &st, "Irsend");
    MT_CHECK_RC(MPI_Ibsend(sb, 8, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &rq));
    test_done(&rq, &st, "Ibsend");
    MT_CHECK_RC(MPI_Irecv(buf, 8, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &rq));
    test_done(&rq, &st, "Irecv");
    check_pn(&st, "Irecv+Test");
    MT_CHECK_RC(MPI_Irecv(buf, 8, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &rq));
    MT_CHECK_RC(MPI_Wait(&rq, &st));
    check_pn(&st, "Irecv+Wait");
    {
        MPI_Request two[2];
        MPI_Status sts[2];
        MT_CHECK_RC(MPI_Irecv(buf, 8, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &two[0]));
        MT_CHECK_RC(MPI_Isend(sb, 8, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &two[1]));
        MT_CHECK_RC(MPI_Waitall(2, two, sts));
        check_pn(&sts[0], "Irecv+Waitall");
    }
    for (i = 0; i < 8; i++) MT_CHECK(buf[i] == -1, "Irecv(PROC_NULL) wrote buf[%d]", i);

    /* Sendrecv with PROC_NULL on one or both sides */
    MT_CHECK_RC(MPI_Sendrecv(sb, 8, MPI_INT, MPI_PROC_NULL, 4, buf, 8, MPI_INT, MPI_PROC_NULL, 4, MPI_COMM_WORLD, &st));
    check_pn(&st, "Sendrecv(both PROC_NULL)");
    MT_CHECK_RC(MPI_Sendrecv_replace(buf, 8, MPI_INT, MPI_PROC_NULL, 5, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st));
    check_pn(&st, "Sendrecv_replace(PROC_NULL)");
    for (i = 0; i < 8; i++) MT_CHECK(buf[i] == -1, "Sendrecv(PROC_NULL) wrote buf[%d]", i);

    /* persistent */
    {
        MPI_Request pr[2];
        MPI_Status sts[2];
        int it;
        MT_CHECK_RC(MPI_Recv_init(buf, 8, MPI_INT, MPI_PROC_NULL, 6, MPI_COMM_WORLD, &pr[0]));
        MT_CHECK_RC(MPI_Send_init(sb, 8, MPI_INT, MPI_PROC_NULL, 6, MPI_COMM_WORLD, &pr[1]));
        for (it = 0; it < 3; it++) {
            MT_CHECK_RC(MPI_Startall(2, pr));
            MT_CHECK_RC(MPI_Waitall(2, pr, sts));
            check_pn(&sts[0], "Recv_init+Start");
        }
        MT_CHECK_RC(MPI_Request_free(&pr[0]));
        MT_CHECK_RC(MPI_Request_free(&pr[1]));
    }

    /* non-periodic shift: rank 0 receives from PROC_NULL, the last rank sends to it */
    {
        int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
        int v = rank * 3, got = -5;
        MT_CHECK_RC(MPI_Sendrecv(&v, 1, MPI_INT, right, 7, &got, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &st));
        if (left == MPI_PROC_NULL) {
            check_pn(&st, "shift from PROC_NULL");
            MT_CHECK(got == -5, "shift: receive from PROC_NULL wrote %d", got);
        } else {
            MT_CHECK(st.MPI_SOURCE == left && got == left * 3, "shift: source %d value %d", st.MPI_SOURCE, got);
        }
    }

    MT_CHECK_RC(MPI_Buffer_detach(&det, &dsz));
    free(att);
    return mt_finalize();
}
