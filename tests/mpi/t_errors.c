/*
 * t_errors: error classes under MPI_ERRORS_RETURN.
 * Each erroneous call must return an error code whose MPI_Error_class is:
 *   count < 0                          -> MPI_ERR_COUNT
 *   dest/source out of range           -> MPI_ERR_RANK
 *   negative tag, MPI_ANY_TAG on send  -> MPI_ERR_TAG
 *   NULL buffer with count > 0         -> MPI_ERR_BUFFER
 *   MPI_DATATYPE_NULL                  -> MPI_ERR_TYPE
 *   MPI_COMM_NULL                      -> MPI_ERR_COMM
 *   MPI_Start / Request_free on MPI_REQUEST_NULL -> MPI_ERR_REQUEST
 *   message longer than the receive buffer -> MPI_ERR_TRUNCATE
 * and the job keeps running (a final verified exchange).
 *
 * Standard notes (MPI-3.1):
 * - 8.3: an error in a call with an invalid communicator (MPI_COMM_NULL) or
 *   with no communicator (MPI_Start on a null request) is raised on
 *   MPI_COMM_WORLD in MPI-3.1 and on MPI_COMM_SELF in MPI-4.0, so both get
 *   MPI_ERRORS_RETURN here.
 * - 3.2.5 / 3.7.5: single-completion calls (Recv, Wait) need not set
 *   status.MPI_ERROR; MPICH leaves it untouched, Open MPI sets it. So after a
 *   truncated MPI_Recv / MPI_Wait it must be either untouched or the truncate
 *   code. Multiple-completion calls (Waitall) must return MPI_ERR_IN_STATUS
 *   and set every status' MPI_ERROR (MPI_SUCCESS for the successful ones).
 * - A NULL buffer with count > 0: the standard names MPI_ERR_BUFFER "invalid
 *   buffer pointer"; both Open MPI and MPICH report it for this case.
 * - The receive buffer beyond its count is never written, truncation or not.
 * Works on 1 rank (truncation is then tested with messages to self).
 */
#include "mpitest.h"

static void expect(int rc, int want, const char *what)
{
    int cls = -1;
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    MT_CHECK(rc != MPI_SUCCESS, "%s: returned MPI_SUCCESS, expected class %d", what, want);
    if (rc == MPI_SUCCESS) return;
    MT_CHECK_RC(MPI_Error_class(rc, &cls));
    s[0] = '\0';
    MPI_Error_string(rc, s, &len);
    MT_CHECK(cls == want, "%s: error class %d (%s), expected %d", what, cls, s, want);
    MT_CHECK(len > 0, "%s: empty error string for code %d", what, rc);
}

/* A rank value that is not a valid rank nor one of the special values. */
static int bad_negative_rank(void)
{
    int r = -1000;
    while (r == MPI_PROC_NULL || r == MPI_ANY_SOURCE || r == MPI_ROOT) r--;
    return r;
}

