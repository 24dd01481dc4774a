/*
 * t_dtype_p2p: point-to-point with derived datatypes on both sides.
 *  - send and receive layouts differ but the type signatures match: vector
 *    -> contiguous, contiguous -> vector, vector -> vector of another shape,
 *    indexed -> struct; message sizes from 0 to several MiB, so both the
 *    inline (ring) and the rendezvous (single copy) paths run; bytes of the
 *    receive buffer outside the type map stay untouched;
 *  - halo exchange of a 2-D array with subarray types (columns and rows);
 *  - MPI_Get_count / MPI_Get_elements / MPI_Get_elements_x with partial
 *    data (a message that ends inside an element, or inside a basic element);
 *  - truncation of a non-contiguous receive (MPI_ERR_TRUNCATE);
 *  - a datatype freed while an MPI_Isend / MPI_Irecv / persistent request
 *    using it is pending: the operations complete with the right data;
 *  - MPI_Sendrecv, MPI_Bsend and persistent sends with derived types.
 * Pairs are 0<->1, 2<->3, ...; an odd last rank talks to itself.
 */
#include "mpitest.h"

static double dval(int rank, long i) { return rank * 1e7 + (double)i * 0.5 + 1; }

/* Irecv, then Send, then Wait: safe for pairs and for a rank paired with itself. */
static int xchg(int partner, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int tag, MPI_Status *st)
{
    MPI_Request rq;
    int rc;
    MT_CHECK_RC(MPI_Irecv(rbuf, rcount, rtype, partner, tag, MPI_COMM_WORLD, &rq));
    MT_CHECK_RC(MPI_Send(sbuf, scount, stype, partner, tag, MPI_COMM_WORLD));
    rc = MPI_Wait(&rq, st);
    return rc;
}

static const long sizes[] = {0, 1, 3, 100, 511, 512, 513, 5000, 70000, 400000};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

