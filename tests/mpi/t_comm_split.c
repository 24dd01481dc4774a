/*
 * MPI_Comm_split and MPI_Comm_dup.
 *
 * - Splits with pseudo-random colors (some MPI_UNDEFINED) and keys that
 *   every rank computes for every other, so each checks its new
 *   communicator against a locally computed expectation: size, rank, and
 *   the members themselves, by exchanging world ranks over point-to-point
 *   in the new communicator and by translating its group.
 * - Messages on a duplicate never match receives on the parent, and back.
 * - Splits of splits.
 * - 2000 create/free cycles (dup and split) complete and leave nothing
 *   behind that breaks later communicators (300 under other MPIs).
 */
#include "mpitest.h"
#include <stdlib.h>


static int color_of(int round, int rank, int ncolors)
{
    uint64_t h = mt_hash3(round, rank, 7);
    int c = (int)(h % (uint64_t)(ncolors + 1));
    return c == ncolors ? MPI_UNDEFINED : c;
}

static int key_of(int round, int rank) { return (int)(mt_hash3(round, rank, 11) % 5) - 2; /* ties on purpose */ }

/* The world ranks of comm's members in comm rank order, two ways: by
 * point-to-point exchange inside comm, and by translating its group. */
static void check_members(MPI_Comm comm, const int *expect, int n, const char *what)
{
    int size, rank, me, i;
    int *got = (int *)mt_malloc(sizeof(int) * (size_t)n);
    int *idx = (int *)mt_malloc(sizeof(int) * (size_t)n);
    int *world = (int *)mt_malloc(sizeof(int) * (size_t)n);
    MPI_Request *reqs = (MPI_Request *)mt_malloc(sizeof(MPI_Request) * 2 * (size_t)n);
    MPI_Group g, wg;

    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MT_CHECK(size == n, "%s: size %d, expected %d", what, size, n);
    if (size != n) goto out;
    MT_CHECK(rank >= 0 && rank < n && expect[rank] == me, "%s: rank %d is not where world rank %d belongs", what, rank, me);

    for (i = 0; i < n; i++) MPI_Irecv(&got[i], 1, MPI_INT, i, 3, comm, &reqs[i]);
    for (i = 0; i < n; i++) MPI_Isend(&me, 1, MPI_INT, i, 3, comm, &reqs[n + i]);
    MPI_Waitall(2 * n, reqs, MPI_STATUSES_IGNORE);
    for (i = 0; i < n; i++) MT_CHECK(got[i] == expect[i], "%s: rank %d is world rank %d, expected %d", what, i, got[i], expect[i]);

    MPI_Comm_group(comm, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    for (i = 0; i < n; i++) idx[i] = i;
    MPI_Group_translate_ranks(g, n, idx, wg, world);
    for (i = 0; i < n; i++) MT_CHECK(world[i] == expect[i], "%s: group rank %d is world %d, expected %d", what, i, world[i], expect[i]);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
out:
    free(got);
    free(idx);
    free(world);
    free(reqs);
}

/* Expected members of `color` in a split of world ranks [0, size) with the given colors/keys. */
static int expected_members(int size, const int *colors, const int *keys, int color, int *out)
{
    int n = 0, i, j;
    for (i = 0; i < size; i++)
        if (colors[i] == color) out[n++] = i;
    /* insertion sort by (key, world rank): stable on world rank */
    for (i = 1; i < n; i++) {
        int v = out[i];
        for (j = i - 1; j >= 0 && keys[out[j]] > keys[v]; j--) out[j + 1] = out[j];
        out[j + 1] = v;
    }
    return n;
}

static void random_splits(int size, int me)
{
    int round;
    int *colors = (int *)mt_malloc(sizeof(int) * (size_t)size);
    int *keys = (int *)mt_malloc(sizeof(int) * (size_t)size);
    int *expect = (int *)mt_malloc(sizeof(int) * (size_t)size);
    for (round = 0; round < 12; round++) {
        int ncolors = 1 + round % 4, i, n;
        MPI_Comm comm;
        char what[64];
        for (i = 0; i < size; i++) {
            colors[i] = color_of(round, i, ncolors);
            keys[i] = key_of(round, i);
        }
        MT_CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, colors[me], keys[me], &comm));
        snprintf(what, sizeof what, "round %d color %d", round, colors[me]);
        if (colors[me] == MPI_UNDEFINED) {
            MT_CHECK(comm == MPI_COMM_NULL, "%s: MPI_UNDEFINED gave a communicator", what);
            continue;
        }
        n = expected_members(size, colors, keys, colors[me], expect);
        check_members(comm, expect, n, what);
        MT_CHECK_RC(MPI_Comm_free(&comm));
        MT_CHECK(comm == MPI_COMM_NULL, "MPI_Comm_free did not set the handle to MPI_COMM_NULL");
    }
    free(colors);
    free(keys);
    free(expect);
}

