/*
 * t_attr: attribute caching on communicators (MPI-3.1 6.7, 8.1.2).
 *
 * - Comm keyvals with user copy and delete callbacks that count their calls
 *   and record their arguments: set, get, overwrite (runs delete on the old
 *   value), delete, two keyvals side by side, a delete callback that fails.
 * - MPI_Comm_dup with MPI_COMM_DUP_FN, MPI_COMM_NULL_COPY_FN and user copy
 *   callbacks returning flag 1 and 0, and one that fails; MPI_Comm_free runs
 *   the delete callbacks with the freed communicator's handle.
 * - A keyval freed while attributes use it: its attributes are still copied
 *   and deleted, with the keyval's old value as argument.
 * - The deprecated MPI-1 forms (Keyval_create/free, Attr_put/get/delete,
 *   MPI_DUP_FN, MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN).
 * - The predefined attributes of MPI_COMM_WORLD: present where the standard
 *   requires, values of the right kind (an int behind a pointer).
 * - Attributes on a predefined datatype (MPI_INT), private to each process.
 * - Window keyvals can be created and freed.
 * - Errors under MPI_ERRORS_RETURN: invalid keyval, keyval of the wrong
 *   object kind, predefined keys that cannot be set or freed.
 *
 * Callback state lives in a struct on each rank's stack, passed as
 * extra_state (no global variables: ranks may share them).
 *
 * Standard notes (MPI-3.1):
 * - An invalid keyval is MPI_ERR_KEYVAL (8.4 lists it); Open MPI reports some
 *   keyval misuse as MPI_ERR_ARG or MPI_ERR_OTHER, so those are accepted for the
 *   kind mismatch and predefined-key cases where the standard names no class.
 * - MPI_IO is MPI_ANY_SOURCE, MPI_PROC_NULL or a rank; MPI_HOST is
 *   MPI_PROC_NULL or a rank; MPI_UNIVERSE_SIZE and MPI_APPNUM are optional.
 * - Values of MPI_WTIME_IS_GLOBAL: 0 or 1, optional.
 */
#include "mpitest.h"

/* The deprecated MPI-1 forms are tested on purpose. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

typedef struct {
    int copies, deletes;
    void *last_deleted;
    MPI_Comm last_comm;
    int last_keyval;
    MPI_Comm last_copy_comm;
    int copy_flag;   /* what the copy callback answers */
    int fail_copy;   /* the copy callback fails */
    int fail_delete; /* the delete callback fails */
} counters_t;

static void reset(counters_t *c)
{
    memset(c, 0, sizeof *c);
    c->last_comm = MPI_COMM_NULL;
    c->last_copy_comm = MPI_COMM_NULL;
    c->copy_flag = 1;
}

