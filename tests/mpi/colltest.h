/*
 * colltest.h - the reference machinery shared by the collective test
 * programs (t_coll, t_coll_nb, t_coll_mt, t_coll_inter, t_coll_neighbor).
 *
 * Standard MPI-3.1 C. Include "mpitest.h" first.
 *
 * Idea: every value any rank sends is a pure function of (iteration seed,
 * sender, block, element index), so every rank can compute locally what it
 * must receive, and for reductions the exact result (the operation applied
 * over all contributors' generated inputs, in rank order). A receive buffer
 * is checked byte by byte against an "expected image" of the whole buffer:
 * bytes covered by result elements must hold the expected value, every other
 * byte (gaps of vector types, blocks nobody writes, padding around blocks)
 * must still hold the sentinel the buffer was filled with. Send buffers must
 * come back unchanged.
 *
 * A "case" (struct ct_case) is one collective call with all its arguments:
 * ct_setup draws them from a per-iteration seed that every rank shares (so
 * all members of a communicator agree on collective, counts, root, type, op,
 * in-place) and fills this rank's buffers and expected image; ct_start makes
 * the blocking or nonblocking call; ct_check compares and reports the first
 * wrong element (collective, iteration, communicator, count, type, op, root,
 * rank, index, expected and actual value); ct_free releases it.
 *
 * Values are chosen so that results are exact and do not overflow: sums of
 * signed integers stay in range for the communicator size, floating-point
 * values are small multiples of 1/8 (sums exact in any order), products are
 * +-1 and a bounded number of 2s. The non-commutative user operation is the
 * product of 2x2 integer matrices modulo 251, which checks rank order.
 *
 * Globals: none that are mutable (test programs run unprivatized, ranks may
 * be threads sharing globals); per-rank state lives in struct ct_ctx.
 */
#ifndef COLLTEST_H
#define COLLTEST_H

#include "mpitest.h"

#include <limits.h>
#include <stdbool.h>
#include <strings.h>
#include <time.h>

#define CT_FN static inline MT_UNUSED

/* ------------------------------------------------------------------ */
/* PRNG helpers                                                        */

CT_FN uint64_t ct_mix(uint64_t x)
{
    return mt_rand(&x);
}

/* A key naming one stream of values: (seed, a, b). */
CT_FN uint64_t ct_key(uint64_t seed, int64_t a, int64_t b)
{
    return ct_mix(seed ^ ct_mix((uint64_t)a * 0x100000001b3ull + 0x51ed27ull) ^ ct_mix((uint64_t)b + 0x632be5ab));
}

/* Value number j of stream key. */
CT_FN uint64_t ct_h(uint64_t key, uint64_t j)
{
    return ct_mix(key + j * 0xd1342543de82ef95ull);
}

/* ------------------------------------------------------------------ */
/* Base element kinds and test datatypes                               */

enum {
    B_INT, B_DOUBLE, B_FLOAT, B_CHAR, B_SCHAR, B_UCHAR, B_BYTE, B_SHORT, B_UNSIGNED, B_LL, B_BOOL,
    B_2INT, B_DOUBLE_INT, B_FLOAT_INT, NBASE
};

typedef struct {
    int i2;
    int loc;
} ct_2int;
typedef struct {
    double v;
    int loc;
} ct_double_int;
typedef struct {
    float v;
    int loc;
} ct_float_int;

static const MT_UNUSED size_t ct_base_size[NBASE] = {
    sizeof(int), sizeof(double), sizeof(float), 1, 1, 1, 1, sizeof(short), sizeof(unsigned), sizeof(long long),
    sizeof(bool), sizeof(ct_2int), sizeof(ct_double_int), sizeof(ct_float_int)};
static const MT_UNUSED char *const ct_base_name[NBASE] = {"int", "double", "float", "char", "signed char", "unsigned char",
                                                "byte", "short", "unsigned", "long long", "bool", "2int",
                                                "double_int", "float_int"};

enum {
    T_INT, T_DOUBLE, T_FLOAT, T_CHAR, T_SCHAR, T_UCHAR, T_BYTE, T_SHORT, T_UNSIGNED, T_LL, T_BOOL, T_2INT,
    T_DOUBLE_INT, T_FLOAT_INT,
    /* derived */
    T_VEC_INT,     /* vector(2,1,2,INT) resized to 16: ints at 0 and 8, gaps at 4 and 12 */
    T_CONTIG_INT3, /* contiguous(3, INT) */
    T_CONTIG_INT2, /* contiguous(2, INT) */
    T_VEC_DOUBLE,  /* vector(3,2,3,DOUBLE): doubles at 0,8,24,32,48,56; extent 64 */
    T_STRUCT_CHAR, /* struct {CHAR at 0, CHAR at 3} resized to 5 */
    T_MAT_C,       /* contiguous(4, INT): a 2x2 matrix for the user operation */
    T_MAT_V,       /* vector(4,1,2,INT) resized to 32: the same matrix with gaps */
    NTYPES
};

typedef struct {
    const char *name;
    int base;
    int nb;       /* base elements per element of the type */
    int off[6];   /* their byte offsets */
    MPI_Aint ext; /* extent */
} ct_tinfo;

static const MT_UNUSED ct_tinfo ct_types[NTYPES] = {
    {"MPI_INT", B_INT, 1, {0}, sizeof(int)},
    {"MPI_DOUBLE", B_DOUBLE, 1, {0}, sizeof(double)},
    {"MPI_FLOAT", B_FLOAT, 1, {0}, sizeof(float)},
    {"MPI_CHAR", B_CHAR, 1, {0}, 1},
    {"MPI_SIGNED_CHAR", B_SCHAR, 1, {0}, 1},
    {"MPI_UNSIGNED_CHAR", B_UCHAR, 1, {0}, 1},
    {"MPI_BYTE", B_BYTE, 1, {0}, 1},
    {"MPI_SHORT", B_SHORT, 1, {0}, sizeof(short)},
    {"MPI_UNSIGNED", B_UNSIGNED, 1, {0}, sizeof(unsigned)},
    {"MPI_LONG_LONG", B_LL, 1, {0}, sizeof(long long)},
    {"MPI_C_BOOL", B_BOOL, 1, {0}, sizeof(bool)},
    {"MPI_2INT", B_2INT, 1, {0}, sizeof(ct_2int)},
    {"MPI_DOUBLE_INT", B_DOUBLE_INT, 1, {0}, sizeof(ct_double_int)},
    {"MPI_FLOAT_INT", B_FLOAT_INT, 1, {0}, sizeof(ct_float_int)},
    {"vector(2,1,2,INT)/16", B_INT, 2, {0, 8}, 16},
    {"contiguous(3,INT)", B_INT, 3, {0, 4, 8}, 12},
    {"contiguous(2,INT)", B_INT, 2, {0, 4}, 8},
    {"vector(3,2,3,DOUBLE)", B_DOUBLE, 6, {0, 8, 24, 32, 48, 56}, 64},
    {"struct(CHAR@0,CHAR@3)/5", B_CHAR, 2, {0, 3}, 5},
    {"matrix:contiguous(4,INT)", B_INT, 4, {0, 4, 8, 12}, 16},
    {"matrix:vector(4,1,2,INT)/32", B_INT, 4, {0, 8, 16, 24}, 32},
};

/* Types used for data movement (any collective but reductions). */
static const MT_UNUSED int ct_move_types[] = {T_INT,       T_DOUBLE,      T_FLOAT,       T_CHAR,       T_BYTE,
                                    T_SHORT,     T_LL,          T_2INT,        T_DOUBLE_INT, T_FLOAT_INT,
                                    T_VEC_INT,   T_CONTIG_INT3, T_CONTIG_INT2, T_VEC_DOUBLE, T_STRUCT_CHAR,
                                    T_MAT_V,     T_INT,         T_DOUBLE};
#define CT_NMOVE ((int)(sizeof ct_move_types / sizeof ct_move_types[0]))

/* Reduction operations. */
enum {
    O_SUM, O_PROD, O_MIN, O_MAX, O_LAND, O_LOR, O_LXOR, O_BAND, O_BOR, O_BXOR, O_MINLOC, O_MAXLOC,
    O_USUM, /* user-defined, commutative: integer sum on MPI_INT */
    O_UMAT, /* user-defined, non-commutative: 2x2 matrix product mod 251 */
    NOPS
};
static const MT_UNUSED char *const ct_op_name[NOPS] = {"MPI_SUM",  "MPI_PROD", "MPI_MIN",    "MPI_MAX",
                                             "MPI_LAND", "MPI_LOR",  "MPI_LXOR",   "MPI_BAND",
                                             "MPI_BOR",  "MPI_BXOR", "MPI_MINLOC", "MPI_MAXLOC",
                                             "user_sum(commutative)", "user_matmul(non-commutative)"};

/* Types each operation is tested on (MPI 3.1, 5.9.2). */
static const MT_UNUSED int ct_op_types[NOPS][10] = {
    /* SUM  */ {T_INT, T_DOUBLE, T_FLOAT, T_SCHAR, T_UCHAR, T_SHORT, T_UNSIGNED, T_LL, -1},
    /* PROD */ {T_INT, T_DOUBLE, T_FLOAT, T_SCHAR, T_UCHAR, T_SHORT, T_UNSIGNED, T_LL, -1},
    /* MIN  */ {T_INT, T_DOUBLE, T_FLOAT, T_SCHAR, T_UCHAR, T_SHORT, T_UNSIGNED, T_LL, -1},
    /* MAX  */ {T_INT, T_DOUBLE, T_FLOAT, T_SCHAR, T_UCHAR, T_SHORT, T_UNSIGNED, T_LL, -1},
    /* LAND */ {T_INT, T_SCHAR, T_UCHAR, T_SHORT, T_UNSIGNED, T_LL, T_BOOL, -1},
    /* LOR  */ {T_INT, T_SCHAR, T_UCHAR, T_SHORT, T_UNSIGNED, T_LL, T_BOOL, -1},
    /* LXOR */ {T_INT, T_SCHAR, T_UCHAR, T_SHORT, T_UNSIGNED, T_LL, T_BOOL, -1},
    /* BAND */ {T_INT, T_SCHAR, T_UCHAR, T_SHORT, T_UNSIGNED, T_LL, T_BYTE, -1},
    /* BOR  */ {T_INT, T_SCHAR, T_UCHAR, T_SHORT, T_UNSIGNED, T_LL, T_BYTE, -1},
    /* BXOR */ {T_INT, T_SCHAR, T_UCHAR, T_SHORT, T_UNSIGNED, T_LL, T_BYTE, -1},
    /* MINLOC */ {T_2INT, T_DOUBLE_INT, T_FLOAT_INT, -1},
    /* MAXLOC */ {T_2INT, T_DOUBLE_INT, T_FLOAT_INT, -1},
    /* USUM */ {T_INT, -1},
    /* UMAT */ {T_MAT_C, T_MAT_V, -1},
};

/* ------------------------------------------------------------------ */
/* Values                                                              */