/* A message sent on a dup is not received on the parent (and back), even
 * with wildcards, and each arrives where it was sent. */
static void dup_isolation(int size, int me)
{
    MPI_Comm dup;
    int partner = mt_partner(me, size), a = -1, b = -1, i;
    int *expect = (int *)mt_malloc(sizeof(int) * (size_t)size);
    MPI_Status st;
    MT_CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    for (i = 0; i < size; i++) expect[i] = i;
    check_members(dup, expect, size, "dup of MPI_COMM_WORLD");

    MPI_Send(&(int){1000 + me}, 1, MPI_INT, partner, 5, dup);
    MPI_Send(&(int){2000 + me}, 1, MPI_INT, partner, 5, MPI_COMM_WORLD);
    MPI_Recv(&a, 1, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st);
    MPI_Recv(&b, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &st);
    MT_CHECK(a == 2000 + partner, "parent received %d, expected %d", a, 2000 + partner);
    MT_CHECK(b == 1000 + partner, "dup received %d, expected %d", b, 1000 + partner);
    MT_CHECK(st.MPI_SOURCE == partner && st.MPI_TAG == 5, "dup status source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);

    /* A dup of the dup is isolated from both. */
    {
        MPI_Comm dup2;
        int flag = 1;
        MT_CHECK_RC(MPI_Comm_dup(dup, &dup2));
        MPI_Send(&(int){3000 + me}, 1, MPI_INT, partner, 6, dup2);
        mt_barrier(MPI_COMM_WORLD);
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &flag, MPI_STATUS_IGNORE);
        MT_CHECK(!flag, "a message sent on a dup of a dup is visible on the dup");
        MPI_Recv(&a, 1, MPI_INT, partner, 6, dup2, MPI_STATUS_IGNORE);
        MT_CHECK(a == 3000 + partner, "dup2 received %d", a);
        MPI_Comm_free(&dup2);
    }
    MPI_Comm_free(&dup);
    free(expect);
}

/* Split into halves, then each half by parity of its rank (reversed order). */
static void nested_splits(int size, int me)
{
    MPI_Comm half, quarter;
    int *members = (int *)mt_malloc(sizeof(int) * (size_t)size);
    int *sub = (int *)mt_malloc(sizeof(int) * (size_t)size);
    int lo = me < size / 2, n = 0, m = 0, i, hrank;
    MT_CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, lo, me, &half));
    for (i = 0; i < size; i++)
        if ((i < size / 2) == lo) members[n++] = i;
    check_members(half, members, n, "half");
    MPI_Comm_rank(half, &hrank);
    MT_CHECK_RC(MPI_Comm_split(half, hrank % 2, -hrank, &quarter));
    for (i = n - 1; i >= 0; i--)
        if (i % 2 == hrank % 2) sub[m++] = members[i];
    check_members(quarter, sub, m, "quarter");
    MPI_Comm_free(&quarter);
    MPI_Comm_free(&half);
    free(members);
    free(sub);
}

/* Many communicators created and freed; every 100th is used. (MPICH and
 * Open MPI busy-poll: with more processes than cores a cycle can take tens
 * of milliseconds there, so they run fewer.) */
#ifdef HMPI
#define CYCLES 2000
#else
#define CYCLES 300
#endif
static void create_free_cycles(int size, int me)
{
    int i, partner = mt_partner(me, size);
    double t0 = MPI_Wtime();
    for (i = 0; i < CYCLES; i++) {
        MPI_Comm d, s;
        MT_CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &d));
        MT_CHECK_RC(MPI_Comm_split(d, me % 2, me, &s));
        if (i % 100 == 0) {
            int v = -1;
            MPI_Sendrecv(&i, 1, MPI_INT, partner, 9, &v, 1, MPI_INT, partner, 9, d, MPI_STATUS_IGNORE);
            MT_CHECK(v == i, "cycle %d: received %d", i, v);
        }
        MT_CHECK_RC(MPI_Comm_free(&s));
        MT_CHECK_RC(MPI_Comm_free(&d));
    }
    if (me == 0 && getenv("MT_VERBOSE"))
        printf("%d dup+split+free cycles: %.1f us per cycle\n", CYCLES, (MPI_Wtime() - t0) / CYCLES * 1e6);
}

int main(int argc, char **argv)
{
    int size, me;
    mt_init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    random_splits(size, me);
    dup_isolation(size, me);
    nested_splits(size, me);
    create_free_cycles(size, me);
    mt_barrier(MPI_COMM_WORLD);
    return mt_finalize();
}
