/*
 * MPI_Comm_create (one group, and disjoint groups per caller),
 * MPI_Comm_create_group (only the members call it), MPI_Comm_compare,
 * names, hints (set_info / get_info / dup_with_info), and
 * MPI_Comm_split_type: MPI_COMM_TYPE_SHARED, MPI_UNDEFINED, and (under
 * HMPI) the hardware types, checked for being a consistent partition in
 * key order. Members are checked by exchanging world ranks over
 * point-to-point inside each new communicator.
 */
#include "mpitest.h"
#include <stdlib.h>


/* Every member sends its world rank to every other; the list must be `expect`. */
static void check_members(MPI_Comm comm, const int *expect, int n, const char *what)
{
    int size = -1, rank = -1, me, i;
    int *got = (int *)mt_malloc(sizeof(int) * (size_t)(n + 1));
    MPI_Request *rq = (MPI_Request *)mt_malloc(sizeof(MPI_Request) * 2 * (size_t)(n + 1));
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    MT_CHECK(size == n, "%s: size %d, expected %d", what, size, n);
    if (size == n) {
        MT_CHECK(rank >= 0 && rank < n && expect[rank] == me, "%s: rank %d for world rank %d", what, rank, me);
        for (i = 0; i < n; i++) MPI_Irecv(&got[i], 1, MPI_INT, i, 1, comm, &rq[i]);
        for (i = 0; i < n; i++) MPI_Isend(&me, 1, MPI_INT, i, 1, comm, &rq[n + i]);
        MPI_Waitall(2 * n, rq, MPI_STATUSES_IGNORE);
        for (i = 0; i < n; i++) MT_CHECK(got[i] == expect[i], "%s: member %d is %d, expected %d", what, i, got[i], expect[i]);
    }
    free(got);
    free(rq);
}

/* World ranks of comm's members, via its group. */
static MT_UNUSED int members_of(MPI_Comm comm, int *out)
{
    MPI_Group g, wg;
    int n, i, *idx;
    MPI_Comm_group(comm, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_size(g, &n);
    idx = (int *)mt_malloc(sizeof(int) * (size_t)n);
    for (i = 0; i < n; i++) idx[i] = i;
    MPI_Group_translate_ranks(g, n, idx, wg, out);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    free(idx);
    return n;
}

static void test_create(int size, int me)
{
    MPI_Group world, evens, mine;
    MPI_Comm comm;
    int *list = (int *)mt_malloc(sizeof(int) * (size_t)size), n = 0, i;
    MPI_Comm_group(MPI_COMM_WORLD, &world);

    /* One group for all: the even ranks, in reverse order. */
    for (i = (size - 1) / 2 * 2; i >= 0; i -= 2) list[n++] = i;
    MPI_Group_incl(world, n, list, &evens);
    MT_CHECK_RC(MPI_Comm_create(MPI_COMM_WORLD, evens, &comm));
    if (me % 2 == 0) {
        MT_CHECK(comm != MPI_COMM_NULL, "an even rank got MPI_COMM_NULL");
        if (comm != MPI_COMM_NULL) {
            check_members(comm, list, n, "create(evens reversed)");
            MPI_Comm_free(&comm);
        }
    } else {
        MT_CHECK(comm == MPI_COMM_NULL, "an odd rank got a communicator from create(evens)");
    }

    /* Disjoint groups: each caller passes the group of its own parity (MPI 2.2 and later). */
    n = 0;
    for (i = me % 2; i < size; i += 2) list[n++] = i;
    MPI_Group_incl(world, n, list, &mine);
    MT_CHECK_RC(MPI_Comm_create(MPI_COMM_WORLD, mine, &comm));
    MT_CHECK(comm != MPI_COMM_NULL, "create(own parity) gave MPI_COMM_NULL");
    if (comm != MPI_COMM_NULL) {
        check_members(comm, list, n, "create(own parity)");
        MPI_Comm_free(&comm);
    }

    /* Empty group: everyone gets MPI_COMM_NULL. */
    MT_CHECK_RC(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &comm));
    MT_CHECK(comm == MPI_COMM_NULL, "create(MPI_GROUP_EMPTY) gave a communicator");

    /* create_group: only the odd ranks call, with their group reversed. */
    if (me % 2 == 1) {
        MPI_Group odds_rev;
        n = 0;
        for (i = (size % 2 == 0) ? size - 1 : size - 2; i >= 1; i -= 2) list[n++] = i;
        MPI_Group_incl(world, n, list, &odds_rev);
        MT_CHECK_RC(MPI_Comm_create_group(MPI_COMM_WORLD, odds_rev, 12, &comm));
        check_members(comm, list, n, "create_group(odds reversed)");
        MPI_Comm_free(&comm);
        MPI_Group_free(&odds_rev);
    }
    /* create_group over a subset of a dup, twice with different tags, interleaved with others' traffic. */
    {
        MPI_Comm dup, c1, c2;
        MPI_Group first_half;
        int nh = (size + 1) / 2;
#ifdef MPICH_VERSION
        /* MPICH 4.0 crashes in Comm_create_group over a subset of any parent but MPI_COMM_WORLD. */
        dup = MPI_COMM_WORLD;
#else
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
#endif
        for (i = 0; i < nh; i++) list[i] = i;
        MPI_Group_incl(world, nh, list, &first_half);
        if (me < nh) {
            MT_CHECK_RC(MPI_Comm_create_group(dup, first_half, 1, &c1));
            MT_CHECK_RC(MPI_Comm_create_group(dup, first_half, 2, &c2));
            check_members(c1, list, nh, "create_group tag 1");
            check_members(c2, list, nh, "create_group tag 2");
            MPI_Comm_free(&c1);
            MPI_Comm_free(&c2);
        }
        MPI_Group_free(&first_half);
        if (dup != MPI_COMM_WORLD) MPI_Comm_free(&dup);
    }
    MPI_Group_free(&mine);
    MPI_Group_free(&evens);
    MPI_Group_free(&world);
    free(list);
}

