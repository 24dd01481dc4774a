/*
 * t_op_user: user-defined reduction operations (MPI 3.1, 5.9.5) through
 * MPI_Reduce_local:
 *   - a commutative one (a sum) and a non-commutative one (2x2 integer
 *     matrix product, where in * inout differs from inout * in), on MPI_INT
 *     and on a derived contiguous type of 4 ints (one matrix per element);
 *   - the function receives len = count and the datatype handle the caller
 *     passed (the derived type's own handle), and in/inout in the order
 *     inoutbuf = inbuf op inoutbuf;
 *   - a user operation on a predefined pair type with padding
 *     (MPI_DOUBLE_INT): the function walks the C struct array itself;
 *   - MPI_Op_commutative for user and predefined operations;
 *   - MPI_Op_free sets the handle to MPI_OP_NULL; many create/free cycles.
 * Results are compared element by element with plain C loops.
 *
 * The functions count their calls in thread-local variables: a rank is a
 * process under other MPIs and a thread under HMPI, and each rank's
 * functions are called by that rank only.
 */
#include "mpitest.h"

static _Thread_local int calls;        /* calls since the last reset */
static _Thread_local long long total;  /* sum of *len over those calls */
static _Thread_local MPI_Datatype seen_type;
static _Thread_local int wrong_type;   /* calls with a datatype the function does not handle */

static void reset_calls(void)
{
    calls = 0;
    total = 0;
    seen_type = MPI_DATATYPE_NULL;
    wrong_type = 0;
}

static void int_sum(void *invec, void *inoutvec, int *len, MPI_Datatype *type)
{
    const int *in = (const int *)invec;
    int *io = (int *)inoutvec;
    int i;
    calls++;
    total += *len;
    seen_type = *type;
    if (*type != MPI_INT) {
        wrong_type++;
        return;
    }
    for (i = 0; i < *len; i++) io[i] += in[i];
}

/* c = a * b for row-major 2x2 matrices. */
static void mat_mul(const int *a, const int *b, int *c)
{
    int r[4];
    r[0] = a[0] * b[0] + a[1] * b[2];
    r[1] = a[0] * b[1] + a[1] * b[3];
    r[2] = a[2] * b[0] + a[3] * b[2];
    r[3] = a[2] * b[1] + a[3] * b[3];
    memcpy(c, r, sizeof r);
}

/* inout[m] = in[m] * inout[m]. On MPI_INT, len counts ints (a multiple of
 * 4); on any 16-byte type (the derived matrix type), len counts matrices. */
static void matrix_product(void *invec, void *inoutvec, int *len, MPI_Datatype *type)
{
    const int *in = (const int *)invec;
    int *io = (int *)inoutvec;
    int size = 0, matrices, m;
    calls++;
    total += *len;
    seen_type = *type;
    MPI_Type_size(*type, &size);
    if (*type == MPI_INT && *len % 4 == 0)
        matrices = *len / 4;
    else if (size == 4 * (int)sizeof(int))
        matrices = *len;
    else {
        wrong_type++;
        return;
    }
    for (m = 0; m < matrices; m++) mat_mul(in + 4 * m, io + 4 * m, io + 4 * m);
}

typedef struct {
    double v;
    int i;
} double_int;

/* On MPI_DOUBLE_INT: values add up, indices keep the larger. */
static void pair_op(void *invec, void *inoutvec, int *len, MPI_Datatype *type)
{
    const double_int *in = (const double_int *)invec;
    double_int *io = (double_int *)inoutvec;
    int k;
    calls++;
    total += *len;
    seen_type = *type;
    if (*type != MPI_DOUBLE_INT) {
        wrong_type++;
        return;
    }
    for (k = 0; k < *len; k++) {
        io[k].v += in[k].v;
        if (in[k].i > io[k].i) io[k].i = in[k].i;
    }
}

static int small(uint64_t *s) { return (int)(mt_rand(s) % 7) - 3; }

