/* Generalized requests (MPI 3.1, 12.2): MPI_Grequest_start/complete with
 * query, free and cancel callbacks; completion from another thread while the
 * rank waits; MPI_Request_free before completion; Waitall/Testany mixing
 * generalized and point-to-point requests. */
#include "mpitest.h"
#include <pthread.h>
#include <string.h>


struct greq_state {
    int query_calls, free_calls, cancel_calls, last_cancel_complete;
    int tag;        /* what query reports */
    int query_err;  /* what query returns */
    MPI_Request req;
};

static int query_fn(void *extra, MPI_Status *status)
{
    struct greq_state *s = extra;
    s->query_calls++;
    status->MPI_SOURCE = 7;
    status->MPI_TAG = s->tag;
    status->MPI_ERROR = MPI_SUCCESS;
    MPI_Status_set_cancelled(status, 0);
    MPI_Status_set_elements(status, MPI_INT, 3);
    return s->query_err;
}

static int free_fn(void *extra)
{
    ((struct greq_state *)extra)->free_calls++;
    return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
    struct greq_state *s = extra;
    s->cancel_calls++;
    s->last_cancel_complete = complete;
    return MPI_SUCCESS;
}

static void *completer(void *arg)
{
    struct greq_state *s = arg;
    mt_sleep_ms(20);
    MPI_Grequest_complete(s->req);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank, size, flag, count, idx;
    MPI_Status st;
    mt_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MT_CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Completed before the wait; query fills the status, free runs once. */
    {
        struct greq_state s;
        memset(&s, 0, sizeof s);
        s.tag = 100 + rank;
        MT_CHECK_RC(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &s.req));
        MPI_Request h = s.req;
        MT_CHECK_RC(MPI_Test(&h, &flag, &st));
        MT_CHECK(flag == 0, "test of an incomplete generalized request gave flag %d", flag);
        MT_CHECK_RC(MPI_Grequest_complete(s.req));
        MT_CHECK_RC(MPI_Wait(&h, &st));
        MT_CHECK(h == MPI_REQUEST_NULL, "request not freed by MPI_Wait");
        MT_CHECK(st.MPI_TAG == 100 + rank && st.MPI_SOURCE == 7, "status tag %d source %d", st.MPI_TAG, st.MPI_SOURCE);
        MT_CHECK_RC(MPI_Get_count(&st, MPI_INT, &count));
        MT_CHECK(count == 3, "count %d from MPI_Status_set_elements, expected 3", count);
        MT_CHECK(s.query_calls == 1 && s.free_calls == 1 && s.cancel_calls == 0, "calls query %d free %d cancel %d",
                 s.query_calls, s.free_calls, s.cancel_calls);
    }

    /* Completed by another thread while this rank is blocked in MPI_Wait. */
    {
        struct greq_state s;
        pthread_t th;
        memset(&s, 0, sizeof s);
        s.tag = 5;
        MT_CHECK_RC(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &s.req));
        MPI_Request h = s.req;
        pthread_create(&th, NULL, completer, &s);
        MT_CHECK_RC(MPI_Wait(&h, &st));
        pthread_join(th, NULL);
        MT_CHECK(st.MPI_TAG == 5, "status tag %d", st.MPI_TAG);
        MT_CHECK(s.free_calls == 1, "free calls %d", s.free_calls);
    }

    /* Cancel reports whether the request had completed. */
    {
        struct greq_state s;
        memset(&s, 0, sizeof s);
        MT_CHECK_RC(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &s.req));
        MPI_Request h = s.req;
        MT_CHECK_RC(MPI_Cancel(&h));
        MT_CHECK(s.cancel_calls == 1 && s.last_cancel_complete == 0, "cancel calls %d complete %d", s.cancel_calls,
                 s.last_cancel_complete);
        MT_CHECK_RC(MPI_Grequest_complete(s.req));
        MT_CHECK_RC(MPI_Cancel(&h));
        MT_CHECK(s.cancel_calls == 2 && s.last_cancel_complete == 1, "cancel calls %d complete %d", s.cancel_calls,
                 s.last_cancel_complete);
        MT_CHECK_RC(MPI_Wait(&h, MPI_STATUS_IGNORE));
        MT_CHECK(s.free_calls == 1, "free calls %d", s.free_calls);
    }

    /* Freed before completion: the free callback runs at completion. */
    {
        struct greq_state s;
        memset(&s, 0, sizeof s);
        MT_CHECK_RC(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &s.req));
        MPI_Request h = s.req;
        MT_CHECK_RC(MPI_Request_free(&h));
        MT_CHECK(h == MPI_REQUEST_NULL, "MPI_Request_free left the handle set");
        MT_CHECK_RC(MPI_Grequest_complete(s.req));
        MT_CHECK(s.free_calls == 1, "free calls %d after completing a freed request", s.free_calls);
    }

    /* The query callback's error comes back from the wait. */
    {
        struct greq_state s;
        memset(&s, 0, sizeof s);
        s.query_err = MPI_ERR_OTHER;
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MT_CHECK_RC(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &s.req));
        MPI_Request h = s.req;
        MT_CHECK_RC(MPI_Grequest_complete(s.req));
        int rc = MPI_Wait(&h, &st), cls = -1;
        MPI_Error_class(rc, &cls);
        MT_CHECK(cls == MPI_ERR_OTHER, "MPI_Wait returned class %d, expected MPI_ERR_OTHER from the query callback", cls);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    }

    /* Mixed with point-to-point in Waitall and Waitany. */
    {
        struct greq_state s;
        int sendv = rank, recvv = -1;
        int to = (rank + 1) % size, from = (rank + size - 1) % size;
        MPI_Request reqs[3];
        memset(&s, 0, sizeof s);
        s.tag = 9;
        MT_CHECK_RC(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &s.req));
        reqs[0] = s.req;
        MPI_Irecv(&recvv, 1, MPI_INT, from, 3, MPI_COMM_WORLD, &reqs[1]);
        MPI_Isend(&sendv, 1, MPI_INT, to, 3, MPI_COMM_WORLD, &reqs[2]);
        MT_CHECK_RC(MPI_Waitany(3, reqs, &idx, &st));
        MT_CHECK(idx == 1 || idx == 2, "Waitany returned the incomplete generalized request (index %d)", idx);
        MT_CHECK_RC(MPI_Testany(3, reqs, &idx, &flag, &st));
        MT_CHECK_RC(MPI_Grequest_complete(s.req));
        MPI_Status sts[3];
        MT_CHECK_RC(MPI_Waitall(3, reqs, sts));
        MT_CHECK(recvv == from, "received %d from rank %d", recvv, from);
        MT_CHECK(s.query_calls == 1 && s.free_calls == 1, "query %d free %d", s.query_calls, s.free_calls);
    }

    return mt_finalize();
}
