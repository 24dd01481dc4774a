/*
 * t_coll_errors: argument errors of the collective operations under
 * MPI_ERRORS_RETURN: the call returns an error of the right class (checked
 * with MPI_Error_class) and the job goes on; after each group of errors a
 * valid collective on the same communicator must still work.
 *
 * Every error here is one that every process of the communicator makes
 * (all pass the same invalid argument, and only arguments that are
 * significant at every process), so no process is left waiting in a
 * collective the others never entered.
 *
 * Classes (MPI 3.1, 8.4): invalid root MPI_ERR_ROOT; MPI_DATATYPE_NULL or an
 * uncommitted datatype MPI_ERR_TYPE; negative count MPI_ERR_COUNT;
 * MPI_OP_NULL or an operation not defined on the datatype MPI_ERR_OP;
 * MPI_COMM_NULL MPI_ERR_COMM (and Scan/Exscan on an intercommunicator:
 * MPI_ERR_COMM); MPI_IN_PLACE where the standard does not allow it
 * MPI_ERR_BUFFER (MPI_ERR_ARG accepted); a NULL request
 * pointer MPI_ERR_REQUEST (MPI_ERR_ARG accepted); neighborhood collectives
 * without a topology MPI_ERR_TOPOLOGY. Where Open MPI answers with another
 * class the standard also permits, that class is accepted under OPEN_MPI
 * only.
 */
#include "mpitest.h"

static const char *class_name(int cls)
{
    static const char *const names[] = {"MPI_SUCCESS", "MPI_ERR_BUFFER", "MPI_ERR_COUNT", "MPI_ERR_TYPE",
                                        "MPI_ERR_TAG", "MPI_ERR_COMM", "MPI_ERR_RANK", "MPI_ERR_REQUEST",
                                        "MPI_ERR_ROOT", "MPI_ERR_GROUP", "MPI_ERR_OP", "MPI_ERR_TOPOLOGY",
                                        "MPI_ERR_DIMS", "MPI_ERR_ARG", "MPI_ERR_UNKNOWN", "MPI_ERR_TRUNCATE",
                                        "MPI_ERR_OTHER", "MPI_ERR_INTERN"};
    if (cls == MPI_ERR_BUFFER) return names[1];
    if (cls == MPI_ERR_COUNT) return names[2];
    if (cls == MPI_ERR_TYPE) return names[3];
    if (cls == MPI_ERR_TAG) return names[4];
    if (cls == MPI_ERR_COMM) return names[5];
    if (cls == MPI_ERR_RANK) return names[6];
    if (cls == MPI_ERR_REQUEST) return names[7];
    if (cls == MPI_ERR_ROOT) return names[8];
    if (cls == MPI_ERR_GROUP) return names[9];
    if (cls == MPI_ERR_OP) return names[10];
    if (cls == MPI_ERR_TOPOLOGY) return names[11];
    if (cls == MPI_ERR_DIMS) return names[12];
    if (cls == MPI_ERR_ARG) return names[13];
    if (cls == MPI_ERR_UNKNOWN) return names[14];
    if (cls == MPI_ERR_TRUNCATE) return names[15];
    if (cls == MPI_ERR_OTHER) return names[16];
    if (cls == MPI_ERR_INTERN) return names[17];
    if (cls == MPI_SUCCESS) return names[0];
    return "another class";
}

#define ANY_ERROR (-2)

/* rc must be an error of class want, or of class alt (alt >= 0), or any
 * error (alt == ANY_ERROR). */
static void expect2(int rc, int want, int alt, const char *what)
{
    int cls = rc == MPI_SUCCESS ? MPI_SUCCESS : mt_error_class(rc);
    if (cls == want || (alt >= 0 && cls == alt) || (alt == ANY_ERROR && cls != MPI_SUCCESS)) return;
    MT_CHECK(0, "%s: returned %s (%d), expected %s%s%s", what, class_name(cls), cls, class_name(want),
             alt >= 0 ? " or " : "", alt >= 0 ? class_name(alt) : "");
}

static void expect(int rc, int want, const char *what)
{
    expect2(rc, want, -1, what);
}

/* Open MPI's answer where it differs from ours and the standard allows both. */
#ifdef OPEN_MPI
#define OMPI_ALT(cls) (cls)
#else
#define OMPI_ALT(cls) (-1)
#endif
/* Open MPI 4.1 answers a neighborhood collective on a communicator without
 * a topology with MPI_ERR_INTERN, MPI_ERR_COMM or MPI_ERR_ARG depending on
 * the function: any error there. */
