/*
 * t_op_predefined: every predefined reduction operation on every predefined
 * datatype MPI 3.1 (5.9.2) defines it for, through MPI_Reduce_local, with
 * counts 0, 1, 7, 1000 and 100003 (so vector kernels meet empty, scalar-only,
 * and ragged tails). Every result is compared element by element with a
 * plain C loop over the same inputs, and the element after the last one must
 * be untouched and inbuf unchanged.
 *
 * Data: unsigned integers use the full range (sums and products wrap, which
 * C defines); signed sums and products stay small enough not to overflow
 * (MPI leaves signed overflow to the language); bitwise and MIN/MAX use
 * every bit; logical operations see zeros and non-0/1 values on the C
 * integer types (any non-zero is true, the result is 1 or 0) and 0/1 on
 * Fortran LOGICAL; floating-point sums and products use values whose
 * results are exact, so any correct implementation gives the same bits;
 * MINLOC/MAXLOC pairs have few distinct values, so ties (lower index wins)
 * are frequent.
 *
 * MPI_REPLACE and MPI_NO_OP are predefined operations of RMA (MPI 3.1,
 * 11.3.4); MPI_Reduce_local with them is not defined by the standard. HMPI
 * defines it (REPLACE copies inbuf into inoutbuf, NO_OP leaves inoutbuf) and
 * the test requires that under HMPI; elsewhere it accepts that result or
 * MPI_ERR_OP (Open MPI's answer).
 *
 * Fortran datatypes are used from C with their usual C layout (INTEGER =
 * int, REAL = float, DOUBLE PRECISION = double, LOGICAL = int with 1 for
 * .TRUE.). The optional kinds without a portable C counterpart (REAL2,
 * COMPLEX4, INTEGER16, LOGICAL16, REAL16, COMPLEX32) are tested under HMPI
 * only, with GCC's _Float16, __int128 and __float128.
 *
 * Every rank runs the test independently (ranks share no data here), which
 * also exercises the first-use set-up from several ranks at once; only rank
 * 0 runs the largest count, to keep runs short on an oversubscribed machine.
 */
#include "mpitest.h"

enum {
    OP_SUM, OP_PROD, OP_MIN, OP_MAX, OP_BAND, OP_BOR, OP_BXOR, OP_LAND, OP_LOR, OP_LXOR,
    OP_MINLOC, OP_MAXLOC, OP_REPLACE, OP_NO_OP, NOPS
};

static const char *const op_names[NOPS] = {
    "MPI_SUM", "MPI_PROD", "MPI_MIN", "MPI_MAX", "MPI_BAND", "MPI_BOR", "MPI_BXOR", "MPI_LAND",
    "MPI_LOR", "MPI_LXOR", "MPI_MINLOC", "MPI_MAXLOC", "MPI_REPLACE", "MPI_NO_OP"};

static MPI_Op op_handle(int k)
{
    switch (k) {
    case OP_SUM: return MPI_SUM;
    case OP_PROD: return MPI_PROD;
    case OP_MIN: return MPI_MIN;
    case OP_MAX: return MPI_MAX;
    case OP_BAND: return MPI_BAND;
    case OP_BOR: return MPI_BOR;
    case OP_BXOR: return MPI_BXOR;
    case OP_LAND: return MPI_LAND;
    case OP_LOR: return MPI_LOR;
    case OP_LXOR: return MPI_LXOR;
    case OP_MINLOC: return MPI_MINLOC;
    case OP_MAXLOC: return MPI_MAXLOC;
    case OP_REPLACE: return MPI_REPLACE;
    default: return MPI_NO_OP;
    }
}

#define BIT(k) (1u << (k))
/* The operations of each group of basic datatypes (MPI 3.1, 5.9.2), plus
 * REPLACE and NO_OP, which apply to every predefined datatype. */
