/*
 * t_env: environment management and thread support.
 *  - before MPI_Init_thread: MPI_Initialized and MPI_Finalized are false;
 *    MPI_Get_version and MPI_Get_library_version work (MPI-3.1 8.1.1 allows
 *    them before init and after finalize);
 *  - MPI_Init_thread(MPI_THREAD_MULTIPLE): provided is one of the four levels,
 *    MPI_Query_thread agrees; the levels are ordered SINGLE < FUNNELED <
 *    SERIALIZED < MULTIPLE; MPI_Is_thread_main is true on the main thread and
 *    (when threads may call MPI) false on a pthread;
 *  - with MPI_THREAD_MULTIPLE: 4 pthreads per rank exchange messages
 *    concurrently with the matching threads of the partner rank (distinct tag
 *    per thread; blocking, nonblocking and ANY_SOURCE receives);
 *  - MPI_Wtime is non-decreasing and advances over a sleep, MPI_Wtick > 0;
 *  - MPI_Get_processor_name non-empty, length matches; Get_version equals
 *    MPI_VERSION/MPI_SUBVERSION; Get_library_version non-empty;
 *  - MPI_Error_string for MPI_SUCCESS and MPI_ERR_RANK non-empty and distinct;
 *    MPI_Error_class maps each predefined class to itself; classes lie in
 *    (MPI_SUCCESS, MPI_ERR_LASTCODE];
 *  - MPI_COMM_SELF has size 1, rank 0, and self-messages work on it;
 *  - after MPI_Finalize: MPI_Finalized and MPI_Initialized are true (checked by
 *    every rank; a failure there makes the exit code non-zero).
 * Works on 1 rank.
 */
#include "mpitest.h"
#include <pthread.h>

#define NTHREADS 4
#define TMSGS 50

struct thr {
    int rank, partner, t, is_main, sent_ok;
};

static void *thread_body(void *arg)
{
    struct thr *a = (struct thr *)arg;
    int flag = -1, i, tag = 500 + a->t;
    MT_CHECK_RC(MPI_Is_thread_main(&flag));
    a->is_main = flag;
    for (i = 0; i < TMSGS; i++) {
        int n = (i % 5 == 4) ? 20000 : 4; /* some large messages */
        int *s = mt_malloc(sizeof(int) * (size_t)n), *r = mt_malloc(sizeof(int) * (size_t)n), j;
        MPI_Request rq[2];
        MPI_Status st;
        for (j = 0; j < n; j++) s[j] = a->rank * 1000000 + a->t * 100000 + i * 100 + (j % 100);
        if (i % 3 == 0) { /* nonblocking both ways */
            MT_CHECK_RC(MPI_Irecv(r, n, MPI_INT, a->partner, tag, MPI_COMM_WORLD, &rq[0]));
            MT_CHECK_RC(MPI_Isend(s, n, MPI_INT, a->partner, tag, MPI_COMM_WORLD, &rq[1]));
            MT_CHECK_RC(MPI_Wait(&rq[0], &st));
            MT_CHECK_RC(MPI_Wait(&rq[1], MPI_STATUS_IGNORE));
        } else if (i % 3 == 1) { /* Sendrecv */
            MT_CHECK_RC(MPI_Sendrecv(s, n, MPI_INT, a->partner, tag, r, n, MPI_INT, a->partner, tag, MPI_COMM_WORLD, &st));
        } else { /* Isend + blocking receive from ANY_SOURCE: the tag is this thread's */
            MT_CHECK_RC(MPI_Isend(s, n, MPI_INT, a->partner, tag, MPI_COMM_WORLD, &rq[1]));
            MT_CHECK_RC(MPI_Recv(r, n, MPI_INT, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st));
            MT_CHECK_RC(MPI_Wait(&rq[1], MPI_STATUS_IGNORE));
        }
        MT_CHECK(st.MPI_SOURCE == a->partner && st.MPI_TAG == tag, "thread %d msg %d: source %d tag %d", a->t, i,
                 st.MPI_SOURCE, st.MPI_TAG);
        for (j = 0; j < n; j++)
            if (r[j] != a->partner * 1000000 + a->t * 100000 + i * 100 + (j % 100)) break;
        MT_CHECK(j == n, "thread %d msg %d: wrong data at %d (%d)", a->t, i, j, j < n ? r[j] : 0);
        free(s);
        free(r);
    }
    a->sent_ok = 1;
    return NULL;
}

static void *is_main_body(void *arg)
{
    int *flag = (int *)arg;
    MPI_Is_thread_main(flag);
    return NULL;
}