typedef struct {
    long long i; /* integer kinds, the first int of 2INT */
    double d;    /* floating kinds, the value of DOUBLE_INT/FLOAT_INT */
    int loc;     /* the index of the pair types */
} ct_val;

CT_FN long long ct_norm(int base, long long x)
{
    switch (base) {
    case B_INT: case B_2INT: return (int32_t)(uint32_t)(uint64_t)x;
    case B_CHAR: case B_SCHAR: return (int8_t)(uint8_t)(uint64_t)x;
    case B_UCHAR: case B_BYTE: return (uint8_t)(uint64_t)x;
    case B_SHORT: return (int16_t)(uint16_t)(uint64_t)x;
    case B_UNSIGNED: return (uint32_t)(uint64_t)x;
    case B_BOOL: return x != 0;
    default: return x;
    }
}

CT_FN int ct_is_float(int base)
{
    return base == B_DOUBLE || base == B_FLOAT || base == B_DOUBLE_INT || base == B_FLOAT_INT;
}

CT_FN void ct_store(int base, unsigned char *p, const ct_val *v)
{
    switch (base) {
    case B_INT: { int x = (int)v->i; memcpy(p, &x, sizeof x); break; }
    case B_DOUBLE: memcpy(p, &v->d, sizeof v->d); break;
    case B_FLOAT: { float x = (float)v->d; memcpy(p, &x, sizeof x); break; }
    case B_CHAR: case B_SCHAR: case B_UCHAR: case B_BYTE: *p = (unsigned char)(uint64_t)v->i; break;
    case B_SHORT: { short x = (short)v->i; memcpy(p, &x, sizeof x); break; }
    case B_UNSIGNED: { unsigned x = (unsigned)v->i; memcpy(p, &x, sizeof x); break; }
    case B_LL: memcpy(p, &v->i, sizeof v->i); break;
    case B_BOOL: { bool x = v->i != 0; memcpy(p, &x, sizeof x); break; }
    case B_2INT: { ct_2int x; x.i2 = (int)v->i; x.loc = v->loc; memcpy(p, &x, sizeof x); break; }
    case B_DOUBLE_INT: {
        /* only the value and index: the padding of the struct stays as it is */
        memcpy(p + offsetof(ct_double_int, v), &v->d, sizeof(double));
        memcpy(p + offsetof(ct_double_int, loc), &v->loc, sizeof(int));
        break;
    }
    case B_FLOAT_INT: { ct_float_int x; x.v = (float)v->d; x.loc = v->loc; memcpy(p, &x, sizeof x); break; }
    default: break;
    }
}

CT_FN void ct_load(int base, const unsigned char *p, ct_val *v)
{
    memset(v, 0, sizeof *v);
    switch (base) {
    case B_INT: { int x; memcpy(&x, p, sizeof x); v->i = x; break; }
    case B_DOUBLE: memcpy(&v->d, p, sizeof v->d); break;
    case B_FLOAT: { float x; memcpy(&x, p, sizeof x); v->d = x; break; }
    case B_CHAR: case B_SCHAR: v->i = (signed char)*p; break;
    case B_UCHAR: case B_BYTE: v->i = *p; break;
    case B_SHORT: { short x; memcpy(&x, p, sizeof x); v->i = x; break; }
    case B_UNSIGNED: { unsigned x; memcpy(&x, p, sizeof x); v->i = x; break; }
    case B_LL: memcpy(&v->i, p, sizeof v->i); break;
    case B_BOOL: v->i = *p; break;
    case B_2INT: { ct_2int x; memcpy(&x, p, sizeof x); v->i = x.i2; v->loc = x.loc; break; }
    case B_DOUBLE_INT: {
        memcpy(&v->d, p + offsetof(ct_double_int, v), sizeof(double));
        memcpy(&v->loc, p + offsetof(ct_double_int, loc), sizeof(int));
        break;
    }
    case B_FLOAT_INT: { ct_float_int x; memcpy(&x, p, sizeof x); v->d = x.v; v->loc = x.loc; break; }
    default: break;
    }
}

/* Bytes of a base element that carry data (DOUBLE_INT has padding). */
CT_FN size_t ct_base_sig(int base)
{
    return base == B_DOUBLE_INT ? offsetof(ct_double_int, loc) + sizeof(int) : ct_base_size[base];
}

CT_FN void ct_format(int base, const ct_val *v, char *out, size_t n)
{
    if (base == B_2INT)
        snprintf(out, n, "(%lld,%d)", v->i, v->loc);
    else if (base == B_DOUBLE_INT || base == B_FLOAT_INT)
        snprintf(out, n, "(%.17g,%d)", v->d, v->loc);
    else if (ct_is_float(base))
        snprintf(out, n, "%.17g", v->d);
    else
        snprintf(out, n, "%lld", v->i);
}

/* A data-movement value: element j of stream key. Finite, distinct-ish. */
CT_FN void ct_gen_move(int base, uint64_t key, uint64_t j, ct_val *v)
{
    uint64_t h = ct_h(key, j);
    memset(v, 0, sizeof *v);
    switch (base) {
    case B_DOUBLE: v->d = (double)((int64_t)(h >> 20) - (1ll << 43)) / 8.0; break;
    case B_FLOAT: v->d = (double)((int32_t)(h >> 40) - (1 << 23)) / 8.0; break;
    case B_2INT: v->i = (int32_t)(uint32_t)h; v->loc = (int32_t)(h >> 32); break;
    case B_DOUBLE_INT: v->d = (double)((int64_t)(h >> 24) - (1ll << 39)) / 4.0; v->loc = (int32_t)(uint32_t)h; break;
    case B_FLOAT_INT: v->d = (double)((int32_t)(h >> 44) - (1 << 19)) / 4.0; v->loc = (int32_t)(uint32_t)h; break;
    case B_BOOL: v->i = (long long)(h & 1); break;
    default: v->i = ct_norm(base, (long long)h); break;
    }
}

/* Largest |value| for a sum over n contributors without overflow / with an exact result. */
CT_FN long long ct_sum_range(int base, int n)
{
    long long lim;
    switch (base) {
    case B_SCHAR: case B_CHAR: lim = 127; break;
    case B_SHORT: lim = 32767; break;
    case B_INT: lim = 1ll << 30; break;
    case B_LL: lim = 1ll << 60; break;
    case B_FLOAT: lim = 1ll << 20; break;  /* k/8, exact in a float */
    case B_DOUBLE: lim = 1ll << 44; break; /* k/8, exact in a double */
#ifdef OPEN_MPI
    /* Open MPI 4.1's op/avx adds 8-bit integers with saturation
     * (open-mpi/ompi#8045): keep unsigned char sums from wrapping there */
    case B_UCHAR: lim = 255; break;
#endif
    default: lim = 1ll << 60; break;       /* unsigned kinds wrap, which is defined */
    }
    return n > 0 ? lim / n : lim;
}

/* How many of the first contributors may contribute a factor 2 to a product. */
CT_FN int ct_prod_twos(int base)
{
    switch (base) {
    case B_SCHAR: case B_CHAR: return 6;
    case B_SHORT: return 14;
    case B_INT: return 30;
    case B_LL: return 62;
    default: return 1000; /* floats: powers of two are exact; unsigned wrap */
    }
}

/* Input element j of contributor `pos` (of n) for op: cseed is common to
 * every contributor (it selects per-element modes), key is the contributor's. */
CT_FN void ct_gen_red(int op, int base, int n, int pos, uint64_t cseed, uint64_t key, uint64_t j, ct_val *v)
{
    uint64_t h = ct_h(key, j), h2 = ct_h(key ^ 0xabcdefull, j), h3 = ct_h(key ^ 0x123457ull, j);
    uint64_t common = ct_h(cseed ^ 0x5bd1e995ull, j);
    memset(v, 0, sizeof *v);
    switch (op) {
    case O_SUM: case O_USUM: {
        long long r = ct_sum_range(base, n);
        long long k = base == B_UCHAR || base == B_UNSIGNED ? (long long)(h % (uint64_t)(r + 1))
                                                            : (long long)(h % (uint64_t)(2 * r + 1)) - r;
        if (base == B_DOUBLE || base == B_FLOAT)
            v->d = (double)k / 8.0;
        else
            v->i = ct_norm(base, k);
        break;
    }
    case O_PROD: {
        long long k;
        if (base == B_UCHAR || base == B_UNSIGNED)
            k = (long long)(h % 1000); /* unsigned products wrap (defined) */
        else if (pos < ct_prod_twos(base) && h % 3 == 0)
            k = (h >> 8) & 1 ? 2 : -2;
        else
            k = (h >> 8) & 1 ? 1 : -1;
        if (base == B_DOUBLE || base == B_FLOAT)
            v->d = (double)k;
        else
            v->i = ct_norm(base, k);
        break;
    }
    case O_MIN: case O_MAX:
        if (base == B_DOUBLE || base == B_FLOAT)
            v->d = (double)((int32_t)(h >> 40) - (1 << 23)) / 8.0;
        else
            v->i = ct_norm(base, (long long)h);
        break;
    case O_LAND: case O_LOR: case O_LXOR: {
        /* per element, either mostly true or mostly false, so that LAND and
         * LOR both see results 0 and 1 */
        int zero;
        if (op == O_LXOR)
            zero = (int)(h & 1);
        else if (common & 1)
            zero = h % (uint64_t)(2 * n + 1) == 0;
        else
            zero = h % (uint64_t)(2 * n + 1) != 0;
        if (base == B_BOOL)
            v->i = !zero;
        else
            v->i = zero ? 0 : ct_norm(base, (long long)(h2 % 5) + 1);
        break;
    }
    case O_BAND: v->i = ct_norm(base, (long long)~(h & h2 & h3)); break;
    case O_BOR: v->i = ct_norm(base, (long long)(h & h2 & h3)); break;
    case O_BXOR: v->i = ct_norm(base, (long long)h); break;
    case O_MINLOC: case O_MAXLOC:
        /* few distinct values: ties are frequent, the lower index must win */
        if (base == B_2INT)
            v->i = (long long)(h % 4);
        else
            v->d = (double)(h % 4) - 1.5;
        v->loc = (int)(h2 % 1000);
        break;
    default: break;
    }
}

