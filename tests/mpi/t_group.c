/*
 * Group operations, each checked against a member list computed here from
 * the MPI definitions: size, rank, translate_ranks (MPI_PROC_NULL and
 * missing ranks), compare, union, intersection, difference, incl, excl,
 * range_incl and range_excl (negative strides too), MPI_GROUP_EMPTY,
 * MPI_Comm_group, Group_free. Groups are local objects: no communication
 * beyond the harness.
 */
#include "mpitest.h"
#include <stdlib.h>


#define MAXN 64

/* World ranks of g's members in group order (via translate_ranks to the world group). */
static int members(MPI_Group g, MPI_Group world, int *out)
{
    int n = -1, idx[MAXN], i;
    MPI_Group_size(g, &n);
    if (n < 0 || n > MAXN) return -1;
    for (i = 0; i < n; i++) idx[i] = i;
    if (n) MPI_Group_translate_ranks(g, n, idx, world, out);
    return n;
}

static void check_list(MPI_Group g, MPI_Group world, const int *expect, int n, const char *what, int round)
{
    int got[MAXN], m = members(g, world, got), i;
    MT_CHECK(m == n, "round %d %s: %d members, expected %d", round, what, m, n);
    if (m != n) return;
    for (i = 0; i < n; i++) MT_CHECK(got[i] == expect[i], "round %d %s: member %d is %d, expected %d", round, what, i, got[i], expect[i]);
}

static int contains(const int *v, int n, int x)
{
    int i;
    for (i = 0; i < n; i++)
        if (v[i] == x) return 1;
    return 0;
}

