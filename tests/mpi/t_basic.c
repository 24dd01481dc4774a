/*
 * t_basic: blocking send/recv between rank pairs.
 *  - message sizes 0 B .. 16 MiB (eager/rendezvous boundaries), data verified,
 *    bytes past the message in the receive buffer left untouched;
 *  - basic datatypes CHAR, INT, DOUBLE, LONG_LONG, BYTE, UNSIGNED_SHORT, FLOAT;
 *  - status fields MPI_SOURCE / MPI_TAG, and MPI_ERROR left untouched by
 *    single-completion calls (MPI-3.1 3.2.5);
 *  - MPI_Get_count / MPI_Get_elements, including MPI_UNDEFINED when the byte
 *    count is not a multiple of the queried type's size.
 * Pairs are 0<->1, 2<->3, ...; with an odd rank count the last rank talks to
 * itself with Isend + Recv + Wait. Works on 1 rank.
 */
#include "mpitest.h"

#define ERR_SENTINEL 0x5a5a
#define SLACK 16

static const size_t sizes[] = {0,    1,    8,     24,          25,          64, 100,
                               1000, 4096, 4097, 65536, 1u << 20, 16u << 20};
#define NSIZES (sizeof sizes / sizeof sizes[0])

/* Send n bytes (tag) to partner and receive n bytes back, blocking calls.
 * The lower rank sends first; a rank paired with itself uses Isend. */