static void test_compare(int size, int me)
{
    MPI_Comm dup, rev, half;
    int r;
    MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &r);
    MT_CHECK(r == MPI_IDENT, "world vs world: %d", r);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_compare(MPI_COMM_WORLD, dup, &r);
    MT_CHECK(r == MPI_CONGRUENT, "world vs dup: %d", r);
    MPI_Comm_compare(dup, dup, &r);
    MT_CHECK(r == MPI_IDENT, "dup vs dup: %d", r);
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - me, &rev);
    MPI_Comm_compare(MPI_COMM_WORLD, rev, &r);
    MT_CHECK(r == (size > 1 ? MPI_SIMILAR : MPI_CONGRUENT), "world vs reversed: %d", r);
    MPI_Comm_split(MPI_COMM_WORLD, me < size / 2, me, &half);
    MPI_Comm_compare(MPI_COMM_WORLD, half, &r);
    MT_CHECK(r == (size > 1 ? MPI_UNEQUAL : MPI_CONGRUENT), "world vs half: %d", r);
    MPI_Comm_compare(MPI_COMM_SELF, MPI_COMM_WORLD, &r);
    MT_CHECK(r == (size > 1 ? MPI_UNEQUAL : MPI_CONGRUENT), "self vs world: %d", r);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&rev);
    MPI_Comm_free(&half);
}