/* Copies the value as value + 1 (a char pointer one further). */
static int copy_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    counters_t *c = (counters_t *)extra;
    c->copies++;
    c->last_copy_comm = comm;
    c->last_keyval = keyval;
    if (c->fail_copy) return MPI_ERR_OTHER;
    *(void **)out = (char *)in + 1;
    *flag = c->copy_flag;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm comm, int keyval, void *val, void *extra)
{
    counters_t *c = (counters_t *)extra;
    c->deletes++;
    c->last_deleted = val;
    c->last_comm = comm;
    c->last_keyval = keyval;
    return c->fail_delete ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int type_delete_fn(MPI_Datatype type, int keyval, void *val, void *extra)
{
    counters_t *c = (counters_t *)extra;
    (void)type;
    c->deletes++;
    c->last_deleted = val;
    c->last_keyval = keyval;
    return MPI_SUCCESS;
}

/* Fails with one of the classes in want[] (the standard names none exactly). */
static void expect_one_of(int rc, const int *want, int n, const char *what)
{
    int i, cls, ok = 0;
    MT_CHECK(rc != MPI_SUCCESS, "%s: returned MPI_SUCCESS", what);
    if (rc == MPI_SUCCESS) return;
    cls = mt_error_class(rc);
    for (i = 0; i < n; i++) ok |= cls == want[i];
    MT_CHECK(ok, "%s: unexpected class %d", what, cls);
}

static void *get_attr(MPI_Comm comm, int key, int *flag)
{
    void *v = NULL;
    *flag = -1;
    MT_CHECK_RC(MPI_Comm_get_attr(comm, key, &v, flag));
    MT_CHECK(*flag == 0 || *flag == 1, "flag is %d", *flag);
    return v;
}

static void set_get_overwrite_delete(void)
{
    counters_t c1, c2;
    char vals[8];
    int k1 = MPI_KEYVAL_INVALID, k2 = MPI_KEYVAL_INVALID, flag;
    void *v;
    reset(&c1);
    reset(&c2);
    MT_CHECK_RC(MPI_Comm_create_keyval(copy_fn, delete_fn, &k1, &c1));
    MT_CHECK_RC(MPI_Comm_create_keyval(copy_fn, delete_fn, &k2, &c2));
    MT_CHECK(k1 != MPI_KEYVAL_INVALID && k2 != MPI_KEYVAL_INVALID && k1 != k2, "keyvals %d %d", k1, k2);
    MT_CHECK(k1 != MPI_TAG_UB && k1 != MPI_HOST && k1 != MPI_IO && k1 != MPI_WTIME_IS_GLOBAL, "keyval %d is predefined", k1);

    v = get_attr(MPI_COMM_WORLD, k1, &flag);
    MT_CHECK(flag == 0, "attribute present before set");

    MT_CHECK_RC(MPI_Comm_set_attr(MPI_COMM_WORLD, k1, &vals[0]));
    MT_CHECK_RC(MPI_Comm_set_attr(MPI_COMM_WORLD, k2, &vals[5]));
    v = get_attr(MPI_COMM_WORLD, k1, &flag);
    MT_CHECK(flag == 1 && v == &vals[0], "get after set: flag %d value %p, expected %p", flag, v, (void *)&vals[0]);
    v = get_attr(MPI_COMM_WORLD, k2, &flag);
    MT_CHECK(flag == 1 && v == &vals[5], "second keyval: flag %d value %p", flag, v);
    MT_CHECK(c1.deletes == 0 && c1.copies == 0, "callbacks ran on set: %d deletes %d copies", c1.deletes, c1.copies);

    /* Overwrite: the delete callback runs on the old value, once. */
    MT_CHECK_RC(MPI_Comm_set_attr(MPI_COMM_WORLD, k1, &vals[2]));
    MT_CHECK(c1.deletes == 1 && c1.last_deleted == &vals[0], "overwrite: %d deletes, last %p", c1.deletes, c1.last_deleted);
    MT_CHECK(c1.last_comm == MPI_COMM_WORLD && c1.last_keyval == k1, "delete callback got comm/keyval %d", c1.last_keyval);
    v = get_attr(MPI_COMM_WORLD, k1, &flag);
    MT_CHECK(flag == 1 && v == &vals[2], "get after overwrite: %p", v);
    MT_CHECK(c2.deletes == 0, "other keyval's delete ran");

    /* Delete. */
    MT_CHECK_RC(MPI_Comm_delete_attr(MPI_COMM_WORLD, k1));
    MT_CHECK(c1.deletes == 2 && c1.last_deleted == &vals[2], "delete: %d deletes, last %p", c1.deletes, c1.last_deleted);
    v = get_attr(MPI_COMM_WORLD, k1, &flag);
    MT_CHECK(flag == 0, "attribute present after delete");
    v = get_attr(MPI_COMM_WORLD, k2, &flag);
    MT_CHECK(flag == 1 && v == &vals[5], "other attribute lost: flag %d", flag);

    /* A failing delete callback makes the call fail. */
    MT_CHECK_RC(MPI_Comm_set_attr(MPI_COMM_WORLD, k1, &vals[3]));
    c1.fail_delete = 1;
    MT_CHECK(MPI_Comm_delete_attr(MPI_COMM_WORLD, k1) != MPI_SUCCESS, "delete with a failing callback succeeded");
    MT_CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, k1, &vals[4]) != MPI_SUCCESS, "overwrite with a failing callback succeeded");
    c1.fail_delete = 0;
    v = get_attr(MPI_COMM_WORLD, k1, &flag);
    if (flag) MT_CHECK_RC(MPI_Comm_delete_attr(MPI_COMM_WORLD, k1));
    MT_CHECK_RC(MPI_Comm_delete_attr(MPI_COMM_WORLD, k2));
    MT_CHECK(c2.deletes == 1 && c2.last_deleted == &vals[5], "k2 delete: %d", c2.deletes);

    MT_CHECK_RC(MPI_Comm_free_keyval(&k1));
    MT_CHECK(k1 == MPI_KEYVAL_INVALID, "free_keyval left %d", k1);
    MT_CHECK_RC(MPI_Comm_free_keyval(&k2));
    MT_CHECK(c1.copies == 0 && c2.copies == 0, "copy callbacks ran without a dup");
}