/* acc = acc op b (acc is the earlier contributor). */
CT_FN void ct_combine(int op, int base, ct_val *acc, const ct_val *b)
{
    int fl = base == B_DOUBLE || base == B_FLOAT;
    switch (op) {
    case O_SUM: case O_USUM:
        if (fl) {
            acc->d += b->d;
            if (base == B_FLOAT) acc->d = (float)acc->d;
        } else
            acc->i = ct_norm(base, (long long)((uint64_t)acc->i + (uint64_t)b->i));
        break;
    case O_PROD:
        if (fl) {
            acc->d *= b->d;
            if (base == B_FLOAT) acc->d = (float)acc->d;
        } else
            acc->i = ct_norm(base, (long long)((uint64_t)acc->i * (uint64_t)b->i));
        break;
    case O_MIN:
        if (fl) { if (b->d < acc->d) acc->d = b->d; }
        else if (b->i < acc->i) acc->i = b->i;
        break;
    case O_MAX:
        if (fl) { if (b->d > acc->d) acc->d = b->d; }
        else if (b->i > acc->i) acc->i = b->i;
        break;
    case O_LAND: acc->i = (acc->i != 0) && (b->i != 0); break;
    case O_LOR: acc->i = (acc->i != 0) || (b->i != 0); break;
    case O_LXOR: acc->i = (acc->i != 0) != (b->i != 0); break;
    case O_BAND: acc->i = ct_norm(base, acc->i & b->i); break;
    case O_BOR: acc->i = ct_norm(base, acc->i | b->i); break;
    case O_BXOR: acc->i = ct_norm(base, acc->i ^ b->i); break;
    case O_MINLOC: case O_MAXLOC: {
        double x = base == B_2INT ? (double)acc->i : acc->d, y = base == B_2INT ? (double)b->i : b->d;
        int better = op == O_MINLOC ? y < x : y > x;
        if (better) *acc = *b;
        else if (x == y && b->loc < acc->loc) acc->loc = b->loc;
        break;
    }
    default: break;
    }
}

/* ---- the user-defined operations ---- */

/* 2x2 matrices mod 251, [a b; c d] stored row-major in 4 ints. */
CT_FN void ct_mat_gen(uint64_t key, uint64_t e, int m[4])
{
    int k;
    for (k = 0; k < 4; k++) m[k] = (int)(ct_h(key, e * 4 + (uint64_t)k) % 251);
}

/* r = a * b (mod 251); r may alias neither. */
CT_FN void ct_mat_mul(const int a[4], const int b[4], int r[4])
{
    r[0] = (a[0] * b[0] + a[1] * b[2]) % 251;
    r[1] = (a[0] * b[1] + a[1] * b[3]) % 251;
    r[2] = (a[2] * b[0] + a[3] * b[2]) % 251;
    r[3] = (a[2] * b[1] + a[3] * b[3]) % 251;
}

/* inoutvec[i] = invec[i] o inoutvec[i] (MPI 3.1, 5.9.5), where o is the
 * matrix product: the result of a reduction is M0 * M1 * ... * Mn-1. The
 * datatype is one of the two matrix types; the extent tells them apart. */
static void MT_UNUSED ct_user_matmul(void *invec, void *inoutvec, int *len, MPI_Datatype *dt)
{
    MPI_Aint lb, ext;
    int i, k, stride;
    MPI_Type_get_extent(*dt, &lb, &ext);
    stride = ext == 32 ? 2 : 1; /* ints between matrix entries */
    for (i = 0; i < *len; i++) {
        int *a = (int *)((char *)invec + i * ext), *b = (int *)((char *)inoutvec + i * ext);
        int x[4], y[4], r[4];
        for (k = 0; k < 4; k++) { x[k] = a[k * stride]; y[k] = b[k * stride]; }
        ct_mat_mul(x, y, r);
        for (k = 0; k < 4; k++) b[k * stride] = r[k];
    }
}

static void MT_UNUSED ct_user_sum(void *invec, void *inoutvec, int *len, MPI_Datatype *dt)
{
    int i;
    (void)dt;
    for (i = 0; i < *len; i++) {
        int a, b;
        memcpy(&a, (char *)invec + i * sizeof(int), sizeof a);
        memcpy(&b, (char *)inoutvec + i * sizeof(int), sizeof b);
        b = (int)((unsigned)a + (unsigned)b);
        memcpy((char *)inoutvec + i * sizeof(int), &b, sizeof b);
    }
}

/* ------------------------------------------------------------------ */
/* Per-rank context                                                    */

#define CT_MAXCOMMS 8

typedef struct ct_ctx {
    int wrank, wsize;
    MPI_Datatype types[NTYPES];
    MPI_Op ops[NOPS];
    int ncomms;
    MPI_Comm comms[CT_MAXCOMMS]; /* MPI_COMM_NULL where this rank is not a member */
    const char *comm_names[CT_MAXCOMMS];
    int comm_weight[CT_MAXCOMMS];
    int failures_printed;
    int max_printed;  /* detailed reports per rank (failures are all counted) */
    int big_permille; /* share of cases with buffers from 32 KiB to a few MiB */
    /* >= 0: forced instead of drawn (the sweeps of every op and type) */
    int force_class, force_inplace, force_op, force_type;
    const char *prog; /* for messages */
} ct_ctx;

CT_FN MPI_Op ct_predef_op(int op)
{
    switch (op) {
    case O_SUM: return MPI_SUM;
    case O_PROD: return MPI_PROD;
    case O_MIN: return MPI_MIN;
    case O_MAX: return MPI_MAX;
    case O_LAND: return MPI_LAND;
    case O_LOR: return MPI_LOR;
    case O_LXOR: return MPI_LXOR;
    case O_BAND: return MPI_BAND;
    case O_BOR: return MPI_BOR;
    case O_BXOR: return MPI_BXOR;
    case O_MINLOC: return MPI_MINLOC;
    case O_MAXLOC: return MPI_MAXLOC;
    default: return MPI_OP_NULL;
    }
}

/* Creates the derived types and user operations of this rank. */
CT_FN void ct_ctx_types(ct_ctx *x)
{
    static const MPI_Datatype predef[T_FLOAT_INT + 1] = {
        MPI_INT,   MPI_DOUBLE,   MPI_FLOAT, MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_BYTE,
        MPI_SHORT, MPI_UNSIGNED, MPI_LONG_LONG, MPI_C_BOOL, MPI_2INT, MPI_DOUBLE_INT, MPI_FLOAT_INT};
    MPI_Datatype t;
    int k, bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, 3};
    MPI_Datatype cc[2] = {MPI_CHAR, MPI_CHAR};
    for (k = 0; k <= T_FLOAT_INT; k++) x->types[k] = predef[k];
    MPI_Type_vector(2, 1, 2, MPI_INT, &t);
    MPI_Type_create_resized(t, 0, 16, &x->types[T_VEC_INT]);
    MPI_Type_free(&t);
    MPI_Type_contiguous(3, MPI_INT, &x->types[T_CONTIG_INT3]);
    MPI_Type_contiguous(2, MPI_INT, &x->types[T_CONTIG_INT2]);
    MPI_Type_vector(3, 2, 3, MPI_DOUBLE, &x->types[T_VEC_DOUBLE]);
    MPI_Type_create_struct(2, bl, disp, cc, &t);
    MPI_Type_create_resized(t, 0, 5, &x->types[T_STRUCT_CHAR]);
    MPI_Type_free(&t);
    MPI_Type_contiguous(4, MPI_INT, &x->types[T_MAT_C]);
    MPI_Type_vector(4, 1, 2, MPI_INT, &t);
    MPI_Type_create_resized(t, 0, 32, &x->types[T_MAT_V]);
    MPI_Type_free(&t);
    for (k = T_VEC_INT; k < NTYPES; k++) {
        MPI_Aint lb, ext;
        MPI_Type_commit(&x->types[k]);
        MPI_Type_get_extent(x->types[k], &lb, &ext);
        MT_CHECK(lb == 0 && ext == ct_types[k].ext, "%s: lb %ld extent %ld, expected 0 and %ld", ct_types[k].name,
                 (long)lb, (long)ext, (long)ct_types[k].ext);
    }
    for (k = 0; k < NOPS; k++) x->ops[k] = ct_predef_op(k);
    MPI_Op_create(ct_user_sum, 1, &x->ops[O_USUM]);
    MPI_Op_create(ct_user_matmul, 0, &x->ops[O_UMAT]);
}

CT_FN void ct_ctx_add_comm(ct_ctx *x, MPI_Comm c, const char *name, int weight)
{
    if (x->ncomms >= CT_MAXCOMMS) return;
    x->comms[x->ncomms] = c;
    x->comm_names[x->ncomms] = name;
    x->comm_weight[x->ncomms] = weight;
    x->ncomms++;
}

/* The communicators of t_coll (built in the same order on every rank):
 * world, self, a dup, a split into two halves (ranks reversed), groups of
 * three (the last one may be smaller), a subgroup made by MPI_Comm_create
 * (every rank but those with rank % 4 == 1, in a shuffled order), and the
 * merge of an intercommunicator between the first third and the rest of the
 * ranks (the rest first). */
CT_FN void ct_ctx_comms(ct_ctx *x, MPI_Comm world)
{
    int r, s, k, n = 0;
    MPI_Comm c;
    MPI_Group wg, sg;
    int *members;
    MPI_Comm_rank(world, &r);
    MPI_Comm_size(world, &s);
    ct_ctx_add_comm(x, world, "world", 30);
    ct_ctx_add_comm(x, MPI_COMM_SELF, "self", 5);
    MPI_Comm_dup(world, &c);
    ct_ctx_add_comm(x, c, "dup(world)", 10);
    MPI_Comm_split(world, r % 2, -r, &c);
    ct_ctx_add_comm(x, c, "split(rank%2, key=-rank)", 15);
    MPI_Comm_split(world, r / 3, r, &c);
    ct_ctx_add_comm(x, c, "split(rank/3)", 10);
    /* subgroup: ranks with rank % 4 != 1, rotated by one */
    members = (int *)mt_malloc(sizeof(int) * (size_t)s);
    for (k = 0; k < s; k++)
        if (k % 4 != 1) members[n++] = k;
    if (n > 1) {
        int first = members[0];
        memmove(members, members + 1, sizeof(int) * (size_t)(n - 1));
        members[n - 1] = first;
    }
    MPI_Comm_group(world, &wg);
    MPI_Group_incl(wg, n, members, &sg);
    MPI_Comm_create(world, sg, &c);
    MPI_Group_free(&sg);
    MPI_Group_free(&wg);
    free(members);
    ct_ctx_add_comm(x, c, "create(rank%4!=1, rotated)", 15);
    if (s >= 2) {
        int third = s / 3 > 0 ? s / 3 : 1, low = r < third;
        MPI_Comm local, inter;
        MPI_Comm_split(world, low, r, &local);
        MPI_Intercomm_create(local, 0, world, low ? third : 0, 77, &inter);
        MPI_Intercomm_merge(inter, low, &c); /* low = 1: the first third goes last */
        MPI_Comm_free(&inter);
        MPI_Comm_free(&local);
    } else {
        c = MPI_COMM_NULL;
    }
    ct_ctx_add_comm(x, c, "merge(intercomm 1/3 | 2/3)", 15);
}

CT_FN void ct_ctx_init(ct_ctx *x, MPI_Comm world, const char *prog)
{
    memset(x, 0, sizeof *x);
    MPI_Comm_rank(world, &x->wrank);
    MPI_Comm_size(world, &x->wsize);
    x->max_printed = 8;
    x->big_permille = 20;
    x->force_class = x->force_inplace = x->force_op = x->force_type = -1;
    x->prog = prog;
    ct_ctx_types(x);
}