static void test_names(void)
{
    char name[MPI_MAX_OBJECT_NAME], longname[3 * MPI_MAX_OBJECT_NAME];
    int len = -1, i;
    MPI_Comm dup;
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    MT_CHECK(strcmp(name, "MPI_COMM_WORLD") == 0 && len == (int)strlen(name), "world is named '%s' (%d)", name, len);
    MPI_Comm_get_name(MPI_COMM_SELF, name, &len);
    MT_CHECK(strcmp(name, "MPI_COMM_SELF") == 0 && len == (int)strlen(name), "self is named '%s' (%d)", name, len);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MT_CHECK_RC(MPI_Comm_set_name(dup, "my dup"));
    MPI_Comm_get_name(dup, name, &len);
    MT_CHECK(strcmp(name, "my dup") == 0 && len == 6, "dup is named '%s' (%d)", name, len);
    MT_CHECK_RC(MPI_Comm_set_name(dup, "renamed"));
    MPI_Comm_get_name(dup, name, &len);
    MT_CHECK(strcmp(name, "renamed") == 0 && len == 7, "renamed dup is named '%s' (%d)", name, len);
    /* Too long: kept to at most MPI_MAX_OBJECT_NAME - 1 characters, a prefix of it. */
    for (i = 0; i < (int)sizeof longname - 1; i++) longname[i] = (char)('a' + i % 26);
    longname[sizeof longname - 1] = '\0';
    MPI_Comm_set_name(dup, longname);
    len = -1;
    MPI_Comm_get_name(dup, name, &len);
    MT_CHECK(len >= 0 && len < MPI_MAX_OBJECT_NAME && (int)strlen(name) == len && strncmp(name, longname, (size_t)len) == 0,
             "a long name came back as %d characters", len);
    /* Renaming the world is allowed and local. */
    MPI_Comm_set_name(MPI_COMM_WORLD, "world renamed");
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    MT_CHECK(strcmp(name, "world renamed") == 0, "renamed world is '%s'", name);
    MPI_Comm_set_name(MPI_COMM_WORLD, "MPI_COMM_WORLD");
    MPI_Comm_free(&dup);
}

/* Whether info has key with value (if the implementation kept it). */
static int info_value(MPI_Info info, const char *key, char *value, int len)
{
    int flag = 0;
    MPI_Info_get(info, key, len - 1, value, &flag);
    return flag;
}

static void test_info(void)
{
    MPI_Info in, out;
    MPI_Comm dup, dup2;
    char value[64];
    int flag;
    MPI_Info_create(&in);
    MPI_Info_set(in, "hmpi_test_hint", "yes");
    MT_CHECK_RC(MPI_Comm_dup_with_info(MPI_COMM_WORLD, in, &dup));
    MT_CHECK_RC(MPI_Comm_get_info(dup, &out));
    MT_CHECK(out != MPI_INFO_NULL, "get_info returned MPI_INFO_NULL");
    flag = info_value(out, "hmpi_test_hint", value, sizeof value);
#ifdef HMPI
    MT_CHECK(flag, "dup_with_info: the hint was not kept");
#endif
    if (flag) MT_CHECK(strcmp(value, "yes") == 0, "dup_with_info: hint is '%s'", value);
    MPI_Info_free(&out);

    /* set_info replaces the value; a plain dup carries the hints along (HMPI keeps every hint). */
    MPI_Info_set(in, "hmpi_test_hint", "no");
    MT_CHECK_RC(MPI_Comm_set_info(dup, in));
    MPI_Comm_dup(dup, &dup2);
    MT_CHECK_RC(MPI_Comm_get_info(dup2, &out));
    flag = info_value(out, "hmpi_test_hint", value, sizeof value);
#ifdef HMPI
    MT_CHECK(flag, "dup: the hint was not carried");
#endif
    if (flag) MT_CHECK(strcmp(value, "no") == 0, "set_info then dup: hint is '%s'", value);
    MPI_Info_free(&out);

    /* dup_with_info takes the given hints, not the parent's. */
    MPI_Comm_free(&dup2);
    MPI_Info_free(&in);
    MPI_Info_create(&in);
    MT_CHECK_RC(MPI_Comm_dup_with_info(dup, in, &dup2));
    MT_CHECK_RC(MPI_Comm_get_info(dup2, &out));
    flag = info_value(out, "hmpi_test_hint", value, sizeof value);
    MT_CHECK(!flag, "dup_with_info(empty info) kept the parent's hint");
    MPI_Info_free(&out);
    MPI_Info_free(&in);
    MPI_Comm_free(&dup2);
    MPI_Comm_free(&dup);
}