static void dup_and_free(void)
{
    counters_t cdup, cnull, cuser, cno, cfreed;
    char vals[16];
    int kdup, knull, kuser, kno, kfreed, kfreed_value, flag;
    MPI_Comm base, copy, copy_handle;
    void *v;
    reset(&cdup);
    reset(&cnull);
    reset(&cuser);
    reset(&cno);
    reset(&cfreed);
    cno.copy_flag = 0;
    MT_CHECK_RC(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, delete_fn, &kdup, &cdup));
    MT_CHECK_RC(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &knull, &cnull));
    MT_CHECK_RC(MPI_Comm_create_keyval(copy_fn, delete_fn, &kuser, &cuser));
    MT_CHECK_RC(MPI_Comm_create_keyval(copy_fn, delete_fn, &kno, &cno));
    MT_CHECK_RC(MPI_Comm_create_keyval(copy_fn, delete_fn, &kfreed, &cfreed));
    kfreed_value = kfreed;

    MT_CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &base));
    MT_CHECK_RC(MPI_Comm_set_attr(base, kdup, &vals[0]));
    MT_CHECK_RC(MPI_Comm_set_attr(base, knull, &vals[2]));
    MT_CHECK_RC(MPI_Comm_set_attr(base, kuser, &vals[4]));
    MT_CHECK_RC(MPI_Comm_set_attr(base, kno, &vals[6]));
    MT_CHECK_RC(MPI_Comm_set_attr(base, kfreed, &vals[8]));
    /* Freed while in use: the attribute stays, its callbacks still run. */
    MT_CHECK_RC(MPI_Comm_free_keyval(&kfreed));
    MT_CHECK(kfreed == MPI_KEYVAL_INVALID, "free_keyval left %d", kfreed);

    MT_CHECK_RC(MPI_Comm_dup(base, &copy));
    MT_CHECK(cdup.copies == 0 && cnull.copies == 0, "predefined copy functions counted");
    MT_CHECK(cuser.copies == 1 && cuser.last_copy_comm == base && cuser.last_keyval == kuser,
             "user copy: %d calls, comm ok %d", cuser.copies, cuser.last_copy_comm == base);
    MT_CHECK(cno.copies == 1, "flag-0 copy: %d calls", cno.copies);
    MT_CHECK(cfreed.copies == 1 && cfreed.last_keyval == kfreed_value, "freed keyval's copy: %d calls", cfreed.copies);

    v = get_attr(copy, kdup, &flag);
    MT_CHECK(flag == 1 && v == &vals[0], "MPI_COMM_DUP_FN: flag %d value %p", flag, v);
    v = get_attr(copy, knull, &flag);
    MT_CHECK(flag == 0, "MPI_COMM_NULL_COPY_FN attribute was copied");
    v = get_attr(copy, kuser, &flag);
    MT_CHECK(flag == 1 && v == &vals[5], "user copy: flag %d value %p expected %p", flag, v, (void *)&vals[5]);
    v = get_attr(copy, kno, &flag);
    MT_CHECK(flag == 0, "copy callback's flag 0 still copied");
    v = get_attr(base, kuser, &flag);
    MT_CHECK(flag == 1 && v == &vals[4], "original changed by dup");

    /* Freeing the copy deletes its attributes (kdup, kuser, kfreed) with its handle. */
    copy_handle = copy;
    MT_CHECK_RC(MPI_Comm_free(&copy));
    MT_CHECK(copy == MPI_COMM_NULL, "Comm_free did not null the handle");
    MT_CHECK(cdup.deletes == 1 && cdup.last_deleted == &vals[0] && cdup.last_comm == copy_handle,
             "DUP_FN attribute delete on free: %d", cdup.deletes);
    MT_CHECK(cuser.deletes == 1 && cuser.last_deleted == &vals[5] && cuser.last_comm == copy_handle,
             "user attribute delete on free: %d", cuser.deletes);
    MT_CHECK(cfreed.deletes == 1 && cfreed.last_deleted == &vals[9] && cfreed.last_keyval == kfreed_value,
             "freed keyval's attribute delete on free: %d", cfreed.deletes);
    MT_CHECK(cnull.deletes == 0 && cno.deletes == 0, "deletes for attributes that were not copied");

    /* A failing copy callback makes the dup fail. */
    cuser.fail_copy = 1;
    copy = MPI_COMM_NULL;
    MT_CHECK(MPI_Comm_dup(base, &copy) != MPI_SUCCESS, "dup with a failing copy callback succeeded");
    cuser.fail_copy = 0;

    /* Freeing the base deletes all five. */
    cdup.deletes = cnull.deletes = cuser.deletes = cno.deletes = cfreed.deletes = 0;
    MT_CHECK_RC(MPI_Comm_free(&base));
    MT_CHECK(cdup.deletes == 1 && cnull.deletes == 1 && cuser.deletes == 1 && cno.deletes == 1 && cfreed.deletes == 1,
             "free base: deletes %d %d %d %d %d", cdup.deletes, cnull.deletes, cuser.deletes, cno.deletes, cfreed.deletes);
    MT_CHECK(cfreed.last_deleted == &vals[8], "freed keyval's value %p", cfreed.last_deleted);

    MT_CHECK_RC(MPI_Comm_free_keyval(&kdup));
    MT_CHECK_RC(MPI_Comm_free_keyval(&knull));
    MT_CHECK_RC(MPI_Comm_free_keyval(&kuser));
    MT_CHECK_RC(MPI_Comm_free_keyval(&kno));
}

