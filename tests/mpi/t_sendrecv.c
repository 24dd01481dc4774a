/*
 * t_sendrecv: MPI_Sendrecv and MPI_Sendrecv_replace.
 *  - ring shift by every distance d = 1..size-1 (and d = 0, to self), sizes
 *    0 B, 8 B, 4 KiB, 1 MiB; distinct send and receive tags; data, status
 *    source/tag and count verified;
 *  - receive count larger than the message;
 *  - MPI_ANY_SOURCE as the receive source (the tag identifies the sender's role);
 *  - Sendrecv_replace on the same ring, small and large.
 * Works on 1 rank (everything is to self).
 */
#include "mpitest.h"

static const int sizes[] = {0, 8, 4096, 1 << 20};
#define NS 4

static void ring(int rank, int size, int d, int n, int any_source)
{
    int right = (rank + d) % size, left = (rank - d + size) % size, count = -1;
    int stag = 1000 + d, rtag = 1000 + d; /* the left neighbour sends with the same tag */
    unsigned char *s = mt_malloc((size_t)n), *r = mt_malloc((size_t)n + 8);
    MPI_Status st;
    mt_fill(s, (size_t)n, rank, d * 31 + n);
    memset(r, 0xcc, (size_t)n + 8);
    st.MPI_ERROR = 777;
    MT_CHECK_RC(MPI_Sendrecv(s, n, MPI_BYTE, right, stag, r, n + 8, MPI_BYTE, any_source ? MPI_ANY_SOURCE : left,
                             rtag, MPI_COMM_WORLD, &st));
    /* with ANY_SOURCE, any rank that sent us this tag is our left neighbour: only it did */
    MT_CHECK(st.MPI_SOURCE == left, "d=%d n=%d: source %d, expected %d", d, n, st.MPI_SOURCE, left);
    MT_CHECK(st.MPI_TAG == rtag, "d=%d n=%d: tag %d", d, n, st.MPI_TAG);
    MT_CHECK(st.MPI_ERROR == 777, "d=%d n=%d: Sendrecv modified MPI_ERROR (%d)", d, n, st.MPI_ERROR);
    MPI_Get_count(&st, MPI_BYTE, &count);
    MT_CHECK(count == n, "d=%d n=%d: count %d", d, n, count);
    MT_CHECK(mt_verify(r, (size_t)n, left, d * 31 + n) == MT_OK, "d=%d n=%d: bad data", d, n);
    MT_CHECK(r[n] == 0xcc && r[n + 7] == 0xcc, "d=%d n=%d: wrote past the message", d, n);
    free(s);
    free(r);
}

/* Distinct send/recv tags: send with tag 2000+rank, receive with tag 2000+left. */
static void ring_tags(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    double s[5], r[5];
    int i;
    MPI_Status st;
    for (i = 0; i < 5; i++) s[i] = rank + i * 0.5;
    MT_CHECK_RC(MPI_Sendrecv(s, 5, MPI_DOUBLE, right, 2000 + rank, r, 5, MPI_DOUBLE, left, 2000 + left,
                             MPI_COMM_WORLD, &st));
    MT_CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 2000 + left, "tags: source %d tag %d", st.MPI_SOURCE,
             st.MPI_TAG);
    for (i = 0; i < 5; i++) MT_CHECK(r[i] == left + i * 0.5, "tags: r[%d]=%g", i, r[i]);
}

static void ring_replace(int rank, int size, int n)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size, count = -1, i;
    int *b = mt_malloc(sizeof(int) * (size_t)(n ? n : 1));
    MPI_Status st;
    for (i = 0; i < n; i++) b[i] = rank * 7 + i * 3;
    MT_CHECK_RC(MPI_Sendrecv_replace(b, n, MPI_INT, right, 3000, left, 3000, MPI_COMM_WORLD, &st));
    MT_CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 3000, "replace n=%d: source %d tag %d", n, st.MPI_SOURCE,
             st.MPI_TAG);
    MPI_Get_count(&st, MPI_INT, &count);
    MT_CHECK(count == n, "replace n=%d: count %d", n, count);
    for (i = 0; i < n; i++)
        if (b[i] != left * 7 + i * 3) break;
    MT_CHECK(i == n, "replace n=%d: wrong value at %d", n, i);
    /* and back again: the reverse shift restores our own data */
    MT_CHECK_RC(MPI_Sendrecv_replace(b, n, MPI_INT, left, 3001, right, 3001, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (i = 0; i < n; i++)
        if (b[i] != rank * 7 + i * 3) break;
    MT_CHECK(i == n, "replace back n=%d: wrong value at %d", n, i);
    free(b);
}

int main(int argc, char **argv)
{
    int rank, size, d, k;
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    for (k = 0; k < NS; k++) {
        /* all distances for small sizes, a few for 1 MiB */
        for (d = 0; d < size; d++) {
            if (sizes[k] >= (1 << 20) && d > 2 && d != size - 1) continue;
            ring(rank, size, d, sizes[k], 0);
        }
        ring(rank, size, 1 % size, sizes[k], 1);
    }
    ring_tags(rank, size);
    ring_replace(rank, size, 0);
    ring_replace(rank, size, 1);
    ring_replace(rank, size, 1000);
    ring_replace(rank, size, 300000);
    return mt_finalize();
}
