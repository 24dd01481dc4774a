/*
 * t_op_errors: error classes of the reduction-operation calls under
 * MPI_ERRORS_RETURN (errors not tied to a communicator are raised on
 * MPI_COMM_WORLD in MPI 3.1), and the job keeps running afterwards:
 *   MPI_Reduce_local with MPI_OP_NULL (or a freed op's handle)  -> MPI_ERR_OP
 *   a predefined operation on a datatype it is not defined for  -> MPI_ERR_OP
 *     (MPI 3.1, 5.9.2: e.g. MPI_BAND on MPI_FLOAT, MPI_LAND on MPI_INTEGER,
 *      MPI_MIN on a complex type, MPI_SUM on MPI_LOGICAL or MPI_C_BOOL,
 *      MPI_MINLOC on MPI_INT, MPI_SUM on MPI_2INT, anything arithmetic
 *      on MPI_WCHAR or MPI_PACKED)
 *   negative count                                              -> MPI_ERR_COUNT
 *   MPI_DATATYPE_NULL                                           -> MPI_ERR_TYPE
 *   MPI_Op_free of a predefined operation or of MPI_OP_NULL     -> MPI_ERR_OP
 *   MPI_Op_commutative of MPI_OP_NULL                           -> MPI_ERR_OP
 *   MPI_Op_create with a NULL function                          -> MPI_ERR_ARG
 * A failed call leaves inoutbuf untouched.
 *
 * Implementations differ where the standard leaves room:
 * - MPI_DATATYPE_NULL with a valid op: Open MPI checks the op against the
 *   type first and reports MPI_ERR_OP; either class is accepted.
 * - MPI_SUM on MPI_BYTE or MPI_CHAR is not defined by 5.9.2 (bytes take
 *   only the bitwise operations, MPI_CHAR none), but Open MPI accepts both:
 *   checked under HMPI only.
 * - Invalid buffers (NULL with count > 0, MPI_IN_PLACE, which
 *   MPI_Reduce_local does not take) are not detected by Open MPI, which
 *   crashes instead: checked under HMPI only (MPI_ERR_BUFFER).
 */
#include "mpitest.h"

static void expect(int rc, int want, int also, const char *what)
{
    int cls = -1, len = 0;
    char s[MPI_MAX_ERROR_STRING];
    MT_CHECK(rc != MPI_SUCCESS, "%s: returned MPI_SUCCESS, expected error class %d", what, want);
    if (rc == MPI_SUCCESS) return;
    MT_CHECK_RC(MPI_Error_class(rc, &cls));
    s[0] = '\0';
    MPI_Error_string(rc, s, &len);
    MT_CHECK(cls == want || cls == also, "%s: error class %d (%s), expected %d", what, cls, s, want);
}

static void nop_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in;
    (void)inout;
    (void)len;
    (void)type;
}

/* Reduce_local(op, type) must fail with MPI_ERR_OP and leave inout as is. */
static void undefined(MPI_Op op, MPI_Datatype type, const char *what)
{
    unsigned char in[64], io[64], keep[64];
    mt_fill(in, sizeof in, 1, 1);
    mt_fill(io, sizeof io, 2, 2);
    memcpy(keep, io, sizeof io);
    expect(MPI_Reduce_local(in, io, 2, type, op), MPI_ERR_OP, MPI_ERR_OP, what);
    MT_CHECK(memcmp(keep, io, sizeof io) == 0, "%s: inoutbuf changed by a failed call", what);
}