CT_FN void ct_ctx_free(ct_ctx *x)
{
    int k;
    for (k = T_VEC_INT; k < NTYPES; k++) MPI_Type_free(&x->types[k]);
    MPI_Op_free(&x->ops[O_USUM]);
    MPI_Op_free(&x->ops[O_UMAT]);
    for (k = 0; k < x->ncomms; k++) {
        MPI_Comm c = x->comms[k];
        if (c != MPI_COMM_NULL && c != MPI_COMM_WORLD && c != MPI_COMM_SELF) MPI_Comm_free(&x->comms[k]);
    }
}

/* ------------------------------------------------------------------ */
/* Collectives                                                         */

enum {
    C_BARRIER, C_BCAST, C_GATHER, C_GATHERV, C_SCATTER, C_SCATTERV, C_ALLGATHER, C_ALLGATHERV, C_ALLTOALL,
    C_ALLTOALLV, C_ALLTOALLW, C_REDUCE, C_ALLREDUCE, C_REDUCE_SCATTER, C_REDUCE_SCATTER_BLOCK, C_SCAN, C_EXSCAN,
    NCOLL
};
static const MT_UNUSED char *const ct_coll_name[NCOLL] = {
    "barrier",   "bcast",     "gather",    "gatherv",   "scatter",        "scatterv",
    "allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw",      "reduce",
    "allreduce", "reduce_scatter", "reduce_scatter_block", "scan", "exscan"};

CT_FN int ct_coll_by_name(const char *s)
{
    int k;
    const char *p = s;
    if (strncmp(p, "MPI_", 4) == 0 || strncmp(p, "mpi_", 4) == 0) p += 4;
    if (*p == 'i' || *p == 'I') { /* accept the I-forms' names too */
        for (k = 0; k < NCOLL; k++)
            if (strcasecmp(p + 1, ct_coll_name[k]) == 0) return k;
    }
    for (k = 0; k < NCOLL; k++)
        if (strcasecmp(p, ct_coll_name[k]) == 0) return k;
    return -1;
}

CT_FN int ct_is_reduction(int coll)
{
    return coll >= C_REDUCE;
}

/* Sorts a comma-separated list of collective names into a bitmask; -1 on an unknown name. */
CT_FN long ct_parse_colls(const char *list)
{
    long mask = 0;
    char buf[256], *tok, *save = NULL;
    snprintf(buf, sizeof buf, "%s", list);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int k = ct_coll_by_name(tok);
        if (k < 0) return -1;
        mask |= 1l << k;
    }
    return mask;
}

/* ------------------------------------------------------------------ */
/* Cases                                                               */

typedef struct {
    MPI_Aint start; /* byte offset in the receive buffer */
    int t;          /* test type of the elements */
    long nbase;     /* base elements */
    int src;        /* where they come from (rank; -1 for a reduction) */
    int block;      /* which block of the sender */
} ct_seg;

#define CT_SENTINEL 0x5a /* unwritten receive bytes */
#define CT_SENDFILL 0xa5 /* gaps of send buffers: must never arrive anywhere */

typedef struct ct_case {
    int coll, comm_idx, iter, nb;
    const char *label; /* name printed instead of the collective's (neighborhood collectives) */
    const char *comm_name;
    MPI_Comm comm;
    int rank, size;
    int inter;       /* intercommunicator (t_coll_inter) */
    uint64_t cseed;
    int root, inplace, szclass;
    int st, rt;      /* send/recv test types; rt is the type of reductions */
    int op;
    long count;      /* reductions: elements; else the per-block unit count of the root/common case */
    int scount, rcount;
    int *scounts, *sdispls, *rcounts, *rdispls;
    int *stidx, *rtidx;
    MPI_Datatype *stypes, *rtypes;
    const void *sarg;
    void *rarg;
    int sarg_count, rarg_count; /* counts passed where the argument is not significant */
    MPI_Datatype sarg_type, rarg_type;
    unsigned char *sbuf, *rbuf, *sref, *exp, *care;
    size_t sbytes, rbytes;
    ct_seg *segs;
    int nsegs, capsegs;
    /* barrier check */
    int sleeper;
    int sleep_ms;
    double t_enter, t_exit;
    int rc;
} ct_case;

CT_FN double ct_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* system-wide: comparable between processes */
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

CT_FN int ct_lcm(int a, int b)
{
    int x = a, y = b;
    while (y) { int t = x % y; x = y; y = t; }
    return a / x * b;
}

CT_FN void ct_seg_add(ct_case *c, MPI_Aint start, int t, long nbase, int src, int block)
{
    if (c->nsegs == c->capsegs) {
        c->capsegs = c->capsegs ? 2 * c->capsegs : 16;
        c->segs = (ct_seg *)realloc(c->segs, sizeof(ct_seg) * (size_t)c->capsegs);
    }
    c->segs[c->nsegs].start = start;
    c->segs[c->nsegs].t = t;
    c->segs[c->nsegs].nbase = nbase;
    c->segs[c->nsegs].src = src;
    c->segs[c->nsegs].block = block;
    c->nsegs++;
}

CT_FN MPI_Aint ct_pos(int t, long j)
{
    const ct_tinfo *T = &ct_types[t];
    return (MPI_Aint)(j / T->nb) * T->ext + T->off[j % T->nb];
}

/* Writes nbase movement values of stream key at buf+start laid out as type t. */
CT_FN void ct_put_move(unsigned char *buf, MPI_Aint start, int t, long nbase, uint64_t key)
{
    long j;
    int base = ct_types[t].base;
    for (j = 0; j < nbase; j++) {
        ct_val v;
        ct_gen_move(base, key, (uint64_t)j, &v);
        ct_store(base, buf + start + ct_pos(t, j), &v);
    }
}

/* Marks the padding of pair elements as "any value" in a care map. */
CT_FN void ct_care_pad(unsigned char *care, MPI_Aint start, int t, long nbase)
{
    long j;
    int base = ct_types[t].base;
    size_t sig = ct_base_sig(base), full = ct_base_size[base];
    if (!care || sig == full) return;
    for (j = 0; j < nbase; j++) memset(care + start + ct_pos(t, j) + sig, 0, full - sig);
}

/* Marks whole elements as "any value" (undefined results). */
CT_FN void ct_care_none(unsigned char *care, MPI_Aint start, int t, long nbase)
{
    long j;
    size_t full = ct_base_size[ct_types[t].base];
    for (j = 0; j < nbase; j++) memset(care + start + ct_pos(t, j), 0, full);
}

/* Keys of the value streams. */
CT_FN uint64_t ct_move_key(const ct_case *c, int sender, int block)
{
    return ct_key(c->cseed, 1000003ll * (c->inter + 1) + sender, block);
}
CT_FN uint64_t ct_red_key(const ct_case *c, int side, int contributor)
{
    return ct_key(c->cseed, 7777777ll + side, contributor);
}

/* Reduction input: `count` elements of type t (global element indices j0..),
 * contributor pos of n. */
CT_FN void ct_put_red_input(const ct_case *c, unsigned char *buf, MPI_Aint start, int t, long count, long j0,
                            int n, int pos, uint64_t key)
{
    long e;
    const ct_tinfo *T = &ct_types[t];
    if (c->op == O_UMAT) {
        for (e = 0; e < count; e++) {
            int m[4], k;
            ct_mat_gen(key, (uint64_t)(j0 + e), m);
            for (k = 0; k < 4; k++) {
                ct_val v;
                memset(&v, 0, sizeof v);
                v.i = m[k];
                ct_store(B_INT, buf + start + ct_pos(t, e * 4 + k), &v);
            }
        }
        return;
    }
    for (e = 0; e < count; e++) {
        ct_val v;
        ct_gen_red(c->op, T->base, n, pos, c->cseed, key, (uint64_t)(j0 + e), &v);
        ct_store(T->base, buf + start + ct_pos(t, e), &v);
    }
}

/* Reduction result of contributors keys[0..n-1] (in that order), for global
 * elements j0..j0+count-1, written at buf+start. */
CT_FN void ct_put_red_result(const ct_case *c, unsigned char *buf, MPI_Aint start, int t, long count, long j0,
                             int nall, int n, const uint64_t *keys)
{
    long e;
    int r;
    const ct_tinfo *T = &ct_types[t];
    if (n <= 0) return;
    if (c->op == O_UMAT) {
        for (e = 0; e < count; e++) {
            int acc[4], m[4], tmp[4], k;
            ct_mat_gen(keys[0], (uint64_t)(j0 + e), acc);
            for (r = 1; r < n; r++) {
                ct_mat_gen(keys[r], (uint64_t)(j0 + e), m);
                ct_mat_mul(acc, m, tmp);
                memcpy(acc, tmp, sizeof acc);
            }
            for (k = 0; k < 4; k++) {
                ct_val v;
                memset(&v, 0, sizeof v);
                v.i = acc[k];
                ct_store(B_INT, buf + start + ct_pos(t, e * 4 + k), &v);
            }
        }
        return;
    }
    for (e = 0; e < count; e++) {
        ct_val acc, v;
        ct_gen_red(c->op, T->base, nall, 0, c->cseed, keys[0], (uint64_t)(j0 + e), &acc);
        for (r = 1; r < n; r++) {
            ct_gen_red(c->op, T->base, nall, r, c->cseed, keys[r], (uint64_t)(j0 + e), &v);
            ct_combine(c->op, T->base, &acc, &v);
        }
        ct_store(T->base, buf + start + ct_pos(t, e), &acc);
    }
}

/* Base elements per reduction element. */
CT_FN int ct_red_nb(int t)
{
    return ct_types[t].nb;
}

/* Size of a buffer holding `count` elements of t (no trailing gap beyond
 * the last element's data is needed, but keep the whole extent). */
CT_FN size_t ct_span(int t, long count)
{
    return (size_t)count * (size_t)ct_types[t].ext;
}

/* ---- size classes ---- */

/* Largest buffer (bytes) allowed for a size class. */
CT_FN size_t ct_class_budget(int cls)
{
    static const size_t b[] = {0, 64, 1024, 32768, 512 * 1024, 4 * 1024 * 1024};
    return b[cls];
}

/* Draws a size class: 0 (count 0), 1 tiny .. 5 a few MiB. big_permille is
 * the share (per mille) of classes 4-5. */
CT_FN int ct_draw_class(uint64_t h, int big_permille)
{
    int p = (int)(h % 1000);
    if (p < big_permille / 4) return 5;
    if (p < big_permille) return 4;
    p -= big_permille;
    if (p < 60) return 0;
    if (p < 400) return 1;
    if (p < 700) return 2;
    return 3;
}

/* Units (each `unit_bytes` in the largest buffer, which holds `blocks` of
 * them) for one block: 0 for class 0, else 1..max (0 allowed when allow0). */
