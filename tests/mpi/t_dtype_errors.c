/*
 * t_dtype_errors: datatype error classes under MPI_ERRORS_RETURN.
 *   uncommitted type in a send, receive or MPI_Pack      -> MPI_ERR_TYPE
 *   MPI_DATATYPE_NULL as a constructor input or in a send -> MPI_ERR_TYPE
 *   MPI_Type_free of a predefined type                    -> MPI_ERR_TYPE
 *   negative count in a constructor or a send             -> MPI_ERR_COUNT
 *   negative blocklength                                  -> MPI_ERR_ARG (MPICH: MPI_ERR_COUNT)
 *   bad subarray / darray arguments                       -> MPI_ERR_ARG
 *   MPI_Type_get_contents of a predefined type            -> an error
 *   MPI_Type_match_size with no such type                 -> an error
 * and, where the standard leaves the class open, HMPI's choices (checked
 * under HMPI only):
 *   a freed handle or garbage as a datatype               -> MPI_ERR_TYPE
 *   MPI_Pack / MPI_Unpack past the buffer's end           -> MPI_ERR_TRUNCATE
 *   MPI_Pack_external with a datarep other than external32 -> MPI_ERR_UNSUPPORTED_DATAREP
 *   MPI_Pack_size that does not fit an int                -> MPI_ERR_COUNT
 *   a constructor whose size would overflow MPI_Count     -> MPI_ERR_COUNT
 *   NULL output arguments                                 -> MPI_ERR_ARG
 * The job keeps running: a final typed exchange is checked.
 */
#include "mpitest.h"
#include <limits.h>


static void expect(int rc, int want, const char *what)
{
    int cls = -1;
    MT_CHECK(rc != MPI_SUCCESS, "%s: returned MPI_SUCCESS, expected class %d", what, want);
    if (rc == MPI_SUCCESS) return;
    MT_CHECK_RC(MPI_Error_class(rc, &cls));
    MT_CHECK(cls == want, "%s: error class %d, expected %d", what, cls, want);
}

static void expect_either(int rc, int want1, int want2, const char *what)
{
    int cls = -1;
    MT_CHECK(rc != MPI_SUCCESS, "%s: returned MPI_SUCCESS", what);
    if (rc == MPI_SUCCESS) return;
    MT_CHECK_RC(MPI_Error_class(rc, &cls));
    MT_CHECK(cls == want1 || cls == want2, "%s: error class %d, expected %d or %d", what, cls, want1, want2);
}

static void expect_error(int rc, const char *what)
{
    MT_CHECK(rc != MPI_SUCCESS, "%s: returned MPI_SUCCESS, expected an error", what);
}