static void test_commutative_sum(int rank)
{
    static const int counts[] = {0, 1, 7, 1000, 65537};
    MPI_Op op = MPI_OP_NULL;
    int commute = -1;
    size_t ci;
    MT_CHECK_RC(MPI_Op_create(int_sum, 1, &op));
    MT_CHECK(op != MPI_OP_NULL, "MPI_Op_create returned MPI_OP_NULL");
    MT_CHECK_RC(MPI_Op_commutative(op, &commute));
    MT_CHECK(commute == 1, "commutative user op: MPI_Op_commutative says %d", commute);
    for (ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        int n = counts[ci], i, bad = -1;
        int *in = (int *)mt_malloc(sizeof(int) * (size_t)(n + 1));
        int *io = (int *)mt_malloc(sizeof(int) * (size_t)(n + 1));
        int *want = (int *)mt_malloc(sizeof(int) * (size_t)(n + 1));
        uint64_t s = 1000u + (uint64_t)rank * 77u + (uint64_t)n;
        for (i = 0; i <= n; i++) {
            in[i] = (int)(mt_rand(&s) % 100000);
            io[i] = (int)(mt_rand(&s) % 100000);
            want[i] = i < n ? in[i] + io[i] : io[i];
        }
        reset_calls();
        MT_CHECK_RC(MPI_Reduce_local(in, io, n, MPI_INT, op));
        for (i = 0; i <= n && bad < 0; i++)
            if (io[i] != want[i]) bad = i;
        MT_CHECK(bad < 0, "user sum, count %d: element %d is %d, expected %d", n, bad, bad < 0 ? 0 : io[bad],
                 bad < 0 ? 0 : want[bad]);
        MT_CHECK(total == n, "user sum, count %d: the function saw %lld elements in %d calls", n, total, calls);
        MT_CHECK(wrong_type == 0, "user sum, count %d: the function got a datatype other than MPI_INT", n);
        if (n > 0) MT_CHECK(calls >= 1, "user sum, count %d: the function was not called", n);
        free(in);
        free(io);
        free(want);
    }
    MT_CHECK_RC(MPI_Op_free(&op));
    MT_CHECK(op == MPI_OP_NULL, "MPI_Op_free did not set the handle to MPI_OP_NULL");
}

/* The matrices of one test: in[m] and io[m] chosen so that in*io != io*in. */
static void fill_matrices(int *in, int *io, int matrices, uint64_t seed)
{
    int m, j;
    for (m = 0; m < matrices; m++) {
        do {
            for (j = 0; j < 4; j++) {
                in[4 * m + j] = small(&seed);
                io[4 * m + j] = small(&seed);
            }
        } while (in[4 * m + 1] * io[4 * m + 2] == io[4 * m + 1] * in[4 * m + 2]); /* else the (0,0) entries agree */
    }
}

static void check_matrices(const char *what, const int *in, const int *io_before, const int *io, int matrices)
{
    int m, j, bad = -1;
    for (m = 0; m < matrices && bad < 0; m++) {
        int want[4], other[4];
        mat_mul(in + 4 * m, io_before + 4 * m, want);
        mat_mul(io_before + 4 * m, in + 4 * m, other);
        for (j = 0; j < 4; j++)
            if (io[4 * m + j] != want[j]) bad = m;
        MT_CHECK(memcmp(want, other, sizeof want) != 0, "%s: matrices %d commute, the test data is wrong", what, m);
    }
    MT_CHECK(bad < 0, "%s: matrix %d is not in * inout (order of the operands, or not applied)", what, bad);
}

static void test_noncommutative_matrix(int rank)
{
    static const int counts[] = {1, 3, 250};
    MPI_Op op = MPI_OP_NULL;
    MPI_Datatype mat = MPI_DATATYPE_NULL;
    int commute = -1;
    size_t ci;
    MT_CHECK_RC(MPI_Op_create(matrix_product, 0, &op));
    MT_CHECK_RC(MPI_Op_commutative(op, &commute));
    MT_CHECK(commute == 0, "non-commutative user op: MPI_Op_commutative says %d", commute);
    MT_CHECK_RC(MPI_Type_contiguous(4, MPI_INT, &mat));
    MT_CHECK_RC(MPI_Type_commit(&mat));
    for (ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        int matrices = counts[ci];
        size_t bytes = sizeof(int) * 4 * (size_t)matrices;
        int *in = (int *)mt_malloc(bytes), *io = (int *)mt_malloc(bytes), *before = (int *)mt_malloc(bytes);
        char what[96];

        /* On MPI_INT: 4 ints per matrix. */
        fill_matrices(in, io, matrices, 31u * (uint64_t)rank + (uint64_t)matrices);
        memcpy(before, io, bytes);
        reset_calls();
        MT_CHECK_RC(MPI_Reduce_local(in, io, 4 * matrices, MPI_INT, op));
        snprintf(what, sizeof what, "matrix product on MPI_INT, %d matrices", matrices);
        check_matrices(what, in, before, io, matrices);
        MT_CHECK(total == 4 * matrices && wrong_type == 0 && seen_type == MPI_INT,
                 "%s: the function saw %lld elements in %d calls, %d of another datatype", what, total, calls,
                 wrong_type);

        /* On the derived type: one matrix per element, the caller's handle. */
        fill_matrices(in, io, matrices, 57u * (uint64_t)rank + (uint64_t)matrices);
        memcpy(before, io, bytes);
        reset_calls();
        MT_CHECK_RC(MPI_Reduce_local(in, io, matrices, mat, op));
        snprintf(what, sizeof what, "matrix product on contiguous(4, MPI_INT), %d matrices", matrices);
        check_matrices(what, in, before, io, matrices);
        MT_CHECK(total == matrices && wrong_type == 0, "%s: the function saw %lld elements in %d calls", what, total,
                 calls);
        MT_CHECK(seen_type == mat, "%s: the function did not receive the caller's datatype handle", what);
        free(in);
        free(io);
        free(before);
    }
    MT_CHECK_RC(MPI_Type_free(&mat));
    MT_CHECK_RC(MPI_Op_free(&op));
    MT_CHECK(op == MPI_OP_NULL, "MPI_Op_free did not set the handle to MPI_OP_NULL");
}