static void deprecated_forms(void)
{
    counters_t c;
    char vals[4];
    int k = MPI_KEYVAL_INVALID, kdup = MPI_KEYVAL_INVALID, knull = MPI_KEYVAL_INVALID, flag;
    void *v = NULL;
    MPI_Comm copy;
    reset(&c);
    MT_CHECK_RC(MPI_Keyval_create(copy_fn, delete_fn, &k, &c));
    MT_CHECK_RC(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &kdup, NULL));
    MT_CHECK_RC(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &knull, NULL));
    MT_CHECK_RC(MPI_Attr_put(MPI_COMM_WORLD, k, &vals[0]));
    MT_CHECK_RC(MPI_Attr_get(MPI_COMM_WORLD, k, &v, &flag));
    MT_CHECK(flag == 1 && v == &vals[0], "Attr_get: flag %d", flag);
    MT_CHECK_RC(MPI_Attr_put(MPI_COMM_WORLD, k, &vals[1]));
    MT_CHECK(c.deletes == 1 && c.last_deleted == &vals[0], "Attr_put overwrite: %d deletes", c.deletes);
    /* The two forms work on the same attribute. */
    MT_CHECK_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, k, &v, &flag));
    MT_CHECK(flag == 1 && v == &vals[1], "Comm_get_attr on an Attr_put value");

    MT_CHECK_RC(MPI_Attr_put(MPI_COMM_WORLD, kdup, &vals[2]));
    MT_CHECK_RC(MPI_Attr_put(MPI_COMM_WORLD, knull, &vals[3]));
    MT_CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &copy));
    MT_CHECK_RC(MPI_Attr_get(copy, kdup, &v, &flag));
    MT_CHECK(flag == 1 && v == &vals[2], "MPI_DUP_FN: flag %d", flag);
    MT_CHECK_RC(MPI_Attr_get(copy, knull, &v, &flag));
    MT_CHECK(flag == 0, "MPI_NULL_COPY_FN copied");
    MT_CHECK_RC(MPI_Attr_get(copy, k, &v, &flag));
    MT_CHECK(flag == 1 && v == &vals[2] && c.copies == 1, "user copy (deprecated form): flag %d copies %d", flag, c.copies);
    MT_CHECK_RC(MPI_Comm_free(&copy));
    MT_CHECK(c.deletes == 2 && c.last_deleted == &vals[2], "delete on free: %d", c.deletes);

    MT_CHECK_RC(MPI_Attr_delete(MPI_COMM_WORLD, k));
    MT_CHECK(c.deletes == 3 && c.last_deleted == &vals[1], "Attr_delete: %d", c.deletes);
    MT_CHECK_RC(MPI_Attr_get(MPI_COMM_WORLD, k, &v, &flag));
    MT_CHECK(flag == 0, "Attr_get after Attr_delete");
    MT_CHECK_RC(MPI_Attr_delete(MPI_COMM_WORLD, kdup));
    MT_CHECK_RC(MPI_Attr_delete(MPI_COMM_WORLD, knull));
    MT_CHECK_RC(MPI_Keyval_free(&k));
    MT_CHECK(k == MPI_KEYVAL_INVALID, "Keyval_free left %d", k);
    MT_CHECK_RC(MPI_Keyval_free(&kdup));
    MT_CHECK_RC(MPI_Keyval_free(&knull));
}

