/*
 * t_errors_args: argument errors across the object model, under
 * MPI_ERRORS_RETURN. Each erroneous call must return the standard class and
 * leave the job running (a verified ring exchange at the end):
 *   MPI_DATATYPE_NULL in Send / Recv / Get_count / Type_size -> MPI_ERR_TYPE
 *   an uncommitted derived datatype in a send or receive   -> MPI_ERR_TYPE
 *   a freed communicator (its handle is MPI_COMM_NULL)       -> MPI_ERR_COMM
 *   a rank outside the communicator, on WORLD and on a dup  -> MPI_ERR_RANK
 *   a negative tag, a tag above MPI_TAG_UB (if any int is)  -> MPI_ERR_TAG
 *   a negative count (Send, Type_contiguous)                 -> MPI_ERR_COUNT
 *   NULL output pointers (Comm_size, Comm_rank, Type_size; Get_count except
 *   under Open MPI, which does not check it)                  -> MPI_ERR_ARG
 * and a datatype whose size does not fit an int: MPI_Type_size says
 * MPI_UNDEFINED (3.1, 4.1.5), MPI_Type_size_x the true size.
 *
 * With HMPI only (its handles carry a magic number; another MPI may crash on
 * a garbage handle, which the standard allows): garbage datatype,
 * communicator, info and error handler handles.
 *
 * Collectives are not used (no invalid-root case yet).
 */
#include "mpitest.h"

#include <limits.h>