CT_FN long ct_units(int cls, uint64_t h, size_t unit_bytes, int blocks, int allow0)
{
    size_t budget = ct_class_budget(cls);
    long umax;
    if (cls == 0) return 0;
    if (blocks < 1) blocks = 1;
    umax = (long)(budget / (size_t)blocks / (unit_bytes ? unit_bytes : 1));
    if (umax < 1) umax = 1;
    if (allow0) return (long)(h % (uint64_t)(umax + 1));
    /* favour the upper half so the big classes are really big */
    if (cls >= 4) return umax / 2 + 1 + (long)(h % (uint64_t)(umax - umax / 2));
    return 1 + (long)(h % (uint64_t)umax);
}

/* Block displacements in units: blocks laid out in a rotated (sometimes
 * reversed) order with gaps of 0..maxgap units. Returns the span. */
CT_FN long ct_layout(int n, uint64_t key, const long *len, long maxgap, long *displ)
{
    int k, rot = n > 0 ? (int)(key % (uint64_t)n) : 0, rev = (int)((key >> 20) & 1);
    long pos = 0;
    for (k = 0; k < n; k++) {
        int b = (k + rot) % n;
        if (rev) b = n - 1 - b;
        pos += maxgap > 0 ? (long)(ct_h(key, (uint64_t)k) % (uint64_t)(maxgap + 1)) : 0;
        displ[b] = pos;
        pos += len[b];
    }
    pos += maxgap > 0 ? (long)(ct_h(key, 99999) % (uint64_t)(maxgap + 1)) : 0;
    return pos;
}

/* Picks a send type matching the base kind of recv type rt. */
CT_FN int ct_pick_match(int rt, uint64_t h)
{
    int cand[CT_NMOVE], n = 0, k;
    if (h % 2 == 0) return rt;
    for (k = 0; k < CT_NMOVE; k++)
        if (ct_types[ct_move_types[k]].base == ct_types[rt].base) cand[n++] = ct_move_types[k];
    return cand[(h >> 8) % (uint64_t)n];
}

CT_FN void *ct_alloc_fill(size_t n, int byte)
{
    unsigned char *p = (unsigned char *)mt_malloc(n + 1);
    memset(p, byte, n + 1);
    return p;
}

/* Allocates the receive buffer (sentinel), its expected image and care map. */
CT_FN void ct_alloc_recv(ct_case *c, size_t n)
{
    c->rbytes = n;
    c->rbuf = (unsigned char *)ct_alloc_fill(n, CT_SENTINEL);
    c->exp = (unsigned char *)ct_alloc_fill(n, CT_SENTINEL);
    c->care = (unsigned char *)ct_alloc_fill(n, 1);
}

CT_FN void ct_alloc_send(ct_case *c, size_t n)
{
    c->sbytes = n;
    c->sbuf = (unsigned char *)ct_alloc_fill(n, CT_SENDFILL);
}

/* Expected movement data: a segment of the receive buffer. */
CT_FN void ct_expect_move(ct_case *c, MPI_Aint start, int t, long nbase, int src, int block, uint64_t key)
{
    if (nbase <= 0) return;
    ct_put_move(c->exp, start, t, nbase, key);
    ct_care_pad(c->care, start, t, nbase);
    ct_seg_add(c, start, t, nbase, src, block);
}

CT_FN int ct_pick_red_type(int op, uint64_t h)
{
    int n = 0;
    while (ct_op_types[op][n] >= 0) n++;
    return ct_op_types[op][h % (uint64_t)n];
}

CT_FN int *ct_ints(int n)
{
    return (int *)mt_malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
}

/* The hash of the per-iteration draw: every member of the communicator
 * computes the same values from c->cseed. */
CT_FN uint64_t ct_draw(const ct_case *c, int what)
{
    return ct_h(c->cseed ^ 0x9e3779b97f4a7c15ull, (uint64_t)what);
}

/* ------------------------------------------------------------------ */
/* Setup of one case (intracommunicators)                              */

/* Draws and prepares the case: collective `coll` on communicator comm
 * (index comm_idx in ctx), iteration seed cseed. */