static void predefined(int size)
{
    int flag, *p;
    void *v;

    v = get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &flag);
    p = (int *)v;
    MT_CHECK(flag == 1 && p && *p >= 32767, "MPI_TAG_UB: flag %d value %d", flag, p ? *p : -1);
    if (flag && p && *p >= 32767) {
        /* The largest tag is usable. */
        int rank, in = -1, out = 42;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MT_CHECK_RC(MPI_Sendrecv(&out, 1, MPI_INT, rank, *p, &in, 1, MPI_INT, rank, *p, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK(in == 42, "message with tag MPI_TAG_UB: %d", in);
    }

    v = get_attr(MPI_COMM_WORLD, MPI_HOST, &flag);
    p = (int *)v;
    MT_CHECK(flag == 1 && p && (*p == MPI_PROC_NULL || (*p >= 0 && *p < size)), "MPI_HOST: flag %d value %d", flag,
             p ? *p : -1);

    v = get_attr(MPI_COMM_WORLD, MPI_IO, &flag);
    p = (int *)v;
    MT_CHECK(flag == 1 && p && (*p == MPI_ANY_SOURCE || *p == MPI_PROC_NULL || (*p >= 0 && *p < size)),
             "MPI_IO: flag %d value %d", flag, p ? *p : -1);

    v = get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &flag);
    p = (int *)v;
    if (flag) MT_CHECK(p && (*p == 0 || *p == 1), "MPI_WTIME_IS_GLOBAL: value %d", p ? *p : -1);

    v = get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &flag);
    p = (int *)v;
    if (flag) MT_CHECK(p && *p >= 1, "MPI_UNIVERSE_SIZE: value %d", p ? *p : -1);

    v = get_attr(MPI_COMM_WORLD, MPI_APPNUM, &flag);
    p = (int *)v;
    if (flag) MT_CHECK(p && *p >= 0, "MPI_APPNUM: value %d", p ? *p : -1);

    v = get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &flag);
    p = (int *)v;
    MT_CHECK(flag == 1 && p && *p >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE: flag %d value %d", flag, p ? *p : -1);

    /* The deprecated getter returns the same. */
    {
        void *v2 = NULL;
        MT_CHECK_RC(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &v2, &flag));
        MT_CHECK(flag == 1 && v2 && *(int *)v2 >= 32767, "Attr_get(MPI_TAG_UB)");
    }

    /* Predefined keys cannot be set, deleted or freed. */
    {
        int k = MPI_TAG_UB, dummy = 0, rc;
        static const int keyval_or_arg[] = {MPI_ERR_KEYVAL, MPI_ERR_ARG, MPI_ERR_OTHER};
        rc = MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &dummy);
        expect_one_of(rc, keyval_or_arg, 3, "Comm_set_attr(MPI_TAG_UB)");
        rc = MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB);
        expect_one_of(rc, keyval_or_arg, 3, "Comm_delete_attr(MPI_TAG_UB)");
        rc = MPI_Comm_free_keyval(&k);
        expect_one_of(rc, keyval_or_arg, 3, "Comm_free_keyval(MPI_TAG_UB)");
        v = get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &flag);
        MT_CHECK(flag == 1 && v && *(int *)v >= 32767, "MPI_TAG_UB damaged by the failed calls");
    }
}