/* vector <-> contiguous <-> vector of other shapes, n doubles each. */
static void test_vectors(int rank, int partner)
{
    int k;
    long i;
    for (k = 0; k < NSIZES; k++) {
        const long n = sizes[k];
        const int tag = 100 + k;
        double *strided = mt_malloc((size_t)(3 * n + 1) * sizeof(double));
        double *dense = mt_malloc((size_t)(n + 1) * sizeof(double));
        double *strided2 = mt_malloc((size_t)(2 * n + 2) * sizeof(double));
        MPI_Datatype v3, v2, pairs;
        MPI_Status st;
        int count = -1;
        long bad = -1;
        /* every third double; every other double; blocks of 2 doubles 5 apart (n even) */
        MT_CHECK_RC(MPI_Type_vector((int)n, 1, 3, MPI_DOUBLE, &v3));
        MT_CHECK_RC(MPI_Type_vector((int)n, 1, 2, MPI_DOUBLE, &v2));
        MT_CHECK_RC(MPI_Type_vector((int)(n / 2), 2, 5, MPI_DOUBLE, &pairs));
        MT_CHECK_RC(MPI_Type_commit(&v3));
        MT_CHECK_RC(MPI_Type_commit(&v2));
        MT_CHECK_RC(MPI_Type_commit(&pairs));

        /* vector -> contiguous */
        for (i = 0; i < 3 * n + 1; i++) strided[i] = (i % 3 == 0) ? dval(rank, i / 3) : -1.0;
        for (i = 0; i <= n; i++) dense[i] = -7.0;
        xchg(partner, strided, 1, v3, dense, (int)n + 1, MPI_DOUBLE, tag, &st);
        for (i = 0; i < n && bad < 0; i++)
            if (dense[i] != dval(partner, i)) bad = i;
        MT_CHECK(bad < 0, "vector->contiguous n=%ld: element %ld is %g", n, bad, bad >= 0 ? dense[bad] : 0.0);
        MT_CHECK(dense[n] == -7.0, "vector->contiguous n=%ld: wrote past the message", n);
        MT_CHECK_RC(MPI_Get_count(&st, MPI_DOUBLE, &count));
        MT_CHECK(count == n, "vector->contiguous n=%ld: MPI_Get_count %d", n, count);

        /* contiguous -> vector: the gaps stay untouched */
        for (i = 0; i < n; i++) dense[i] = dval(rank, i);
        for (i = 0; i < 3 * n + 1; i++) strided[i] = -3.0;
        xchg(partner, dense, (int)n, MPI_DOUBLE, strided, 1, v3, tag, &st);
        bad = -1;
        for (i = 0; i < 3 * n + 1 && bad < 0; i++)
            if (strided[i] != (i % 3 == 0 && i / 3 < n ? dval(partner, i / 3) : -3.0)) bad = i;
        MT_CHECK(bad < 0, "contiguous->vector n=%ld: double %ld is %g", n, bad, bad >= 0 ? strided[bad] : 0.0);
        MT_CHECK_RC(MPI_Get_count(&st, v3, &count));
        MT_CHECK(count == (n ? 1 : 0), "contiguous->vector n=%ld: MPI_Get_count(vector) %d", n, count);

        /* vector -> vector of another shape (both sides gapped) */
        for (i = 0; i < 3 * n + 1; i++) strided[i] = (i % 3 == 0) ? dval(rank, i / 3) : -1.0;
        for (i = 0; i < 2 * n + 2; i++) strided2[i] = -5.0;
        xchg(partner, strided, 1, v3, strided2, 1, v2, tag, &st);
        bad = -1;
        for (i = 0; i < 2 * n + 2 && bad < 0; i++)
            if (strided2[i] != (i % 2 == 0 && i / 2 < n ? dval(partner, i / 2) : -5.0)) bad = i;
        MT_CHECK(bad < 0, "vector->vector n=%ld: double %ld is %g", n, bad, bad >= 0 ? strided2[bad] : 0.0);

        /* blocks of two -> every other: n rounded down to even */
        if (n >= 2) {
            const long m = n / 2 * 2;
            double *blocks = mt_malloc((size_t)(5 * (n / 2) + 1) * sizeof(double));
            for (i = 0; i < 5 * (n / 2) + 1; i++) blocks[i] = (i % 5 < 2) ? dval(rank, i / 5 * 2 + i % 5) : -1.0;
            for (i = 0; i < 2 * n + 2; i++) strided2[i] = -5.0;
            MPI_Datatype v2m;
            MT_CHECK_RC(MPI_Type_vector((int)m, 1, 2, MPI_DOUBLE, &v2m));
            MT_CHECK_RC(MPI_Type_commit(&v2m));
            xchg(partner, blocks, 1, pairs, strided2, 1, v2m, tag, &st);
            bad = -1;
            for (i = 0; i < 2 * n + 2 && bad < 0; i++)
                if (strided2[i] != (i % 2 == 0 && i / 2 < m ? dval(partner, i / 2) : -5.0)) bad = i;
            MT_CHECK(bad < 0, "blocks->vector n=%ld: double %ld is %g", n, bad, bad >= 0 ? strided2[bad] : 0.0);
            MT_CHECK_RC(MPI_Type_free(&v2m));
            free(blocks);
        }
        MT_CHECK_RC(MPI_Type_free(&v3));
        MT_CHECK_RC(MPI_Type_free(&v2));
        MT_CHECK_RC(MPI_Type_free(&pairs));
        free(strided);
        free(dense);
        free(strided2);
    }
}

/* indexed ints -> struct of int fields: 6 ints per element either way. */
struct six { int a[2]; double pad; int b; int c[3]; };