static void type_errors(int rank)
{
    int buf[16] = {0}, bl[2] = {1, -1}, disp[2] = {0, 2}, pos = 0;
    MPI_Datatype t = MPI_DATATYPE_NULL, v, intt = MPI_INT;
    MPI_Request rq;
    (void)rank;

    /* Uncommitted types cannot communicate or pack. */
    MT_CHECK_RC(MPI_Type_vector(2, 1, 2, MPI_INT, &v));
    expect(MPI_Send(buf, 1, v, rank, 1, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Send with an uncommitted type");
    expect(MPI_Irecv(buf, 1, v, rank, 1, MPI_COMM_WORLD, &rq), MPI_ERR_TYPE, "MPI_Irecv with an uncommitted type");
    expect(MPI_Pack(buf, 1, v, buf + 8, 32, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Pack with an uncommitted type");
    /* ...but they can be queried and built upon. */
    {
        MPI_Aint lb, ext;
        MPI_Datatype c;
        MT_CHECK_RC(MPI_Type_get_extent(v, &lb, &ext));
        MT_CHECK(ext == 12, "extent of an uncommitted vector is %ld", (long)ext);
        MT_CHECK_RC(MPI_Type_contiguous(2, v, &c));
        MT_CHECK_RC(MPI_Type_commit(&c));
        MT_CHECK_RC(MPI_Type_free(&c));
    }

    /* MPI_DATATYPE_NULL */
    expect(MPI_Send(buf, 1, MPI_DATATYPE_NULL, rank, 1, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Send with MPI_DATATYPE_NULL");
    expect(MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE, "MPI_Type_contiguous of MPI_DATATYPE_NULL");
    expect(MPI_Type_commit(&t), MPI_ERR_TYPE, "MPI_Type_commit of MPI_DATATYPE_NULL");

    /* predefined types cannot be freed */
    expect(MPI_Type_free(&intt), MPI_ERR_TYPE, "MPI_Type_free(MPI_INT)");
    MT_CHECK(intt == MPI_INT, "a failed MPI_Type_free changed the handle");

    /* counts and blocklengths */
    expect(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT, "MPI_Type_contiguous count -1");
    expect(MPI_Type_vector(-2, 1, 1, MPI_INT, &t), MPI_ERR_COUNT, "MPI_Type_vector count -2");
    expect(MPI_Send(buf, -1, MPI_INT, rank, 1, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Send count -1");
    expect_either(MPI_Type_vector(2, -1, 1, MPI_INT, &t), MPI_ERR_ARG, MPI_ERR_COUNT, "MPI_Type_vector blocklength -1");
    expect_either(MPI_Type_indexed(2, bl, disp, MPI_INT, &t), MPI_ERR_ARG, MPI_ERR_COUNT,
                  "MPI_Type_indexed blocklength -1");

    /* subarray and darray (MPICH 4.0 does not check these arguments) */
#ifndef MPICH
    {
        int sizes[2] = {4, 4}, subs[2] = {2, 2}, starts[2] = {3, 0}, order_bad = 12345;
        int gs[1] = {8}, dist[1] = {MPI_DISTRIBUTE_BLOCK}, darg[1] = {MPI_DISTRIBUTE_DFLT_DARG}, ps[1] = {3};
        expect(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
               "MPI_Type_create_subarray start + subsize beyond the size");
        starts[0] = 0;
        expect(MPI_Type_create_subarray(2, sizes, subs, starts, order_bad, MPI_INT, &t), MPI_ERR_ARG,
               "MPI_Type_create_subarray with a bad order");
        expect(MPI_Type_create_darray(4, 0, 1, gs, dist, darg, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
               "MPI_Type_create_darray with 3 processes in the grid but size 4");
    }
#endif

    /* decoding a predefined type, matching a size that does not exist */
    {
        int ints[4];
        MPI_Aint addrs[4];
        MPI_Datatype types[4];
        expect_error(MPI_Type_get_contents(MPI_INT, 0, 0, 0, ints, addrs, types), "MPI_Type_get_contents(MPI_INT)");
        expect_error(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &t), "MPI_Type_match_size(INTEGER, 3)");
        expect_error(MPI_Type_match_size(MPI_TYPECLASS_REAL, 5, &t), "MPI_Type_match_size(REAL, 5)");
    }
    MT_CHECK_RC(MPI_Type_free(&v));

#ifdef HMPI
    /* A freed handle, and garbage. */
    {
        MPI_Datatype keep, garbage = (MPI_Datatype)(void *)buf;
        MT_CHECK_RC(MPI_Type_contiguous(4, MPI_INT, &v));
        MT_CHECK_RC(MPI_Type_commit(&v));
        keep = v;
        MT_CHECK_RC(MPI_Type_free(&v));
        expect(MPI_Send(buf, 1, keep, rank, 1, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Send with a freed type");
        expect(MPI_Type_free(&keep), MPI_ERR_TYPE, "MPI_Type_free twice");
        expect(MPI_Send(buf, 1, garbage, rank, 1, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Send with a garbage datatype");
        expect(MPI_Type_dup(garbage, &t), MPI_ERR_TYPE, "MPI_Type_dup of garbage");
    }
    /* Packing past the end of the buffer. */
    {
        unsigned char out[16];
        double d[4] = {1, 2, 3, 4};
        MPI_Aint xpos = 0;
        int size = 0;
        MPI_Datatype big, huge;
        pos = 0;
        expect(MPI_Pack(d, 4, MPI_DOUBLE, out, 16, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE, "MPI_Pack of 32 bytes into 16");
        MT_CHECK(pos == 0, "a failed MPI_Pack moved the position to %d", pos);
        pos = 8;
        expect(MPI_Unpack(out, 16, &pos, d, 2, MPI_DOUBLE, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
               "MPI_Unpack of 16 bytes from 8 left");
        expect(MPI_Pack_external("external32", d, 4, MPI_DOUBLE, out, 16, &xpos), MPI_ERR_TRUNCATE,
               "MPI_Pack_external of 32 bytes into 16");
        expect(MPI_Pack_external("native", d, 1, MPI_DOUBLE, out, 16, &xpos), MPI_ERR_UNSUPPORTED_DATAREP,
               "MPI_Pack_external with datarep native");
        expect(MPI_Pack_external_size("xdr", 1, MPI_DOUBLE, &xpos), MPI_ERR_UNSUPPORTED_DATAREP,
               "MPI_Pack_external_size with datarep xdr");
        expect(MPI_Pack_size(INT_MAX, MPI_DOUBLE, MPI_COMM_WORLD, &size), MPI_ERR_COUNT, "MPI_Pack_size of INT_MAX doubles");
        /* 2^31 * 2^31 * 8 bytes overflow MPI_Count */
        MT_CHECK_RC(MPI_Type_contiguous(INT_MAX, MPI_DOUBLE, &big));
        expect(MPI_Type_contiguous(INT_MAX, big, &huge), MPI_ERR_COUNT, "a datatype of 2^65 bytes");
        {
            MPI_Count sx = 0;
            MT_CHECK_RC(MPI_Type_size_x(big, &sx));
            MT_CHECK(sx == (MPI_Count)INT_MAX * 8, "MPI_Type_size_x of 2^31 doubles: %lld", (long long)sx);
        }
        MT_CHECK_RC(MPI_Type_free(&big));
    }
    /* NULL outputs */
    expect(MPI_Type_contiguous(2, MPI_INT, NULL), MPI_ERR_ARG, "MPI_Type_contiguous with newtype NULL");
    expect(MPI_Type_get_extent(MPI_INT, NULL, NULL), MPI_ERR_ARG, "MPI_Type_get_extent with NULL outputs");
    expect(MPI_Type_set_name(MPI_INT, NULL), MPI_ERR_ARG, "MPI_Type_set_name with NULL");
    expect(MPI_Type_commit(NULL), MPI_ERR_ARG, "MPI_Type_commit(NULL)");
#endif
}

int main(int argc, char **argv)
{
    int rank, size, partner, i, bad = -1;
    double s[20], r[10];
    MPI_Datatype v;
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    type_errors(rank);
    /* Still running: a typed exchange works. */
    partner = mt_partner(rank, size);
    for (i = 0; i < 20; i++) s[i] = rank * 100 + i;
    MT_CHECK_RC(MPI_Type_vector(10, 1, 2, MPI_DOUBLE, &v));
    MT_CHECK_RC(MPI_Type_commit(&v));
    {
        MPI_Request rq;
        MT_CHECK_RC(MPI_Irecv(r, 10, MPI_DOUBLE, partner, 9, MPI_COMM_WORLD, &rq));
        MT_CHECK_RC(MPI_Send(s, 1, v, partner, 9, MPI_COMM_WORLD));
        MT_CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    }
    for (i = 0; i < 10 && bad < 0; i++)
        if (r[i] != partner * 100 + 2 * i) bad = i;
    MT_CHECK(bad < 0, "final exchange: element %d is %g", bad, bad >= 0 ? r[bad] : 0.0);
    MT_CHECK_RC(MPI_Type_free(&v));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    return mt_finalize();
}