static void type_attributes(int rank)
{
    counters_t c;
    char vals[4];
    int k, flag, ck, rc;
    void *v = NULL;
    static const int keyval_or_arg[] = {MPI_ERR_KEYVAL, MPI_ERR_ARG, MPI_ERR_OTHER};
    reset(&c);
    MT_CHECK_RC(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete_fn, &k, &c));
    /* Each process has its own attributes on MPI_INT: a value per rank. */
    MT_CHECK_RC(MPI_Type_set_attr(MPI_INT, k, &vals[rank % 4]));
    mt_barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(MPI_Type_get_attr(MPI_INT, k, &v, &flag));
    MT_CHECK(flag == 1 && v == &vals[rank % 4], "Type_get_attr(MPI_INT): flag %d, not this rank's value", flag);
    MT_CHECK_RC(MPI_Type_get_attr(MPI_DOUBLE, k, &v, &flag));
    MT_CHECK(flag == 0, "attribute on MPI_INT visible on MPI_DOUBLE");
    mt_barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(MPI_Type_set_attr(MPI_INT, k, &vals[(rank + 1) % 4]));
    MT_CHECK(c.deletes == 1 && c.last_deleted == &vals[rank % 4] && c.last_keyval == k, "type overwrite: %d deletes",
             c.deletes);
    MT_CHECK_RC(MPI_Type_delete_attr(MPI_INT, k));
    MT_CHECK(c.deletes == 2 && c.last_deleted == &vals[(rank + 1) % 4], "type delete: %d", c.deletes);
    MT_CHECK_RC(MPI_Type_get_attr(MPI_INT, k, &v, &flag));
    MT_CHECK(flag == 0, "type attribute after delete");

    /* Keyvals belong to one kind of object. */
    MT_CHECK_RC(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ck, NULL));
    rc = MPI_Comm_set_attr(MPI_COMM_WORLD, k, &vals[0]);
    expect_one_of(rc, keyval_or_arg, 3, "Comm_set_attr with a type keyval");
    rc = MPI_Type_set_attr(MPI_INT, ck, &vals[0]);
    expect_one_of(rc, keyval_or_arg, 3, "Type_set_attr with a comm keyval");
    MT_CHECK_RC(MPI_Comm_free_keyval(&ck));
    MT_CHECK_RC(MPI_Type_free_keyval(&k));
    MT_CHECK(k == MPI_KEYVAL_INVALID, "Type_free_keyval left %d", k);
    /* Errors on the datatype argument. */
    rc = MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k, NULL);
    MT_CHECK_RC(rc);
    rc = MPI_Type_set_attr(MPI_DATATYPE_NULL, k, &vals[0]);
    mt_expect_class(rc, MPI_ERR_TYPE, "Type_set_attr(MPI_DATATYPE_NULL)");
    MT_CHECK_RC(MPI_Type_free_keyval(&k));
}