static void test_indexed_struct(int rank, int partner)
{
    static const int bl[3] = {3, 1, 2}, disp[3] = {0, 10, 5};
    static const int counts[] = {1, 50, 700, 3000};
    const int order[6] = {0, 1, 2, 10, 5, 6}; /* int offsets of the indexed type map */
    int sbl[3] = {2, 1, 3};
    MPI_Aint sdisp[3] = {offsetof(struct six, a), offsetof(struct six, b), offsetof(struct six, c)};
    MPI_Datatype sty[3] = {MPI_INT, MPI_INT, MPI_INT}, ix, st_type, st_resized;
    size_t k;
    MT_CHECK_RC(MPI_Type_indexed(3, bl, disp, MPI_INT, &ix));
    MT_CHECK_RC(MPI_Type_commit(&ix));
    MT_CHECK_RC(MPI_Type_create_struct(3, sbl, sdisp, sty, &st_type));
    MT_CHECK_RC(MPI_Type_create_resized(st_type, 0, sizeof(struct six), &st_resized));
    MT_CHECK_RC(MPI_Type_commit(&st_resized));
    for (k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        const int n = counts[k];
        int *src = mt_malloc((size_t)n * 12 * sizeof(int));
        struct six *dst = mt_malloc((size_t)n * sizeof(struct six));
        MPI_Aint lb, ext;
        int e, j, bad = -1;
        MPI_Type_get_extent(ix, &lb, &ext); /* 12 ints: the block at 10 ends at 12 */
        for (e = 0; e < n * 12; e++) src[e] = rank * 1000000 + e;
        memset(dst, 0x77, (size_t)n * sizeof(struct six));
        xchg(partner, src, n, ix, dst, n, st_resized, 200 + (int)k, MPI_STATUS_IGNORE);
        for (e = 0; e < n && bad < 0; e++) {
            const int *got[6] = {&dst[e].a[0], &dst[e].a[1], &dst[e].b, &dst[e].c[0], &dst[e].c[1], &dst[e].c[2]};
            for (j = 0; j < 6; j++)
                if (*got[j] != partner * 1000000 + e * (int)(ext / 4) + order[j]) bad = e;
        }
        MT_CHECK(bad < 0, "indexed->struct count %d: element %d wrong", n, bad);
        free(src);
        free(dst);
    }
    MT_CHECK_RC(MPI_Type_free(&ix));
    MT_CHECK_RC(MPI_Type_free(&st_type));
    MT_CHECK_RC(MPI_Type_free(&st_resized));
}

/* 2-D halo exchange: my east interior column -> partner's west ghost column,
 * my south interior row -> partner's north ghost row. */