static void test_pair_type(int rank)
{
    enum { N = 101 };
    double_int in[N], io[N], want[N];
    MPI_Op op = MPI_OP_NULL;
    int k, bad = -1;
    uint64_t s = 99u + (uint64_t)rank;
    for (k = 0; k < N; k++) {
        in[k].v = (double)(mt_rand(&s) % 1000) / 8.0;
        in[k].i = (int)(mt_rand(&s) % 50);
        io[k].v = (double)(mt_rand(&s) % 1000) / 8.0;
        io[k].i = (int)(mt_rand(&s) % 50);
        want[k].v = in[k].v + io[k].v;
        want[k].i = in[k].i > io[k].i ? in[k].i : io[k].i;
    }
    MT_CHECK_RC(MPI_Op_create(pair_op, 1, &op));
    reset_calls();
    MT_CHECK_RC(MPI_Reduce_local(in, io, N, MPI_DOUBLE_INT, op));
    for (k = 0; k < N && bad < 0; k++)
        if (io[k].v != want[k].v || io[k].i != want[k].i) bad = k;
    MT_CHECK(bad < 0, "user op on MPI_DOUBLE_INT: element %d wrong", bad);
    MT_CHECK(total == N && wrong_type == 0, "user op on MPI_DOUBLE_INT: %lld elements in %d calls, %d wrong types",
             total, calls, wrong_type);
    MT_CHECK_RC(MPI_Op_free(&op));
}

static void test_predefined_commutative(void)
{
    MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX, MPI_BAND, MPI_BOR, MPI_BXOR,
                    MPI_LAND, MPI_LOR, MPI_LXOR, MPI_MINLOC, MPI_MAXLOC};
    size_t k;
    for (k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        int commute = -1;
        MT_CHECK_RC(MPI_Op_commutative(ops[k], &commute));
        MT_CHECK(commute == 1, "predefined operation %zu: MPI_Op_commutative says %d", k, commute);
    }
}

static void test_create_free_cycles(void)
{
    int k;
    for (k = 0; k < 1000; k++) {
        MPI_Op a = MPI_OP_NULL, b = MPI_OP_NULL;
        int x = 1, y = 2;
        MT_CHECK_RC(MPI_Op_create(int_sum, k % 2, &a));
        MT_CHECK_RC(MPI_Op_create(matrix_product, 0, &b));
        MT_CHECK(a != b, "two live operations have the same handle");
        MT_CHECK_RC(MPI_Reduce_local(&x, &y, 1, MPI_INT, a));
        MT_CHECK(y == 3, "create/free cycle %d: 1 + 2 gave %d", k, y);
        MT_CHECK_RC(MPI_Op_free(&a));
        MT_CHECK_RC(MPI_Op_free(&b));
        MT_CHECK(a == MPI_OP_NULL && b == MPI_OP_NULL, "MPI_Op_free did not set the handles to MPI_OP_NULL");
    }
}

int main(int argc, char **argv)
{
    int rank;
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    test_commutative_sum(rank);
    test_noncommutative_matrix(rank);
    test_pair_type(rank);
    test_predefined_commutative();
    test_create_free_cycles();
    return mt_finalize();
}