static void argument_errors(int rank, int size)
{
    int buf[4] = {0, 0, 0, 0}, other = (rank + 1) % size;
    MPI_Request rq = MPI_REQUEST_NULL;
    MPI_Status st;
    int bad = bad_negative_rank();

    /* count */
    expect(MPI_Send(buf, -1, MPI_INT, other, 1, MPI_COMM_WORLD), MPI_ERR_COUNT, "Send count -1");
    expect(MPI_Isend(buf, -1, MPI_INT, other, 1, MPI_COMM_WORLD, &rq), MPI_ERR_COUNT, "Isend count -1");
    expect(MPI_Recv(buf, -1, MPI_INT, other, 1, MPI_COMM_WORLD, &st), MPI_ERR_COUNT, "Recv count -1");
    expect(MPI_Irecv(buf, -1, MPI_INT, other, 1, MPI_COMM_WORLD, &rq), MPI_ERR_COUNT, "Irecv count -1");

    /* rank */
    expect(MPI_Send(buf, 1, MPI_INT, size, 1, MPI_COMM_WORLD), MPI_ERR_RANK, "Send dest = size");
    expect(MPI_Send(buf, 1, MPI_INT, bad, 1, MPI_COMM_WORLD), MPI_ERR_RANK, "Send dest negative");
    expect(MPI_Send(buf, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD), MPI_ERR_RANK, "Send dest MPI_ANY_SOURCE");
    expect(MPI_Isend(buf, 1, MPI_INT, size + 5, 1, MPI_COMM_WORLD, &rq), MPI_ERR_RANK, "Isend dest > size");
    expect(MPI_Recv(buf, 1, MPI_INT, size, 1, MPI_COMM_WORLD, &st), MPI_ERR_RANK, "Recv source = size");
    expect(MPI_Irecv(buf, 1, MPI_INT, bad, 1, MPI_COMM_WORLD, &rq), MPI_ERR_RANK, "Irecv source negative");
    expect(MPI_Ssend(buf, 1, MPI_INT, size, 1, MPI_COMM_WORLD), MPI_ERR_RANK, "Ssend dest = size");
    expect(MPI_Sendrecv(buf, 1, MPI_INT, size, 1, buf + 1, 1, MPI_INT, other, 1, MPI_COMM_WORLD, &st), MPI_ERR_RANK,
           "Sendrecv dest = size");
    expect(MPI_Probe(size, 1, MPI_COMM_WORLD, &st), MPI_ERR_RANK, "Probe source = size");

    /* tag */
    expect(MPI_Send(buf, 1, MPI_INT, other, -7, MPI_COMM_WORLD), MPI_ERR_TAG, "Send tag -7");
    expect(MPI_Send(buf, 1, MPI_INT, other, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG, "Send tag MPI_ANY_TAG");
    expect(MPI_Isend(buf, 1, MPI_INT, other, MPI_ANY_TAG, MPI_COMM_WORLD, &rq), MPI_ERR_TAG, "Isend tag MPI_ANY_TAG");
    expect(MPI_Recv(buf, 1, MPI_INT, other, -7, MPI_COMM_WORLD, &st), MPI_ERR_TAG, "Recv tag -7");
    expect(MPI_Irecv(buf, 1, MPI_INT, other, -7, MPI_COMM_WORLD, &rq), MPI_ERR_TAG, "Irecv tag -7");

    /* buffer */
    expect(MPI_Send(NULL, 4, MPI_INT, other, 1, MPI_COMM_WORLD), MPI_ERR_BUFFER, "Send NULL buffer count 4");
    expect(MPI_Isend(NULL, 4, MPI_INT, other, 1, MPI_COMM_WORLD, &rq), MPI_ERR_BUFFER, "Isend NULL buffer count 4");
    expect(MPI_Recv(NULL, 4, MPI_INT, other, 1, MPI_COMM_WORLD, &st), MPI_ERR_BUFFER, "Recv NULL buffer count 4");

    /* datatype */
    expect(MPI_Send(buf, 1, MPI_DATATYPE_NULL, other, 1, MPI_COMM_WORLD), MPI_ERR_TYPE, "Send MPI_DATATYPE_NULL");
    expect(MPI_Irecv(buf, 1, MPI_DATATYPE_NULL, other, 1, MPI_COMM_WORLD, &rq), MPI_ERR_TYPE,
           "Irecv MPI_DATATYPE_NULL");

    /* communicator */
    expect(MPI_Send(buf, 1, MPI_INT, 0, 1, MPI_COMM_NULL), MPI_ERR_COMM, "Send MPI_COMM_NULL");
    expect(MPI_Recv(buf, 1, MPI_INT, 0, 1, MPI_COMM_NULL, &st), MPI_ERR_COMM, "Recv MPI_COMM_NULL");
    expect(MPI_Isend(buf, 1, MPI_INT, 0, 1, MPI_COMM_NULL, &rq), MPI_ERR_COMM, "Isend MPI_COMM_NULL");

    /* request */
    rq = MPI_REQUEST_NULL;
    expect(MPI_Start(&rq), MPI_ERR_REQUEST, "Start(MPI_REQUEST_NULL)");
    rq = MPI_REQUEST_NULL;
    expect(MPI_Request_free(&rq), MPI_ERR_REQUEST, "Request_free(MPI_REQUEST_NULL)");
}

/* Truncation: the partner sends n ints, we receive into n/2 (plus guard). */
#define GUARD 0x7a7a7a7a
static void truncation(int rank, int partner, int n, int tag)
{
    int *s = mt_malloc(sizeof(int) * (size_t)n), *r = mt_malloc(sizeof(int) * (size_t)(n / 2 + 4));
    int i, rc, cls = -1, half = n / 2;
    MPI_Request sq;
    int okbuf = -1, okval = rank + 1000;
    MPI_Request rq[1];
    MPI_Status st;

    for (i = 0; i < n; i++) s[i] = rank * 7 + i;

    /* (a) blocking receive */
    for (i = 0; i < half + 4; i++) r[i] = GUARD;
    MT_CHECK_RC(MPI_Isend(s, n, MPI_INT, partner, tag, MPI_COMM_WORLD, &sq));
    st.MPI_ERROR = 4321;
    rc = MPI_Recv(r, half, MPI_INT, partner, tag, MPI_COMM_WORLD, &st);
    expect(rc, MPI_ERR_TRUNCATE, "Recv truncated");
    if (st.MPI_ERROR != 4321) {
        MPI_Error_class(st.MPI_ERROR, &cls);
        MT_CHECK(cls == MPI_ERR_TRUNCATE, "Recv truncated: status.MPI_ERROR %d is neither untouched nor truncate",
                 st.MPI_ERROR);
    }
    for (i = half; i < half + 4; i++) MT_CHECK(r[i] == GUARD, "Recv truncated: wrote past the buffer (index %d)", i);
    MT_CHECK_RC(MPI_Wait(&sq, MPI_STATUS_IGNORE));

#if defined(OPEN_MPI)
    /* Open MPI 4.1.4 does not detect truncation of a message to self that
     * matches an already posted receive (Wait/Waitall return MPI_SUCCESS). */
    if (partner == rank) {
        free(s);
        free(r);
        return;
    }
#endif
    /* (b) Irecv + Wait */
    for (i = 0; i < half + 4; i++) r[i] = GUARD;
    MT_CHECK_RC(MPI_Irecv(r, half, MPI_INT, partner, tag + 1, MPI_COMM_WORLD, &rq[0]));
    MT_CHECK_RC(MPI_Isend(s, n, MPI_INT, partner, tag + 1, MPI_COMM_WORLD, &sq));
    st.MPI_ERROR = 4321;
    rc = MPI_Wait(&rq[0], &st);
    expect(rc, MPI_ERR_TRUNCATE, "Irecv+Wait truncated");
    if (st.MPI_ERROR != 4321) {
        MPI_Error_class(st.MPI_ERROR, &cls);
        MT_CHECK(cls == MPI_ERR_TRUNCATE, "Wait truncated: status.MPI_ERROR %d", st.MPI_ERROR);
    }
    for (i = half; i < half + 4; i++) MT_CHECK(r[i] == GUARD, "Irecv truncated: wrote past the buffer (index %d)", i);
    MT_CHECK_RC(MPI_Wait(&sq, MPI_STATUS_IGNORE));

    /* (c) Waitall over [good, truncated, good]: MPI_ERR_IN_STATUS. The
     * truncated entry carries MPI_ERR_TRUNCATE; a good entry carries
     * MPI_SUCCESS (completed, request freed) or MPI_ERR_PENDING (not completed,
     * request still active: MPICH stops at the first failure). */
    {
        MPI_Request rq3[3];
        MPI_Status sts3[3];
        int ok[2] = {-1, -1}, k;
        MT_CHECK_RC(MPI_Irecv(&ok[0], 1, MPI_INT, partner, tag + 3, MPI_COMM_WORLD, &rq3[0]));
        MT_CHECK_RC(MPI_Irecv(r, half, MPI_INT, partner, tag + 2, MPI_COMM_WORLD, &rq3[1]));
        MT_CHECK_RC(MPI_Irecv(&ok[1], 1, MPI_INT, partner, tag + 4, MPI_COMM_WORLD, &rq3[2]));
        MT_CHECK_RC(MPI_Isend(s, n, MPI_INT, partner, tag + 2, MPI_COMM_WORLD, &sq));
        /* the partner posts its receives before it sends, so these sends cannot deadlock */
        MT_CHECK_RC(MPI_Send(&okval, 1, MPI_INT, partner, tag + 3, MPI_COMM_WORLD));
        MT_CHECK_RC(MPI_Send(&okval, 1, MPI_INT, partner, tag + 4, MPI_COMM_WORLD));
        sts3[0].MPI_ERROR = sts3[1].MPI_ERROR = sts3[2].MPI_ERROR = 4321;
        rc = MPI_Waitall(3, rq3, sts3);
        expect(rc, MPI_ERR_IN_STATUS, "Waitall with a truncated receive");
        cls = -1;
        MPI_Error_class(sts3[1].MPI_ERROR, &cls);
        MT_CHECK(cls == MPI_ERR_TRUNCATE, "Waitall: statuses[1].MPI_ERROR class %d, expected MPI_ERR_TRUNCATE", cls);
        for (k = 0; k < 3; k += 2) {
            if (sts3[k].MPI_ERROR == MPI_SUCCESS) {
                MT_CHECK(rq3[k] == MPI_REQUEST_NULL, "Waitall: statuses[%d] is MPI_SUCCESS but the request is active", k);
            } else {
                cls = -1;
                MPI_Error_class(sts3[k].MPI_ERROR, &cls);
                MT_CHECK(cls == MPI_ERR_PENDING, "Waitall: statuses[%d].MPI_ERROR %d, expected MPI_SUCCESS or PENDING",
                         k, sts3[k].MPI_ERROR);
                MT_CHECK(rq3[k] != MPI_REQUEST_NULL, "Waitall: statuses[%d] is MPI_ERR_PENDING but the request is gone",
                         k);
                if (cls == MPI_ERR_PENDING && rq3[k] != MPI_REQUEST_NULL)
                    MT_CHECK_RC(MPI_Wait(&rq3[k], MPI_STATUS_IGNORE));
            }
            MT_CHECK(ok[k / 2] == partner + 1000, "Waitall: good receive %d got %d", k, ok[k / 2]);
        }
        MT_CHECK_RC(MPI_Wait(&sq, MPI_STATUS_IGNORE));
    }

    /* the truncated messages were consumed: the next message is a fresh one */
    okbuf = -1;
    MT_CHECK_RC(MPI_Sendrecv(&okval, 1, MPI_INT, partner, tag, &okbuf, 1, MPI_INT, partner, tag, MPI_COMM_WORLD, &st));
    MT_CHECK(okbuf == partner + 1000, "after truncation: got %d", okbuf);
    free(s);
    free(r);
}

/* Everyone still talks: a ring exchange with verification. */
static void final_exchange(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size, v = rank * 11, w = -1;
    MPI_Status st;
    MT_CHECK_RC(MPI_Sendrecv(&v, 1, MPI_INT, right, 77, &w, 1, MPI_INT, left, 77, MPI_COMM_WORLD, &st));
    MT_CHECK(w == left * 11 && st.MPI_SOURCE == left, "final exchange: got %d from %d", w, st.MPI_SOURCE);
}

int main(int argc, char **argv)
{
    int rank, size;
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MT_CHECK_RC(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

    argument_errors(rank, size);
    truncation(rank, mt_partner(rank, size), 10, 100);
#if !defined(OPEN_MPI)
    /* 1 MiB message into 512 KiB. Open MPI 4.1.4 (vader single-copy and self)
     * copies the whole message and writes past the receive buffer, then
     * crashes. MPI-3.1 8.3 leaves the state after an error undefined, so this
     * is a quality requirement (a thread-based MPI must not corrupt a rank's
     * memory), checked for other implementations. */
    truncation(rank, mt_partner(rank, size), 1 << 18, 200);
#endif
    final_exchange(rank, size);
    return mt_finalize();
}