#define ANY (BIT(OP_REPLACE) | BIT(OP_NO_OP))
#define ARITH (BIT(OP_SUM) | BIT(OP_PROD))
#define MINMAX (BIT(OP_MIN) | BIT(OP_MAX))
#define BITWISE (BIT(OP_BAND) | BIT(OP_BOR) | BIT(OP_BXOR))
#define LOGIC (BIT(OP_LAND) | BIT(OP_LOR) | BIT(OP_LXOR))
#define C_INTEGER (ARITH | MINMAX | BITWISE | LOGIC | ANY)
#define F_INTEGER (ARITH | MINMAX | BITWISE | ANY)
#define FLOATING (ARITH | MINMAX | ANY)
#define LOGICAL (LOGIC | ANY)
#define COMPLEX (ARITH | ANY)
#define BYTE (BITWISE | ANY)
#define PAIR (BIT(OP_MINLOC) | BIT(OP_MAXLOC) | ANY)

static const int counts[] = {0, 1, 7, 1000, 100003};
#define NCOUNTS ((int)(sizeof counts / sizeof counts[0]))

static uint64_t seed_of(const char *name, int n, int k)
{
    uint64_t h = 1469598103934665603ull;
    for (; *name; name++) h = (h ^ (unsigned char)*name) * 1099511628211ull;
    return h ^ ((uint64_t)(unsigned)n << 8) ^ (uint64_t)k;
}

static int is_logic(int k) { return k == OP_LAND || k == OP_LOR || k == OP_LXOR; }

/* Whether to compare the result of op k: MPI_SUCCESS always; under other
 * MPIs an MPI_ERR_OP from MPI_REPLACE / MPI_NO_OP is accepted instead. */
static int result_expected(int rc, int k, const char *dtname, int n)
{
    int cls = -1;
    if (rc == MPI_SUCCESS) return 1;
    MPI_Error_class(rc, &cls);
#if !defined(HMPI)
    if ((k == OP_REPLACE || k == OP_NO_OP) && cls == MPI_ERR_OP) return 0;
#endif
    MT_CHECK(0, "MPI_Reduce_local(%s, %s, count %d) returned error class %d", op_names[k], dtname, n, cls);
    return 0;
}

/*
 * The driver, one per C type: T the element type, GEN(s, k) an input value
 * for op k, EXPECT(k, a, b) the expected a (op) b, EQ(a, b) equality,
 * SHOW(a) a double to print.
 */
#define DEFINE_RUN(NAME, T, GEN, EXPECT, EQ, SHOW)                                                      \
    static void NAME(MPI_Datatype dt, const char *dtname, unsigned ops)                                 \
    {                                                                                                   \
        int ci, k, i;                                                                                   \
        for (ci = 0; ci < NCOUNTS; ci++) {                                                              \
            int n = counts[ci];                                                                         \
            if (n > 1000 && mt_rank() != 0) continue; /* the big count on rank 0 only */               \
            size_t bytes = sizeof(T) * (size_t)(n + 1);                                                 \
            T *in = (T *)mt_malloc(bytes), *io = (T *)mt_malloc(bytes);                                 \
            T *want = (T *)mt_malloc(bytes), *keep = (T *)mt_malloc(bytes);                             \
            for (k = 0; k < NOPS; k++) {                                                                \
                uint64_t s;                                                                             \
                int rc, bad = -1;                                                                       \
                if (!(ops & BIT(k))) continue;                                                          \
                s = seed_of(dtname, n, k);                                                              \
                memset((void *)in, 0, bytes);                                                           \
                memset((void *)io, 0, bytes);                                                           \
                for (i = 0; i <= n; i++) {                                                              \
                    in[i] = GEN(&s, k);                                                                 \
                    io[i] = GEN(&s, k);                                                                 \
                }                                                                                       \
                memcpy((void *)keep, (void *)in, bytes);                                                \
                for (i = 0; i < n; i++) want[i] = EXPECT(k, in[i], io[i]);                              \
                want[n] = io[n];                                                                        \
                rc = MPI_Reduce_local(in, io, n, dt, op_handle(k));                                     \
                if (!result_expected(rc, k, dtname, n)) continue;                                       \
                for (i = 0; i <= n && bad < 0; i++)                                                     \
                    if (!(EQ(io[i], want[i]))) bad = i;                                                 \
                MT_CHECK(bad < 0, "%s on %s, count %d: element %d is %g, expected %g (in %g)",          \
                         op_names[k], dtname, n, bad, bad < 0 ? 0.0 : (double)SHOW(io[bad]),            \
                         bad < 0 ? 0.0 : (double)SHOW(want[bad]), bad < 0 ? 0.0 : (double)SHOW(in[bad])); \
                MT_CHECK(memcmp((void *)keep, (void *)in, bytes) == 0, "%s on %s, count %d: inbuf changed", \
                         op_names[k], dtname, n);                                                       \
            }                                                                                           \
            free(in);                                                                                   \
            free(io);                                                                                   \
            free(want);                                                                                 \
            free(keep);                                                                                 \
        }                                                                                               \
    }