CT_FN void ct_setup(ct_ctx *x, ct_case *c, int coll, int comm_idx, MPI_Comm comm, const char *comm_name,
                    uint64_t cseed, int iter)
{
    int n, me, i, j;
    memset(c, 0, sizeof *c);
    c->coll = coll;
    c->comm_idx = comm_idx;
    c->comm = comm;
    c->comm_name = comm_name;
    c->iter = iter;
    c->cseed = cseed;
    MPI_Comm_rank(comm, &c->rank);
    MPI_Comm_size(comm, &c->size);
    n = c->size;
    me = c->rank;
    c->root = (int)(ct_draw(c, 1) % (uint64_t)n);
    c->szclass = x->force_class >= 0 ? x->force_class : ct_draw_class(ct_draw(c, 2), x->big_permille);
    c->inplace = x->force_inplace >= 0 ? x->force_inplace : ct_draw(c, 3) % 10 < 3;
    c->rt = ct_move_types[ct_draw(c, 4) % CT_NMOVE];
    c->st = ct_pick_match(c->rt, ct_draw(c, 5));
    c->op = -1;
    c->sarg_type = c->rarg_type = MPI_DATATYPE_NULL;

    if (ct_is_reduction(coll)) {
        c->op = x->force_op >= 0 ? x->force_op : (int)(ct_draw(c, 6) % NOPS);
        c->rt = c->st = x->force_type >= 0 ? x->force_type : ct_pick_red_type(c->op, ct_draw(c, 7));
    }
    {
        int nbs = ct_types[c->st].nb, nbr = ct_types[c->rt].nb, l = ct_lcm(nbs, nbr);
        size_t ubytes = (size_t)(l / nbs) * (size_t)ct_types[c->st].ext;
        size_t ur = (size_t)(l / nbr) * (size_t)ct_types[c->rt].ext;
        if (ur > ubytes) ubytes = ur;

        if (coll == C_BARRIER || coll == C_BCAST) c->inplace = 0; /* not defined for them */
        switch (coll) {
        case C_BARRIER:
            c->sleeper = (int)(ct_draw(c, 8) % (uint64_t)n);
            c->sleep_ms = ct_draw(c, 9) % 4 == 0 ? 1 : 0;
            break;

        case C_BCAST: {
            long N = ct_units(c->szclass, ct_draw(c, 10), ubytes, 1, 0) * l;
            c->count = N;
            if (me == c->root) {
                c->scount = (int)(N / nbs);
                ct_alloc_send(c, ct_span(c->st, c->scount));
                ct_put_move(c->sbuf, 0, c->st, N, ct_move_key(c, c->root, 0));
            } else {
                c->rcount = (int)(N / nbr);
                ct_alloc_recv(c, ct_span(c->rt, c->rcount));
                ct_expect_move(c, 0, c->rt, N, c->root, 0, ct_move_key(c, c->root, 0));
            }
            break;
        }

        case C_GATHER: case C_ALLGATHER: {
            long N = ct_units(c->szclass, ct_draw(c, 10), ubytes, n, 0) * l;
            int all = coll == C_ALLGATHER, recv_here = all || me == c->root;
            int ip = c->inplace && recv_here;
            c->count = N;
            c->scount = (int)(N / nbs);
            c->rcount = (int)(N / nbr);
            if (recv_here) {
                ct_alloc_recv(c, ct_span(c->rt, (long)c->rcount * n));
                for (i = 0; i < n; i++)
                    ct_expect_move(c, (MPI_Aint)i * c->rcount * ct_types[c->rt].ext, c->rt, N, i, 0,
                                   ct_move_key(c, i, 0));
            }
            if (ip) {
                /* own contribution already in place */
                ct_put_move(c->rbuf, (MPI_Aint)me * c->rcount * ct_types[c->rt].ext, c->rt, N,
                            ct_move_key(c, me, 0));
                c->sarg = MPI_IN_PLACE;
                c->sarg_count = c->scount;
                c->sarg_type = x->types[c->st];
            } else {
                ct_alloc_send(c, ct_span(c->st, c->scount));
                ct_put_move(c->sbuf, 0, c->st, N, ct_move_key(c, me, 0));
            }
            if (!all) c->inplace = ip;
            break;
        }

        case C_GATHERV: case C_ALLGATHERV: {
            int all = coll == C_ALLGATHERV, recv_here = all || me == c->root;
            int ip = c->inplace && recv_here;
            long *len = (long *)mt_malloc(sizeof(long) * (size_t)n), *disp = (long *)mt_malloc(sizeof(long) * (size_t)n);
            long span, Nme = 0;
            for (i = 0; i < n; i++) {
                long N = ct_units(c->szclass, ct_h(c->cseed ^ 0x77, (uint64_t)i), ubytes, n, 1) * l;
                len[i] = N / nbr;
                if (i == me) Nme = N;
            }
            span = ct_layout(n, ct_draw(c, 11), len, 2, disp);
            c->scount = (int)(Nme / nbs);
            if (recv_here) {
                c->rcounts = ct_ints(n);
                c->rdispls = ct_ints(n);
                ct_alloc_recv(c, ct_span(c->rt, span));
                for (i = 0; i < n; i++) {
                    c->rcounts[i] = (int)len[i];
                    c->rdispls[i] = (int)disp[i];
                    ct_expect_move(c, (MPI_Aint)disp[i] * ct_types[c->rt].ext, c->rt, len[i] * nbr, i, 0,
                                   ct_move_key(c, i, 0));
                }
            }
            if (ip) {
                ct_put_move(c->rbuf, (MPI_Aint)disp[me] * ct_types[c->rt].ext, c->rt, Nme, ct_move_key(c, me, 0));
                c->sarg = MPI_IN_PLACE;
                c->sarg_count = c->scount;
                c->sarg_type = x->types[c->st];
            } else {
                ct_alloc_send(c, ct_span(c->st, c->scount));
                ct_put_move(c->sbuf, 0, c->st, Nme, ct_move_key(c, me, 0));
            }
            if (!all) c->inplace = ip;
            free(len);
            free(disp);
            break;
        }

        case C_SCATTER: {
            long N = ct_units(c->szclass, ct_draw(c, 10), ubytes, n, 0) * l;
            int ip = c->inplace && me == c->root;
            c->count = N;
            c->scount = (int)(N / nbs);
            c->rcount = (int)(N / nbr);
            if (me == c->root) {
                ct_alloc_send(c, ct_span(c->st, (long)c->scount * n));
                for (i = 0; i < n; i++)
                    ct_put_move(c->sbuf, (MPI_Aint)i * c->scount * ct_types[c->st].ext, c->st, N,
                                ct_move_key(c, c->root, i));
            }
            if (ip) {
                c->rarg = MPI_IN_PLACE;
            } else {
                ct_alloc_recv(c, ct_span(c->rt, c->rcount));
                ct_expect_move(c, 0, c->rt, N, c->root, me, ct_move_key(c, c->root, me));
            }
            c->inplace = ip;
            break;
        }

        case C_SCATTERV: {
            int ip = c->inplace && me == c->root;
            long *len = (long *)mt_malloc(sizeof(long) * (size_t)n), *disp = (long *)mt_malloc(sizeof(long) * (size_t)n);
            long span, Nme = 0;
            for (i = 0; i < n; i++) {
                long N = ct_units(c->szclass, ct_h(c->cseed ^ 0x78, (uint64_t)i), ubytes, n, 1) * l;
                len[i] = N / nbs;
                if (i == me) Nme = N;
            }
            span = ct_layout(n, ct_draw(c, 11), len, 2, disp);
            c->rcount = (int)(Nme / nbr);
            if (me == c->root) {
                c->scounts = ct_ints(n);
                c->sdispls = ct_ints(n);
                ct_alloc_send(c, ct_span(c->st, span));
                for (i = 0; i < n; i++) {
                    c->scounts[i] = (int)len[i];
                    c->sdispls[i] = (int)disp[i];
                    ct_put_move(c->sbuf, (MPI_Aint)disp[i] * ct_types[c->st].ext, c->st, len[i] * nbs,
                                ct_move_key(c, c->root, i));
                }
            }
            if (ip) {
                c->rarg = MPI_IN_PLACE;
            } else {
                ct_alloc_recv(c, ct_span(c->rt, c->rcount));
                ct_expect_move(c, 0, c->rt, Nme, c->root, me, ct_move_key(c, c->root, me));
            }
            c->inplace = ip;
            free(len);
            free(disp);
            break;
        }

        case C_ALLTOALL: {
            long N = ct_units(c->szclass, ct_draw(c, 10), ubytes, n, 0) * l;
            c->count = N;
            c->scount = (int)(N / nbs);
            c->rcount = (int)(N / nbr);
            ct_alloc_recv(c, ct_span(c->rt, (long)c->rcount * n));
            for (i = 0; i < n; i++)
                ct_expect_move(c, (MPI_Aint)i * c->rcount * ct_types[c->rt].ext, c->rt, N, i, me,
                               ct_move_key(c, i, me));
            if (c->inplace) {
                for (j = 0; j < n; j++)
                    ct_put_move(c->rbuf, (MPI_Aint)j * c->rcount * ct_types[c->rt].ext, c->rt, N,
                                ct_move_key(c, me, j));
                c->sarg = MPI_IN_PLACE;
                c->sarg_count = c->scount;
                c->sarg_type = x->types[c->st];
            } else {
                ct_alloc_send(c, ct_span(c->st, (long)c->scount * n));
                for (j = 0; j < n; j++)
                    ct_put_move(c->sbuf, (MPI_Aint)j * c->scount * ct_types[c->st].ext, c->st, N,
                                ct_move_key(c, me, j));
            }
            break;
        }

        case C_ALLTOALLV: {
            /* base elements from i to j: symmetric when in place (the
             * receive layout is then used for both directions) */
            long *slen = (long *)mt_malloc(sizeof(long) * (size_t)n), *sdisp = (long *)mt_malloc(sizeof(long) * (size_t)n);
            long *rlen = (long *)mt_malloc(sizeof(long) * (size_t)n), *rdisp = (long *)mt_malloc(sizeof(long) * (size_t)n);
            long sspan, rspan;
#define CT_PAIRN(a, b)                                                                                   \
    (ct_units(c->szclass,                                                                                 \
              c->inplace ? ct_h(c->cseed ^ 0x79, (uint64_t)((a) < (b) ? (a) : (b)) * 65536u + (uint64_t)((a) < (b) ? (b) : (a))) \
                         : ct_h(c->cseed ^ 0x7a, (uint64_t)(a) * 65536u + (uint64_t)(b)),                 \
              ubytes, n, 1) * l)
            for (i = 0; i < n; i++) {
                slen[i] = CT_PAIRN(me, i) / nbs; /* me -> i */
                rlen[i] = CT_PAIRN(i, me) / nbr; /* i -> me */
            }
            sspan = ct_layout(n, ct_h(c->cseed ^ 0x7b, (uint64_t)me), slen, 2, sdisp);
            rspan = ct_layout(n, ct_h(c->cseed ^ 0x7c, (uint64_t)me), rlen, 2, rdisp);
            c->rcounts = ct_ints(n);
            c->rdispls = ct_ints(n);
            ct_alloc_recv(c, ct_span(c->rt, rspan));
            for (i = 0; i < n; i++) {
                c->rcounts[i] = (int)rlen[i];
                c->rdispls[i] = (int)rdisp[i];
                ct_expect_move(c, (MPI_Aint)rdisp[i] * ct_types[c->rt].ext, c->rt, rlen[i] * nbr, i, me,
                               ct_move_key(c, i, me));
            }
            if (c->inplace) {
                for (j = 0; j < n; j++)
                    ct_put_move(c->rbuf, (MPI_Aint)rdisp[j] * ct_types[c->rt].ext, c->rt, rlen[j] * nbr,
                                ct_move_key(c, me, j));
                c->sarg = MPI_IN_PLACE;
                c->sarg_type = x->types[c->st];
            } else {
                c->scounts = ct_ints(n);
                c->sdispls = ct_ints(n);
                ct_alloc_send(c, ct_span(c->st, sspan));
                for (j = 0; j < n; j++) {
                    c->scounts[j] = (int)slen[j];
                    c->sdispls[j] = (int)sdisp[j];
                    ct_put_move(c->sbuf, (MPI_Aint)sdisp[j] * ct_types[c->st].ext, c->st, slen[j] * nbs,
                                ct_move_key(c, me, j));
                }
            }
#undef CT_PAIRN
            free(slen); free(sdisp); free(rlen); free(rdisp);
            break;
        }

        case C_ALLTOALLW: {
            /* per pair: a base kind, a send and a receive type of that kind */
            long *slen = (long *)mt_malloc(sizeof(long) * (size_t)n), *sdisp = (long *)mt_malloc(sizeof(long) * (size_t)n);
            long *rlen = (long *)mt_malloc(sizeof(long) * (size_t)n), *rdisp = (long *)mt_malloc(sizeof(long) * (size_t)n);
            long *rN = (long *)mt_malloc(sizeof(long) * (size_t)n), *sN = (long *)mt_malloc(sizeof(long) * (size_t)n);
            long sspan, rspan;
            c->stidx = ct_ints(n);
            c->rtidx = ct_ints(n);
            for (i = 0; i < n; i++) {
                int dir;
                for (dir = 0; dir < 2; dir++) {
                    /* dir 0: me -> i; dir 1: i -> me */
                    int a = dir ? i : me, b = dir ? me : i;
                    uint64_t pk = c->inplace ? ct_h(c->cseed ^ 0x81, (uint64_t)(a < b ? a : b) * 65536u + (uint64_t)(a < b ? b : a))
                                             : ct_h(c->cseed ^ 0x82, (uint64_t)a * 65536u + (uint64_t)b);
                    int R = ct_move_types[ct_h(pk, 1) % CT_NMOVE];
                    int Ra, Rb, S, lc, nbS;
                    long N;
                    size_t ub;
                    if (c->inplace) {
                        /* each side's receive type, for the lower and the higher rank */
                        Ra = ct_pick_match(R, ct_h(pk, a <= b ? 2 : 3)); /* type a uses for b */
                        Rb = ct_pick_match(R, ct_h(pk, b <= a ? 2 : 3)); /* type b uses for a */
                        S = Ra;
                        R = Rb;
                    } else {
                        S = ct_pick_match(R, ct_h(pk, 2));
                    }
                    nbS = ct_types[S].nb;
                    lc = ct_lcm(nbS, ct_types[R].nb);
                    ub = (size_t)(lc / nbS) * (size_t)ct_types[S].ext;
                    if ((size_t)(lc / ct_types[R].nb) * (size_t)ct_types[R].ext > ub)
                        ub = (size_t)(lc / ct_types[R].nb) * (size_t)ct_types[R].ext;
                    N = ct_units(c->szclass, ct_h(pk, 4), ub, n, 1) * lc;
                    if (dir == 0) {
                        c->stidx[i] = S;
                        sN[i] = N;
                        slen[i] = (long)ct_span(S, N / nbS);
                    } else {
                        c->rtidx[i] = R;
                        rN[i] = N;
                        rlen[i] = (long)ct_span(R, N / ct_types[R].nb);
                    }
                }
            }
            if (c->inplace) /* the receive side's view: sends use the receive types */
                for (i = 0; i < n; i++) MT_CHECK(c->stidx[i] == c->rtidx[i] && sN[i] == rN[i], "alltoallw in-place draw");
            {
                long gap = 7;
#ifdef OPEN_MPI
                /* Open MPI 4.1's coll/self (communicators of one process)
                 * multiplies alltoallw's byte displacements by the extent:
                 * give it displacements 0 there */
                if (n == 1) gap = 0;
#endif
                sspan = ct_layout(n, ct_h(c->cseed ^ 0x83, (uint64_t)me), slen, gap, sdisp);
                rspan = ct_layout(n, ct_h(c->cseed ^ 0x84, (uint64_t)me), rlen, gap, rdisp);
            }
            c->rcounts = ct_ints(n);
            c->rdispls = ct_ints(n);
            c->rtypes = (MPI_Datatype *)mt_malloc(sizeof(MPI_Datatype) * (size_t)n);
            ct_alloc_recv(c, (size_t)rspan);
            for (i = 0; i < n; i++) {
                int R = c->rtidx[i];
                c->rcounts[i] = (int)(rN[i] / ct_types[R].nb);
                c->rdispls[i] = (int)rdisp[i];
                c->rtypes[i] = x->types[R];
                ct_expect_move(c, rdisp[i], R, rN[i], i, me, ct_move_key(c, i, me));
            }
            c->scounts = ct_ints(n);
            c->sdispls = ct_ints(n);
            c->stypes = (MPI_Datatype *)mt_malloc(sizeof(MPI_Datatype) * (size_t)n);
            if (c->inplace) {
                for (j = 0; j < n; j++) ct_put_move(c->rbuf, rdisp[j], c->rtidx[j], rN[j], ct_move_key(c, me, j));
                c->sarg = MPI_IN_PLACE;
                for (j = 0; j < n; j++) { c->scounts[j] = 0; c->sdispls[j] = 0; c->stypes[j] = MPI_INT; }
            } else {
                ct_alloc_send(c, (size_t)sspan);
                for (j = 0; j < n; j++) {
                    int S = c->stidx[j];
                    c->scounts[j] = (int)(sN[j] / ct_types[S].nb);
                    c->sdispls[j] = (int)sdisp[j];
                    c->stypes[j] = x->types[S];
                    ct_put_move(c->sbuf, sdisp[j], S, sN[j], ct_move_key(c, me, j));
                }
            }
            free(slen); free(sdisp); free(rlen); free(rdisp); free(rN); free(sN);
            break;
        }

        case C_REDUCE: case C_ALLREDUCE: case C_SCAN: case C_EXSCAN: {
            int t = c->rt, nb = ct_red_nb(t);
            long cnt = ct_units(c->szclass > 4 ? 4 : c->szclass, ct_draw(c, 12), (size_t)ct_types[t].ext, 1, 0);
            int recv_here = coll != C_REDUCE || me == c->root;
            int ip = c->inplace && recv_here;
            int nfold = coll == C_SCAN ? me + 1 : coll == C_EXSCAN ? me : n;
            uint64_t *keys = (uint64_t *)mt_malloc(sizeof(uint64_t) * (size_t)n);
            for (i = 0; i < n; i++) keys[i] = ct_red_key(c, 0, i);
            c->count = cnt;
            if (recv_here) {
                ct_alloc_recv(c, ct_span(t, cnt));
                ct_put_red_result(c, c->exp, 0, t, cnt, 0, n, nfold, keys);
                ct_care_pad(c->care, 0, t, cnt * nb);
                if (coll == C_EXSCAN && me == 0) ct_care_none(c->care, 0, t, cnt * nb); /* undefined */
                if (cnt > 0) ct_seg_add(c, 0, t, cnt * nb, -1, 0);
            }
            if (ip) {
                ct_put_red_input(c, c->rbuf, 0, t, cnt, 0, n, me, keys[me]);
                c->sarg = MPI_IN_PLACE;
            } else {
                ct_alloc_send(c, ct_span(t, cnt));
                ct_put_red_input(c, c->sbuf, 0, t, cnt, 0, n, me, keys[me]);
            }
            if (coll == C_REDUCE) c->inplace = ip;
            free(keys);
            break;
        }

        case C_REDUCE_SCATTER: case C_REDUCE_SCATTER_BLOCK: {
            int t = c->rt, nb = ct_red_nb(t);
            long total = 0, mine = 0, j0 = 0;
            int cls = c->szclass > 4 ? 4 : c->szclass;
            uint64_t *keys = (uint64_t *)mt_malloc(sizeof(uint64_t) * (size_t)n);
            for (i = 0; i < n; i++) keys[i] = ct_red_key(c, 0, i);
            c->rcounts = ct_ints(n);
            if (coll == C_REDUCE_SCATTER_BLOCK) {
                long cnt = ct_units(cls, ct_draw(c, 12), (size_t)ct_types[t].ext, n, 0);
                for (i = 0; i < n; i++) c->rcounts[i] = (int)cnt;
                c->rcount = (int)cnt;
            } else {
                for (i = 0; i < n; i++)
                    c->rcounts[i] = (int)ct_units(cls, ct_h(c->cseed ^ 0x85, (uint64_t)i), (size_t)ct_types[t].ext, n, 1);
            }
            for (i = 0; i < n; i++) {
                if (i < me) j0 += c->rcounts[i];
                total += c->rcounts[i];
            }
            mine = c->rcounts[me];
            c->count = total;
            if (c->inplace) {
                ct_alloc_recv(c, ct_span(t, total));
                ct_put_red_input(c, c->rbuf, 0, t, total, 0, n, me, keys[me]);
                /* beyond my block the buffer's contents are not specified afterwards */
                memset(c->care, 0, c->rbytes);
                memset(c->care, 1, ct_span(t, mine));
                c->sarg = MPI_IN_PLACE;
            } else {
                ct_alloc_recv(c, ct_span(t, mine));
                ct_alloc_send(c, ct_span(t, total));
                ct_put_red_input(c, c->sbuf, 0, t, total, 0, n, me, keys[me]);
            }
            ct_put_red_result(c, c->exp, 0, t, mine, j0, n, n, keys);
            ct_care_pad(c->care, 0, t, mine * nb);
            if (mine > 0) ct_seg_add(c, 0, t, mine * nb, -1, (int)j0);
            free(keys);
            break;
        }
        default: break;
        }
    }
    if (c->sbuf) {
        c->sref = (unsigned char *)mt_malloc(c->sbytes + 1);
        memcpy(c->sref, c->sbuf, c->sbytes + 1);
    }
    if (!c->sarg) c->sarg = c->sbuf;
    if (!c->rarg) c->rarg = c->rbuf;
    /* in-place images: the receive buffer's initial contents were written to
     * rbuf above; for the other bytes rbuf still holds the sentinel */
}