/* A random subset of [0, size) in random order. */
static int random_list(uint64_t *seed, int size, int *out)
{
    int perm[MAXN], i, n;
    for (i = 0; i < size; i++) perm[i] = i;
    for (i = size - 1; i > 0; i--) {
        int j = (int)(mt_rand(seed) % (uint64_t)(i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    n = (int)(mt_rand(seed) % (uint64_t)(size + 1));
    for (i = 0; i < n; i++) out[i] = perm[i];
    return n;
}

static void free_group(MPI_Group *g)
{
    MT_CHECK_RC(MPI_Group_free(g));
    MT_CHECK(*g == MPI_GROUP_NULL, "MPI_Group_free did not set the handle to MPI_GROUP_NULL");
}

int main(int argc, char **argv)
{
    int size, me, round, i, n, r;
    MPI_Group world, self, empty;
    mt_init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (size > MAXN) {
        if (me == 0) printf(" No Errors\n");
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_size(world, &n);
    MT_CHECK(n == size, "world group size %d", n);
    MPI_Group_rank(world, &r);
    MT_CHECK(r == me, "world group rank %d", r);
    {
        int all[MAXN];
        for (i = 0; i < size; i++) all[i] = i;
        check_list(world, world, all, size, "world group", -1);
    }

    MPI_Comm_group(MPI_COMM_SELF, &self);
    MPI_Group_size(self, &n);
    MPI_Group_rank(self, &r);
    MT_CHECK(n == 1 && r == 0, "self group size %d rank %d", n, r);
    check_list(self, world, &me, 1, "self group", -1);

    /* The empty group. */
    MPI_Group_size(MPI_GROUP_EMPTY, &n);
    MPI_Group_rank(MPI_GROUP_EMPTY, &r);
    MT_CHECK(n == 0 && r == MPI_UNDEFINED, "MPI_GROUP_EMPTY size %d rank %d", n, r);
    MT_CHECK_RC(MPI_Group_incl(world, 0, NULL, &empty));
    MPI_Group_size(empty, &n);
    MT_CHECK(n == 0, "incl of nothing has %d members", n);
    MPI_Group_compare(empty, MPI_GROUP_EMPTY, &r);
    MT_CHECK(r == MPI_IDENT, "empty groups compare %d", r);
    free_group(&empty);

    for (round = 0; round < 200; round++) {
        uint64_t seed = (uint64_t)round * 7919u + (uint64_t)me;
        int a[MAXN], b[MAXN], e[MAXN], na, nb, ne, k;
        MPI_Group ga, gb, g;

        na = random_list(&seed, size, a);
        nb = random_list(&seed, size, b);
        MT_CHECK_RC(MPI_Group_incl(world, na, a, &ga));
        MT_CHECK_RC(MPI_Group_incl(world, nb, b, &gb));
        check_list(ga, world, a, na, "incl", round);

        /* rank of the caller */
        MPI_Group_rank(ga, &r);
        {
            int want = MPI_UNDEFINED;
            for (i = 0; i < na; i++)
                if (a[i] == me) want = i;
            MT_CHECK(r == want, "round %d: Group_rank %d, expected %d", round, r, want);
        }

        /* union: a, then b's members not in a */
        ne = 0;
        for (i = 0; i < na; i++) e[ne++] = a[i];
        for (i = 0; i < nb; i++)
            if (!contains(a, na, b[i])) e[ne++] = b[i];
        MT_CHECK_RC(MPI_Group_union(ga, gb, &g));
        check_list(g, world, e, ne, "union", round);
        free_group(&g);

        /* intersection: a's members also in b, in a's order */
        ne = 0;
        for (i = 0; i < na; i++)
            if (contains(b, nb, a[i])) e[ne++] = a[i];
        MT_CHECK_RC(MPI_Group_intersection(ga, gb, &g));
        check_list(g, world, e, ne, "intersection", round);
        free_group(&g);

        /* difference: a's members not in b */
        ne = 0;
        for (i = 0; i < na; i++)
            if (!contains(b, nb, a[i])) e[ne++] = a[i];
        MT_CHECK_RC(MPI_Group_difference(ga, gb, &g));
        check_list(g, world, e, ne, "difference", round);
        free_group(&g);

        /* translate a's ranks into b: MPI_UNDEFINED where missing, PROC_NULL kept */
        if (na > 0) {
            int in[MAXN + 1], out[MAXN + 1];
            for (i = 0; i < na; i++) in[i] = na - 1 - i;
            in[na] = MPI_PROC_NULL;
            MT_CHECK_RC(MPI_Group_translate_ranks(ga, na + 1, in, gb, out));
            for (i = 0; i < na; i++) {
                int w = a[in[i]], want = MPI_UNDEFINED;
                for (k = 0; k < nb; k++)
                    if (b[k] == w) want = k;
                MT_CHECK(out[i] == want, "round %d: translate %d -> %d, expected %d", round, in[i], out[i], want);
            }
#ifndef HMPI
            /* MPI 3.1 (6.3.1) says MPI_PROC_NULL translates to MPI_PROC_NULL;
             * Open MPI 4.1 gives MPI_UNDEFINED, and so does MPICH 4.0 at times. */
            MT_CHECK(out[na] == MPI_PROC_NULL || out[na] == MPI_UNDEFINED, "round %d: MPI_PROC_NULL translated to %d", round, out[na]);
#else
            MT_CHECK(out[na] == MPI_PROC_NULL, "round %d: MPI_PROC_NULL translated to %d", round, out[na]);
#endif
        }

        /* excl: ranks of ga chosen at random */
        {
            int ex[MAXN], nex = 0;
            for (i = 0; i < na; i++)
                if (mt_rand(&seed) % 3 == 0) ex[nex++] = i;
            /* shuffle the exclusion list: its order must not matter */
            for (i = nex - 1; i > 0; i--) {
                int j = (int)(mt_rand(&seed) % (uint64_t)(i + 1)), t = ex[i];
                ex[i] = ex[j];
                ex[j] = t;
            }
            ne = 0;
            for (i = 0; i < na; i++)
                if (!contains(ex, nex, i)) e[ne++] = a[i];
            MT_CHECK_RC(MPI_Group_excl(ga, nex, ex, &g));
            check_list(g, world, e, ne, "excl", round);
            free_group(&g);
        }

        /* compare: identical list, a permutation of it, a different one */
        MT_CHECK_RC(MPI_Group_incl(world, na, a, &g));
        MPI_Group_compare(ga, g, &r);
        MT_CHECK(r == MPI_IDENT, "round %d: same list compares %d", round, r);
        free_group(&g);
        if (na >= 2) {
            int p[MAXN];
            for (i = 0; i < na; i++) p[i] = a[(i + 1) % na];
            MT_CHECK_RC(MPI_Group_incl(world, na, p, &g));
            MPI_Group_compare(ga, g, &r);
            MT_CHECK(r == MPI_SIMILAR, "round %d: rotated list compares %d", round, r);
            free_group(&g);
        }
        if (na < size) {
            MPI_Group_compare(ga, world, &r);
            MT_CHECK(r == MPI_UNEQUAL, "round %d: a proper subset compares %d", round, r);
        }

        /* range_incl / range_excl on the world group, strides of either sign */
        {
            int ranges[3][3], nr = 0, incl[MAXN], ni = 0, seen[MAXN] = {0}, ok = 1;
            while (nr < 3) {
                int first = (int)(mt_rand(&seed) % (uint64_t)size), last = (int)(mt_rand(&seed) % (uint64_t)size);
                int stride = 1 + (int)(mt_rand(&seed) % 3), x, tmp[MAXN], nt = 0;
                if (last < first) stride = -stride;
                for (x = first; stride > 0 ? x <= last : x >= last; x += stride) tmp[nt++] = x;
                for (x = 0; x < nt; x++)
                    if (seen[tmp[x]]) ok = 0;
                if (!ok) break; /* keep the ranges disjoint, as MPI requires */
                for (x = 0; x < nt; x++) seen[tmp[x]] = 1, incl[ni++] = tmp[x];
                ranges[nr][0] = first;
                ranges[nr][1] = last;
                ranges[nr][2] = stride;
                nr++;
            }
            MT_CHECK_RC(MPI_Group_range_incl(world, nr, ranges, &g));
            check_list(g, world, incl, ni, "range_incl", round);
            free_group(&g);
            ne = 0;
            for (i = 0; i < size; i++)
                if (!seen[i]) e[ne++] = i;
            MT_CHECK_RC(MPI_Group_range_excl(world, nr, ranges, &g));
            check_list(g, world, e, ne, "range_excl", round);
            free_group(&g);
        }

        free_group(&ga);
        free_group(&gb);
    }

    /* A descending range over the whole world reverses it. */
    {
        int range[1][3] = {{size - 1, 0, -1}}, e[MAXN];
        MPI_Group g;
        for (i = 0; i < size; i++) e[i] = size - 1 - i;
        MT_CHECK_RC(MPI_Group_range_incl(world, 1, range, &g));
        check_list(g, world, e, size, "reversed world", -1);
        MPI_Group_rank(g, &r);
        MT_CHECK(r == size - 1 - me, "rank in the reversed world %d", r);
        MPI_Group_compare(g, world, &r);
        MT_CHECK(r == (size > 1 ? MPI_SIMILAR : MPI_IDENT), "reversed world compares %d", r);
        free_group(&g);
    }

    /* A group outlives the communicator it came from. */
    {
        MPI_Comm dup;
        MPI_Group g;
        int all[MAXN];
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Comm_group(dup, &g);
        MPI_Comm_free(&dup);
        for (i = 0; i < size; i++) all[i] = i;
        check_list(g, world, all, size, "group of a freed communicator", -1);
        free_group(&g);
    }

    free_group(&self);
    free_group(&world);
    mt_barrier(MPI_COMM_WORLD);
    return mt_finalize();
}
