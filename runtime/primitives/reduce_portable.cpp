// The portable reduction kernels: a kernel for every element kind,
// compiled for the baseline instruction set with 16-byte vectors (SSE2 on
// x86-64). They are the whole table on a CPU without AVX2 (or when
// HMPI_REDUCE_ISA=portable), and on any CPU the kernels of the kinds the
// AVX files leave alone: 128-bit integers, half, long double and quad
// floats, complex products, and the MINLOC/MAXLOC pairs.
#define HMPI_REDUCE_NS portable
#define HMPI_REDUCE_VECTOR_BYTES 16
#include "primitives/reduce_kernels.hpp"

namespace hmpi::prim::portable {
namespace {

template <class F>
struct Complex {
    F re, im;
};

struct ComplexSum {
    template <class C> static C s(C a, C b) { return {a.re + b.re, a.im + b.im}; }
};
// (a + bi)(c + di) = (ac - bd) + (ad + bc)i, with every product rounded to F.
// The C library's complex product also rescues some infinite and NaN
// results (C11 Annex G); MPI does not ask for that, and the plain formula
// gives the same result for in*inout and inout*in.
struct ComplexProd {
    template <class C> static C s(C a, C b) {
        using F = decltype(a.re);
        F re = static_cast<F>(a.re * b.re) - static_cast<F>(a.im * b.im);
        F im = static_cast<F>(a.re * b.im) + static_cast<F>(a.im * b.re);
        return {re, im};
    }
};

// The MINLOC/MAXLOC pairs: {value, index} as the C struct MPI describes.
template <class V, class I>
struct Pair {
    V v;
    I i;
};

// MINLOC: the smaller value with its index; on equal values the smaller
// index (MPI 3.1, 5.9.4). Incomparable values (NaN) leave inout as it is.
struct MinLoc {
    template <class P> static P s(P a, P b) {
        if (a.v < b.v) return a;
        if (a.v == b.v && a.i < b.i) b.i = a.i;
        return b;
    }
};
struct MaxLoc {
    template <class P> static P s(P a, P b) {
        if (a.v > b.v) return a;
        if (a.v == b.v && a.i < b.i) b.i = a.i;
        return b;
    }
};

template <class C>
void add_complex(KernelTable& t, Elem e) {
    set<C, ComplexSum>(t, ReduceOp::sum, e);
    set<C, ComplexProd>(t, ReduceOp::prod, e);
}

template <class P>
void add_pair(KernelTable& t, Elem e) {
    set<P, MinLoc>(t, ReduceOp::minloc, e);
    set<P, MaxLoc>(t, ReduceOp::maxloc, e);
}

}  // namespace

void fill_kernels(KernelTable& t) {
    add_common(t);
    add_integer<__int128, unsigned __int128>(t, Elem::i128);
    add_floating<_Float16>(t, Elem::f16);
    add_floating<long double>(t, Elem::f80);
    add_floating<__float128>(t, Elem::f128);
    add_complex<Complex<_Float16>>(t, Elem::c16);
    set<Complex<float>, ComplexProd>(t, ReduceOp::prod, Elem::c32);  // sums: add_common
    set<Complex<double>, ComplexProd>(t, ReduceOp::prod, Elem::c64);
    add_complex<Complex<long double>>(t, Elem::c80);
    add_complex<Complex<__float128>>(t, Elem::c128);
    add_pair<Pair<float, int>>(t, Elem::float_int);
    add_pair<Pair<double, int>>(t, Elem::double_int);
    add_pair<Pair<long, int>>(t, Elem::long_int);
    add_pair<Pair<int, int>>(t, Elem::int_int);
    add_pair<Pair<short, int>>(t, Elem::short_int);
    add_pair<Pair<long double, int>>(t, Elem::long_double_int);
    add_pair<Pair<float, float>>(t, Elem::float_float);
    add_pair<Pair<double, double>>(t, Elem::double_double);
}

}  // namespace hmpi::prim::portable