/* ------------------------------------------------------------------ */
/* Starting a case                                                     */

/* Makes the call: blocking when req is NULL, else the I-form. Returns the MPI return code. */
CT_FN int ct_start(ct_ctx *x, ct_case *c, MPI_Request *req)
{
    MPI_Comm comm = c->comm;
    MPI_Datatype st = x->types[c->st], rt = x->types[c->rt];
    MPI_Op op = c->op >= 0 ? x->ops[c->op] : MPI_OP_NULL;
    int me = c->rank, root = c->root, rc = MPI_SUCCESS;
    /* arguments that are not significant at this process: valid but
     * different values, so an implementation reading them is caught */
    MPI_Datatype junk_type = MPI_DOUBLE;
    int junk_count = 12345;
    switch (c->coll) {
    case C_BARRIER:
        if (c->sleep_ms && me == c->sleeper) mt_sleep_ms(c->sleep_ms);
        c->t_enter = ct_now();
        rc = req ? MPI_Ibarrier(comm, req) : MPI_Barrier(comm);
        break;
    case C_BCAST:
        if (me == root)
            rc = req ? MPI_Ibcast(c->sbuf, c->scount, st, root, comm, req) : MPI_Bcast(c->sbuf, c->scount, st, root, comm);
        else
            rc = req ? MPI_Ibcast(c->rbuf, c->rcount, rt, root, comm, req) : MPI_Bcast(c->rbuf, c->rcount, rt, root, comm);
        break;
    case C_GATHER:
        if (me == root)
            rc = req ? MPI_Igather(c->sarg, c->scount, st, c->rarg, c->rcount, rt, root, comm, req)
                     : MPI_Gather(c->sarg, c->scount, st, c->rarg, c->rcount, rt, root, comm);
        else
            rc = req ? MPI_Igather(c->sarg, c->scount, st, NULL, junk_count, junk_type, root, comm, req)
                     : MPI_Gather(c->sarg, c->scount, st, NULL, junk_count, junk_type, root, comm);
        break;
    case C_GATHERV:
        if (me == root)
            rc = req ? MPI_Igatherv(c->sarg, c->scount, st, c->rarg, c->rcounts, c->rdispls, rt, root, comm, req)
                     : MPI_Gatherv(c->sarg, c->scount, st, c->rarg, c->rcounts, c->rdispls, rt, root, comm);
        else
            rc = req ? MPI_Igatherv(c->sarg, c->scount, st, NULL, NULL, NULL, junk_type, root, comm, req)
                     : MPI_Gatherv(c->sarg, c->scount, st, NULL, NULL, NULL, junk_type, root, comm);
        break;
    case C_SCATTER:
        if (me == root)
            rc = req ? MPI_Iscatter(c->sarg, c->scount, st, c->rarg, c->rcount, rt, root, comm, req)
                     : MPI_Scatter(c->sarg, c->scount, st, c->rarg, c->rcount, rt, root, comm);
        else
            rc = req ? MPI_Iscatter(NULL, junk_count, junk_type, c->rarg, c->rcount, rt, root, comm, req)
                     : MPI_Scatter(NULL, junk_count, junk_type, c->rarg, c->rcount, rt, root, comm);
        break;
    case C_SCATTERV:
        if (me == root)
            rc = req ? MPI_Iscatterv(c->sarg, c->scounts, c->sdispls, st, c->rarg, c->rcount, rt, root, comm, req)
                     : MPI_Scatterv(c->sarg, c->scounts, c->sdispls, st, c->rarg, c->rcount, rt, root, comm);
        else
            rc = req ? MPI_Iscatterv(NULL, NULL, NULL, junk_type, c->rarg, c->rcount, rt, root, comm, req)
                     : MPI_Scatterv(NULL, NULL, NULL, junk_type, c->rarg, c->rcount, rt, root, comm);
        break;
    case C_ALLGATHER:
        rc = req ? MPI_Iallgather(c->sarg, c->scount, st, c->rarg, c->rcount, rt, comm, req)
                 : MPI_Allgather(c->sarg, c->scount, st, c->rarg, c->rcount, rt, comm);
        break;
    case C_ALLGATHERV:
        rc = req ? MPI_Iallgatherv(c->sarg, c->scount, st, c->rarg, c->rcounts, c->rdispls, rt, comm, req)
                 : MPI_Allgatherv(c->sarg, c->scount, st, c->rarg, c->rcounts, c->rdispls, rt, comm);
        break;
    case C_ALLTOALL:
        rc = req ? MPI_Ialltoall(c->sarg, c->scount, st, c->rarg, c->rcount, rt, comm, req)
                 : MPI_Alltoall(c->sarg, c->scount, st, c->rarg, c->rcount, rt, comm);
        break;
    case C_ALLTOALLV:
        rc = req ? MPI_Ialltoallv(c->sarg, c->scounts, c->sdispls, st, c->rarg, c->rcounts, c->rdispls, rt, comm, req)
                 : MPI_Alltoallv(c->sarg, c->scounts, c->sdispls, st, c->rarg, c->rcounts, c->rdispls, rt, comm);
        break;
    case C_ALLTOALLW:
        rc = req ? MPI_Ialltoallw(c->sarg, c->scounts, c->sdispls, c->stypes, c->rarg, c->rcounts, c->rdispls,
                                  c->rtypes, comm, req)
                 : MPI_Alltoallw(c->sarg, c->scounts, c->sdispls, c->stypes, c->rarg, c->rcounts, c->rdispls,
                                 c->rtypes, comm);
        break;
    case C_REDUCE:
        if (me == root)
            rc = req ? MPI_Ireduce(c->sarg, c->rarg, (int)c->count, rt, op, root, comm, req)
                     : MPI_Reduce(c->sarg, c->rarg, (int)c->count, rt, op, root, comm);
        else
            rc = req ? MPI_Ireduce(c->sarg, NULL, (int)c->count, rt, op, root, comm, req)
                     : MPI_Reduce(c->sarg, NULL, (int)c->count, rt, op, root, comm);
        break;
    case C_ALLREDUCE:
        rc = req ? MPI_Iallreduce(c->sarg, c->rarg, (int)c->count, rt, op, comm, req)
                 : MPI_Allreduce(c->sarg, c->rarg, (int)c->count, rt, op, comm);
        break;
    case C_REDUCE_SCATTER:
        rc = req ? MPI_Ireduce_scatter(c->sarg, c->rarg, c->rcounts, rt, op, comm, req)
                 : MPI_Reduce_scatter(c->sarg, c->rarg, c->rcounts, rt, op, comm);
        break;
    case C_REDUCE_SCATTER_BLOCK:
        rc = req ? MPI_Ireduce_scatter_block(c->sarg, c->rarg, c->rcount, rt, op, comm, req)
                 : MPI_Reduce_scatter_block(c->sarg, c->rarg, c->rcount, rt, op, comm);
        break;
    case C_SCAN:
        rc = req ? MPI_Iscan(c->sarg, c->rarg, (int)c->count, rt, op, comm, req)
                 : MPI_Scan(c->sarg, c->rarg, (int)c->count, rt, op, comm);
        break;
    case C_EXSCAN:
        rc = req ? MPI_Iexscan(c->sarg, c->rarg, (int)c->count, rt, op, comm, req)
                 : MPI_Exscan(c->sarg, c->rarg, (int)c->count, rt, op, comm);
        break;
    default: break;
    }
    if (!req) c->t_exit = ct_now();
    c->rc = rc;
    return rc;
}

