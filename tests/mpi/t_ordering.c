/*
 * t_ordering: message ordering and matching order.
 *  1. Non-overtaking: 40 messages, same source/tag/comm, alternating 8 B and
 *     256 KiB, (a) received one by one after all were sent (unexpected path)
 *     and (b) into receives pre-posted before the sender starts: in order.
 *  2. Wildcards: every other rank sends K messages to rank 1 with varying tags;
 *     rank 1 receives with ANY_SOURCE+tag, source+ANY_TAG, ANY_SOURCE+ANY_TAG:
 *     per-sender order holds and status source/tag describe the payload.
 *  3. A posted ANY_TAG receive posted before a specific-tag receive gets the
 *     first message (and the reverse); same for ANY_SOURCE before a specific
 *     source.
 * Part 1 uses pairs (0<->1, ...; odd last rank with itself), parts 2-3 need 2
 * ranks. Phases are separated by mt_barrier so wildcard receives only see this
 * phase's messages.
 */
#include "mpitest.h"

#define NMSG 40
#define BIG (256 * 1024)
#define SMALL 8

static size_t msg_len(int i) { return (i % 2) ? BIG : SMALL; }

/* Message i from src: first 4 bytes hold i, the rest is the pattern for (src, i). */
static void fill_msg(unsigned char *b, int src, int i)
{
    size_t n = msg_len(i);
    mt_fill(b, n, src, i);
    memcpy(b, &i, sizeof i);
}

static void check_msg(const unsigned char *b, const MPI_Status *st, int src, int i, const char *what)
{
    int seq, count = -1;
    size_t n = msg_len(i), j;
    memcpy(&seq, b, sizeof seq);
    MPI_Get_count(st, MPI_BYTE, &count);
    MT_CHECK(seq == i, "%s: got message %d in position %d", what, seq, i);
    MT_CHECK(count == (int)n, "%s: message %d has %d bytes, expected %zu", what, i, count, n);
    if (seq != i || count != (int)n) return;
    for (j = sizeof(int); j < n; j++)
        if (b[j] != mt_pat(src, i, j)) break;
    MT_CHECK(j == n, "%s: message %d corrupt at byte %zu", what, i, j);
}

static void non_overtaking(int rank, int partner)
{
    unsigned char *s = mt_malloc((size_t)NMSG * BIG), *r = mt_malloc((size_t)NMSG * BIG);
    MPI_Request sreq[NMSG], rreq[NMSG];
    MPI_Status st[NMSG];
    int i, go = 0;

    for (i = 0; i < NMSG; i++) fill_msg(s + (size_t)i * BIG, rank, i);

    /* (a) all sends posted first, then blocking receives one by one */
    for (i = 0; i < NMSG; i++)
        MT_CHECK_RC(MPI_Isend(s + (size_t)i * BIG, (int)msg_len(i), MPI_BYTE, partner, 5, MPI_COMM_WORLD, &sreq[i]));
    for (i = 0; i < NMSG; i++) {
        MT_CHECK_RC(MPI_Recv(r, BIG, MPI_BYTE, partner, 5, MPI_COMM_WORLD, &st[0]));
        check_msg(r, &st[0], partner, i, "non-overtaking (unexpected)");
    }
    MT_CHECK_RC(MPI_Waitall(NMSG, sreq, MPI_STATUSES_IGNORE));

    /* (b) receives posted in order before the partner sends (handshake), so they
     * are matched in posting order */
    for (i = 0; i < NMSG; i++)
        MT_CHECK_RC(MPI_Irecv(r + (size_t)i * BIG, BIG, MPI_BYTE, partner, 6, MPI_COMM_WORLD, &rreq[i]));
    MT_CHECK_RC(MPI_Sendrecv(&go, 1, MPI_INT, partner, 7, &i, 1, MPI_INT, partner, 7, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE));
    for (i = 0; i < NMSG; i++) {
        if (i % 3 == 0) /* mix blocking and nonblocking sends */
            MT_CHECK_RC(MPI_Isend(s + (size_t)i * BIG, (int)msg_len(i), MPI_BYTE, partner, 6, MPI_COMM_WORLD, &sreq[i]));
        else { /* the receives are pre-posted, so a blocking send completes (also to self) */
            sreq[i] = MPI_REQUEST_NULL;
            MT_CHECK_RC(MPI_Send(s + (size_t)i * BIG, (int)msg_len(i), MPI_BYTE, partner, 6, MPI_COMM_WORLD));
        }
    }
    MT_CHECK_RC(MPI_Waitall(NMSG, rreq, st));
    for (i = 0; i < NMSG; i++) check_msg(r + (size_t)i * BIG, &st[i], partner, i, "non-overtaking (pre-posted)");
    MT_CHECK_RC(MPI_Waitall(NMSG, sreq, MPI_STATUSES_IGNORE));
    free(s);
    free(r);
}

