/*
 * t_attr_type: attributes on derived datatypes (MPI-3.1 6.7.4).
 *
 * - Type keyvals with user copy and delete callbacks (counting, recording
 *   their arguments), MPI_TYPE_DUP_FN and MPI_TYPE_NULL_COPY_FN.
 * - Attributes on an uncommitted derived type, then committed; MPI_Type_dup
 *   runs the copy callbacks with the old type's handle; MPI_Type_free runs
 *   the delete callbacks with the freed type's handle.
 * - A keyval freed while in use: still copied and deleted.
 * - A failing copy callback makes MPI_Type_dup fail.
 * - MPI_Type_dup of a predefined type copies the attributes this process
 *   put on it.
 * Callback state lives on each rank's stack (extra_state).
 */
#include "mpitest.h"

typedef struct {
    int copies, deletes, fail_copy, copy_flag;
    void *last_deleted;
    MPI_Datatype last_copy_type, last_delete_type;
    int last_keyval;
} counters_t;

static void reset(counters_t *c)
{
    memset(c, 0, sizeof *c);
    c->copy_flag = 1;
    c->last_copy_type = c->last_delete_type = MPI_DATATYPE_NULL;
}

static int copy_fn(MPI_Datatype t, int keyval, void *extra, void *in, void *out, int *flag)
{
    counters_t *c = (counters_t *)extra;
    c->copies++;
    c->last_copy_type = t;
    c->last_keyval = keyval;
    if (c->fail_copy) return MPI_ERR_OTHER;
    *(void **)out = (char *)in + 1;
    *flag = c->copy_flag;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Datatype t, int keyval, void *val, void *extra)
{
    counters_t *c = (counters_t *)extra;
    c->deletes++;
    c->last_deleted = val;
    c->last_delete_type = t;
    c->last_keyval = keyval;
    return MPI_SUCCESS;
}

static void *get(MPI_Datatype t, int k, int *flag)
{
    void *v = NULL;
    *flag = -1;
    MT_CHECK_RC(MPI_Type_get_attr(t, k, &v, flag));
    return v;
}