static void threads(int rank, int size, int provided)
{
    pthread_t th[NTHREADS];
    struct thr a[NTHREADS];
    int t;
    if (provided == MPI_THREAD_SERIALIZED) { /* one thread at a time may call MPI */
        int flag = -1;
        pthread_t p;
        MT_CHECK(pthread_create(&p, NULL, is_main_body, &flag) == 0, "pthread_create failed");
        pthread_join(p, NULL);
        MT_CHECK(flag == 0, "MPI_Is_thread_main true on a pthread");
        return;
    }
    if (provided != MPI_THREAD_MULTIPLE) return;
    for (t = 0; t < NTHREADS; t++) {
        a[t].rank = rank;
        a[t].partner = mt_partner(rank, size);
        a[t].t = t;
        a[t].is_main = -1;
        a[t].sent_ok = 0;
        MT_CHECK(pthread_create(&th[t], NULL, thread_body, &a[t]) == 0, "pthread_create %d failed", t);
    }
    for (t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        MT_CHECK(a[t].is_main == 0, "MPI_Is_thread_main on pthread %d gave %d", t, a[t].is_main);
        MT_CHECK(a[t].sent_ok, "thread %d did not finish", t);
    }
}

static void version_checks(void)
{
    int v = -1, sv = -1, len = -1;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    MT_CHECK_RC(MPI_Get_version(&v, &sv));
    MT_CHECK(v == MPI_VERSION && sv == MPI_SUBVERSION, "Get_version %d.%d, mpi.h says %d.%d", v, sv, MPI_VERSION,
             MPI_SUBVERSION);
    MT_CHECK(v >= 3, "MPI version %d < 3", v);
    lib[0] = '\0';
    MT_CHECK_RC(MPI_Get_library_version(lib, &len));
    MT_CHECK(len > 0 && lib[0] != '\0', "Get_library_version empty");
    /* MPI-3.1 8.1.1: "In C, a null character is additionally stored at
     * version[resultlen]", so resultlen == strlen(version). Open MPI
     * (seen with 4.1.4) counts the terminator too, open-mpi/ompi#14411;
     * tolerate that there only. */
#if defined(OPEN_MPI)
    if ((size_t)len == strlen(lib) + 1) len--;
#endif
    MT_CHECK(len < MPI_MAX_LIBRARY_VERSION_STRING && (size_t)len == strlen(lib), "Get_library_version length %d vs %zu",
             len, strlen(lib));
}

static void error_checks(void)
{
    static const int classes[] = {MPI_ERR_BUFFER, MPI_ERR_COUNT,   MPI_ERR_TYPE,    MPI_ERR_TAG,   MPI_ERR_COMM,
                                  MPI_ERR_RANK,   MPI_ERR_REQUEST, MPI_ERR_ROOT,    MPI_ERR_GROUP, MPI_ERR_OP,
                                  MPI_ERR_TOPOLOGY, MPI_ERR_DIMS,  MPI_ERR_ARG,     MPI_ERR_UNKNOWN,
                                  MPI_ERR_TRUNCATE, MPI_ERR_OTHER, MPI_ERR_INTERN,  MPI_ERR_IN_STATUS,
                                  MPI_ERR_PENDING};
    char s1[MPI_MAX_ERROR_STRING], s2[MPI_MAX_ERROR_STRING];
    int l1 = -1, l2 = -1, cls = -1;
    size_t i;
    MT_CHECK_RC(MPI_Error_string(MPI_SUCCESS, s1, &l1));
    MT_CHECK(l1 > 0 && (size_t)l1 == strlen(s1) && l1 < MPI_MAX_ERROR_STRING, "Error_string(MPI_SUCCESS) length %d",
             l1);
    MT_CHECK_RC(MPI_Error_string(MPI_ERR_RANK, s2, &l2));
    MT_CHECK(l2 > 0 && (size_t)l2 == strlen(s2) && l2 < MPI_MAX_ERROR_STRING, "Error_string(MPI_ERR_RANK) length %d",
             l2);
    MT_CHECK(strcmp(s1, s2) != 0, "MPI_SUCCESS and MPI_ERR_RANK have the same string '%s'", s1);
    MT_CHECK_RC(MPI_Error_class(MPI_ERR_TAG, &cls));
    MT_CHECK(cls == MPI_ERR_TAG, "Error_class(MPI_ERR_TAG) = %d", cls);
    MT_CHECK_RC(MPI_Error_class(MPI_SUCCESS, &cls));
    MT_CHECK(cls == MPI_SUCCESS, "Error_class(MPI_SUCCESS) = %d", cls);
    MT_CHECK(MPI_SUCCESS == 0, "MPI_SUCCESS is %d", MPI_SUCCESS);
    for (i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        char s[MPI_MAX_ERROR_STRING];
        int l = -1;
        cls = -1;
        MT_CHECK_RC(MPI_Error_class(classes[i], &cls));
        MT_CHECK(cls == classes[i], "Error_class(%d) = %d", classes[i], cls);
        MT_CHECK(classes[i] > MPI_SUCCESS && classes[i] <= MPI_ERR_LASTCODE, "class %d outside (0, MPI_ERR_LASTCODE=%d]",
                 classes[i], MPI_ERR_LASTCODE);
        MT_CHECK_RC(MPI_Error_string(classes[i], s, &l));
        MT_CHECK(l > 0 && (size_t)l == strlen(s), "Error_string(%d) length %d", classes[i], l);
    }
}

