/*
 * mpitest.h - a tiny, header-only harness for the MPI test programs.
 *
 * Standard MPI-3.1 C (also usable from C++). Uses only point-to-point and
 * environment functions, so it works before collectives exist.
 *
 *   int main(int argc, char **argv) {
 *       mt_init(&argc, &argv);
 *       MT_CHECK(x == 1, "x is %d", x);
 *       return mt_finalize();
 *   }
 *
 * Pass criterion (shared with the MPI implementations' own suites): the job
 * exits 0 and rank 0 prints " No Errors".
 *
 * Design notes:
 * - Failures are counted in a static array indexed by world rank (atomics, never
 *   reset), so the counts are right whether or not the implementation gives
 *   each rank its own copy of globals (a thread-based MPI without privatization
 *   shares them). MT_CHECK may be called from any thread of a rank.
 * - Harness traffic uses tags MT_TAG_* (>= 32760) on MPI_COMM_WORLD; tests keep
 *   their own tags below 30000. Barrier arrivals and final counts go to rank 0,
 *   barrier releases come from rank 0 only after every rank arrived. So only
 *   an MPI_ANY_TAG receive on rank 0 can catch harness traffic: tests post one
 *   there only from a source that provably has not reached mt_barrier /
 *   mt_finalize yet.
 * - No rand(), no other global state: data patterns are pure functions.
 */
#ifndef MPITEST_H
#define MPITEST_H

/* nanosleep, pthreads under -std=c11 */
#if !defined(_POSIX_C_SOURCE) && !defined(_GNU_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <mpi.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MT_TAG_BARRIER_IN 32760
#define MT_TAG_BARRIER_OUT 32761
#define MT_TAG_FINAL 32762

#if defined(__GNUC__)
#define MT_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define MT_UNUSED __attribute__((unused))
#else
#define MT_PRINTF(a, b)
#define MT_UNUSED
#endif

/* One failure counter per world rank; ranks beyond the table (and failures
 * outside MPI_Init..MPI_Finalize) share the last slot. */
#define MT_MAX_RANKS 4096
static int mt_errors_[MT_MAX_RANKS + 1] MT_UNUSED;

static inline int *mt_error_slot(int rank)
{
    return &mt_errors_[(rank >= 0 && rank < MT_MAX_RANKS) ? rank : MT_MAX_RANKS];
}

/* World rank, or -1 outside [MPI_Init, MPI_Finalize). */
static inline int mt_rank(void)
{
    int init = 0, fin = 0, r = -1;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin) MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

static inline int mt_size(void)
{
    int s = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    return s;
}

static inline void mt_fail(const char *file, int line, const char *fmt, ...) MT_PRINTF(3, 4);
static inline void mt_fail(const char *file, int line, const char *fmt, ...)
{
    char msg[512];
    int rank;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rank = mt_rank();
    __atomic_fetch_add(mt_error_slot(rank), 1, __ATOMIC_SEQ_CST);
    fprintf(stderr, "rank %d: FAIL %s:%d: %s\n", rank, file, line, msg);
    fflush(stderr);
}

/* Record a failure (and keep going) when cond is false. */
#define MT_CHECK(cond, ...)                                          \
    do {                                                             \
        if (!(cond)) mt_fail(__FILE__, __LINE__, __VA_ARGS__);       \
    } while (0)

/* Check that an MPI call returned MPI_SUCCESS. */
#define MT_CHECK_RC(call)                                                             \
    do {                                                                              \
        int mt_rc_ = (call);                                                          \
        if (mt_rc_ != MPI_SUCCESS) mt_fail(__FILE__, __LINE__, "%s returned %d", #call, mt_rc_); \
    } while (0)

static inline void mt_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
}

static inline void mt_init_thread(int *argc, char ***argv, int required, int *provided)
{
    MPI_Init_thread(argc, argv, required, provided);
}