#define OMPI_NOTOPO OMPI_ALT(ANY_ERROR)

/* A valid collective on comm still works after the errors (on an
 * intercommunicator each group gets the sum over the other group). */
static void still_works(MPI_Comm comm, const char *after)
{
    int one = 1, sum = 0, n, rc, inter = 0;
    MPI_Comm_test_inter(comm, &inter);
    if (inter)
        MPI_Comm_remote_size(comm, &n);
    else
        MPI_Comm_size(comm, &n);
    rc = MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm);
    MT_CHECK(rc == MPI_SUCCESS && sum == n, "after %s: MPI_Allreduce returned %d, sum %d (expected %d)", after, rc,
             sum, n);
}

/* MPI_UNWEIGHTED-free helpers for the NULL-request checks: the pointer is
 * read through a volatile so the compiler does not see a literal NULL
 * passed to a parameter it might assume non-null. */
static MT_UNUSED MPI_Request *null_request(void)
{
    MPI_Request *volatile p = NULL;
    return p;
}

int main(int argc, char **argv)
{
    int rank, size, i, buf[64], rbuf[64 * 64], counts[64], displs[64];
    MPI_Comm comm = MPI_COMM_WORLD, dup;
    MPI_Datatype uncommitted, types[64];
    MPI_Request req;
    double d[4] = {1, 2, 3, 4}, dr[4];

    mt_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (size > 64) size = 64; /* the arrays below; errors only depend on arguments */
    MPI_Comm_dup(comm, &dup);
    for (i = 0; i < 64; i++) {
        buf[i] = i;
        counts[i] = 1;
        displs[i] = i;
        types[i] = MPI_INT;
    }
    MPI_Comm_size(comm, &size);

    /* ---- invalid root ---- */
    expect(MPI_Bcast(buf, 1, MPI_INT, size, comm), MPI_ERR_ROOT, "MPI_Bcast root = size");
    expect(MPI_Bcast(buf, 1, MPI_INT, -7, comm), MPI_ERR_ROOT, "MPI_Bcast root = -7");
    expect(MPI_Bcast(buf, 1, MPI_INT, MPI_ROOT, comm), MPI_ERR_ROOT, "MPI_Bcast root = MPI_ROOT on an intracommunicator");
    expect(MPI_Reduce(buf, rbuf, 1, MPI_INT, MPI_SUM, size + 3, comm), MPI_ERR_ROOT, "MPI_Reduce root = size + 3");
    expect(MPI_Gather(buf, 1, MPI_INT, rbuf, 1, MPI_INT, -1 - size, comm), MPI_ERR_ROOT, "MPI_Gather root < 0");
    expect(MPI_Gatherv(buf, 1, MPI_INT, rbuf, counts, displs, MPI_INT, size, comm), MPI_ERR_ROOT,
           "MPI_Gatherv root = size");
    expect(MPI_Scatter(buf, 1, MPI_INT, rbuf, 1, MPI_INT, size, comm), MPI_ERR_ROOT, "MPI_Scatter root = size");
    expect(MPI_Scatterv(rbuf, counts, displs, MPI_INT, buf, 1, MPI_INT, size, comm), MPI_ERR_ROOT,
           "MPI_Scatterv root = size");
    req = MPI_REQUEST_NULL;
    expect(MPI_Ibcast(buf, 1, MPI_INT, size, comm, &req), MPI_ERR_ROOT, "MPI_Ibcast root = size");
    MT_CHECK(req == MPI_REQUEST_NULL, "MPI_Ibcast with an error left an active request");
    expect(MPI_Ireduce(buf, rbuf, 1, MPI_INT, MPI_SUM, size, comm, &req), MPI_ERR_ROOT, "MPI_Ireduce root = size");
    expect(MPI_Igather(buf, 1, MPI_INT, rbuf, 1, MPI_INT, size, comm, &req), MPI_ERR_ROOT, "MPI_Igather root = size");
    expect(MPI_Iscatterv(rbuf, counts, displs, MPI_INT, buf, 1, MPI_INT, size, comm, &req), MPI_ERR_ROOT,
           "MPI_Iscatterv root = size");
    still_works(comm, "invalid roots");

    /* ---- datatypes ---- */
    expect(MPI_Bcast(buf, 1, MPI_DATATYPE_NULL, 0, comm), MPI_ERR_TYPE, "MPI_Bcast MPI_DATATYPE_NULL");
    /* Open MPI checks the operation against the datatype first: MPI_ERR_OP */
    expect2(MPI_Allreduce(buf, rbuf, 1, MPI_DATATYPE_NULL, MPI_SUM, comm), MPI_ERR_TYPE, OMPI_ALT(MPI_ERR_OP),
            "MPI_Allreduce MPI_DATATYPE_NULL");
    expect(MPI_Allgather(buf, 1, MPI_DATATYPE_NULL, rbuf, 1, MPI_INT, comm), MPI_ERR_TYPE,
           "MPI_Allgather sendtype MPI_DATATYPE_NULL");
    expect(MPI_Allgather(buf, 1, MPI_INT, rbuf, 1, MPI_DATATYPE_NULL, comm), MPI_ERR_TYPE,
           "MPI_Allgather recvtype MPI_DATATYPE_NULL");
    expect(MPI_Alltoall(buf, 1, MPI_INT, rbuf, 1, MPI_DATATYPE_NULL, comm), MPI_ERR_TYPE,
           "MPI_Alltoall recvtype MPI_DATATYPE_NULL");
    types[size - 1] = MPI_DATATYPE_NULL;
    expect(MPI_Alltoallw(buf, counts, displs, types, rbuf, counts, displs, types, comm), MPI_ERR_TYPE,
           "MPI_Alltoallw a MPI_DATATYPE_NULL in the type arrays");
    types[size - 1] = MPI_INT;
    expect2(MPI_Iallreduce(buf, rbuf, 1, MPI_DATATYPE_NULL, MPI_SUM, comm, &req), MPI_ERR_TYPE, OMPI_ALT(MPI_ERR_OP),
            "MPI_Iallreduce MPI_DATATYPE_NULL");
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    expect(MPI_Bcast(buf, 1, uncommitted, 0, comm), MPI_ERR_TYPE, "MPI_Bcast with an uncommitted datatype");
    expect(MPI_Allgather(buf, 1, uncommitted, rbuf, 1, uncommitted, comm), MPI_ERR_TYPE,
           "MPI_Allgather with an uncommitted datatype");
    MPI_Type_free(&uncommitted);
#ifndef OPEN_MPI
    {
        /* a freed datatype's handle (erroneous; an implementation that
         * validates handles reports it; Open MPI does not validate them) */
        MPI_Datatype t, stale;
        MPI_Type_contiguous(3, MPI_INT, &t);
        MPI_Type_commit(&t);
        stale = t;
        MPI_Type_free(&t);
        expect(MPI_Bcast(buf, 1, stale, 0, comm), MPI_ERR_TYPE, "MPI_Bcast with a freed datatype");
    }
#endif
    still_works(comm, "invalid datatypes");

    /* ---- counts ---- */
    expect(MPI_Bcast(buf, -1, MPI_INT, 0, comm), MPI_ERR_COUNT, "MPI_Bcast count -1");
    expect(MPI_Allreduce(buf, rbuf, -5, MPI_INT, MPI_SUM, comm), MPI_ERR_COUNT, "MPI_Allreduce count -5");
    expect(MPI_Reduce(buf, rbuf, -1, MPI_INT, MPI_SUM, 0, comm), MPI_ERR_COUNT, "MPI_Reduce count -1");
    expect(MPI_Allgather(buf, -1, MPI_INT, rbuf, -1, MPI_INT, comm), MPI_ERR_COUNT, "MPI_Allgather counts -1");
    expect(MPI_Alltoall(buf, -2, MPI_INT, rbuf, -2, MPI_INT, comm), MPI_ERR_COUNT, "MPI_Alltoall counts -2");
    counts[0] = -1;
    expect(MPI_Alltoallv(buf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, comm), MPI_ERR_COUNT,
           "MPI_Alltoallv a negative count");
    expect(MPI_Reduce_scatter(buf, rbuf, counts, MPI_INT, MPI_SUM, comm), MPI_ERR_COUNT,
           "MPI_Reduce_scatter a negative count");
#ifndef OPEN_MPI
    /* Open MPI 4.1 does not check Allgatherv's recvcounts: it copies a
     * negative number of bytes (a crash) */
    expect(MPI_Allgatherv(buf, 1, MPI_INT, rbuf, counts, displs, MPI_INT, comm), MPI_ERR_COUNT,
           "MPI_Allgatherv a negative recvcount");
#endif
    counts[0] = 1;
    expect(MPI_Reduce_scatter_block(buf, rbuf, -1, MPI_INT, MPI_SUM, comm), MPI_ERR_COUNT,
           "MPI_Reduce_scatter_block recvcount -1");
    expect(MPI_Scan(buf, rbuf, -1, MPI_INT, MPI_SUM, comm), MPI_ERR_COUNT, "MPI_Scan count -1");
    expect(MPI_Exscan(buf, rbuf, -1, MPI_INT, MPI_SUM, comm), MPI_ERR_COUNT, "MPI_Exscan count -1");
    expect(MPI_Ibcast(buf, -1, MPI_INT, 0, comm, &req), MPI_ERR_COUNT, "MPI_Ibcast count -1");
    still_works(comm, "negative counts");

    /* ---- operations ---- */
    expect(MPI_Allreduce(buf, rbuf, 1, MPI_INT, MPI_OP_NULL, comm), MPI_ERR_OP, "MPI_Allreduce MPI_OP_NULL");
    expect(MPI_Reduce(buf, rbuf, 1, MPI_INT, MPI_OP_NULL, 0, comm), MPI_ERR_OP, "MPI_Reduce MPI_OP_NULL");
    expect(MPI_Allreduce(d, dr, 2, MPI_DOUBLE, MPI_BAND, comm), MPI_ERR_OP, "MPI_Allreduce MPI_BAND on MPI_DOUBLE");
    expect(MPI_Allreduce(d, dr, 2, MPI_DOUBLE, MPI_LXOR, comm), MPI_ERR_OP, "MPI_Allreduce MPI_LXOR on MPI_DOUBLE");
    expect(MPI_Allreduce(buf, rbuf, 2, MPI_INT, MPI_MAXLOC, comm), MPI_ERR_OP, "MPI_Allreduce MPI_MAXLOC on MPI_INT");
    expect(MPI_Allreduce(buf, rbuf, 1, MPI_2INT, MPI_SUM, comm), MPI_ERR_OP, "MPI_Allreduce MPI_SUM on MPI_2INT");
    expect(MPI_Reduce_scatter_block(d, dr, 1, MPI_DOUBLE, MPI_BOR, comm), MPI_ERR_OP,
           "MPI_Reduce_scatter_block MPI_BOR on MPI_DOUBLE");
    expect(MPI_Scan(d, dr, 1, MPI_DOUBLE, MPI_BXOR, comm), MPI_ERR_OP, "MPI_Scan MPI_BXOR on MPI_DOUBLE");
    expect(MPI_Iallreduce(buf, rbuf, 1, MPI_INT, MPI_OP_NULL, comm, &req), MPI_ERR_OP, "MPI_Iallreduce MPI_OP_NULL");
    still_works(comm, "invalid operations");

    /* ---- communicators ---- */
    expect(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Barrier MPI_COMM_NULL");
    expect(MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Bcast MPI_COMM_NULL");
    expect(MPI_Allreduce(buf, rbuf, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Allreduce MPI_COMM_NULL");
    expect(MPI_Alltoallw(buf, counts, displs, types, rbuf, counts, displs, types, MPI_COMM_NULL), MPI_ERR_COMM,
           "MPI_Alltoallw MPI_COMM_NULL");
    expect(MPI_Ibarrier(MPI_COMM_NULL, &req), MPI_ERR_COMM, "MPI_Ibarrier MPI_COMM_NULL");
#ifndef OPEN_MPI
    /* Open MPI 4.1 reads the topology of MPI_COMM_NULL before checking it (a crash) */
    expect(MPI_Neighbor_allgather(buf, 1, MPI_INT, rbuf, 1, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM,
           "MPI_Neighbor_allgather MPI_COMM_NULL");
#endif
    if (size >= 2) {
        /* Scan and Exscan are not defined on intercommunicators */
        MPI_Comm local, inter;
        int low = rank < size / 2;
        MPI_Comm_split(comm, low, rank, &local);
        MPI_Intercomm_create(local, 0, comm, low ? size / 2 : 0, 55, &inter);
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        expect(MPI_Scan(buf, rbuf, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_COMM, "MPI_Scan on an intercommunicator");
#ifndef OPEN_MPI
        /* Open MPI 4.1 calls a NULL function for this one (a crash) */
        expect(MPI_Exscan(buf, rbuf, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_COMM, "MPI_Exscan on an intercommunicator");
#endif
        expect(MPI_Iscan(buf, rbuf, 1, MPI_INT, MPI_SUM, inter, &req), MPI_ERR_COMM, "MPI_Iscan on an intercommunicator");
        /* an intercommunicator root must be MPI_ROOT, MPI_PROC_NULL or a rank of the other group */
        {
            int rsize;
            MPI_Comm_remote_size(inter, &rsize);
            expect(MPI_Bcast(buf, 1, MPI_INT, rsize + 5, inter), MPI_ERR_ROOT, "MPI_Bcast on an intercommunicator, root too large");
            expect(MPI_Reduce(buf, rbuf, 1, MPI_INT, MPI_SUM, -9, inter), MPI_ERR_ROOT,
                   "MPI_Reduce on an intercommunicator, root -9");
        }
        /* MPI_IN_PLACE is not allowed on intercommunicators */
        memcpy(rbuf, buf, sizeof(int) * 4);
        expect2(MPI_Allreduce(MPI_IN_PLACE, rbuf, 4, MPI_INT, MPI_SUM, inter), MPI_ERR_BUFFER, MPI_ERR_ARG,
                "MPI_Allreduce MPI_IN_PLACE on an intercommunicator");
        expect2(MPI_Allgather(MPI_IN_PLACE, 1, MPI_INT, rbuf, 1, MPI_INT, inter), MPI_ERR_BUFFER, MPI_ERR_ARG,
                "MPI_Allgather MPI_IN_PLACE on an intercommunicator");
        still_works(inter, "errors on an intercommunicator");
        MPI_Comm_free(&inter);
        MPI_Comm_free(&local);
    }
    still_works(comm, "invalid communicators");

    /* ---- MPI_IN_PLACE where not allowed (a NULL buffer is MPI_BOTTOM: not an error by itself) ---- */
    expect2(MPI_Allreduce(buf, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, comm), MPI_ERR_BUFFER, MPI_ERR_ARG,
            "MPI_Allreduce recvbuf MPI_IN_PLACE");
    expect2(MPI_Allgather(buf, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, comm), MPI_ERR_BUFFER, MPI_ERR_ARG,
            "MPI_Allgather recvbuf MPI_IN_PLACE");
    expect2(MPI_Alltoall(buf, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, comm), MPI_ERR_BUFFER, MPI_ERR_ARG,
            "MPI_Alltoall recvbuf MPI_IN_PLACE");
    expect2(MPI_Scan(buf, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, comm), MPI_ERR_BUFFER, MPI_ERR_ARG,
            "MPI_Scan recvbuf MPI_IN_PLACE");
    expect2(MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, 0, comm), MPI_ERR_BUFFER, MPI_ERR_ARG, "MPI_Bcast buffer MPI_IN_PLACE");
#ifndef OPEN_MPI
    /* the same memory as sendbuf and recvbuf (aliased arguments, MPI 3.1
     * 2.3; MPI_IN_PLACE is the way to share the buffer): an error where the
     * implementation checks it, which Open MPI does not */
    expect2(MPI_Allreduce(rbuf, rbuf, 4, MPI_INT, MPI_SUM, comm), MPI_ERR_BUFFER, MPI_ERR_ARG,
            "MPI_Allreduce sendbuf == recvbuf");
#endif
    still_works(comm, "invalid buffers");

    /* ---- NULL request pointer (Open MPI 4.1 does not check it: a crash) ---- */
#ifndef OPEN_MPI
    expect2(MPI_Ibarrier(comm, null_request()), MPI_ERR_REQUEST, MPI_ERR_ARG, "MPI_Ibarrier request NULL");
    expect2(MPI_Ibcast(buf, 1, MPI_INT, 0, comm, null_request()), MPI_ERR_REQUEST, MPI_ERR_ARG,
            "MPI_Ibcast request NULL");
    expect2(MPI_Iallreduce(buf, rbuf, 1, MPI_INT, MPI_SUM, comm, null_request()), MPI_ERR_REQUEST, MPI_ERR_ARG,
            "MPI_Iallreduce request NULL");
    expect2(MPI_Ialltoallw(buf, counts, displs, types, rbuf, counts, displs, types, comm, null_request()),
            MPI_ERR_REQUEST, MPI_ERR_ARG, "MPI_Ialltoallw request NULL");
    still_works(comm, "NULL request pointers");
#endif

    /* ---- neighborhood collectives without a topology ---- */
    expect2(MPI_Neighbor_allgather(buf, 1, MPI_INT, rbuf, 1, MPI_INT, dup), MPI_ERR_TOPOLOGY, OMPI_NOTOPO,
           "MPI_Neighbor_allgather without a topology");
    expect2(MPI_Neighbor_allgatherv(buf, 1, MPI_INT, rbuf, counts, displs, MPI_INT, dup), MPI_ERR_TOPOLOGY, OMPI_NOTOPO,
           "MPI_Neighbor_allgatherv without a topology");
    expect2(MPI_Neighbor_alltoall(buf, 1, MPI_INT, rbuf, 1, MPI_INT, dup), MPI_ERR_TOPOLOGY, OMPI_NOTOPO,
           "MPI_Neighbor_alltoall without a topology");
    expect2(MPI_Neighbor_alltoallv(buf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, dup), MPI_ERR_TOPOLOGY, OMPI_NOTOPO,
           "MPI_Neighbor_alltoallv without a topology");
    {
        MPI_Aint ad[64];
        for (i = 0; i < 64; i++) ad[i] = (MPI_Aint)(i * sizeof(int));
        expect2(MPI_Neighbor_alltoallw(buf, counts, ad, types, rbuf, counts, ad, types, dup), MPI_ERR_TOPOLOGY, OMPI_NOTOPO,
               "MPI_Neighbor_alltoallw without a topology");
        expect2(MPI_Ineighbor_alltoallw(buf, counts, ad, types, rbuf, counts, ad, types, dup, &req), MPI_ERR_TOPOLOGY, OMPI_NOTOPO,
               "MPI_Ineighbor_alltoallw without a topology");
    }
    expect2(MPI_Ineighbor_allgather(buf, 1, MPI_INT, rbuf, 1, MPI_INT, MPI_COMM_SELF, &req), MPI_ERR_TOPOLOGY, OMPI_NOTOPO,
           "MPI_Ineighbor_allgather on MPI_COMM_SELF");
    still_works(dup, "neighborhood collectives without a topology");

    /* ---- a receive side smaller than the data, on a communicator of one
     * (the own block's local copy): MPI_ERR_TRUNCATE, and what fits arrives ---- */
    {
        int two[2] = {41, 42}, got[2] = {-1, -1}, one = 1, zero = 0, twoc = 2;
        expect(MPI_Allgather(two, 2, MPI_INT, got, 1, MPI_INT, MPI_COMM_SELF), MPI_ERR_TRUNCATE,
               "MPI_Allgather 2 ints into 1 on MPI_COMM_SELF");
        MT_CHECK(got[0] == 41 && got[1] == -1, "MPI_Allgather truncated on MPI_COMM_SELF: got %d %d, expected 41 -1",
                 got[0], got[1]);
        expect(MPI_Gather(two, 2, MPI_INT, got, 1, MPI_INT, 0, MPI_COMM_SELF), MPI_ERR_TRUNCATE,
               "MPI_Gather 2 ints into 1 on MPI_COMM_SELF");
        expect(MPI_Scatterv(two, &twoc, &zero, MPI_INT, got, 1, MPI_INT, 0, MPI_COMM_SELF), MPI_ERR_TRUNCATE,
               "MPI_Scatterv 2 ints into 1 on MPI_COMM_SELF");
        expect(MPI_Alltoallv(two, &twoc, &zero, MPI_INT, got, &one, &zero, MPI_INT, MPI_COMM_SELF), MPI_ERR_TRUNCATE,
               "MPI_Alltoallv 2 ints into 1 on MPI_COMM_SELF");
        still_works(MPI_COMM_SELF, "truncated collectives on MPI_COMM_SELF");
    }

    /* ---- the error handler of the communicator is the one called ---- */
    {
        /* dup inherits MPI_ERRORS_RETURN from world; make a communicator
         * whose handler returns too and check the code is returned there */
        int code = MPI_Bcast(buf, -3, MPI_INT, 0, dup);
        expect(code, MPI_ERR_COUNT, "MPI_Bcast count -3 on a dup (inherited MPI_ERRORS_RETURN)");
    }
    still_works(dup, "all errors");
    MPI_Comm_free(&dup);
    return mt_finalize();
}