static void window_keyvals(void)
{
    int k = MPI_KEYVAL_INVALID;
    MT_CHECK_RC(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &k, NULL));
    MT_CHECK(k != MPI_KEYVAL_INVALID, "Win_create_keyval returned MPI_KEYVAL_INVALID");
    MT_CHECK_RC(MPI_Win_free_keyval(&k));
    MT_CHECK(k == MPI_KEYVAL_INVALID, "Win_free_keyval left %d", k);
}

static void keyval_errors(void)
{
    int k = MPI_KEYVAL_INVALID, flag, rc;
    void *v;
    char c;
    /* MPI_ERR_KEYVAL; Open MPI 4 says MPI_ERR_OTHER for set, delete and free. */
    static const int keyval_or_other[] = {MPI_ERR_KEYVAL, MPI_ERR_OTHER};
    rc = MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &c);
    expect_one_of(rc, keyval_or_other, 2, "Comm_set_attr(MPI_KEYVAL_INVALID)");
    rc = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &v, &flag);
    mt_expect_class(rc, MPI_ERR_KEYVAL, "Comm_get_attr(MPI_KEYVAL_INVALID)");
    rc = MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID);
    expect_one_of(rc, keyval_or_other, 2, "Comm_delete_attr(MPI_KEYVAL_INVALID)");
    rc = MPI_Comm_free_keyval(&k);
    expect_one_of(rc, keyval_or_other, 2, "Comm_free_keyval(MPI_KEYVAL_INVALID)");
    rc = MPI_Comm_set_attr(MPI_COMM_NULL, MPI_TAG_UB, &c);
    mt_expect_class(rc, MPI_ERR_COMM, "Comm_set_attr(MPI_COMM_NULL)");
}

/* Many keyvals at once, created and freed in a different order. */
static void many_keyvals(void)
{
    enum { N = 200 };
    int keys[N], i, flag;
    char vals[N];
    void *v;
    counters_t c;
    reset(&c);
    for (i = 0; i < N; i++) MT_CHECK_RC(MPI_Comm_create_keyval(copy_fn, delete_fn, &keys[i], &c));
    for (i = 0; i < N; i++) MT_CHECK_RC(MPI_Comm_set_attr(MPI_COMM_SELF, keys[i], &vals[i]));
    for (i = N - 1; i >= 0; i--) {
        v = get_attr(MPI_COMM_SELF, keys[i], &flag);
        MT_CHECK(flag == 1 && v == &vals[i], "key %d: flag %d", i, flag);
    }
    for (i = 1; i < N; i += 2) {
        MT_CHECK_RC(MPI_Comm_delete_attr(MPI_COMM_SELF, keys[i]));
        MT_CHECK_RC(MPI_Comm_free_keyval(&keys[i]));
    }
    MT_CHECK(c.deletes == N / 2, "deletes %d, expected %d", c.deletes, N / 2);
    for (i = N - 2; i >= 0; i -= 2) {
        v = get_attr(MPI_COMM_SELF, keys[i], &flag);
        MT_CHECK(flag == 1 && v == &vals[i], "key %d after deleting its neighbours: flag %d", i, flag);
        MT_CHECK_RC(MPI_Comm_delete_attr(MPI_COMM_SELF, keys[i]));
        MT_CHECK_RC(MPI_Comm_free_keyval(&keys[i]));
    }
    MT_CHECK(c.deletes == N, "deletes %d, expected %d", c.deletes, N);
}

int main(int argc, char **argv)
{
    int rank, size;
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    set_get_overwrite_delete();
    dup_and_free();
    deprecated_forms();
    predefined(size);
    type_attributes(rank);
    window_keyvals();
    keyval_errors();
    many_keyvals();

    mt_barrier(MPI_COMM_WORLD);
    return mt_finalize();
}