#define K 12
#define WILD_RECV 1

/* tag of message i from src in a wildcard phase */
static int wtag(int src, int i) { return 100 + (src * 3 + i * 5) % 7; }

/* Every rank except WILD_RECV sends K messages [src, i, tag] to WILD_RECV.
 * mode 0: ANY_SOURCE + tag (one tag per phase: all messages use tag 99)
 * mode 1: source + ANY_TAG (loop over sources)
 * mode 2: ANY_SOURCE + ANY_TAG */
static void wildcard_phase(int rank, int size, int mode)
{
    int i;
    if (rank != WILD_RECV) {
        for (i = 0; i < K; i++) {
            int m[3] = {rank, i, mode == 0 ? 99 : wtag(rank, i)};
            MT_CHECK_RC(MPI_Send(m, 3, MPI_INT, WILD_RECV, m[2], MPI_COMM_WORLD));
        }
    } else {
        int *next = mt_malloc(sizeof(int) * (size_t)size), total = (size - 1) * K, n;
        for (i = 0; i < size; i++) next[i] = 0;
        for (n = 0; n < total; n++) {
            int m[3] = {-1, -1, -1}, src, count;
            MPI_Status st;
            if (mode == 0)
                MT_CHECK_RC(MPI_Recv(m, 3, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &st));
            else if (mode == 1) {
                src = (n / K) + ((n / K) >= WILD_RECV ? 1 : 0);
                MT_CHECK_RC(MPI_Recv(m, 3, MPI_INT, src, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
                MT_CHECK(st.MPI_SOURCE == src, "mode 1: source %d, asked for %d", st.MPI_SOURCE, src);
            } else
                MT_CHECK_RC(MPI_Recv(m, 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            MPI_Get_count(&st, MPI_INT, &count);
            MT_CHECK(count == 3, "mode %d: count %d", mode, count);
            src = m[0];
            MT_CHECK(src >= 0 && src < size && src != WILD_RECV, "mode %d: bad payload source %d", mode, src);
            if (src < 0 || src >= size) continue;
            MT_CHECK(st.MPI_SOURCE == src, "mode %d: status source %d, payload from %d", mode, st.MPI_SOURCE, src);
            MT_CHECK(st.MPI_TAG == m[2], "mode %d: status tag %d, payload tag %d", mode, st.MPI_TAG, m[2]);
            MT_CHECK(m[1] == next[src], "mode %d: from %d got message %d, expected %d (per-sender order)", mode, src,
                     m[1], next[src]);
            MT_CHECK(mode == 0 ? m[2] == 99 : m[2] == wtag(src, m[1]), "mode %d: payload tag %d wrong", mode, m[2]);
            next[src] = m[1] + 1;
        }
        for (i = 0; i < size; i++)
            if (i != WILD_RECV) MT_CHECK(next[i] == K, "mode %d: got %d messages from %d", mode, next[i], i);
        free(next);
    }
}

/* Rank 0 posts two receives that could both match the first message, then lets
 * rank 1 send two messages: the receive posted first gets the first message. */
static void posted_order(int rank)
{
    int go = 0, a = -1, b = -1, m;
    MPI_Request r[2];
    MPI_Status st[2];
    if (rank == 0) {
        /* ANY_TAG before tag 5; rank 1 sends tag 5 (value 1) then tag 5 (value 2) */
        MT_CHECK_RC(MPI_Irecv(&a, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &r[0]));
        MT_CHECK_RC(MPI_Irecv(&b, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &r[1]));
        MT_CHECK_RC(MPI_Send(&go, 1, MPI_INT, 1, 200, MPI_COMM_WORLD));
        MT_CHECK_RC(MPI_Waitall(2, r, st));
        MT_CHECK(a == 1 && b == 2, "ANY_TAG posted first: got a=%d b=%d, expected 1 2", a, b);
        MT_CHECK(st[0].MPI_TAG == 5 && st[1].MPI_TAG == 5, "ANY_TAG posted first: tags %d %d", st[0].MPI_TAG,
                 st[1].MPI_TAG);

        /* ANY_TAG before tag 5; rank 1 sends tag 7 (value 3) then tag 5 (value 4) */
        MT_CHECK_RC(MPI_Irecv(&a, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &r[0]));
        MT_CHECK_RC(MPI_Irecv(&b, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &r[1]));
        MT_CHECK_RC(MPI_Send(&go, 1, MPI_INT, 1, 200, MPI_COMM_WORLD));
        MT_CHECK_RC(MPI_Waitall(2, r, st));
        MT_CHECK(a == 3 && b == 4 && st[0].MPI_TAG == 7 && st[1].MPI_TAG == 5,
                 "ANY_TAG then tag 5, sent 7 then 5: a=%d (tag %d) b=%d", a, st[0].MPI_TAG, b);

        /* tag 5 before ANY_TAG; rank 1 sends tag 5 (value 5) then tag 5 (value 6) */
        MT_CHECK_RC(MPI_Irecv(&b, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &r[1]));
        MT_CHECK_RC(MPI_Irecv(&a, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &r[0]));
        MT_CHECK_RC(MPI_Send(&go, 1, MPI_INT, 1, 200, MPI_COMM_WORLD));
        MT_CHECK_RC(MPI_Waitall(2, r, st));
        MT_CHECK(b == 5 && a == 6, "tag 5 posted first: got b=%d a=%d, expected 5 6", b, a);

        /* ANY_SOURCE before source 1 (tag 6); only rank 1 sends tag 6 (7 then 8) */
        MT_CHECK_RC(MPI_Irecv(&a, 1, MPI_INT, MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, &r[0]));
        MT_CHECK_RC(MPI_Irecv(&b, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &r[1]));
        MT_CHECK_RC(MPI_Send(&go, 1, MPI_INT, 1, 200, MPI_COMM_WORLD));
        MT_CHECK_RC(MPI_Waitall(2, r, st));
        MT_CHECK(a == 7 && b == 8 && st[0].MPI_SOURCE == 1, "ANY_SOURCE posted first: a=%d b=%d source %d", a, b,
                 st[0].MPI_SOURCE);
    } else if (rank == 1) {
        static const int seq[4][2][2] = {{{5, 1}, {5, 2}}, {{7, 3}, {5, 4}}, {{5, 5}, {5, 6}}, {{6, 7}, {6, 8}}};
        int k, j;
        for (k = 0; k < 4; k++) {
            MT_CHECK_RC(MPI_Recv(&go, 1, MPI_INT, 0, 200, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            for (j = 0; j < 2; j++) {
                m = seq[k][j][1];
                MT_CHECK_RC(MPI_Send(&m, 1, MPI_INT, 0, seq[k][j][0], MPI_COMM_WORLD));
            }
        }
    }
}

int main(int argc, char **argv)
{
    int rank, size, mode;
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    non_overtaking(rank, mt_partner(rank, size));
    mt_barrier(MPI_COMM_WORLD);
    if (size >= 2) {
        for (mode = 0; mode < 3; mode++) {
            wildcard_phase(rank, size, mode);
            mt_barrier(MPI_COMM_WORLD);
        }
        posted_order(rank);
    }
    return mt_finalize();
}
