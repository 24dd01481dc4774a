/*
 * t_probe: MPI_Probe / MPI_Iprobe and matched probes.
 *  1. Every rank except 1 sends K messages of varying tag and size to rank 1;
 *     rank 1 probes with ANY_SOURCE/ANY_TAG (blocking Probe, then polling
 *     Iprobe), sizes its buffer with MPI_Get_count and receives exactly the
 *     probed message using the status source and tag (checked by payload).
 *  2. Iprobe returns flag 0 for a message provably not sent yet.
 *  3. Mprobe / Improbe + Mrecv / Imrecv: a matched message is removed from
 *     matching: a later message with the same envelope is what Probe and Recv
 *     see, while Mrecv still delivers the probed one. Large (1 MiB) and small.
 *  4. MPI_PROC_NULL: Probe/Iprobe return at once with source MPI_PROC_NULL,
 *     tag MPI_ANY_TAG, count 0; Mprobe/Improbe give MPI_MESSAGE_NO_PROC, and
 *     Mrecv/Imrecv on it give a PROC_NULL status and MPI_MESSAGE_NULL.
 * Parts 1-3 need 2 ranks; part 4 runs everywhere.
 */
#include "mpitest.h"

#define K 6
#define PROBE_RECV 1

static int plen(int src, int i) { return 1 + (src * 13 + i * 1009) % 3000; } /* ints */
static int ptag(int src, int i) { return 50 + (src + i) % 4; }

