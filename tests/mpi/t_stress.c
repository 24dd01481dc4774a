/*
 * t_stress: many messages at once.
 *  1. All-to-all with Isend/Irecv (self included): every rank sends every rank
 *     one message per round, sizes 0..64 KiB drawn from a deterministic hash
 *     of (source, destination, round), several rounds in flight back to back;
 *     contents, counts and status verified.
 *  2. Flood: in each pair (0->1, 2->3, ...) the even rank posts 10000 8-byte
 *     Isends, then tells the odd rank "posted" with another tag, then waits
 *     for them all; the odd rank receives "posted" first and then the 10000 in
 *     order. The unexpected queue must grow past any fixed-size channel.
 *  3. Fan-in: every rank sends 1000 small messages to rank 0, which receives
 *     them with MPI_ANY_SOURCE and checks per-sender order.
 * Works on 1 rank (part 1 only, to self).
 */
#include "mpitest.h"

#define ROUNDS 6
#define MAXLEN 65536
#define FLOOD 10000
#define FANIN 1000

static int a2a_len(int src, int dst, int round) { return (int)(mt_hash3(src, dst, round) % (MAXLEN + 1)); }

static void alltoall(int rank, int size)
{
    unsigned char **sb = mt_malloc(sizeof(void *) * (size_t)size * ROUNDS);
    unsigned char **rb = mt_malloc(sizeof(void *) * (size_t)size * ROUNDS);
    MPI_Request *rq = mt_malloc(sizeof(MPI_Request) * (size_t)size * ROUNDS * 2);
    MPI_Status *st = mt_malloc(sizeof(MPI_Status) * (size_t)size * ROUNDS * 2);
    int round, p, n = 0, i;

    /* all rounds in flight at once; receives posted in a rotated order */
    for (round = 0; round < ROUNDS; round++) {
        for (i = 0; i < size; i++) {
            int src = (rank + i + round) % size;
            rb[round * size + src] = mt_malloc(MAXLEN);
            MT_CHECK_RC(MPI_Irecv(rb[round * size + src], MAXLEN, MPI_BYTE, src, 100 + round, MPI_COMM_WORLD, &rq[n]));
            n++;
        }
        for (i = 0; i < size; i++) {
            int dst = (rank - i + size) % size, len = a2a_len(rank, dst, round);
            sb[round * size + dst] = mt_malloc((size_t)len);
            mt_fill(sb[round * size + dst], (size_t)len, rank, dst * 1000 + round);
            MT_CHECK_RC(MPI_Isend(sb[round * size + dst], len, MPI_BYTE, dst, 100 + round, MPI_COMM_WORLD, &rq[n]));
            n++;
        }
    }
    MT_CHECK_RC(MPI_Waitall(n, rq, st));
    n = 0;
    for (round = 0; round < ROUNDS; round++) {
        for (i = 0; i < size; i++) {
            int src = (rank + i + round) % size, len = a2a_len(src, rank, round), count = -1;
            MPI_Get_count(&st[n], MPI_BYTE, &count);
            MT_CHECK(st[n].MPI_SOURCE == src && st[n].MPI_TAG == 100 + round,
                     "alltoall round %d from %d: status source %d tag %d", round, src, st[n].MPI_SOURCE, st[n].MPI_TAG);
            MT_CHECK(count == len, "alltoall round %d from %d: count %d, expected %d", round, src, count, len);
            MT_CHECK(mt_verify(rb[round * size + src], (size_t)len, src, rank * 1000 + round) == MT_OK,
                     "alltoall round %d from %d: bad data", round, src);
            n++;
        }
        n += size;
    }
    for (p = 0; p < size * ROUNDS; p++) {
        free(sb[p]);
        free(rb[p]);
    }
    free(sb);
    free(rb);
    free(rq);
    free(st);
}

static void flood(int rank, int size)
{
    int partner = rank ^ 1, i;
    if (partner >= size) return;
    if (rank % 2 == 0) {
        long long *vals = mt_malloc(sizeof(long long) * FLOOD);
        MPI_Request *rq = mt_malloc(sizeof(MPI_Request) * FLOOD);
        int note = FLOOD;
        for (i = 0; i < FLOOD; i++) {
            vals[i] = (long long)rank * 100000 + i;
            MT_CHECK_RC(MPI_Isend(&vals[i], 1, MPI_LONG_LONG, partner, 200, MPI_COMM_WORLD, &rq[i]));
        }
        MT_CHECK_RC(MPI_Send(&note, 1, MPI_INT, partner, 201, MPI_COMM_WORLD));
        MT_CHECK_RC(MPI_Waitall(FLOOD, rq, MPI_STATUSES_IGNORE));
        free(vals);
        free(rq);
    } else {
        int note = -1, bad = 0;
        MT_CHECK_RC(MPI_Recv(&note, 1, MPI_INT, partner, 201, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK(note == FLOOD, "flood note %d", note);
        for (i = 0; i < FLOOD; i++) {
            long long v = -1;
            MT_CHECK_RC(MPI_Recv(&v, 1, MPI_LONG_LONG, partner, 200, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            if (v != (long long)partner * 100000 + i && bad++ < 5)
                MT_CHECK(0, "flood message %d: got %lld", i, v);
        }
    }
}

static void fanin(int rank, int size)
{
    int i;
    if (size < 2) return;
    if (rank != 0) {
        int m[2];
        for (i = 0; i < FANIN; i++) {
            m[0] = rank;
            m[1] = i;
            MT_CHECK_RC(MPI_Send(m, 2, MPI_INT, 0, 300, MPI_COMM_WORLD));
        }
    } else {
        int *next = mt_malloc(sizeof(int) * (size_t)size), total = (size - 1) * FANIN, bad = 0;
        for (i = 0; i < size; i++) next[i] = 0;
        for (i = 0; i < total; i++) {
            int m[2] = {-1, -1};
            MPI_Status st;
            /* tag 300 is used only here, so ANY_SOURCE cannot catch other traffic */
            MT_CHECK_RC(MPI_Recv(m, 2, MPI_INT, MPI_ANY_SOURCE, 300, MPI_COMM_WORLD, &st));
            if (m[0] <= 0 || m[0] >= size || st.MPI_SOURCE != m[0] || m[1] != next[m[0]]) {
                if (bad++ < 5)
                    MT_CHECK(0, "fan-in: message (%d, %d) from source %d, expected seq %d", m[0], m[1], st.MPI_SOURCE,
                             (m[0] > 0 && m[0] < size) ? next[m[0]] : -1);
                continue;
            }
            next[m[0]]++;
        }
        for (i = 1; i < size; i++) MT_CHECK(next[i] == FANIN, "fan-in: %d messages from %d", next[i], i);
        free(next);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    alltoall(rank, size);
    flood(rank, size);
    fanin(rank, size);
    return mt_finalize();
}