static void datatype_errors(int rank, int size)
{
    int buf[8] = {0}, n;
    MPI_Status st;
    MPI_Datatype t, big, huge;
    MPI_Count sx;

    mt_expect_class(MPI_Send(buf, 1, MPI_DATATYPE_NULL, rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "Send(MPI_DATATYPE_NULL)");
    mt_expect_class(MPI_Recv(buf, 1, MPI_DATATYPE_NULL, rank, 0, MPI_COMM_WORLD, &st), MPI_ERR_TYPE, "Recv(MPI_DATATYPE_NULL)");
    mt_expect_class(MPI_Type_size(MPI_DATATYPE_NULL, &n), MPI_ERR_TYPE, "Type_size(MPI_DATATYPE_NULL)");

    /* MPI_Get_count with MPI_DATATYPE_NULL, on a real status. */
    n = 5;
    MT_CHECK_RC(MPI_Sendrecv(&n, 1, MPI_INT, rank, 1, buf, 1, MPI_INT, rank, 1, MPI_COMM_WORLD, &st));
    mt_expect_class(MPI_Get_count(&st, MPI_DATATYPE_NULL, &n), MPI_ERR_TYPE, "Get_count(MPI_DATATYPE_NULL)");
#ifndef OPEN_MPI /* Open MPI 4 does not check this pointer (and crashes) */
    mt_expect_class(MPI_Get_count(&st, MPI_INT, NULL), MPI_ERR_ARG, "Get_count(count = NULL)");
#endif

    /* Uncommitted derived type: not usable for communication until committed. */
    MT_CHECK_RC(MPI_Type_contiguous(3, MPI_INT, &t));
    mt_expect_class(MPI_Send(buf, 1, t, rank, 2, MPI_COMM_WORLD), MPI_ERR_TYPE, "Send with an uncommitted datatype");
    /* Queries work on uncommitted types (4.1.5). */
    n = -1;
    MT_CHECK_RC(MPI_Type_size(t, &n));
    MT_CHECK(n == 3 * (int)sizeof(int), "Type_size of an uncommitted contiguous(3, MPI_INT): %d", n);
    MT_CHECK_RC(MPI_Type_commit(&t));
    buf[0] = 11, buf[1] = 12, buf[2] = 13;
    MT_CHECK_RC(MPI_Sendrecv(buf, 1, t, rank, 3, buf + 4, 1, t, rank, 3, MPI_COMM_WORLD, &st));
    MT_CHECK(buf[4] == 11 && buf[5] == 12 && buf[6] == 13, "committed type exchange: %d %d %d", buf[4], buf[5], buf[6]);
    MT_CHECK_RC(MPI_Type_free(&t));
    MT_CHECK(t == MPI_DATATYPE_NULL, "Type_free did not null the handle");
    mt_expect_class(MPI_Send(buf, 1, t, rank, 2, MPI_COMM_WORLD), MPI_ERR_TYPE, "Send with a freed datatype");

    /* Counts. */
    mt_expect_class(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT, "Type_contiguous(count = -1)");

    /* A type larger than an int can count: 2^20 x 4 KiB = 4 GiB. */
    MT_CHECK_RC(MPI_Type_contiguous(4096, MPI_BYTE, &big));
    MT_CHECK_RC(MPI_Type_contiguous(1 << 20, big, &huge));
    MT_CHECK_RC(MPI_Type_commit(&huge));
    MT_CHECK_RC(MPI_Type_size(huge, &n));
    MT_CHECK(n == MPI_UNDEFINED, "Type_size of a 4 GiB type: %d, expected MPI_UNDEFINED", n);
    MT_CHECK_RC(MPI_Type_size_x(huge, &sx));
    MT_CHECK(sx == (MPI_Count)4096 << 20, "Type_size_x of a 4 GiB type: %lld", (long long)sx);
    mt_expect_class(MPI_Type_size(huge, NULL), MPI_ERR_ARG, "Type_size(size = NULL)");
    MT_CHECK_RC(MPI_Type_free(&huge));
    MT_CHECK_RC(MPI_Type_free(&big));
    (void)size;
}

static void comm_errors(int rank, int size)
{
    MPI_Comm d, stale;
    int x = 0, n;
    MPI_Status st;

    MT_CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    /* The dup inherits MPI_ERRORS_RETURN. */
    mt_expect_class(MPI_Send(&x, 1, MPI_INT, size, 0, d), MPI_ERR_RANK, "Send to rank size on a dup");
    mt_expect_class(MPI_Recv(&x, 1, MPI_INT, -5, 0, d, &st), MPI_ERR_RANK, "Recv from rank -5 on a dup");
    MT_CHECK_RC(MPI_Comm_free(&d));
    MT_CHECK(d == MPI_COMM_NULL, "Comm_free did not null the handle");
    stale = d;
    mt_expect_class(MPI_Send(&x, 1, MPI_INT, rank, 0, stale), MPI_ERR_COMM, "Send on a freed communicator");
    mt_expect_class(MPI_Comm_size(stale, &n), MPI_ERR_COMM, "Comm_size of a freed communicator");
    mt_expect_class(MPI_Comm_free(&stale), MPI_ERR_COMM, "Comm_free of a freed communicator");

    mt_expect_class(MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "Send to rank size");
    mt_expect_class(MPI_Send(&x, 1, MPI_INT, -7, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "Send to rank -7");
    mt_expect_class(MPI_Comm_size(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "Comm_size(size = NULL)");
    mt_expect_class(MPI_Comm_rank(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "Comm_rank(rank = NULL)");
}

static void tag_errors(int rank)
{
    int x = 0, flag, *ub = NULL;
    mt_expect_class(MPI_Send(&x, 1, MPI_INT, rank, -1, MPI_COMM_WORLD), MPI_ERR_TAG, "Send with tag -1");
    mt_expect_class(MPI_Send(&x, 1, MPI_INT, rank, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG, "Send with MPI_ANY_TAG");
    MT_CHECK_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag));
    if (flag && ub && *ub < INT_MAX)
        mt_expect_class(MPI_Send(&x, 1, MPI_INT, rank, *ub + 1, MPI_COMM_WORLD), MPI_ERR_TAG, "Send with tag MPI_TAG_UB + 1");
}

static void count_errors(int rank)
{
    int x = 0;
    mt_expect_class(MPI_Send(&x, -1, MPI_INT, rank, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "Send with count -1");
}

#ifdef HMPI
static void garbage_handles(int rank)
{
    /* Zeroed memory is never a valid object. */
    static const long long zeros[16];
    int x = 0, n;
    MPI_Datatype gt = (MPI_Datatype)(void *)zeros;
    MPI_Comm gc = (MPI_Comm)(void *)zeros;
    MPI_Info gi = (MPI_Info)(void *)zeros;
    MPI_Errhandler ge = (MPI_Errhandler)(void *)zeros;
    mt_expect_class(MPI_Send(&x, 1, gt, rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "Send with a garbage datatype");
    mt_expect_class(MPI_Send(&x, 1, MPI_INT, rank, 0, gc), MPI_ERR_COMM, "Send on a garbage communicator");
    mt_expect_class(MPI_Info_get_nkeys(gi, &n), MPI_ERR_INFO, "Info_get_nkeys on a garbage info");
    mt_expect_class(MPI_Comm_set_errhandler(MPI_COMM_WORLD, ge), MPI_ERR_ARG, "Comm_set_errhandler with a garbage handler");
}
#endif

/* The job still works: a verified ring exchange. */
static void ring(int rank, int size)
{
    int out[64], in[64], i, from = (rank + size - 1) % size;
    MPI_Status st;
    for (i = 0; i < 64; i++) out[i] = rank * 1000 + i;
    MT_CHECK_RC(MPI_Sendrecv(out, 64, MPI_INT, (rank + 1) % size, 7, in, 64, MPI_INT, from, 7, MPI_COMM_WORLD, &st));
    for (i = 0; i < 64; i++)
        if (in[i] != from * 1000 + i) break;
    MT_CHECK(i == 64, "ring exchange after the errors: element %d", i);
}

int main(int argc, char **argv)
{
    int rank, size;
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    datatype_errors(rank, size);
    comm_errors(rank, size);
    tag_errors(rank);
    count_errors(rank);
#ifdef HMPI
    garbage_handles(rank);
#endif
    ring(rank, size);

    mt_barrier(MPI_COMM_WORLD);
    return mt_finalize();
}