int main(int argc, char **argv)
{
    int a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, commute = -1;
    MPI_Op op = MPI_OP_NULL, user = MPI_OP_NULL, stale;

    mt_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* invalid operations */
    expect(MPI_Reduce_local(a, b, 4, MPI_INT, MPI_OP_NULL), MPI_ERR_OP, MPI_ERR_OP, "Reduce_local(MPI_OP_NULL)");
    MT_CHECK_RC(MPI_Op_create(nop_fn, 1, &user));
    stale = user;
    MT_CHECK_RC(MPI_Op_free(&user));
    expect(MPI_Reduce_local(a, b, 4, MPI_INT, user), MPI_ERR_OP, MPI_ERR_OP, "Reduce_local(freed op's handle)");
    (void)stale; /* using the stale copy itself would be erroneous */

    /* operations on types they are not defined for */
    undefined(MPI_BAND, MPI_FLOAT, "MPI_BAND on MPI_FLOAT");
    undefined(MPI_BXOR, MPI_DOUBLE, "MPI_BXOR on MPI_DOUBLE");
    undefined(MPI_LAND, MPI_FLOAT, "MPI_LAND on MPI_FLOAT");
    undefined(MPI_LOR, MPI_DOUBLE, "MPI_LOR on MPI_DOUBLE");
    undefined(MPI_LAND, MPI_INTEGER, "MPI_LAND on MPI_INTEGER");
    undefined(MPI_MIN, MPI_C_FLOAT_COMPLEX, "MPI_MIN on MPI_C_FLOAT_COMPLEX");
    undefined(MPI_MAX, MPI_C_DOUBLE_COMPLEX, "MPI_MAX on MPI_C_DOUBLE_COMPLEX");
    undefined(MPI_BAND, MPI_C_DOUBLE_COMPLEX, "MPI_BAND on MPI_C_DOUBLE_COMPLEX");
    undefined(MPI_SUM, MPI_LOGICAL, "MPI_SUM on MPI_LOGICAL");
    undefined(MPI_BAND, MPI_LOGICAL, "MPI_BAND on MPI_LOGICAL");
    undefined(MPI_SUM, MPI_C_BOOL, "MPI_SUM on MPI_C_BOOL");
    undefined(MPI_MAX, MPI_C_BOOL, "MPI_MAX on MPI_C_BOOL");
    undefined(MPI_MINLOC, MPI_INT, "MPI_MINLOC on MPI_INT");
    undefined(MPI_MAXLOC, MPI_DOUBLE, "MPI_MAXLOC on MPI_DOUBLE");
    undefined(MPI_SUM, MPI_2INT, "MPI_SUM on MPI_2INT");
    undefined(MPI_MAX, MPI_DOUBLE_INT, "MPI_MAX on MPI_DOUBLE_INT");
    undefined(MPI_SUM, MPI_WCHAR, "MPI_SUM on MPI_WCHAR");
    undefined(MPI_SUM, MPI_PACKED, "MPI_SUM on MPI_PACKED");
#if defined(HMPI)
    undefined(MPI_SUM, MPI_BYTE, "MPI_SUM on MPI_BYTE");
    undefined(MPI_MIN, MPI_BYTE, "MPI_MIN on MPI_BYTE");
    undefined(MPI_SUM, MPI_CHAR, "MPI_SUM on MPI_CHAR");
    undefined(MPI_BAND, MPI_CHAR, "MPI_BAND on MPI_CHAR");
    undefined(MPI_LAND, MPI_CHARACTER, "MPI_LAND on MPI_CHARACTER");
#endif

    /* other arguments */
    expect(MPI_Reduce_local(a, b, -1, MPI_INT, MPI_SUM), MPI_ERR_COUNT, MPI_ERR_COUNT, "Reduce_local(count -1)");
    expect(MPI_Reduce_local(a, b, 4, MPI_DATATYPE_NULL, MPI_SUM), MPI_ERR_TYPE, MPI_ERR_OP,
           "Reduce_local(MPI_DATATYPE_NULL)");
#if defined(HMPI)
    expect(MPI_Reduce_local(NULL, b, 4, MPI_INT, MPI_SUM), MPI_ERR_BUFFER, MPI_ERR_BUFFER, "Reduce_local(inbuf NULL)");
    expect(MPI_Reduce_local(a, NULL, 4, MPI_INT, MPI_SUM), MPI_ERR_BUFFER, MPI_ERR_BUFFER,
           "Reduce_local(inoutbuf NULL)");
    expect(MPI_Reduce_local(MPI_IN_PLACE, b, 4, MPI_INT, MPI_SUM), MPI_ERR_BUFFER, MPI_ERR_BUFFER,
           "Reduce_local(MPI_IN_PLACE)");
#endif
    MT_CHECK(b[0] == 5 && b[1] == 6 && b[2] == 7 && b[3] == 8, "inoutbuf changed by failed calls: %d %d %d %d", b[0],
             b[1], b[2], b[3]);

    /* MPI_Op_free, MPI_Op_commutative, MPI_Op_create */
    op = MPI_SUM;
    expect(MPI_Op_free(&op), MPI_ERR_OP, MPI_ERR_OP, "Op_free(MPI_SUM)");
    MT_CHECK(op == MPI_SUM, "a failed MPI_Op_free(MPI_SUM) changed the handle");
    op = MPI_MAXLOC;
    expect(MPI_Op_free(&op), MPI_ERR_OP, MPI_ERR_OP, "Op_free(MPI_MAXLOC)");
    op = MPI_OP_NULL;
    expect(MPI_Op_free(&op), MPI_ERR_OP, MPI_ERR_OP, "Op_free(MPI_OP_NULL)");
    expect(MPI_Op_commutative(MPI_OP_NULL, &commute), MPI_ERR_OP, MPI_ERR_OP, "Op_commutative(MPI_OP_NULL)");
    expect(MPI_Op_create(NULL, 1, &op), MPI_ERR_ARG, MPI_ERR_ARG, "Op_create(NULL function)");

    /* The job keeps running: correct calls still work. */
    MT_CHECK_RC(MPI_Reduce_local(a, b, 4, MPI_INT, MPI_SUM));
    MT_CHECK(b[0] == 6 && b[1] == 8 && b[2] == 10 && b[3] == 12, "sum after errors: %d %d %d %d", b[0], b[1], b[2],
             b[3]);
    MT_CHECK_RC(MPI_Op_create(nop_fn, 0, &op));
    MT_CHECK_RC(MPI_Op_commutative(op, &commute));
    MT_CHECK(commute == 0, "MPI_Op_commutative after errors: %d", commute);
    MT_CHECK_RC(MPI_Op_free(&op));
    mt_barrier(MPI_COMM_WORLD);
    return mt_finalize();
}