/* Comm_dup runs the attribute copy callbacks (and the copy lands on the new
 * communicator only); Comm_free runs the delete callbacks; a user error
 * handler is inherited by dup and split. The counters are per rank: ranks
 * may be threads sharing globals. */
struct attr_counts {
    int copies, deletes;
};

static int copy_fn(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)oldcomm;
    (void)keyval;
    ((struct attr_counts *)extra)->copies++;
    *(void **)out = (char *)in + 1; /* the copy is the value plus one */
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)value;
    ((struct attr_counts *)extra)->deletes++;
    return MPI_SUCCESS;
}

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
}

static void test_attributes_and_handlers(int size, int me)
{
    struct attr_counts counts = {0, 0};
    int key, flag = 0;
    static char base[16]; /* the same address on every rank is fine: values are compared, never written */
    void *got = NULL;
    MPI_Comm dup, dup2, split;
    MPI_Errhandler eh, seen;
    (void)size;
    MPI_Comm_create_keyval(copy_fn, delete_fn, &key, &counts);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MT_CHECK_RC(MPI_Comm_set_attr(dup, key, base));
    MT_CHECK_RC(MPI_Comm_dup(dup, &dup2));
    MT_CHECK(counts.copies == 1, "dup ran %d copy callbacks, expected 1", counts.copies);
    MPI_Comm_get_attr(dup2, key, &got, &flag);
    MT_CHECK(flag && got == base + 1, "the dup's attribute is %p (flag %d), expected %p", got, flag, (void *)(base + 1));
    MPI_Comm_get_attr(dup, key, &got, &flag);
    MT_CHECK(flag && got == base, "the original's attribute changed to %p", got);
    /* split does not copy attributes */
    MPI_Comm_split(dup, 0, me, &split);
    MPI_Comm_get_attr(split, key, &got, &flag);
    MT_CHECK(!flag, "a split carried an attribute");
    MT_CHECK(counts.copies == 1, "split ran copy callbacks");
    MPI_Comm_free(&split);
    MT_CHECK_RC(MPI_Comm_free(&dup2));
    MT_CHECK(counts.deletes == 1, "freeing the dup ran %d delete callbacks, expected 1", counts.deletes);
    MT_CHECK_RC(MPI_Comm_free(&dup));
    MT_CHECK(counts.deletes == 2, "freeing the original ran %d delete callbacks in all, expected 2", counts.deletes);
    MPI_Comm_free_keyval(&key);

    /* A user error handler is inherited by dup and split. */
    MPI_Comm_create_errhandler(count_errors, &eh);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, eh);
    MPI_Comm_dup(dup, &dup2);
    MPI_Comm_split(dup, me % 2, 0, &split);
    MPI_Comm_get_errhandler(dup2, &seen);
    MT_CHECK(seen == eh, "dup did not inherit the user error handler");
    MPI_Errhandler_free(&seen);
    MPI_Comm_get_errhandler(split, &seen);
    MT_CHECK(seen == eh, "split did not inherit the user error handler");
    MPI_Errhandler_free(&seen);
    /* The handler outlives its handle while communicators use it. */
    MPI_Errhandler_free(&eh);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&dup2);
    MPI_Comm_free(&split);
}