static void derived(int rank)
{
    counters_t cu, cd, cn, cf;
    char vals[16];
    int ku, kd, kn, kf, kf_value, flag;
    MPI_Datatype t, d, d_handle, t_handle;
    void *v;
    reset(&cu);
    reset(&cd);
    reset(&cn);
    reset(&cf);
    MT_CHECK_RC(MPI_Type_create_keyval(copy_fn, delete_fn, &ku, &cu));
    MT_CHECK_RC(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, delete_fn, &kd, &cd));
    MT_CHECK_RC(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, delete_fn, &kn, &cn));
    MT_CHECK_RC(MPI_Type_create_keyval(copy_fn, delete_fn, &kf, &cf));
    kf_value = kf;

    MT_CHECK_RC(MPI_Type_contiguous(4 + rank % 3, MPI_INT, &t));
    /* Attributes on an uncommitted type. */
    MT_CHECK_RC(MPI_Type_set_attr(t, ku, &vals[0]));
    MT_CHECK_RC(MPI_Type_set_attr(t, kd, &vals[2]));
    MT_CHECK_RC(MPI_Type_set_attr(t, kn, &vals[4]));
    MT_CHECK_RC(MPI_Type_set_attr(t, kf, &vals[6]));
    MT_CHECK_RC(MPI_Type_commit(&t));
    v = get(t, ku, &flag);
    MT_CHECK(flag == 1 && v == &vals[0], "attribute lost by commit");
    MT_CHECK_RC(MPI_Type_set_attr(t, ku, &vals[1]));
    MT_CHECK(cu.deletes == 1 && cu.last_deleted == &vals[0] && cu.last_delete_type == t, "overwrite: %d deletes",
             cu.deletes);
    MT_CHECK_RC(MPI_Type_free_keyval(&kf));
    MT_CHECK(kf == MPI_KEYVAL_INVALID, "Type_free_keyval left %d", kf);

    MT_CHECK_RC(MPI_Type_dup(t, &d));
    MT_CHECK(cu.copies == 1 && cu.last_copy_type == t && cu.last_keyval == ku, "user copy: %d calls", cu.copies);
    MT_CHECK(cf.copies == 1 && cf.last_keyval == kf_value, "freed keyval's copy: %d calls", cf.copies);
    v = get(d, ku, &flag);
    MT_CHECK(flag == 1 && v == &vals[2], "user-copied value %p, expected %p", v, (void *)&vals[2]);
    v = get(d, kd, &flag);
    MT_CHECK(flag == 1 && v == &vals[2], "MPI_TYPE_DUP_FN value");
    v = get(d, kn, &flag);
    MT_CHECK(flag == 0, "MPI_TYPE_NULL_COPY_FN attribute copied");
    v = get(t, ku, &flag);
    MT_CHECK(flag == 1 && v == &vals[1], "original changed by dup");

    /* The dup is a working type. */
    {
        int out[8], in[8], i, n = 4 + rank % 3;
        MPI_Status st;
        for (i = 0; i < n; i++) out[i] = rank * 100 + i;
        MT_CHECK_RC(MPI_Sendrecv(out, 1, d, rank, 5, in, 1, t, rank, 5, MPI_COMM_WORLD, &st));
        for (i = 0; i < n; i++) MT_CHECK(in[i] == rank * 100 + i, "element %d: %d", i, in[i]);
    }

    d_handle = d;
    MT_CHECK_RC(MPI_Type_free(&d));
    MT_CHECK(d == MPI_DATATYPE_NULL, "Type_free did not null the handle");
    MT_CHECK(cu.deletes == 2 && cu.last_deleted == &vals[2] && cu.last_delete_type == d_handle, "free dup: %d",
             cu.deletes);
    MT_CHECK(cd.deletes == 1 && cn.deletes == 0 && cf.deletes == 1 && cf.last_deleted == &vals[7],
             "free dup: %d %d %d", cd.deletes, cn.deletes, cf.deletes);

    /* A failing copy callback fails the dup. */
    cu.fail_copy = 1;
    MT_CHECK(MPI_Type_dup(t, &d) != MPI_SUCCESS, "Type_dup with a failing copy callback succeeded");
    cu.fail_copy = 0;

    cu.deletes = cd.deletes = cn.deletes = cf.deletes = 0;
    t_handle = t;
    MT_CHECK_RC(MPI_Type_free(&t));
    MT_CHECK(cu.deletes == 1 && cd.deletes == 1 && cn.deletes == 1 && cf.deletes == 1, "free: %d %d %d %d", cu.deletes,
             cd.deletes, cn.deletes, cf.deletes);
    MT_CHECK(cf.last_deleted == &vals[6] && cf.last_keyval == kf_value && cf.last_delete_type == t_handle,
             "freed keyval's delete on free");

    MT_CHECK_RC(MPI_Type_free_keyval(&ku));
    MT_CHECK_RC(MPI_Type_free_keyval(&kd));
    MT_CHECK_RC(MPI_Type_free_keyval(&kn));
}

static void dup_predefined(int rank)
{
    counters_t c;
    char vals[4];
    int k, flag;
    MPI_Datatype d;
    void *v;
    reset(&c);
    MT_CHECK_RC(MPI_Type_create_keyval(copy_fn, delete_fn, &k, &c));
    MT_CHECK_RC(MPI_Type_set_attr(MPI_DOUBLE, k, &vals[rank % 2]));
    MT_CHECK_RC(MPI_Type_dup(MPI_DOUBLE, &d));
    MT_CHECK(c.copies == 1 && c.last_copy_type == MPI_DOUBLE, "dup of MPI_DOUBLE: %d copies", c.copies);
    v = get(d, k, &flag);
    MT_CHECK(flag == 1 && v == &vals[rank % 2 + 1], "dup of MPI_DOUBLE: flag %d", flag);
    MT_CHECK_RC(MPI_Type_free(&d));
    MT_CHECK(c.deletes == 1 && c.last_deleted == &vals[rank % 2 + 1], "free of the dup: %d deletes", c.deletes);
    MT_CHECK_RC(MPI_Type_delete_attr(MPI_DOUBLE, k));
    MT_CHECK(c.deletes == 2 && c.last_deleted == &vals[rank % 2], "delete on MPI_DOUBLE: %d", c.deletes);
    MT_CHECK_RC(MPI_Type_free_keyval(&k));
}

int main(int argc, char **argv)
{
    int rank;
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    derived(rank);
    dup_predefined(rank);

    mt_barrier(MPI_COMM_WORLD);
    return mt_finalize();
}