#define SCALAR_EQ(a, b) ((a) == (b))
#define SCALAR_SHOW(a) (a)

/* Open MPI 4.1 gets three things wrong that this test would otherwise
 * catch: its AVX kernels saturate 8- and 16-bit unsigned sums instead of
 * wrapping (open-mpi/ompi issue 8045, "wontfix"), MIN/MAX on
 * MPI_UNSIGNED_LONG compare as signed (issue 10648), and MIN/MAX on
 * MPI_OFFSET compare as unsigned. Under Open MPI those sums stay in range,
 * unsigned MIN/MAX inputs keep the top bit clear, and
 * MPI_OFFSET values are non-negative (file offsets usually are). */
#if defined(OPEN_MPI)
#define OMPI_SATURATES 1
#define OFFSET_MODE 'n'
#else
#define OMPI_SATURATES 0
#define OFFSET_MODE 's'
#endif
/* MPICH 4.0 has the same MIN/MAX bug on the MPI_UINTn_T types
 * (pmodels/mpich issue 6083, fixed in 4.1). */
#if defined(OPEN_MPI) || (defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40100000)
#define SIGNED_UNSIGNED_MINMAX 1
#else
#define SIGNED_UNSIGNED_MINMAX 0
#endif

/* ---- integers (C integers, Fortran integers, logicals, bytes) ----
 * MODE: 's' signed, 'u' unsigned, 'n' signed but non-negative, 'b' logical
 * with 0/1 values only.
 * W: the unsigned type the expected sum and product are computed in (wraps
 * modulo 2^bits, then truncated to T). */