/* ------------------------------------------------------------------ */
/* Checking a case                                                     */

CT_FN void ct_describe(const ct_case *c, char *out, size_t n)
{
    char opbuf[64] = "", tbuf[128];
    if (c->op >= 0) snprintf(opbuf, sizeof opbuf, " op=%s", ct_op_name[c->op]);
    if (c->coll == C_ALLTOALLW)
        snprintf(tbuf, sizeof tbuf, "types=per-pair");
    else if (c->st != c->rt && !ct_is_reduction(c->coll))
        snprintf(tbuf, sizeof tbuf, "sendtype=%s recvtype=%s", ct_types[c->st].name, ct_types[c->rt].name);
    else
        snprintf(tbuf, sizeof tbuf, "type=%s", ct_types[c->rt].name);
    snprintf(out, n, "%s%s iter %d comm %s (size %d) rank %d: count=%ld scount=%d rcount=%d %s%s root=%d%s",
             c->nb ? "I" : "", c->label ? c->label : ct_coll_name[c->coll], c->iter, c->comm_name, c->size, c->rank, c->count,
             c->scount, c->rcount, tbuf, opbuf, c->root, c->inplace ? " MPI_IN_PLACE" : "");
}

/* Counts one failure; prints details for the first few of this rank. */
CT_FN int ct_report(ct_ctx *x, const ct_case *c, const char *fmt, ...) MT_PRINTF(3, 4);
CT_FN int ct_report(ct_ctx *x, const ct_case *c, const char *fmt, ...)
{
    char what[512], msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (x->failures_printed < x->max_printed) {
        x->failures_printed++;
        ct_describe(c, what, sizeof what);
        mt_fail(__FILE__, __LINE__, "%s: %s: %s", x->prog ? x->prog : "coll", what, msg);
    } else {
        __atomic_fetch_add(mt_error_slot(mt_rank()), 1, __ATOMIC_SEQ_CST);
    }
    return 1;
}

/* Exchange for the barrier check: the sleeper's entry time goes to every
 * other member (point-to-point, tag 29001), which must have left the
 * barrier after it. */
CT_FN void ct_check_barrier(ct_ctx *x, ct_case *c)
{
    int i;
    if (c->rank == c->sleeper) {
        MPI_Request *r = (MPI_Request *)mt_malloc(sizeof(MPI_Request) * (size_t)c->size);
        for (i = 0; i < c->size; i++)
            if (i != c->rank)
                MPI_Isend(&c->t_enter, 1, MPI_DOUBLE, i, 29001, c->comm, &r[i]);
            else
                r[i] = MPI_REQUEST_NULL;
        MPI_Waitall(c->size, r, MPI_STATUSES_IGNORE);
        free(r);
    } else {
        double te = 0;
        MPI_Recv(&te, 1, MPI_DOUBLE, c->sleeper, 29001, c->comm, MPI_STATUS_IGNORE);
        if (c->t_exit < te)
            ct_report(x, c, "left the barrier %.6f s before rank %d entered it", te - c->t_exit, c->sleeper);
    }
}

/* Compares the receive buffer with the expected image; reports the first
 * wrong element. Returns the number of failures counted (0 or 1). */
CT_FN int ct_check_recv(ct_ctx *x, ct_case *c, const unsigned char *buf, const unsigned char *exp,
                        const unsigned char *care, size_t n, const char *which)
{
    size_t b;
    int s;
    for (b = 0; b < n; b++)
        if (care[b] && buf[b] != exp[b]) break;
    if (b == n) return 0;
    /* which element? */
    for (s = 0; s < c->nsegs; s++) {
        const ct_seg *g = &c->segs[s];
        const ct_tinfo *T = &ct_types[g->t];
        MPI_Aint rel = (MPI_Aint)b - g->start;
        long j, jlo, jhi;
        if (rel < 0) continue;
        jlo = (long)(rel / T->ext) * T->nb;
        jhi = jlo + T->nb;
        if (jhi > g->nbase) jhi = g->nbase;
        for (j = jlo; j < jhi; j++) {
            MPI_Aint p = g->start + ct_pos(g->t, j);
            if ((MPI_Aint)b >= p && (MPI_Aint)b < p + (MPI_Aint)ct_base_size[T->base]) {
                ct_val ve, va;
                char se[64], sa[64], from[64];
                ct_load(T->base, exp + p, &ve);
                ct_load(T->base, buf + p, &va);
                ct_format(T->base, &ve, se, sizeof se);
                ct_format(T->base, &va, sa, sizeof sa);
                if (g->src >= 0)
                    snprintf(from, sizeof from, "block from rank %d", g->src);
                else
                    snprintf(from, sizeof from, "result (global element %d+)", g->block);
                return ct_report(x, c, "%s: %s, element %ld (%s, byte %zu): expected %s, got %s", which, from, j,
                                 ct_base_name[T->base], b, se, sa);
            }
        }
    }
    return ct_report(x, c, "%s: byte %zu outside every result element was overwritten: expected 0x%02x, got 0x%02x",
                     which, b, exp[b], buf[b]);
}

/* Checks the results of a completed case. Returns the failures counted. */
CT_FN int ct_check(ct_ctx *x, ct_case *c)
{
    int bad = 0;
    if (c->rc != MPI_SUCCESS) {
        char s[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(c->rc, s, &len);
        return ct_report(x, c, "returned %d (%s)", c->rc, s);
    }
    if (c->coll == C_BARRIER) {
        ct_check_barrier(x, c);
        return 0;
    }
    if (c->rbuf && c->rarg != MPI_IN_PLACE) {
        /* in place at a scatter root: rbuf is unused */
        bad += ct_check_recv(x, c, c->rbuf, c->exp, c->care, c->rbytes + 1, "receive buffer");
    }
    if (c->sbuf && memcmp(c->sbuf, c->sref, c->sbytes + 1) != 0) {
        size_t b = 0;
        while (c->sbuf[b] == c->sref[b]) b++;
        bad += ct_report(x, c, "the send buffer was modified at byte %zu (0x%02x -> 0x%02x)", b, c->sref[b],
                         c->sbuf[b]);
    }
    return bad;
}

CT_FN void ct_free(ct_case *c)
{
    free(c->sbuf); free(c->rbuf); free(c->sref); free(c->exp); free(c->care); free(c->segs);
    free(c->scounts); free(c->sdispls); free(c->rcounts); free(c->rdispls);
    free(c->stidx); free(c->rtidx); free(c->stypes); free(c->rtypes);
    memset(c, 0, sizeof *c);
}

/* Sets up, runs (blocking, or the I-form completed by MPI_Wait when nb),
 * checks and frees one case on communicator k of the context; nothing when
 * this rank is not a member. verbose: print the case first. */
CT_FN void ct_run_one(ct_ctx *x, int coll, int k, uint64_t cseed, int iter, int nb, int verbose)
{
    ct_case c;
    if (x->comms[k] == MPI_COMM_NULL) return;
    ct_setup(x, &c, coll, k, x->comms[k], x->comm_names[k], cseed, iter);
    c.nb = nb;
    if (verbose) {
        char d[512];
        ct_describe(&c, d, sizeof d);
        fprintf(stderr, "%s\n", d);
    }
    if (nb) {
        MPI_Request r = MPI_REQUEST_NULL;
        if (ct_start(x, &c, &r) == MPI_SUCCESS) {
            int rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
            c.t_exit = ct_now();
            if (rc != MPI_SUCCESS) c.rc = rc;
        }
    } else {
        ct_start(x, &c, NULL);
    }
    ct_check(x, &c);
    ct_free(&c);
}

/* The sweeps: every collective of mask on every communicator of the
 * context, in place and not; then every operation on every type it is
 * defined on, for each reduction of mask. Returns the cases run. */
CT_FN int ct_sweep(ct_ctx *x, long mask, uint64_t seed, int nb, int verbose)
{
    int n = 0, coll, k, ip, op, t;
    for (coll = 0; coll < NCOLL; coll++) {
        if (!(mask & (1l << coll))) continue;
        for (k = 0; k < x->ncomms; k++)
            for (ip = 0; ip < 2; ip++) {
                x->force_inplace = ip;
                x->force_class = 1 + (n % 3);
                ct_run_one(x, coll, k, ct_key(seed, 1, n), -1 - n, nb, verbose);
                n++;
            }
    }
    for (coll = C_REDUCE; coll < NCOLL; coll++) {
        if (!(mask & (1l << coll))) continue;
        for (op = 0; op < NOPS; op++)
            for (t = 0; ct_op_types[op][t] >= 0; t++) {
                x->force_op = op;
                x->force_type = ct_op_types[op][t];
                x->force_inplace = n % 3 == 0;
                x->force_class = 1 + (n % 3);
                ct_run_one(x, coll, n % x->ncomms, ct_key(seed, 2, n), -1 - n, nb, verbose);
                n++;
            }
    }
    x->force_op = x->force_type = x->force_inplace = x->force_class = -1;
    return n;
}

/* ------------------------------------------------------------------ */
/* Drawing the iteration                                                */

/* Seed of iteration `it` (shared by all ranks). */
CT_FN uint64_t ct_iter_seed(uint64_t seed, long it)
{
    return ct_key(seed, 424242, it);
}

/* Which communicator (by weight) and which collective (uniform among mask). */
CT_FN int ct_pick_comm(const ct_ctx *x, uint64_t h)
{
    int k, tot = 0, p;
    for (k = 0; k < x->ncomms; k++) tot += x->comm_weight[k];
    p = (int)(h % (uint64_t)tot);
    for (k = 0; k < x->ncomms; k++) {
        if (p < x->comm_weight[k]) return k;
        p -= x->comm_weight[k];
    }
    return 0;
}

CT_FN int ct_pick_coll(long mask, uint64_t h)
{
    int k, n = 0, pick;
    for (k = 0; k < NCOLL; k++)
        if (mask & (1l << k)) n++;
    pick = (int)(h % (uint64_t)n);
    for (k = 0; k < NCOLL; k++)
        if (mask & (1l << k)) {
            if (pick == 0) return k;
            pick--;
        }
    return 0;
}

/* Reads "-s SEED" style options shared by the programs. */
CT_FN uint64_t ct_env_u64(const char *name, uint64_t dflt)
{
    const char *s = getenv(name);
    return s && *s ? strtoull(s, NULL, 0) : dflt;
}

#endif /* COLLTEST_H */