static void time_checks(void)
{
    double t0 = MPI_Wtime(), prev = t0, t1, tick = MPI_Wtick();
    int i;
    MT_CHECK(tick > 0.0 && tick < 1.0, "MPI_Wtick %g", tick);
    for (i = 0; i < 100000; i++) {
        double t = MPI_Wtime();
        if (t < prev) {
            MT_CHECK(0, "MPI_Wtime went backwards: %.9f after %.9f", t, prev);
            break;
        }
        prev = t;
    }
    mt_sleep_ms(20);
    t1 = MPI_Wtime();
    MT_CHECK(t1 - t0 >= 0.015, "MPI_Wtime advanced %.6f s over a 20 ms sleep", t1 - t0);
    MT_CHECK(t1 - t0 < 3600.0, "MPI_Wtime advanced %.1f s over a 20 ms sleep", t1 - t0);
}

static void misc_checks(int rank, int size)
{
    char name[MPI_MAX_PROCESSOR_NAME];
    int len = -1, r = -1, s = -1, v = rank + 3, w = -1;
    MPI_Status st;
    MPI_Request rq;
    name[0] = '\0';
    MT_CHECK_RC(MPI_Get_processor_name(name, &len));
    MT_CHECK(len > 0 && name[0] != '\0', "Get_processor_name empty");
    MT_CHECK(len < MPI_MAX_PROCESSOR_NAME && (size_t)len == strlen(name), "Get_processor_name length %d vs %zu", len,
             strlen(name));
    MT_CHECK_RC(MPI_Comm_size(MPI_COMM_WORLD, &s));
    MT_CHECK(s == size && s >= 1, "Comm_size %d", s);
    MT_CHECK(rank >= 0 && rank < size, "Comm_rank %d of %d", rank, size);
    MT_CHECK_RC(MPI_Comm_size(MPI_COMM_SELF, &s));
    MT_CHECK_RC(MPI_Comm_rank(MPI_COMM_SELF, &r));
    MT_CHECK(s == 1 && r == 0, "MPI_COMM_SELF: size %d rank %d", s, r);
    /* point-to-point on MPI_COMM_SELF */
    MT_CHECK_RC(MPI_Isend(&v, 1, MPI_INT, 0, 9, MPI_COMM_SELF, &rq));
    MT_CHECK_RC(MPI_Recv(&w, 1, MPI_INT, 0, 9, MPI_COMM_SELF, &st));
    MT_CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    MT_CHECK(w == v && st.MPI_SOURCE == 0 && st.MPI_TAG == 9, "COMM_SELF message: value %d source %d", w,
             st.MPI_SOURCE);
}

int main(int argc, char **argv)
{
    int init = -1, fin = -1, provided = -1, q = -1, is_main = -1, rank, size, rc, v, sv;

    /* before init */
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    MPI_Get_version(&v, &sv);
    mt_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MT_CHECK(init == 0, "MPI_Initialized true before MPI_Init");
    MT_CHECK(fin == 0, "MPI_Finalized true before MPI_Init");
    MT_CHECK(v == MPI_VERSION && sv == MPI_SUBVERSION, "Get_version before init: %d.%d", v, sv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MT_CHECK_RC(MPI_Initialized(&init));
    MT_CHECK(init == 1, "MPI_Initialized false after MPI_Init");
    MT_CHECK_RC(MPI_Finalized(&fin));
    MT_CHECK(fin == 0, "MPI_Finalized true before MPI_Finalize");
    MT_CHECK(MPI_THREAD_SINGLE < MPI_THREAD_FUNNELED && MPI_THREAD_FUNNELED < MPI_THREAD_SERIALIZED &&
                 MPI_THREAD_SERIALIZED < MPI_THREAD_MULTIPLE,
             "thread levels are not ordered");
    MT_CHECK(provided == MPI_THREAD_SINGLE || provided == MPI_THREAD_FUNNELED || provided == MPI_THREAD_SERIALIZED ||
                 provided == MPI_THREAD_MULTIPLE,
             "provided = %d is not a thread level", provided);
    MT_CHECK_RC(MPI_Query_thread(&q));
    MT_CHECK(q == provided, "MPI_Query_thread %d, Init_thread provided %d", q, provided);
    MT_CHECK_RC(MPI_Is_thread_main(&is_main));
    MT_CHECK(is_main == 1, "MPI_Is_thread_main false on the main thread");
    if (rank == 0 && provided != MPI_THREAD_MULTIPLE)
        printf("t_env: MPI_THREAD_MULTIPLE not provided (%d): thread tests skipped\n", provided);

    version_checks();
    error_checks();
    time_checks();
    misc_checks(rank, size);
    threads(rank, size, provided);

    rc = mt_finalize();
    /* after finalize: only these calls are allowed */
    init = fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (!fin || !init) {
        fprintf(stderr, "rank %d: FAIL after MPI_Finalize: MPI_Finalized %d MPI_Initialized %d\n", rank, fin, init);
        rc = 1;
    }
    v = sv = -1;
    MPI_Get_version(&v, &sv);
    if (v != MPI_VERSION || sv != MPI_SUBVERSION) {
        fprintf(stderr, "rank %d: FAIL after MPI_Finalize: Get_version %d.%d\n", rank, v, sv);
        rc = 1;
    }
    return rc;
}