/* Barrier over comm built from point-to-point only: gather to 0, then release. */
static inline void mt_barrier(MPI_Comm comm)
{
    int rank, size, i, token = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank == 0) {
        for (i = 1; i < size; i++)
            MPI_Recv(&token, 1, MPI_INT, i, MT_TAG_BARRIER_IN, comm, MPI_STATUS_IGNORE);
        for (i = 1; i < size; i++)
            MPI_Send(&token, 1, MPI_INT, i, MT_TAG_BARRIER_OUT, comm);
    } else {
        MPI_Send(&token, 1, MPI_INT, 0, MT_TAG_BARRIER_IN, comm);
        MPI_Recv(&token, 1, MPI_INT, 0, MT_TAG_BARRIER_OUT, comm, MPI_STATUS_IGNORE);
    }
}

/* Sum the error counts on rank 0 (point-to-point), print the verdict there,
 * call MPI_Finalize and return the exit code for main. */
static inline int mt_finalize(void)
{
    int rank, size, i, mine, total;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine = __atomic_load_n(mt_error_slot(rank), __ATOMIC_SEQ_CST);
    if (rank == 0) mine += __atomic_load_n(mt_error_slot(-1), __ATOMIC_SEQ_CST);
    total = mine;
    if (rank == 0) {
        for (i = 1; i < size; i++) {
            int e = 0;
            MPI_Recv(&e, 1, MPI_INT, i, MT_TAG_FINAL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            total += e;
        }
        if (total == 0)
            printf(" No Errors\n");
        else
            printf(" Found %d errors\n", total);
        fflush(stdout);
    } else {
        MPI_Send(&mine, 1, MPI_INT, 0, MT_TAG_FINAL, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return (rank == 0 ? total : mine) != 0 ? 1 : 0;
}

/* ---- error classes (tests run under MPI_ERRORS_RETURN) ---- */

/* The class of an error code returned by an MPI call. */
static inline int mt_error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* Records a failure unless rc is an error of class want. */
static inline void mt_expect_class(int rc, int want, const char *what)
{
    MT_CHECK(rc != MPI_SUCCESS, "%s: returned MPI_SUCCESS, expected class %d", what, want);
    if (rc != MPI_SUCCESS)
        MT_CHECK(mt_error_class(rc) == want, "%s: class %d, expected %d", what, mt_error_class(rc), want);
}

/* ---- deterministic data helpers (no global state) ---- */

/* Byte i of a message identified by (src, key): */
static inline unsigned char mt_pat(int src, int key, size_t i)
{
    uint32_t h = (uint32_t)i * 2654435761u ^ ((uint32_t)src * 40503u + (uint32_t)key * 9973u);
    return (unsigned char)((h >> 13) ^ (h >> 24) ^ (uint32_t)i);
}

static inline void mt_fill(void *buf, size_t n, int src, int key)
{
    unsigned char *p = (unsigned char *)buf;
    size_t i;
    for (i = 0; i < n; i++) p[i] = mt_pat(src, key, i);
}

/* Returns the index of the first mismatch, or (size_t)-1 when all n bytes match. */
static inline size_t mt_verify(const void *buf, size_t n, int src, int key)
{
    const unsigned char *p = (const unsigned char *)buf;
    size_t i;
    for (i = 0; i < n; i++)
        if (p[i] != mt_pat(src, key, i)) return i;
    return (size_t)-1;
}

#define MT_OK ((size_t)-1)

/* splitmix64: a caller-owned deterministic PRNG state. */
static inline uint64_t mt_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A stateless hash of a few ints, for message sizes agreed on by both sides. */
static inline uint64_t mt_hash3(int a, int b, int c)
{
    uint64_t s = ((uint64_t)(uint32_t)a << 40) ^ ((uint64_t)(uint32_t)b << 20) ^ (uint64_t)(uint32_t)c;
    return mt_rand(&s);
}

/* Pair partner: 0<->1, 2<->3, ...; the last rank of an odd-sized job is its own partner. */
static inline int mt_partner(int rank, int size)
{
    int p = rank ^ 1;
    return p < size ? p : rank;
}

/* Sleep for ms milliseconds (used only to give a wrong implementation time to
 * misbehave, never for correctness). */
static inline void mt_sleep_ms(int ms)
{
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (long)(ms % 1000) * 1000000L;
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static inline void *mt_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "rank %d: out of memory (%zu bytes)\n", mt_rank(), n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

#endif /* MPITEST_H */