#ifdef HMPI
/* A split_type result is consistent: every member lists the same members, in key order. */
static void check_partition(MPI_Comm comm, int size, int me, const char *what)
{
    int *mine = (int *)mt_malloc(sizeof(int) * (size_t)size), n, i, j;
    int *all = (int *)mt_malloc(sizeof(int) * (size_t)size * (size_t)(size + 1));
    n = members_of(comm, mine);
    /* share each rank's list (count first) over the world, point-to-point */
    {
        int *buf = (int *)mt_malloc(sizeof(int) * (size_t)(size + 1));
        MPI_Request *rq = (MPI_Request *)mt_malloc(sizeof(MPI_Request) * 2 * (size_t)size);
        buf[0] = n;
        for (i = 0; i < n; i++) buf[i + 1] = mine[i];
        for (i = 0; i < size; i++) MPI_Irecv(&all[i * (size + 1)], size + 1, MPI_INT, i, 2, MPI_COMM_WORLD, &rq[i]);
        for (i = 0; i < size; i++) MPI_Isend(buf, n + 1, MPI_INT, i, 2, MPI_COMM_WORLD, &rq[size + i]);
        MPI_Waitall(2 * size, rq, MPI_STATUSES_IGNORE);
        free(buf);
        free(rq);
    }
    /* my list: contains me, in decreasing world rank (key = -world rank) */
    {
        int found = 0;
        for (i = 0; i < n; i++) found |= mine[i] == me;
        MT_CHECK(found, "%s: I am not in my own communicator", what);
        for (i = 1; i < n; i++) MT_CHECK(mine[i - 1] > mine[i], "%s: members not in key order", what);
    }
    /* each member's list equals mine; each non-member's list excludes me */
    for (j = 0; j < size; j++) {
        const int *theirs = &all[j * (size + 1)];
        int in_mine = 0;
        for (i = 0; i < n; i++) in_mine |= mine[i] == j;
        if (in_mine) {
            int same = theirs[0] == n;
            for (i = 0; same && i < n; i++) same = theirs[i + 1] == mine[i];
            MT_CHECK(same, "%s: rank %d is a member but lists other members", what, j);
        } else {
            for (i = 0; i < theirs[0]; i++) MT_CHECK(theirs[i + 1] != me, "%s: rank %d lists me but I do not list it", what, j);
        }
    }
    free(mine);
    free(all);
}
#endif

static void test_split_type(int size, int me)
{
    MPI_Comm comm;
    int *list = (int *)mt_malloc(sizeof(int) * (size_t)size), i;

    /* All ranks share memory here (one node; under HMPI, one process). */
    MT_CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -me, MPI_INFO_NULL, &comm));
    for (i = 0; i < size; i++) list[i] = size - 1 - i;
    check_members(comm, list, size, "split_type(SHARED, reversed)");
    MPI_Comm_free(&comm);

    /* MPI_UNDEFINED on the odd ranks: they get MPI_COMM_NULL. */
    MT_CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, me % 2 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &comm));
    if (me % 2) {
        MT_CHECK(comm == MPI_COMM_NULL, "split_type(MPI_UNDEFINED) gave a communicator");
    } else {
        int n = 0;
        for (i = 0; i < size; i += 2) list[n++] = i;
        check_members(comm, list, n, "split_type(SHARED, evens)");
        MPI_Comm_free(&comm);
    }

#ifdef HMPI
    {
        const int types[3] = {HMPI_COMM_TYPE_NUMA, HMPI_COMM_TYPE_SOCKET, HMPI_COMM_TYPE_L3CACHE};
        const char *names[3] = {"NUMA", "SOCKET", "L3CACHE"};
        int t;
        for (t = 0; t < 3; t++) {
            MT_CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, types[t], -me, MPI_INFO_NULL, &comm));
            check_partition(comm, size, me, names[t]);
            MPI_Comm_free(&comm);
        }
        /* The split of a split: a NUMA domain of the evens. */
        {
            MPI_Comm evens, numa;
            MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &evens);
            MT_CHECK_RC(MPI_Comm_split_type(evens, HMPI_COMM_TYPE_NUMA, -me, MPI_INFO_NULL, &numa));
            {
                int n = members_of(numa, list), k;
                for (k = 0; k < n; k++) MT_CHECK(list[k] % 2 == me % 2, "NUMA split of a parity class has world rank %d", list[k]);
            }
            MPI_Comm_free(&numa);
            MPI_Comm_free(&evens);
        }
    }
#endif
    free(list);
}

int main(int argc, char **argv)
{
    int size, me;
    mt_init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    test_create(size, me);
    mt_barrier(MPI_COMM_WORLD);
    test_compare(size, me);
    test_names();
    test_info();
    test_attributes_and_handlers(size, me);
    test_split_type(size, me);
    mt_barrier(MPI_COMM_WORLD);
    return mt_finalize();
}