static void exchange(int rank, int partner, void *sbuf, void *rbuf, int count, MPI_Datatype type,
                     int rcount, int tag, MPI_Status *st)
{
    if (partner == rank) {
        MPI_Request rq;
        MT_CHECK_RC(MPI_Isend(sbuf, count, type, partner, tag, MPI_COMM_WORLD, &rq));
        MT_CHECK_RC(MPI_Recv(rbuf, rcount, type, partner, tag, MPI_COMM_WORLD, st));
        MT_CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else if (rank < partner) {
        MT_CHECK_RC(MPI_Send(sbuf, count, type, partner, tag, MPI_COMM_WORLD));
        MT_CHECK_RC(MPI_Recv(rbuf, rcount, type, partner, tag, MPI_COMM_WORLD, st));
    } else {
        MT_CHECK_RC(MPI_Recv(rbuf, rcount, type, partner, tag, MPI_COMM_WORLD, st));
        MT_CHECK_RC(MPI_Send(sbuf, count, type, partner, tag, MPI_COMM_WORLD));
    }
}

static void test_sizes(int rank, int partner)
{
    size_t max = sizes[NSIZES - 1];
    unsigned char *sbuf = mt_malloc(max);
    unsigned char *rbuf = mt_malloc(max + SLACK);
    size_t k, i;

    for (k = 0; k < NSIZES; k++) {
        size_t n = sizes[k];
        int tag = (int)k + 1, count = -1;
        MPI_Status st;
        mt_fill(sbuf, n, rank, tag);
        memset(rbuf, 0xee, n + SLACK);
        st.MPI_SOURCE = -77;
        st.MPI_TAG = -77;
        st.MPI_ERROR = ERR_SENTINEL;
        /* the receive count is larger than the message: allowed */
        exchange(rank, partner, sbuf, rbuf, (int)n, MPI_BYTE, (int)(n + SLACK), tag, &st);
        MT_CHECK(st.MPI_SOURCE == partner, "size %zu: MPI_SOURCE %d, expected %d", n, st.MPI_SOURCE, partner);
        MT_CHECK(st.MPI_TAG == tag, "size %zu: MPI_TAG %d, expected %d", n, st.MPI_TAG, tag);
        MT_CHECK(st.MPI_ERROR == ERR_SENTINEL, "size %zu: MPI_Recv modified MPI_ERROR (%d)", n, st.MPI_ERROR);
        MT_CHECK_RC(MPI_Get_count(&st, MPI_BYTE, &count));
        MT_CHECK(count == (int)n, "size %zu: MPI_Get_count %d", n, count);
        MT_CHECK_RC(MPI_Get_elements(&st, MPI_BYTE, &count));
        MT_CHECK(count == (int)n, "size %zu: MPI_Get_elements %d", n, count);
        i = mt_verify(rbuf, n, partner, tag);
        MT_CHECK(i == MT_OK, "size %zu: data mismatch at byte %zu", n, i);
        for (i = n; i < n + SLACK; i++)
            if (rbuf[i] != 0xee) break;
        MT_CHECK(i == n + SLACK, "size %zu: receive wrote past the message (byte %zu)", n, i);
    }
    free(sbuf);
    free(rbuf);
}

/* Typed exchange: values depend on sender rank and index. */
#define TYPED_TEST(CTYPE, MPITYPE, VALUE_EXPR)                                                    \
    do {                                                                                          \
        int n_, i_, cnt_ = -1, bad_ = -1;                                                         \
        for (n_ = 1; n_ <= 2000; n_ += 1999) {                                                    \
            CTYPE *s_ = mt_malloc(sizeof(CTYPE) * (size_t)n_);                                    \
            CTYPE *r_ = mt_malloc(sizeof(CTYPE) * (size_t)(n_ + 1));                              \
            MPI_Status st_;                                                                       \
            for (i_ = 0; i_ < n_; i_++) {                                                         \
                int src = rank;                                                                   \
                s_[i_] = (CTYPE)(VALUE_EXPR);                                                     \
            }                                                                                     \
            memset(r_, 0, sizeof(CTYPE) * (size_t)(n_ + 1));                                      \
            st_.MPI_ERROR = ERR_SENTINEL;                                                         \
            exchange(rank, partner, s_, r_, n_, MPITYPE, n_ + 1, 100 + tagk, &st_);               \
            for (i_ = 0, bad_ = -1; i_ < n_; i_++) {                                              \
                int src = partner;                                                                \
                if (r_[i_] != (CTYPE)(VALUE_EXPR)) {                                              \
                    bad_ = i_;                                                                    \
                    break;                                                                        \
                }                                                                                 \
            }                                                                                     \
            MT_CHECK(bad_ < 0, "%s x%d: mismatch at element %d", #MPITYPE, n_, bad_);             \
            MT_CHECK(st_.MPI_SOURCE == partner && st_.MPI_TAG == 100 + tagk,                      \
                     "%s: status source %d tag %d", #MPITYPE, st_.MPI_SOURCE, st_.MPI_TAG);       \
            MT_CHECK(st_.MPI_ERROR == ERR_SENTINEL, "%s: MPI_ERROR modified", #MPITYPE);          \
            MT_CHECK_RC(MPI_Get_count(&st_, MPITYPE, &cnt_));                                     \
            MT_CHECK(cnt_ == n_, "%s x%d: MPI_Get_count %d", #MPITYPE, n_, cnt_);                 \
            MT_CHECK_RC(MPI_Get_elements(&st_, MPITYPE, &cnt_));                                  \
            MT_CHECK(cnt_ == n_, "%s x%d: MPI_Get_elements %d", #MPITYPE, n_, cnt_);              \
            free(s_);                                                                             \
            free(r_);                                                                             \
        }                                                                                         \
        tagk++;                                                                                   \
    } while (0)

static void test_types(int rank, int partner)
{
    int tagk = 0;
    TYPED_TEST(char, MPI_CHAR, 'A' + (src * 7 + i_) % 26);
    TYPED_TEST(int, MPI_INT, src * 1000003 - i_ * 7919);
    TYPED_TEST(double, MPI_DOUBLE, src * 1.5e10 + i_ * 0.25 - 3.0);
    TYPED_TEST(long long, MPI_LONG_LONG, (long long)src * 10000000000LL + i_ * 3LL - 5);
    TYPED_TEST(unsigned char, MPI_BYTE, (src * 31 + i_ * 7) & 0xff);
    TYPED_TEST(unsigned short, MPI_UNSIGNED_SHORT, (src * 4099 + i_ * 13) & 0xffff);
    TYPED_TEST(float, MPI_FLOAT, src * 0.5f + i_ * 2.0f + 0.125f);
}

/* MPI_Get_count / MPI_Get_elements when the byte count is not a multiple of the
 * queried type. MPI-3.1 3.2.5 says the datatype argument "should match" the
 * receive's; querying another basic type is the common practice (both Open MPI
 * and MPICH compute bytes / type size) and is what this checks. */
static void test_counts(int rank, int partner)
{
    unsigned char s[8], r[16];
    MPI_Status st;
    int count;

    mt_fill(s, sizeof s, rank, 300);
    /* 5 bytes */
    exchange(rank, partner, s, r, 5, MPI_BYTE, (int)sizeof r, 300, &st);
    MT_CHECK_RC(MPI_Get_count(&st, MPI_BYTE, &count));
    MT_CHECK(count == 5, "5 bytes: Get_count(BYTE) %d", count);
    MT_CHECK_RC(MPI_Get_count(&st, MPI_INT, &count));
    MT_CHECK(count == MPI_UNDEFINED, "5 bytes: Get_count(INT) %d, expected MPI_UNDEFINED", count);
    MT_CHECK_RC(MPI_Get_elements(&st, MPI_INT, &count));
    MT_CHECK(count == MPI_UNDEFINED, "5 bytes: Get_elements(INT) %d, expected MPI_UNDEFINED", count);
    MT_CHECK(mt_verify(r, 5, partner, 300) == MT_OK, "5 bytes: data mismatch");

    /* 8 bytes: 2 ints, 4 unsigned shorts */
    exchange(rank, partner, s, r, 8, MPI_BYTE, (int)sizeof r, 301, &st);
    MT_CHECK_RC(MPI_Get_count(&st, MPI_INT, &count));
    MT_CHECK(count == 2, "8 bytes: Get_count(INT) %d", count);
    MT_CHECK_RC(MPI_Get_count(&st, MPI_UNSIGNED_SHORT, &count));
    MT_CHECK(count == 4, "8 bytes: Get_count(UNSIGNED_SHORT) %d", count);
    MT_CHECK_RC(MPI_Get_elements(&st, MPI_INT, &count));
    MT_CHECK(count == 2, "8 bytes: Get_elements(INT) %d", count);

    /* 0 bytes: count 0 for every type */
    exchange(rank, partner, s, r, 0, MPI_INT, 4, 302, &st);
    MT_CHECK_RC(MPI_Get_count(&st, MPI_INT, &count));
    MT_CHECK(count == 0, "0 ints: Get_count %d", count);
    MT_CHECK_RC(MPI_Get_elements(&st, MPI_DOUBLE, &count));
    MT_CHECK(count == 0, "0 ints: Get_elements(DOUBLE) %d", count);
}

/* MPI_STATUS_IGNORE on a blocking receive, and a receive into a larger buffer
 * that leaves the tail untouched (covered above); here just STATUS_IGNORE. */
static void test_status_ignore(int rank, int partner)
{
    int s[3] = {rank, rank + 1, rank + 2}, r[3] = {-1, -1, -1};
    if (partner == rank) {
        MPI_Request rq;
        MT_CHECK_RC(MPI_Isend(s, 3, MPI_INT, partner, 400, MPI_COMM_WORLD, &rq));
        MT_CHECK_RC(MPI_Recv(r, 3, MPI_INT, partner, 400, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else if (rank < partner) {
        MT_CHECK_RC(MPI_Send(s, 3, MPI_INT, partner, 400, MPI_COMM_WORLD));
        MT_CHECK_RC(MPI_Recv(r, 3, MPI_INT, partner, 400, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    } else {
        MT_CHECK_RC(MPI_Recv(r, 3, MPI_INT, partner, 400, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK_RC(MPI_Send(s, 3, MPI_INT, partner, 400, MPI_COMM_WORLD));
    }
    MT_CHECK(r[0] == partner && r[1] == partner + 1 && r[2] == partner + 2, "STATUS_IGNORE recv: wrong data");
}

int main(int argc, char **argv)
{
    int rank, size, partner;
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    partner = mt_partner(rank, size);

    test_sizes(rank, partner);
    test_types(rank, partner);
    test_counts(rank, partner);
    test_status_ignore(rank, partner);
    return mt_finalize();
}