static void probe_many(int rank, int size, int use_iprobe)
{
    int i;
    if (rank != PROBE_RECV) {
        for (i = 0; i < K; i++) {
            int n = plen(rank, i), j;
            int *b = mt_malloc(sizeof(int) * (size_t)n);
            b[0] = rank;
            if (n > 1) b[1] = i;
            for (j = 2; j < n; j++) b[j] = rank * 100 + i + j;
            MT_CHECK_RC(MPI_Send(b, n, MPI_INT, PROBE_RECV, ptag(rank, i), MPI_COMM_WORLD));
            free(b);
        }
    } else {
        int *next = mt_malloc(sizeof(int) * (size_t)size), total = (size - 1) * K, m;
        for (i = 0; i < size; i++) next[i] = 0;
        for (m = 0; m < total; m++) {
            MPI_Status st, st2;
            int count = -1, src, seq, j, *b, flag = 0;
            if (use_iprobe) {
                while (!flag) MT_CHECK_RC(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
            } else
                MT_CHECK_RC(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            src = st.MPI_SOURCE;
            MT_CHECK(src >= 0 && src < size && src != PROBE_RECV, "probe source %d", src);
            if (src < 0 || src >= size || src == PROBE_RECV) break;
            seq = next[src];
            MT_CHECK_RC(MPI_Get_count(&st, MPI_INT, &count));
            MT_CHECK(count == plen(src, seq), "probe from %d: count %d, expected %d (message %d)", src, count,
                     plen(src, seq), seq);
            MT_CHECK(st.MPI_TAG == ptag(src, seq), "probe from %d: tag %d, expected %d", src, st.MPI_TAG,
                     ptag(src, seq));
            if (count < 1) break;
            b = mt_malloc(sizeof(int) * (size_t)count);
            MT_CHECK_RC(MPI_Recv(b, count, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st2));
            MT_CHECK(st2.MPI_SOURCE == src && st2.MPI_TAG == st.MPI_TAG, "recv after probe: source %d tag %d",
                     st2.MPI_SOURCE, st2.MPI_TAG);
            MT_CHECK(b[0] == src && (count < 2 || b[1] == seq), "recv after probe: payload (%d, %d), probed (%d, %d)",
                     b[0], count > 1 ? b[1] : -1, src, seq);
            for (j = 2; j < count; j++)
                if (b[j] != src * 100 + seq + j) break;
            MT_CHECK(j >= count, "recv after probe: data wrong at %d", j);
            free(b);
            next[src]++;
        }
        free(next);
    }
}

/* Rank 1 Iprobes (0, tag 60) before rank 0 sends it: rank 0 sends only after
 * receiving "go" (tag 61), which rank 1 sends after its probes. */
static void iprobe_absent(int rank)
{
    int go = 0, flag, i, v = -1;
    MPI_Status st;
    if (rank == 1) {
        for (i = 0; i < 10; i++) {
            flag = -1;
            MT_CHECK_RC(MPI_Iprobe(0, 60, MPI_COMM_WORLD, &flag, &st));
            MT_CHECK(flag == 0, "Iprobe found a message that was not sent");
        }
        MT_CHECK_RC(MPI_Send(&go, 1, MPI_INT, 0, 61, MPI_COMM_WORLD));
        flag = 0;
        while (!flag) MT_CHECK_RC(MPI_Iprobe(0, 60, MPI_COMM_WORLD, &flag, &st));
        MT_CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 60, "Iprobe: source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
        /* a probe does not consume: probing again finds it again */
        MT_CHECK_RC(MPI_Probe(0, 60, MPI_COMM_WORLD, &st));
        MT_CHECK_RC(MPI_Recv(&v, 1, MPI_INT, 0, 60, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK(v == 1234, "Iprobe'd message value %d", v);
    } else if (rank == 0) {
        MT_CHECK_RC(MPI_Recv(&go, 1, MPI_INT, 1, 61, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        v = 1234;
        MT_CHECK_RC(MPI_Send(&v, 1, MPI_INT, 1, 60, MPI_COMM_WORLD));
    }
}

/* Rank 0 sends M1 (n1 ints, value base+1), waits for go, then sends M2 (n2
 * ints, value base+2), same tag. Rank 1 matches M1 with (I)mprobe, sends go,
 * Probes (must see M2, not M1), then Mrecv/Imrecv gets M1 and Recv gets M2. */
static void matched(int rank, int n1, int n2, int nonblocking, int tag)
{
    int go = 0, i, base = tag * 10;
    if (rank == 0) {
        /* M1 with Isend: a large M1 is matched (Mprobe) but not received
         * before go is sent back, so a blocking send could not return */
        int *b1 = mt_malloc(sizeof(int) * (size_t)n1), *b2 = mt_malloc(sizeof(int) * (size_t)n2);
        MPI_Request rq;
        for (i = 0; i < n1; i++) b1[i] = base + 1;
        for (i = 0; i < n2; i++) b2[i] = base + 2;
        MT_CHECK_RC(MPI_Isend(b1, n1, MPI_INT, 1, tag, MPI_COMM_WORLD, &rq));
        MT_CHECK_RC(MPI_Recv(&go, 1, MPI_INT, 1, tag + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK_RC(MPI_Send(b2, n2, MPI_INT, 1, tag, MPI_COMM_WORLD));
        MT_CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        free(b1);
        free(b2);
    } else if (rank == 1) {
        MPI_Message msg = MPI_MESSAGE_NULL;
        MPI_Status st;
        int count = -1, flag = 0;
        int *r1 = mt_malloc(sizeof(int) * (size_t)n1), *r2 = mt_malloc(sizeof(int) * (size_t)n2);
        if (nonblocking) {
            while (!flag) MT_CHECK_RC(MPI_Improbe(0, tag, MPI_COMM_WORLD, &flag, &msg, &st));
        } else
            MT_CHECK_RC(MPI_Mprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &msg, &st));
        MT_CHECK(msg != MPI_MESSAGE_NULL && msg != MPI_MESSAGE_NO_PROC, "Mprobe gave no message handle");
        MT_CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == tag, "Mprobe status source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
        MPI_Get_count(&st, MPI_INT, &count);
        MT_CHECK(count == n1, "Mprobe count %d, expected %d", count, n1);
        MT_CHECK_RC(MPI_Send(&go, 1, MPI_INT, 0, tag + 1, MPI_COMM_WORLD));
        /* M1 is no longer matchable: a probe now sees M2 */
        MT_CHECK_RC(MPI_Probe(0, tag, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        MT_CHECK(count == n2, "Probe after Mprobe saw %d ints: the matched message was probed again", count);
        /* an Improbe also sees M2 only; leave that handle aside and receive it last */
        {
            MPI_Message msg2 = MPI_MESSAGE_NULL;
            MPI_Request rq;
            flag = 0;
            while (!flag) MT_CHECK_RC(MPI_Improbe(0, tag, MPI_COMM_WORLD, &flag, &msg2, &st));
            MPI_Get_count(&st, MPI_INT, &count);
            MT_CHECK(count == n2, "second Improbe saw %d ints, expected %d", count, n2);
            /* now receive M1 through its handle */
            if (nonblocking) {
                MT_CHECK_RC(MPI_Imrecv(r1, n1, MPI_INT, &msg, &rq));
                MT_CHECK(msg == MPI_MESSAGE_NULL, "Imrecv did not set the message to MPI_MESSAGE_NULL");
                MT_CHECK_RC(MPI_Wait(&rq, &st));
            } else {
                MT_CHECK_RC(MPI_Mrecv(r1, n1, MPI_INT, &msg, &st));
                MT_CHECK(msg == MPI_MESSAGE_NULL, "Mrecv did not set the message to MPI_MESSAGE_NULL");
            }
            MT_CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == tag, "Mrecv status source %d tag %d", st.MPI_SOURCE,
                     st.MPI_TAG);
            MPI_Get_count(&st, MPI_INT, &count);
            MT_CHECK(count == n1, "Mrecv count %d, expected %d", count, n1);
            for (i = 0; i < n1; i++)
                if (r1[i] != base + 1) break;
            MT_CHECK(i == n1, "Mrecv delivered the wrong message (value %d at %d)", i < n1 ? r1[i] : 0, i);
            MT_CHECK_RC(MPI_Mrecv(r2, n2, MPI_INT, &msg2, &st));
            MPI_Get_count(&st, MPI_INT, &count);
            MT_CHECK(count == n2, "Mrecv of M2 count %d", count);
            for (i = 0; i < n2; i++)
                if (r2[i] != base + 2) break;
            MT_CHECK(i == n2, "Mrecv of M2: wrong data at %d", i);
        }
        free(r1);
        free(r2);
    }
}

static void check_procnull_status(const MPI_Status *st, const char *what)
{
    int count = -1;
    MT_CHECK(st->MPI_SOURCE == MPI_PROC_NULL, "%s: source %d, expected MPI_PROC_NULL", what, st->MPI_SOURCE);
    MT_CHECK(st->MPI_TAG == MPI_ANY_TAG, "%s: tag %d, expected MPI_ANY_TAG", what, st->MPI_TAG);
    MPI_Get_count(st, MPI_INT, &count);
    MT_CHECK(count == 0, "%s: count %d", what, count);
}

static void procnull(void)
{
    MPI_Status st;
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Request rq;
    int flag = 0, buf[4] = {9, 9, 9, 9};

    MT_CHECK_RC(MPI_Probe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st));
    check_procnull_status(&st, "Probe(PROC_NULL)");
    MT_CHECK_RC(MPI_Iprobe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    MT_CHECK(flag == 1, "Iprobe(PROC_NULL) flag %d", flag);
    check_procnull_status(&st, "Iprobe(PROC_NULL)");

    MT_CHECK_RC(MPI_Mprobe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &msg, &st));
    MT_CHECK(msg == MPI_MESSAGE_NO_PROC, "Mprobe(PROC_NULL) did not give MPI_MESSAGE_NO_PROC");
    check_procnull_status(&st, "Mprobe(PROC_NULL)");
    MT_CHECK_RC(MPI_Mrecv(buf, 4, MPI_INT, &msg, &st));
    MT_CHECK(msg == MPI_MESSAGE_NULL, "Mrecv(MESSAGE_NO_PROC) did not set MPI_MESSAGE_NULL");
    check_procnull_status(&st, "Mrecv(MESSAGE_NO_PROC)");
    MT_CHECK(buf[0] == 9 && buf[3] == 9, "Mrecv(MESSAGE_NO_PROC) wrote the buffer");

    flag = 0;
    msg = MPI_MESSAGE_NULL;
    MT_CHECK_RC(MPI_Improbe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st));
    MT_CHECK(flag == 1 && msg == MPI_MESSAGE_NO_PROC, "Improbe(PROC_NULL): flag %d, NO_PROC %d", flag,
             msg == MPI_MESSAGE_NO_PROC);
    check_procnull_status(&st, "Improbe(PROC_NULL)");
    MT_CHECK_RC(MPI_Imrecv(buf, 4, MPI_INT, &msg, &rq));
    MT_CHECK(msg == MPI_MESSAGE_NULL, "Imrecv(MESSAGE_NO_PROC) did not set MPI_MESSAGE_NULL");
    MT_CHECK_RC(MPI_Wait(&rq, &st));
    check_procnull_status(&st, "Imrecv(MESSAGE_NO_PROC)");
}

int main(int argc, char **argv)
{
    int rank, size;
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    procnull();
    if (size >= 2) {
        probe_many(rank, size, 0);
        mt_barrier(MPI_COMM_WORLD);
        probe_many(rank, size, 1);
        mt_barrier(MPI_COMM_WORLD);
        iprobe_absent(rank);
        matched(rank, 3, 5, 0, 100);
        matched(rank, 3, 5, 1, 200);
        matched(rank, 1 << 18, 7, 0, 300); /* 1 MiB probed message */
        matched(rank, 1 << 18, 7, 1, 400);
        matched(rank, 0, 1, 0, 500); /* zero-length probed message */
    }
    return mt_finalize();
}