static void test_halo(int rank, int partner)
{
    static const int dims[][2] = {{8, 6}, {300, 40}, {40, 700}};
    size_t k;
    for (k = 0; k < sizeof dims / sizeof dims[0]; k++) {
        const int nx = dims[k][0], ny = dims[k][1], rows = nx + 2, cols = ny + 2;
        int sizes[2] = {rows, cols}, sub_col[2] = {nx, 1}, sub_row[2] = {1, ny};
        int east[2] = {1, ny}, west_ghost[2] = {1, 0}, south[2] = {nx, 1}, north_ghost[2] = {0, 1};
        MPI_Datatype tcol_send, tcol_recv, trow_send, trow_recv;
        double *a = mt_malloc((size_t)rows * cols * sizeof(double));
        int i, j, bad = 0;
        MPI_Request rq[2];
        for (i = 0; i < rows; i++)
            for (j = 0; j < cols; j++)
                a[i * cols + j] = (i >= 1 && i <= nx && j >= 1 && j <= ny) ? rank * 1e6 + i * 1000 + j : -1.0;
        MT_CHECK_RC(MPI_Type_create_subarray(2, sizes, sub_col, east, MPI_ORDER_C, MPI_DOUBLE, &tcol_send));
        MT_CHECK_RC(MPI_Type_create_subarray(2, sizes, sub_col, west_ghost, MPI_ORDER_C, MPI_DOUBLE, &tcol_recv));
        MT_CHECK_RC(MPI_Type_create_subarray(2, sizes, sub_row, south, MPI_ORDER_C, MPI_DOUBLE, &trow_send));
        MT_CHECK_RC(MPI_Type_create_subarray(2, sizes, sub_row, north_ghost, MPI_ORDER_C, MPI_DOUBLE, &trow_recv));
        MT_CHECK_RC(MPI_Type_commit(&tcol_send));
        MT_CHECK_RC(MPI_Type_commit(&tcol_recv));
        MT_CHECK_RC(MPI_Type_commit(&trow_send));
        MT_CHECK_RC(MPI_Type_commit(&trow_recv));
        MT_CHECK_RC(MPI_Irecv(a, 1, tcol_recv, partner, 300, MPI_COMM_WORLD, &rq[0]));
        MT_CHECK_RC(MPI_Irecv(a, 1, trow_recv, partner, 301, MPI_COMM_WORLD, &rq[1]));
        MT_CHECK_RC(MPI_Send(a, 1, tcol_send, partner, 300, MPI_COMM_WORLD));
        MT_CHECK_RC(MPI_Send(a, 1, trow_send, partner, 301, MPI_COMM_WORLD));
        MT_CHECK_RC(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        for (i = 0; i < rows; i++)
            for (j = 0; j < cols; j++) {
                double want;
                if (i >= 1 && i <= nx && j >= 1 && j <= ny) want = rank * 1e6 + i * 1000 + j;
                else if (j == 0 && i >= 1 && i <= nx) want = partner * 1e6 + i * 1000 + ny; /* partner's east column */
                else if (i == 0 && j >= 1 && j <= ny) want = partner * 1e6 + nx * 1000 + j; /* partner's south row */
                else want = -1.0;
                if (a[i * cols + j] != want) bad++;
            }
        MT_CHECK(bad == 0, "halo %dx%d: %d wrong values", nx, ny, bad);
        MPI_Type_free(&tcol_send);
        MPI_Type_free(&tcol_recv);
        MPI_Type_free(&trow_send);
        MPI_Type_free(&trow_recv);
        free(a);
    }
}

/* Element counts of partial data. */
struct dint { double d; int i; };

static MT_UNUSED void test_counts(int rank, int partner)
{
    int ints[7], got[15], count = -1;
    MPI_Count countx = -1;
    MPI_Status st;
    MPI_Datatype three, di, di3;
    int i;
    (void)rank;
    for (i = 0; i < 7; i++) ints[i] = i;
    MT_CHECK_RC(MPI_Type_contiguous(3, MPI_INT, &three));
    MT_CHECK_RC(MPI_Type_commit(&three));
    /* 7 ints into a buffer of 5 three-int elements: 2 whole elements and one int */
    xchg(partner, ints, 7, MPI_INT, got, 5, three, 400, &st);
    MT_CHECK_RC(MPI_Get_count(&st, three, &count));
    MT_CHECK(count == MPI_UNDEFINED, "7 ints as 3-int elements: MPI_Get_count %d, expected MPI_UNDEFINED", count);
    MT_CHECK_RC(MPI_Get_elements(&st, three, &count));
    MT_CHECK(count == 7, "7 ints as 3-int elements: MPI_Get_elements %d", count);
    MT_CHECK_RC(MPI_Get_elements_x(&st, three, &countx));
    MT_CHECK(countx == 7, "7 ints as 3-int elements: MPI_Get_elements_x %lld", (long long)countx);
    MT_CHECK_RC(MPI_Get_count(&st, MPI_INT, &count));
    MT_CHECK(count == 7, "MPI_Get_count(MPI_INT) %d", count);
    MT_CHECK(got[6] == 6, "the partial element's int is %d", got[6]);

    /* {double, int} pairs: send double, int, double (20 bytes) as a struct;
     * receive as {double, int} with padding: 1 whole pair and a double. */
    {
        struct { double d1; int i; double d2; } s3 = {1.5, 42, -2.5};
        int bl[3] = {1, 1, 1};
        MPI_Aint d3[3] = {0, 8, 16};
        MPI_Datatype t3[3] = {MPI_DOUBLE, MPI_INT, MPI_DOUBLE};
        int bl2[2] = {1, 1};
        MPI_Aint d2[2] = {offsetof(struct dint, d), offsetof(struct dint, i)};
        MPI_Datatype t2[2] = {MPI_DOUBLE, MPI_INT};
        struct dint r[4];
        memset(r, 0, sizeof r);
        MT_CHECK_RC(MPI_Type_create_struct(3, bl, d3, t3, &di3));
        MT_CHECK_RC(MPI_Type_commit(&di3));
        MT_CHECK_RC(MPI_Type_create_struct(2, bl2, d2, t2, &di));
        MT_CHECK_RC(MPI_Type_commit(&di));
        xchg(partner, &s3, 1, di3, r, 4, di, 401, &st);
        MT_CHECK_RC(MPI_Get_count(&st, di, &count));
        MT_CHECK(count == MPI_UNDEFINED, "20 bytes as {double,int}: MPI_Get_count %d", count);
        MT_CHECK_RC(MPI_Get_elements(&st, di, &count));
        MT_CHECK(count == 3, "20 bytes as {double,int}: MPI_Get_elements %d, expected 3", count);
        MT_CHECK(r[0].d == 1.5 && r[0].i == 42 && r[1].d == -2.5, "pairs received %g %d %g", r[0].d, r[0].i, r[1].d);
        /* The same with MPI_DOUBLE_INT, which MPI 3.1 (5.9.4) defines as that
         * struct (Open MPI 4.1 says MPI_UNDEFINED instead). */
        xchg(partner, &s3, 1, di3, r, 4, MPI_DOUBLE_INT, 402, &st);
        MT_CHECK_RC(MPI_Get_elements(&st, MPI_DOUBLE_INT, &count));
#ifndef OPEN_MPI
        MT_CHECK(count == 3, "20 bytes as MPI_DOUBLE_INT: MPI_Get_elements %d, expected 3", count);
#endif
        MPI_Type_free(&di);
        MPI_Type_free(&di3);
    }
    /* 10 bytes as ints: the data ends inside a basic element */
    {
        unsigned char bytes[10] = {0};
        xchg(partner, bytes, 10, MPI_BYTE, got, 4, MPI_INT, 403, &st);
        MT_CHECK_RC(MPI_Get_elements(&st, MPI_INT, &count));
        MT_CHECK(count == MPI_UNDEFINED, "10 bytes as MPI_INT: MPI_Get_elements %d, expected MPI_UNDEFINED", count);
        MT_CHECK_RC(MPI_Get_elements(&st, three, &count));
        MT_CHECK(count == MPI_UNDEFINED, "10 bytes as 3 ints: MPI_Get_elements %d, expected MPI_UNDEFINED", count);
    }
    MPI_Type_free(&three);
}

/* Blocking exchange that returns the receive's error code (MPICH raises a
 * truncation found in MPI_Wait as fatal whatever the handler). */
static int xchg_blocking(int rank, int partner, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                         int rcount, MPI_Datatype rtype, int tag, MPI_Status *st)
{
    int rc;
    MPI_Request rq;
    if (partner == rank) {
        MT_CHECK_RC(MPI_Isend(sbuf, scount, stype, partner, tag, MPI_COMM_WORLD, &rq));
        rc = MPI_Recv(rbuf, rcount, rtype, partner, tag, MPI_COMM_WORLD, st);
        MT_CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else if (rank < partner) {
        MT_CHECK_RC(MPI_Send(sbuf, scount, stype, partner, tag, MPI_COMM_WORLD));
        rc = MPI_Recv(rbuf, rcount, rtype, partner, tag, MPI_COMM_WORLD, st);
    } else {
        rc = MPI_Recv(rbuf, rcount, rtype, partner, tag, MPI_COMM_WORLD, st);
        MT_CHECK_RC(MPI_Send(sbuf, scount, stype, partner, tag, MPI_COMM_WORLD));
    }
    return rc;
}

/* A non-contiguous receive too small for the message. */
static void test_truncation(int rank, int partner)
{
    const int n = 3000;
    double *s = mt_malloc(2 * n * sizeof(double)), *r = mt_malloc(2 * n * sizeof(double));
    MPI_Datatype v;
    MPI_Status st;
    int rc, cls = -1, i;
#ifdef MPICH
    /* MPICH 4.0 makes the truncation of a message to self fatal in the
     * sender's MPI_Wait, whatever the error handler. */
    if (partner == rank) {
        free(s);
        free(r);
        return;
    }
#endif
    for (i = 0; i < 2 * n; i++) s[i] = i;
    MT_CHECK_RC(MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &v));
    MT_CHECK_RC(MPI_Type_commit(&v));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /* small (inline) and large (rendezvous) */
    {
        MPI_Datatype five;
        MT_CHECK_RC(MPI_Type_vector(5, 1, 2, MPI_DOUBLE, &five));
        MT_CHECK_RC(MPI_Type_commit(&five));
        rc = xchg_blocking(rank, partner, s, 10, MPI_DOUBLE, r, 1, five, 500, &st);
        MPI_Error_class(rc, &cls);
        MT_CHECK(cls == MPI_ERR_TRUNCATE, "10 doubles into a vector of 5: class %d, expected MPI_ERR_TRUNCATE", cls);
        MPI_Type_free(&five);
    }
    {
        MPI_Datatype half;
        MT_CHECK_RC(MPI_Type_vector(n / 2, 1, 2, MPI_DOUBLE, &half));
        MT_CHECK_RC(MPI_Type_commit(&half));
        rc = xchg_blocking(rank, partner, s, 1, v, r, 1, half, 501, &st);
        MPI_Error_class(rc, &cls);
        MT_CHECK(cls == MPI_ERR_TRUNCATE, "vector of %d into vector of %d: class %d, expected MPI_ERR_TRUNCATE", n, n / 2, cls);
        MPI_Type_free(&half);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Type_free(&v);
    free(s);
    free(r);
}

/* Types freed while operations using them are pending. */
static void test_free_pending(int rank, int partner)
{
    const int n = 300000; /* 2.4 MB: rendezvous, the receiver copies from our buffer later */
    double *s = mt_malloc(3 * (size_t)n * sizeof(double)), *r = mt_malloc((size_t)n * sizeof(double));
    double *r2 = mt_malloc(3 * (size_t)n * sizeof(double));
    MPI_Datatype v, vr;
    MPI_Request sreq, rreq, preq;
    int i, bad = -1, round;
    for (i = 0; i < 3 * n; i++) s[i] = (i % 3 == 1) ? dval(rank, i / 3) : -1.0;
    MT_CHECK_RC(MPI_Type_vector(n, 1, 3, MPI_DOUBLE, &v));
    MT_CHECK_RC(MPI_Type_commit(&v));
    /* Isend with the type (at offset 1 double), free the type, then receive. */
    MT_CHECK_RC(MPI_Isend(s + 1, 1, v, partner, 600, MPI_COMM_WORLD, &sreq));
    MT_CHECK_RC(MPI_Type_free(&v));
    MT_CHECK(v == MPI_DATATYPE_NULL, "MPI_Type_free left the handle set");
    mt_sleep_ms(5);
    MT_CHECK_RC(MPI_Recv(r, n, MPI_DOUBLE, partner, 600, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MT_CHECK_RC(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
    for (i = 0; i < n && bad < 0; i++)
        if (r[i] != dval(partner, i)) bad = i;
    MT_CHECK(bad < 0, "Isend with a freed type: element %d is %g", bad, bad >= 0 ? r[bad] : 0.0);

    /* Irecv with a type, free it, then the partner sends. */
    MT_CHECK_RC(MPI_Type_vector(n, 1, 3, MPI_DOUBLE, &vr));
    MT_CHECK_RC(MPI_Type_commit(&vr));
    for (i = 0; i < 3 * n; i++) r2[i] = -9.0;
    MT_CHECK_RC(MPI_Irecv(r2 + 2, 1, vr, partner, 601, MPI_COMM_WORLD, &rreq));
    MT_CHECK_RC(MPI_Type_free(&vr));
    for (i = 0; i < n; i++) r[i] = dval(rank, i);
    MT_CHECK_RC(MPI_Send(r, n, MPI_DOUBLE, partner, 601, MPI_COMM_WORLD));
    MT_CHECK_RC(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
    bad = -1;
    for (i = 0; i < 3 * n && bad < 0; i++)
        if (r2[i] != (i % 3 == 2 ? dval(partner, i / 3) : -9.0)) bad = i;
    MT_CHECK(bad < 0, "Irecv with a freed type: double %d is %g", bad, bad >= 0 ? r2[bad] : 0.0);

    /* A persistent send keeps its type over several starts. */
    MT_CHECK_RC(MPI_Type_vector(1000, 1, 3, MPI_DOUBLE, &v));
    MT_CHECK_RC(MPI_Type_commit(&v));
    MT_CHECK_RC(MPI_Send_init(s + 1, 1, v, partner, 602, MPI_COMM_WORLD, &preq));
    MT_CHECK_RC(MPI_Type_free(&v));
    for (round = 0; round < 3; round++) {
        MT_CHECK_RC(MPI_Irecv(r, 1000, MPI_DOUBLE, partner, 602, MPI_COMM_WORLD, &rreq));
        MT_CHECK_RC(MPI_Start(&preq));
        MT_CHECK_RC(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
        MT_CHECK_RC(MPI_Wait(&preq, MPI_STATUS_IGNORE));
        bad = -1;
        for (i = 0; i < 1000 && bad < 0; i++)
            if (r[i] != dval(partner, i)) bad = i;
        MT_CHECK(bad < 0, "persistent send round %d: element %d is %g", round, bad, bad >= 0 ? r[bad] : 0.0);
    }
    MT_CHECK_RC(MPI_Request_free(&preq));
    free(s);
    free(r);
    free(r2);
}

/* MPI_Sendrecv and MPI_Bsend with derived types. */
static void test_sendrecv_bsend(int rank, int partner)
{
    int src[40], dst[40], i, bad = -1, size = 0;
    MPI_Datatype evens;
    void *buf, *detached;
    for (i = 0; i < 40; i++) src[i] = rank * 100 + i;
    MT_CHECK_RC(MPI_Type_vector(20, 1, 2, MPI_INT, &evens));
    MT_CHECK_RC(MPI_Type_commit(&evens));
    for (i = 0; i < 40; i++) dst[i] = -1;
    MT_CHECK_RC(MPI_Sendrecv(src, 1, evens, partner, 700, dst + 1, 20, MPI_INT, partner, 700, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE));
    for (i = 0; i < 20 && bad < 0; i++)
        if (dst[1 + i] != partner * 100 + 2 * i) bad = i;
    MT_CHECK(bad < 0 && dst[0] == -1 && dst[21] == -1, "MPI_Sendrecv vector->contiguous: element %d wrong", bad);

    MT_CHECK_RC(MPI_Pack_size(1, evens, MPI_COMM_WORLD, &size));
    size += MPI_BSEND_OVERHEAD;
    buf = mt_malloc((size_t)size);
    MT_CHECK_RC(MPI_Buffer_attach(buf, size));
    for (i = 0; i < 40; i++) dst[i] = -1;
    {
        MPI_Request rq;
        MT_CHECK_RC(MPI_Irecv(dst, 1, evens, partner, 701, MPI_COMM_WORLD, &rq));
        MT_CHECK_RC(MPI_Bsend(src + 1, 1, evens, partner, 701, MPI_COMM_WORLD));
        MT_CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    }
    bad = -1;
    for (i = 0; i < 40 && bad < 0; i++)
        if (dst[i] != (i % 2 == 0 ? partner * 100 + i + 1 : -1)) bad = i;
    MT_CHECK(bad < 0, "MPI_Bsend of a vector: int %d is %d", bad, bad >= 0 ? dst[bad] : 0);
    MT_CHECK_RC(MPI_Buffer_detach(&detached, &size));
    free(buf);
    MPI_Type_free(&evens);
}

int main(int argc, char **argv)
{
    int rank, size, partner;
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    partner = mt_partner(rank, size);
    test_vectors(rank, partner);
    test_indexed_struct(rank, partner);
    test_halo(rank, partner);
#ifndef MPICH
    /* MPICH 4.0 cannot receive a message that ends inside an element (it
     * reports a truncation, or asserts for a message to self). */
    test_counts(rank, partner);
#endif
    test_truncation(rank, partner);
    test_free_pending(rank, partner);
    test_sendrecv_bsend(rank, partner);
    return mt_finalize();
}
