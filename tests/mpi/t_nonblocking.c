/*
 * t_nonblocking: Isend/Irecv with every completion function.
 *  - Wait, Waitall, Waitany, Waitsome, Test, Testall, Testany, Testsome;
 *  - arrays containing MPI_REQUEST_NULL (their statuses are empty), completed
 *    requests set to MPI_REQUEST_NULL, MPI_STATUSES_IGNORE;
 *  - all-null / empty arrays: Waitany/Testany give index MPI_UNDEFINED,
 *    Waitsome/Testsome give outcount MPI_UNDEFINED, Testall gives flag true;
 *  - Test on a receive whose message is provably not sent yet gives flag 0;
 *  - MPI_Request_get_status does not free the request;
 *  - MPI_Request_free on an active send: the message is still delivered.
 * Pairs 0<->1, 2<->3, ...; odd last rank talks to itself. Works on 1 rank.
 */
#include "mpitest.h"

#define N 8

static void check_empty(const MPI_Status *st, const char *what)
{
    int count = -1;
    MT_CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE, "%s: empty status source %d", what, st->MPI_SOURCE);
    MT_CHECK(st->MPI_TAG == MPI_ANY_TAG, "%s: empty status tag %d", what, st->MPI_TAG);
    MPI_Get_count(st, MPI_INT, &count);
    MT_CHECK(count == 0, "%s: empty status count %d", what, count);
}

/* value j of message (src, tag) */
static int val(int src, int tag, int j) { return src * 100000 + tag * 100 + j; }

/* Post N receives (tags 10..10+N-1) from partner into rbuf[N][len], except
 * for index skip (left MPI_REQUEST_NULL), and N sends. */
static void post_skip(int rank, int partner, int len, int *sbuf, int *rbuf, MPI_Request *rr, MPI_Request *sr,
                      int skip)
{
    int i, j;
    for (i = 0; i < N; i++)
        if (i == skip)
            rr[i] = MPI_REQUEST_NULL;
        else
            MT_CHECK_RC(MPI_Irecv(rbuf + i * len, len, MPI_INT, partner, 10 + i, MPI_COMM_WORLD, &rr[i]));
    for (i = 0; i < N; i++) {
        for (j = 0; j < len; j++) sbuf[i * len + j] = val(rank, 10 + i, j);
        MT_CHECK_RC(MPI_Isend(sbuf + i * len, len, MPI_INT, partner, 10 + i, MPI_COMM_WORLD, &sr[i]));
    }
}

static void post(int rank, int partner, int len, int *sbuf, int *rbuf, MPI_Request *rr, MPI_Request *sr)
{
    post_skip(rank, partner, len, sbuf, rbuf, rr, sr, -1);
}

static void verify(int partner, int len, const int *rbuf, int i, const char *what)
{
    int j;
    for (j = 0; j < len; j++)
        if (rbuf[i * len + j] != val(partner, 10 + i, j)) break;
    MT_CHECK(j == len, "%s: message %d wrong at element %d", what, i, j);
}