#define DEFINE_INTEGER(NAME, T, W, MODE, RAW)                                                           \
    static T NAME##_gen(uint64_t *s, int k)                                                             \
    {                                                                                                   \
        W r = RAW(s);                                                                                   \
        int bits = (int)(8 * sizeof(T)) > 64 ? 64 : (int)(8 * sizeof(T));                               \
        if (MODE == 'b') return (T)(r % 2);                                                             \
        if (is_logic(k)) {                                                                              \
            T v = (T)(r >> 3);                                                                          \
            return (r % 3 == 0) ? (T)0 : (v ? v : (T)2);                                                \
        }                                                                                               \
        if (MODE == 's' && k == OP_SUM) {                                                               \
            long long R = 1LL << (bits - 3);                                                            \
            return (T)((long long)(r % (W)(2 * R + 1)) - R);                                            \
        }                                                                                               \
        if (MODE == 's' && k == OP_PROD) {                                                              \
            long long R = 1LL << ((bits - 2) / 2);                                                      \
            return (T)((long long)(r % (W)(2 * R + 1)) - R);                                            \
        }                                                                                               \
        if (MODE == 'n') return (T)(r >> (65 - bits));                                                  \
        if (OMPI_SATURATES && MODE == 'u' && k == OP_SUM && bits <= 16) return (T)(r >> (65 - bits));   \
        if (SIGNED_UNSIGNED_MINMAX && MODE == 'u' && (k == OP_MIN || k == OP_MAX))                     \
            return (T)(r >> (65 - bits));                                                               \
        return (T)r;                                                                                    \
    }                                                                                                   \
    static T NAME##_expect(int k, T a, T b)                                                             \
    {                                                                                                   \
        switch (k) {                                                                                    \
        case OP_SUM: { W w = (W)a + (W)b; return (T)w; }                                                \
        case OP_PROD: { W w = (W)a * (W)b; return (T)w; }                                               \
        case OP_MIN: return a < b ? a : b;                                                              \
        case OP_MAX: return a > b ? a : b;                                                              \
        case OP_BAND: return (T)(a & b);                                                                \
        case OP_BOR: return (T)(a | b);                                                                 \
        case OP_BXOR: return (T)(a ^ b);                                                                \
        case OP_LAND: return (T)(a != 0 && b != 0);                                                     \
        case OP_LOR: return (T)(a != 0 || b != 0);                                                      \
        case OP_LXOR: return (T)((a != 0) != (b != 0));                                                 \
        case OP_REPLACE: return a;                                                                      \
        default: return b;                                                                              \
        }                                                                                               \
    }                                                                                                   \
    DEFINE_RUN(NAME, T, NAME##_gen, NAME##_expect, SCALAR_EQ, SCALAR_SHOW)

#define RAW64(s) mt_rand(s)

DEFINE_INTEGER(run_schar, signed char, unsigned long long, 's', RAW64)
DEFINE_INTEGER(run_uchar, unsigned char, unsigned long long, 'u', RAW64)
DEFINE_INTEGER(run_short, short, unsigned long long, 's', RAW64)
DEFINE_INTEGER(run_ushort, unsigned short, unsigned long long, 'u', RAW64)
DEFINE_INTEGER(run_int, int, unsigned long long, 's', RAW64)
DEFINE_INTEGER(run_uint, unsigned, unsigned long long, 'u', RAW64)
DEFINE_INTEGER(run_long, long, unsigned long long, 's', RAW64)
DEFINE_INTEGER(run_ulong, unsigned long, unsigned long long, 'u', RAW64)
DEFINE_INTEGER(run_llong, long long, unsigned long long, 's', RAW64)
DEFINE_INTEGER(run_ullong, unsigned long long, unsigned long long, 'u', RAW64)
DEFINE_INTEGER(run_i8, int8_t, unsigned long long, 's', RAW64)
DEFINE_INTEGER(run_u8, uint8_t, unsigned long long, 'u', RAW64)
DEFINE_INTEGER(run_i16, int16_t, unsigned long long, 's', RAW64)
DEFINE_INTEGER(run_u16, uint16_t, unsigned long long, 'u', RAW64)
DEFINE_INTEGER(run_i32, int32_t, unsigned long long, 's', RAW64)
DEFINE_INTEGER(run_u32, uint32_t, unsigned long long, 'u', RAW64)
DEFINE_INTEGER(run_i64, int64_t, unsigned long long, 's', RAW64)
DEFINE_INTEGER(run_u64, uint64_t, unsigned long long, 'u', RAW64)
DEFINE_INTEGER(run_aint, MPI_Aint, unsigned long long, 's', RAW64)
DEFINE_INTEGER(run_offset, MPI_Offset, unsigned long long, OFFSET_MODE, RAW64)
DEFINE_INTEGER(run_count, MPI_Count, unsigned long long, 's', RAW64)
DEFINE_INTEGER(run_flog4, int32_t, unsigned long long, 'b', RAW64)
#if defined(MPI_LOGICAL1)
DEFINE_INTEGER(run_flog1, int8_t, unsigned long long, 'b', RAW64)
DEFINE_INTEGER(run_flog2, int16_t, unsigned long long, 'b', RAW64)
DEFINE_INTEGER(run_flog8, int64_t, unsigned long long, 'b', RAW64)
#endif
DEFINE_INTEGER(run_bool, _Bool, unsigned long long, 'b', RAW64)

/* ---- floating point ----
 * SUM: multiples of 1/4 up to +-SCALE; PROD: halves up to +-8; MIN/MAX:
 * multiples of 1/8 up to +-SCALE. All sums and products are exact. */
#define DEFINE_FLOATING(NAME, T, SCALE)                                                                 \
    static T NAME##_gen(uint64_t *s, int k)                                                             \
    {                                                                                                   \
        uint64_t r = mt_rand(s);                                                                        \
        long long q = 4 * (long long)(SCALE);                                                           \
        if (k == OP_PROD) return (T)((long long)(r % 33) - 16) / (T)2;                                  \
        if (k == OP_SUM) return (T)((long long)(r % (uint64_t)(2 * q + 1)) - q) / (T)4;                 \
        return (T)((long long)(r % (uint64_t)(4 * q + 1)) - 2 * q) / (T)8;                              \
    }                                                                                                   \
    static T NAME##_expect(int k, T a, T b)                                                             \
    {                                                                                                   \
        switch (k) {                                                                                    \
        case OP_SUM: return (T)(a + b);                                                                 \
        case OP_PROD: return (T)(a * b);                                                                \
        case OP_MIN: return a < b ? a : b;                                                              \
        case OP_MAX: return a > b ? a : b;                                                              \
        case OP_REPLACE: return a;                                                                      \
        default: return b;                                                                              \
        }                                                                                               \
    }                                                                                                   \
    DEFINE_RUN(NAME, T, NAME##_gen, NAME##_expect, SCALAR_EQ, SCALAR_SHOW)

DEFINE_FLOATING(run_float, float, 4000)
DEFINE_FLOATING(run_double, double, 100000)
DEFINE_FLOATING(run_ldouble, long double, 100000)

/* ---- complex: {re, im} with small integer parts, exact sums and products ---- */
#define DEFINE_COMPLEX(NAME, C, F)                                                                      \
    static C NAME##_gen(uint64_t *s, int k)                                                             \
    {                                                                                                   \
        uint64_t r = mt_rand(s);                                                                        \
        C c;                                                                                            \
        (void)k;                                                                                        \
        c.re = (F)((long long)(r % 17) - 8);                                                            \
        c.im = (F)((long long)((r >> 8) % 17) - 8);                                                     \
        return c;                                                                                       \
    }                                                                                                   \
    static C NAME##_expect(int k, C a, C b)                                                             \
    {                                                                                                   \
        C c = b;                                                                                        \
        if (k == OP_SUM) {                                                                              \
            c.re = (F)(a.re + b.re);                                                                    \
            c.im = (F)(a.im + b.im);                                                                    \
        } else if (k == OP_PROD) {                                                                      \
            c.re = (F)(a.re * b.re - a.im * b.im);                                                      \
            c.im = (F)(a.re * b.im + a.im * b.re);                                                      \
        } else if (k == OP_REPLACE) {                                                                   \
            c = a;                                                                                      \
        }                                                                                               \
        return c;                                                                                       \
    }                                                                                                   \
    DEFINE_RUN(NAME, C, NAME##_gen, NAME##_expect, COMPLEX_EQ, COMPLEX_SHOW)

#define COMPLEX_EQ(a, b) ((a).re == (b).re && (a).im == (b).im)
#define COMPLEX_SHOW(a) ((a).re)

typedef struct { float re, im; } cfloat;
typedef struct { double re, im; } cdouble;
typedef struct { long double re, im; } cldouble;
DEFINE_COMPLEX(run_cfloat, cfloat, float)
DEFINE_COMPLEX(run_cdouble, cdouble, double)
DEFINE_COMPLEX(run_cldouble, cldouble, long double)

/* ---- MINLOC / MAXLOC pairs {value, index} ---- */
#define DEFINE_PAIR(NAME, P, V, I)                                                                      \
    static P NAME##_gen(uint64_t *s, int k)                                                             \
    {                                                                                                   \
        uint64_t r = mt_rand(s);                                                                        \
        P p;                                                                                            \
        (void)k;                                                                                        \
        memset((void *)&p, 0, sizeof p);                                                                \
        p.v = (V)((long long)(r % 5) - 2);                                                              \
        p.i = (I)((r >> 8) % 1000);                                                                     \
        return p;                                                                                       \
    }                                                                                                   \
    static P NAME##_expect(int k, P a, P b)                                                             \
    {                                                                                                   \
        if (k == OP_REPLACE) return a;                                                                  \
        if (k == OP_NO_OP) return b;                                                                    \
        if (a.v == b.v) {                                                                               \
            if (a.i < b.i) b.i = a.i;                                                                   \
            return b;                                                                                   \
        }                                                                                               \
        if (k == OP_MINLOC) return a.v < b.v ? a : b;                                                   \
        return a.v > b.v ? a : b;                                                                       \
    }                                                                                                   \
    DEFINE_RUN(NAME, P, NAME##_gen, NAME##_expect, PAIR_EQ, PAIR_SHOW)

#define PAIR_EQ(a, b) ((a).v == (b).v && (a).i == (b).i)
#define PAIR_SHOW(a) ((a).v)

typedef struct { float v; int i; } float_int;
typedef struct { double v; int i; } double_int;
typedef struct { long v; int i; } long_int;
typedef struct { int v; int i; } int_int;
typedef struct { short v; int i; } short_int;
typedef struct { long double v; int i; } ldouble_int;
typedef struct { float v; float i; } real_real;
typedef struct { double v; double i; } dp_dp;
DEFINE_PAIR(run_float_int, float_int, float, int)
DEFINE_PAIR(run_double_int, double_int, double, int)
DEFINE_PAIR(run_long_int, long_int, long, int)
DEFINE_PAIR(run_2int, int_int, int, int)
DEFINE_PAIR(run_short_int, short_int, short, int)
DEFINE_PAIR(run_ldouble_int, ldouble_int, long double, int)
DEFINE_PAIR(run_2real, real_real, float, float)
DEFINE_PAIR(run_2dp, dp_dp, double, double)

#if defined(HMPI)
/* HMPI only: the optional Fortran kinds with GCC's extended C types. */
#define RAW128(s) (((unsigned __int128)mt_rand(s) << 64) | mt_rand(s))
DEFINE_INTEGER(run_i128, __int128, unsigned __int128, 's', RAW128)
DEFINE_INTEGER(run_flog16, __int128, unsigned __int128, 'b', RAW128)
DEFINE_FLOATING(run_half, _Float16, 100)
DEFINE_FLOATING(run_quad, __float128, 100000)
typedef struct { _Float16 re, im; } chalf;
typedef struct { __float128 re, im; } cquad;
DEFINE_COMPLEX(run_chalf, chalf, _Float16)
DEFINE_COMPLEX(run_cquad, cquad, __float128)
#endif

/* MPI_BYTE and MPI_UNSIGNED_CHAR-like bitwise data. */
#define run_byte run_uchar

#define RUN(FN, DT, OPS) FN(DT, #DT, OPS)

/*
 * Predefined operations on derived datatypes made of one basic datatype.
 * MPI 3.1 (5.9.1) lets predefined operations work "only with the MPI types
 * listed"; RMA accumulate (11.3.4) takes derived types whose basic
 * components are all one predefined type, and HMPI accepts those in
 * reductions too. Elsewhere MPI_ERR_OP is accepted instead of the result.
 * A type mixing basic types gets MPI_ERR_OP everywhere.
 */
static int derived_result_expected(int rc, const char *what)
{
    int cls = -1;
    if (rc == MPI_SUCCESS) return 1;
    MPI_Error_class(rc, &cls);
#if !defined(HMPI)
    if (cls == MPI_ERR_OP) return 0;
#endif
    MT_CHECK(0, "%s: error class %d", what, cls);
    return 0;
}

static void test_derived(void)
{
    enum { N = 7, COUNT = 25 };
    MPI_Datatype vec, pairs, mixed, types[2] = {MPI_DOUBLE, MPI_INT};
    int blocklens[2] = {1, 1}, i, rc, cls = -1, bad = -1;
    MPI_Aint disps[2] = {0, sizeof(double)};
    double in[3 * N * COUNT], io[3 * N * COUNT], want[3 * N * COUNT];
    double_int p[2 * COUNT], q[2 * COUNT], w[2 * COUNT];
    uint64_t s = 4242;

    /* every third double of N per element: vector(N, 1, 3) */
    MT_CHECK_RC(MPI_Type_vector(N, 1, 3, MPI_DOUBLE, &vec));
    MT_CHECK_RC(MPI_Type_commit(&vec));
    for (i = 0; i < 3 * N * COUNT; i++) {
        in[i] = (double)(mt_rand(&s) % 1000) / 4;
        io[i] = (double)(mt_rand(&s) % 1000) / 4;
        want[i] = io[i];
    }
    /* element e starts at e * extent = e * (3 * (N - 1) + 1) doubles */
    for (i = 0; i < COUNT * N; i++) {
        int at = (i / N) * (3 * (N - 1) + 1) + 3 * (i % N);
        want[at] = in[at] + io[at];
    }
    rc = MPI_Reduce_local(in, io, COUNT, vec, MPI_SUM);
    if (derived_result_expected(rc, "MPI_SUM on a vector of MPI_DOUBLE")) {
        for (i = 0; i < 3 * N * COUNT && bad < 0; i++)
            if (io[i] != want[i]) bad = i;
        MT_CHECK(bad < 0, "MPI_SUM on a vector of MPI_DOUBLE: double %d is %g, expected %g", bad,
                 bad < 0 ? 0.0 : io[bad], bad < 0 ? 0.0 : want[bad]);
    }

    /* contiguous(2, MPI_DOUBLE_INT) with MINLOC: padded pairs, ties */
    MT_CHECK_RC(MPI_Type_contiguous(2, MPI_DOUBLE_INT, &pairs));
    MT_CHECK_RC(MPI_Type_commit(&pairs));
    for (i = 0; i < 2 * COUNT; i++) {
        p[i].v = (double)(mt_rand(&s) % 3);
        p[i].i = (int)(mt_rand(&s) % 10);
        q[i].v = (double)(mt_rand(&s) % 3);
        q[i].i = (int)(mt_rand(&s) % 10);
        w[i] = run_double_int_expect(OP_MINLOC, p[i], q[i]);
    }
    rc = MPI_Reduce_local(p, q, COUNT, pairs, MPI_MINLOC);
    bad = -1;
    if (derived_result_expected(rc, "MPI_MINLOC on contiguous(2, MPI_DOUBLE_INT)")) {
        for (i = 0; i < 2 * COUNT && bad < 0; i++)
            if (!PAIR_EQ(q[i], w[i])) bad = i;
        MT_CHECK(bad < 0, "MPI_MINLOC on contiguous(2, MPI_DOUBLE_INT): pair %d wrong", bad);
    }

    /* struct {double; int}: two basic types, no predefined operation */
    MT_CHECK_RC(MPI_Type_create_struct(2, blocklens, disps, types, &mixed));
    MT_CHECK_RC(MPI_Type_commit(&mixed));
    rc = MPI_Reduce_local(p, q, 1, mixed, MPI_SUM);
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    MT_CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_OP, "MPI_SUM on struct {double; int}: rc %d, class %d", rc, cls);

    MT_CHECK_RC(MPI_Type_free(&vec));
    MT_CHECK_RC(MPI_Type_free(&pairs));
    MT_CHECK_RC(MPI_Type_free(&mixed));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* C integers */
    RUN(run_short, MPI_SHORT, C_INTEGER);
    RUN(run_int, MPI_INT, C_INTEGER);
    RUN(run_long, MPI_LONG, C_INTEGER);
    RUN(run_llong, MPI_LONG_LONG, C_INTEGER);
    RUN(run_llong, MPI_LONG_LONG_INT, C_INTEGER);
    RUN(run_ushort, MPI_UNSIGNED_SHORT, C_INTEGER);
    RUN(run_uint, MPI_UNSIGNED, C_INTEGER);
    RUN(run_ulong, MPI_UNSIGNED_LONG, C_INTEGER);
    RUN(run_ullong, MPI_UNSIGNED_LONG_LONG, C_INTEGER);
    RUN(run_schar, MPI_SIGNED_CHAR, C_INTEGER);
    RUN(run_uchar, MPI_UNSIGNED_CHAR, C_INTEGER);
    RUN(run_i8, MPI_INT8_T, C_INTEGER);
    RUN(run_u8, MPI_UINT8_T, C_INTEGER);
    RUN(run_i16, MPI_INT16_T, C_INTEGER);
    RUN(run_u16, MPI_UINT16_T, C_INTEGER);
    RUN(run_i32, MPI_INT32_T, C_INTEGER);
    RUN(run_u32, MPI_UINT32_T, C_INTEGER);
    RUN(run_i64, MPI_INT64_T, C_INTEGER);
    RUN(run_u64, MPI_UINT64_T, C_INTEGER);

    /* Fortran integers */
    RUN(run_int, MPI_INTEGER, F_INTEGER);
    RUN(run_aint, MPI_AINT, F_INTEGER);
    RUN(run_offset, MPI_OFFSET, F_INTEGER);
    RUN(run_count, MPI_COUNT, F_INTEGER);
    RUN(run_i8, MPI_INTEGER1, F_INTEGER);
    RUN(run_i16, MPI_INTEGER2, F_INTEGER);
    RUN(run_i32, MPI_INTEGER4, F_INTEGER);
    RUN(run_i64, MPI_INTEGER8, F_INTEGER);

    /* Floating point */
    RUN(run_float, MPI_FLOAT, FLOATING);
    RUN(run_double, MPI_DOUBLE, FLOATING);
    RUN(run_ldouble, MPI_LONG_DOUBLE, FLOATING);
    RUN(run_float, MPI_REAL, FLOATING);
    RUN(run_double, MPI_DOUBLE_PRECISION, FLOATING);
    RUN(run_float, MPI_REAL4, FLOATING);
    RUN(run_double, MPI_REAL8, FLOATING);

    /* Logical */
    RUN(run_flog4, MPI_LOGICAL, LOGICAL);
    RUN(run_bool, MPI_C_BOOL, LOGICAL);
    RUN(run_bool, MPI_CXX_BOOL, LOGICAL);
#if defined(MPI_LOGICAL1) /* optional kinds, named by MPI 4.0 */
    RUN(run_flog1, MPI_LOGICAL1, LOGICAL);
    RUN(run_flog2, MPI_LOGICAL2, LOGICAL);
    RUN(run_flog4, MPI_LOGICAL4, LOGICAL);
    RUN(run_flog8, MPI_LOGICAL8, LOGICAL);
#endif

    /* Complex */
    RUN(run_cfloat, MPI_C_FLOAT_COMPLEX, COMPLEX);
    RUN(run_cfloat, MPI_C_COMPLEX, COMPLEX);
    RUN(run_cdouble, MPI_C_DOUBLE_COMPLEX, COMPLEX);
    RUN(run_cldouble, MPI_C_LONG_DOUBLE_COMPLEX, COMPLEX);
    RUN(run_cfloat, MPI_COMPLEX, COMPLEX);
    RUN(run_cdouble, MPI_DOUBLE_COMPLEX, COMPLEX);
    RUN(run_cfloat, MPI_COMPLEX8, COMPLEX);
    RUN(run_cdouble, MPI_COMPLEX16, COMPLEX);
    RUN(run_cfloat, MPI_CXX_FLOAT_COMPLEX, COMPLEX);
    RUN(run_cdouble, MPI_CXX_DOUBLE_COMPLEX, COMPLEX);
    RUN(run_cldouble, MPI_CXX_LONG_DOUBLE_COMPLEX, COMPLEX);

    /* Byte */
    RUN(run_byte, MPI_BYTE, BYTE);

    /* MINLOC / MAXLOC pairs */
    RUN(run_float_int, MPI_FLOAT_INT, PAIR);
    RUN(run_double_int, MPI_DOUBLE_INT, PAIR);
    RUN(run_long_int, MPI_LONG_INT, PAIR);
    RUN(run_2int, MPI_2INT, PAIR);
    RUN(run_short_int, MPI_SHORT_INT, PAIR);
    RUN(run_ldouble_int, MPI_LONG_DOUBLE_INT, PAIR);
    RUN(run_2real, MPI_2REAL, PAIR);
    RUN(run_2dp, MPI_2DOUBLE_PRECISION, PAIR);
    RUN(run_2int, MPI_2INTEGER, PAIR);

#if defined(HMPI)
    RUN(run_i128, MPI_INTEGER16, F_INTEGER);
    RUN(run_flog16, MPI_LOGICAL16, LOGICAL);
    RUN(run_half, MPI_REAL2, FLOATING);
    RUN(run_quad, MPI_REAL16, FLOATING);
    RUN(run_chalf, MPI_COMPLEX4, COMPLEX);
    RUN(run_cquad, MPI_COMPLEX32, COMPLEX);
#endif

    test_derived();
    return mt_finalize();
}