static void test_wait(int rank, int partner)
{
    int s[4], r[4] = {0, 0, 0, 0}, i;
    MPI_Request rr, sr;
    MPI_Status st;
    for (i = 0; i < 4; i++) s[i] = rank * 10 + i;
    MT_CHECK_RC(MPI_Irecv(r, 4, MPI_INT, partner, 1, MPI_COMM_WORLD, &rr));
    MT_CHECK_RC(MPI_Isend(s, 4, MPI_INT, partner, 1, MPI_COMM_WORLD, &sr));
    st.MPI_ERROR = 4242;
    MT_CHECK_RC(MPI_Wait(&rr, &st));
    MT_CHECK(rr == MPI_REQUEST_NULL, "Wait did not set the request to MPI_REQUEST_NULL");
    MT_CHECK(st.MPI_SOURCE == partner && st.MPI_TAG == 1, "Wait status source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
    MT_CHECK(st.MPI_ERROR == 4242, "Wait modified MPI_ERROR (%d)", st.MPI_ERROR);
    MT_CHECK_RC(MPI_Wait(&sr, MPI_STATUS_IGNORE));
    MT_CHECK(sr == MPI_REQUEST_NULL, "Wait(send) did not null the request");
    for (i = 0; i < 4; i++) MT_CHECK(r[i] == partner * 10 + i, "Wait: r[%d]=%d", i, r[i]);

    /* Wait on MPI_REQUEST_NULL returns at once with an empty status */
    rr = MPI_REQUEST_NULL;
    MT_CHECK_RC(MPI_Wait(&rr, &st));
    check_empty(&st, "Wait(REQUEST_NULL)");
    {
        int flag = 0;
        MT_CHECK_RC(MPI_Test(&rr, &flag, &st));
        MT_CHECK(flag == 1, "Test(REQUEST_NULL) flag %d", flag);
        check_empty(&st, "Test(REQUEST_NULL)");
    }
}

/* Waitall with MPI_REQUEST_NULL entries interleaved; then with STATUSES_IGNORE. */
static void test_waitall(int rank, int partner, int len)
{
    int *sbuf = mt_malloc(sizeof(int) * N * len), *rbuf = mt_malloc(sizeof(int) * N * len);
    MPI_Request rr[N], sr[N], all[3 * N];
    MPI_Status st[3 * N];
    int i, k = 0, count;

    post(rank, partner, len, sbuf, rbuf, rr, sr);
    /* layout: null, recv0, send0, null, recv1, send1, ... */
    for (i = 0; i < N; i++) {
        all[k++] = MPI_REQUEST_NULL;
        all[k++] = rr[i];
        all[k++] = sr[i];
    }
    MT_CHECK_RC(MPI_Waitall(3 * N, all, st));
    for (i = 0; i < N; i++) {
        check_empty(&st[3 * i], "Waitall null entry");
        MT_CHECK(st[3 * i + 1].MPI_SOURCE == partner && st[3 * i + 1].MPI_TAG == 10 + i,
                 "Waitall recv %d: source %d tag %d", i, st[3 * i + 1].MPI_SOURCE, st[3 * i + 1].MPI_TAG);
        MPI_Get_count(&st[3 * i + 1], MPI_INT, &count);
        MT_CHECK(count == len, "Waitall recv %d: count %d, expected %d", i, count, len);
        verify(partner, len, rbuf, i, "Waitall");
    }
    for (i = 0; i < 3 * N; i++) MT_CHECK(all[i] == MPI_REQUEST_NULL, "Waitall left request %d non-null", i);

    memset(rbuf, 0, sizeof(int) * N * len);
    post(rank, partner, len, sbuf, rbuf, rr, sr);
    MT_CHECK_RC(MPI_Waitall(N, sr, MPI_STATUSES_IGNORE));
    MT_CHECK_RC(MPI_Waitall(N, rr, MPI_STATUSES_IGNORE));
    for (i = 0; i < N; i++) {
        verify(partner, len, rbuf, i, "Waitall(STATUSES_IGNORE)");
        MT_CHECK(rr[i] == MPI_REQUEST_NULL && sr[i] == MPI_REQUEST_NULL, "Waitall left a request");
    }
    /* zero-length and all-null arrays */
    MT_CHECK_RC(MPI_Waitall(0, rr, MPI_STATUSES_IGNORE));
    MT_CHECK_RC(MPI_Waitall(N, rr, st));
    for (i = 0; i < N; i++) check_empty(&st[i], "Waitall all-null");
    free(sbuf);
    free(rbuf);
}

static void test_waitany(int rank, int partner, int len)
{
    int *sbuf = mt_malloc(sizeof(int) * N * len), *rbuf = mt_malloc(sizeof(int) * N * len);
    MPI_Request rr[N + 2], sr[N];
    MPI_Status st;
    int seen[N] = {0}, i, idx, count;

    /* two null entries in front */
    rr[0] = rr[1] = MPI_REQUEST_NULL;
    post(rank, partner, len, sbuf, rbuf, rr + 2, sr);
    for (i = 0; i < N; i++) {
        idx = -5;
        MT_CHECK_RC(MPI_Waitany(N + 2, rr, &idx, &st));
        MT_CHECK(idx >= 2 && idx < N + 2, "Waitany index %d", idx);
        if (idx < 2 || idx >= N + 2) continue;
        MT_CHECK(!seen[idx - 2], "Waitany returned index %d twice", idx);
        seen[idx - 2] = 1;
        MT_CHECK(rr[idx] == MPI_REQUEST_NULL, "Waitany did not null request %d", idx);
        MT_CHECK(st.MPI_TAG == 10 + idx - 2 && st.MPI_SOURCE == partner, "Waitany status tag %d source %d (index %d)",
                 st.MPI_TAG, st.MPI_SOURCE, idx);
        MPI_Get_count(&st, MPI_INT, &count);
        MT_CHECK(count == len, "Waitany count %d", count);
        verify(partner, len, rbuf, idx - 2, "Waitany");
    }
    idx = -5;
    MT_CHECK_RC(MPI_Waitany(N + 2, rr, &idx, &st));
    MT_CHECK(idx == MPI_UNDEFINED, "Waitany on all-null array: index %d, expected MPI_UNDEFINED", idx);
    check_empty(&st, "Waitany all-null");
    idx = -5;
    MT_CHECK_RC(MPI_Waitany(0, rr, &idx, MPI_STATUS_IGNORE));
    MT_CHECK(idx == MPI_UNDEFINED, "Waitany on empty array: index %d", idx);
    /* sends: Waitany with STATUS_IGNORE */
    for (i = 0; i < N; i++) {
        MT_CHECK_RC(MPI_Waitany(N, sr, &idx, MPI_STATUS_IGNORE));
        MT_CHECK(idx >= 0 && idx < N, "Waitany(send) index %d", idx);
    }
    for (i = 0; i < N; i++) MT_CHECK(sr[i] == MPI_REQUEST_NULL, "send request %d still active", i);
    free(sbuf);
    free(rbuf);
}

static void test_waitsome(int rank, int partner, int len)
{
    int *sbuf = mt_malloc(sizeof(int) * N * len), *rbuf = mt_malloc(sizeof(int) * N * len);
    MPI_Request rr[N], sr[N];
    MPI_Status st[N];
    int idx[N], seen[N] = {0}, done = 0, out, i, count;

    /* no receive for tag 13 yet: index 3 is MPI_REQUEST_NULL */
    post_skip(rank, partner, len, sbuf, rbuf, rr, sr, 3);
    done = 0;
    while (done < N - 1) {
        out = -5;
        MT_CHECK_RC(MPI_Waitsome(N, rr, &out, idx, st));
        MT_CHECK(out >= 1 && out <= N, "Waitsome outcount %d", out);
        if (out < 1 || out > N) break;
        for (i = 0; i < out; i++) {
            int k = idx[i];
            MT_CHECK(k >= 0 && k < N && k != 3 && !seen[k], "Waitsome bad/duplicate index %d", k);
            if (k < 0 || k >= N) continue;
            seen[k] = 1;
            MT_CHECK(rr[k] == MPI_REQUEST_NULL, "Waitsome did not null request %d", k);
            MT_CHECK(st[i].MPI_TAG == 10 + k && st[i].MPI_SOURCE == partner, "Waitsome status %d: tag %d source %d", i,
                     st[i].MPI_TAG, st[i].MPI_SOURCE);
            MPI_Get_count(&st[i], MPI_INT, &count);
            MT_CHECK(count == len, "Waitsome count %d", count);
            verify(partner, len, rbuf, k, "Waitsome");
        }
        done += out;
    }
    out = -5;
    MT_CHECK_RC(MPI_Waitsome(N, rr, &out, idx, st));
    MT_CHECK(out == MPI_UNDEFINED, "Waitsome on all-null: outcount %d, expected MPI_UNDEFINED", out);
    /* receive the message with tag 13 that we did not post before */
    MT_CHECK_RC(MPI_Recv(rbuf + 3 * len, len, MPI_INT, partner, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    verify(partner, len, rbuf, 3, "Recv after Waitsome");
    done = 0;
    while (done < N) {
        MT_CHECK_RC(MPI_Waitsome(N, sr, &out, idx, MPI_STATUSES_IGNORE));
        MT_CHECK(out >= 1 && out <= N, "Waitsome(send) outcount %d", out);
        if (out < 1 || out > N) break;
        done += out;
    }
    free(sbuf);
    free(rbuf);
}

static void test_tests(int rank, int partner, int len)
{
    int *sbuf = mt_malloc(sizeof(int) * N * len), *rbuf = mt_malloc(sizeof(int) * N * len);
    MPI_Request rr[N], sr[N];
    MPI_Status st[N];
    int flag, i, idx[N], seen[N], done, out, count;

    /* Test: poll one request */
    post(rank, partner, len, sbuf, rbuf, rr, sr);
    for (i = 0; i < N; i++) {
        flag = 0;
        while (!flag) MT_CHECK_RC(MPI_Test(&rr[i], &flag, &st[0]));
        MT_CHECK(rr[i] == MPI_REQUEST_NULL, "Test did not null request");
        MT_CHECK(st[0].MPI_TAG == 10 + i && st[0].MPI_SOURCE == partner, "Test status tag %d", st[0].MPI_TAG);
        verify(partner, len, rbuf, i, "Test");
    }
    /* Testall on the sends */
    flag = 0;
    while (!flag) MT_CHECK_RC(MPI_Testall(N, sr, &flag, MPI_STATUSES_IGNORE));
    for (i = 0; i < N; i++) MT_CHECK(sr[i] == MPI_REQUEST_NULL, "Testall left request %d", i);
    flag = 0;
    MT_CHECK_RC(MPI_Testall(N, sr, &flag, st));
    MT_CHECK(flag == 1, "Testall on all-null: flag %d", flag);
    check_empty(&st[0], "Testall all-null");

    /* Testall on receives with statuses */
    post(rank, partner, len, sbuf, rbuf, rr, sr);
    flag = 0;
    while (!flag) MT_CHECK_RC(MPI_Testall(N, rr, &flag, st));
    for (i = 0; i < N; i++) {
        MT_CHECK(st[i].MPI_TAG == 10 + i && st[i].MPI_SOURCE == partner, "Testall status %d tag %d", i, st[i].MPI_TAG);
        MPI_Get_count(&st[i], MPI_INT, &count);
        MT_CHECK(count == len, "Testall count %d", count);
        verify(partner, len, rbuf, i, "Testall");
    }
    /* Testany on the sends */
    for (done = 0; done < N;) {
        flag = 0;
        MT_CHECK_RC(MPI_Testany(N, sr, &idx[0], &flag, MPI_STATUS_IGNORE));
        if (flag) {
            MT_CHECK(idx[0] >= 0 && idx[0] < N, "Testany index %d", idx[0]);
            done++;
        }
    }
    flag = 0;
    idx[0] = -5;
    MT_CHECK_RC(MPI_Testany(N, sr, &idx[0], &flag, &st[0]));
    MT_CHECK(flag == 1 && idx[0] == MPI_UNDEFINED, "Testany on all-null: flag %d index %d", flag, idx[0]);
    check_empty(&st[0], "Testany all-null");

    /* Testany / Testsome on receives */
    post(rank, partner, len, sbuf, rbuf, rr, sr);
    for (i = 0; i < N; i++) seen[i] = 0;
    for (done = 0; done < N / 2;) {
        int k = -5;
        flag = 0;
        MT_CHECK_RC(MPI_Testany(N, rr, &k, &flag, &st[0]));
        if (!flag) continue;
        MT_CHECK(k >= 0 && k < N && !seen[k], "Testany bad index %d", k);
        if (k < 0 || k >= N) break;
        seen[k] = 1;
        MT_CHECK(st[0].MPI_TAG == 10 + k, "Testany status tag %d for index %d", st[0].MPI_TAG, k);
        verify(partner, len, rbuf, k, "Testany");
        done++;
    }
    while (done < N) {
        out = -5;
        MT_CHECK_RC(MPI_Testsome(N, rr, &out, idx, st));
        MT_CHECK(out >= 0 && out <= N - done, "Testsome outcount %d (done %d)", out, done);
        if (out < 0 || out > N - done) break;
        for (i = 0; i < out; i++) {
            int k = idx[i];
            MT_CHECK(k >= 0 && k < N && !seen[k], "Testsome bad index %d", k);
            if (k < 0 || k >= N) continue;
            seen[k] = 1;
            MT_CHECK(st[i].MPI_TAG == 10 + k, "Testsome status tag %d for index %d", st[i].MPI_TAG, k);
            verify(partner, len, rbuf, k, "Testsome");
        }
        done += out;
    }
    out = -5;
    MT_CHECK_RC(MPI_Testsome(N, rr, &out, idx, st));
    MT_CHECK(out == MPI_UNDEFINED, "Testsome on all-null: outcount %d, expected MPI_UNDEFINED", out);
    for (done = 0; done < N;) {
        MT_CHECK_RC(MPI_Testsome(N, sr, &out, idx, MPI_STATUSES_IGNORE));
        if (out == MPI_UNDEFINED) break;
        done += out;
    }
    MT_CHECK(done == N, "Testsome(send) completed %d of %d", done, N);
    free(sbuf);
    free(rbuf);
}

/* A receive whose message is provably not sent yet: Test and Testany report
 * nothing, Request_get_status reports not complete. The partner sends tag 21
 * only after receiving "go" (tag 20). Then Request_get_status until complete,
 * the request stays valid; Wait frees it. Self-paired ranks skip this. */
static void test_not_complete_and_get_status(int rank, int partner)
{
    int go = 1, v = -1, flag, i, idx;
    MPI_Request rq;
    MPI_Status st;
    if (partner == rank) return;
    MT_CHECK_RC(MPI_Irecv(&v, 1, MPI_INT, partner, 21, MPI_COMM_WORLD, &rq));
    for (i = 0; i < 20; i++) {
        flag = -1;
        MT_CHECK_RC(MPI_Test(&rq, &flag, &st));
        MT_CHECK(flag == 0, "Test completed a receive whose message was not sent");
        MT_CHECK_RC(MPI_Testany(1, &rq, &idx, &flag, &st));
        MT_CHECK(flag == 0, "Testany completed a receive whose message was not sent");
        MT_CHECK_RC(MPI_Request_get_status(rq, &flag, &st));
        MT_CHECK(flag == 0, "Request_get_status: complete before the message was sent");
        if (flag) break;
    }
    /* both sides: send go, then wait for the partner's go, then send tag 21 */
    MT_CHECK_RC(MPI_Send(&go, 1, MPI_INT, partner, 20, MPI_COMM_WORLD));
    MT_CHECK_RC(MPI_Recv(&go, 1, MPI_INT, partner, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    {
        int w = rank + 7;
        MT_CHECK_RC(MPI_Send(&w, 1, MPI_INT, partner, 21, MPI_COMM_WORLD));
    }
    flag = 0;
    while (!flag) MT_CHECK_RC(MPI_Request_get_status(rq, &flag, &st));
    MT_CHECK(rq != MPI_REQUEST_NULL, "Request_get_status freed the request");
    MT_CHECK(st.MPI_SOURCE == partner && st.MPI_TAG == 21, "Request_get_status: source %d tag %d", st.MPI_SOURCE,
             st.MPI_TAG);
    /* again: still complete, still valid */
    flag = 0;
    MT_CHECK_RC(MPI_Request_get_status(rq, &flag, MPI_STATUS_IGNORE));
    MT_CHECK(flag == 1 && rq != MPI_REQUEST_NULL, "second Request_get_status: flag %d", flag);
    MT_CHECK_RC(MPI_Wait(&rq, &st));
    MT_CHECK(rq == MPI_REQUEST_NULL, "Wait after Request_get_status did not free");
    MT_CHECK(st.MPI_SOURCE == partner && st.MPI_TAG == 21, "Wait after get_status: source %d tag %d", st.MPI_SOURCE,
             st.MPI_TAG);
    MT_CHECK(v == partner + 7, "get_status receive: value %d", v);

    /* Request_get_status on MPI_REQUEST_NULL: flag true, empty status */
    rq = MPI_REQUEST_NULL;
    flag = 0;
    MT_CHECK_RC(MPI_Request_get_status(rq, &flag, &st));
    MT_CHECK(flag == 1, "Request_get_status(REQUEST_NULL) flag %d", flag);
    check_empty(&st, "Request_get_status(REQUEST_NULL)");
}

/* MPI_Request_free on an active send request: the message is still delivered.
 * The receiver acknowledges, and only then the sender frees the buffer. */
static void test_request_free(int rank, int partner)
{
    const int sizes[2] = {8, 1 << 20};
    int k, ack = 0, ack_in = -1;
    for (k = 0; k < 2; k++) {
        int n = sizes[k];
        unsigned char *s = mt_malloc((size_t)n), *r = mt_malloc((size_t)n);
        MPI_Request rq, rr;
        mt_fill(s, (size_t)n, rank, 30 + k);
        MT_CHECK_RC(MPI_Irecv(r, n, MPI_BYTE, partner, 30 + k, MPI_COMM_WORLD, &rr));
        MT_CHECK_RC(MPI_Isend(s, n, MPI_BYTE, partner, 30 + k, MPI_COMM_WORLD, &rq));
        MT_CHECK_RC(MPI_Request_free(&rq));
        MT_CHECK(rq == MPI_REQUEST_NULL, "Request_free did not set MPI_REQUEST_NULL");
        MT_CHECK_RC(MPI_Wait(&rr, MPI_STATUS_IGNORE));
        MT_CHECK(mt_verify(r, (size_t)n, partner, 30 + k) == MT_OK, "Request_free'd send of %d bytes: bad data", n);
        /* the partner received our message once we get its ack */
        MT_CHECK_RC(MPI_Sendrecv(&ack, 1, MPI_INT, partner, 40, &ack_in, 1, MPI_INT, partner, 40, MPI_COMM_WORLD,
                                 MPI_STATUS_IGNORE));
        free(s);
        free(r);
    }
}

int main(int argc, char **argv)
{
    int rank, size, partner, k;
    const int lens[3] = {0, 10, 20000};
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    partner = mt_partner(rank, size);

    test_wait(rank, partner);
    for (k = 0; k < 3; k++) {
        test_waitall(rank, partner, lens[k]);
        test_waitany(rank, partner, lens[k]);
        test_waitsome(rank, partner, lens[k]);
        test_tests(rank, partner, lens[k]);
    }
    test_not_complete_and_get_status(rank, partner);
    test_request_free(rank, partner);
    return mt_finalize();
}
