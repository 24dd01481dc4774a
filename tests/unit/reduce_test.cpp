// The reduction kernels (runtime/primitives) against a reference written
// here, on every instruction set this machine supports, and the Op layer
// (runtime/core/op.cpp): which pairs MPI allows, derived datatypes, user
// functions with counts above INT_MAX, reference counts.
#include <doctest/doctest.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/datatype.hpp"
#include "core/op.hpp"
#include "primitives/reduce.hpp"

using namespace hmpi;
using prim::Elem;
using prim::Isa;
using prim::ReduceOp;

namespace {

// ---- the reference: one element at a time, written independently ----

template <class T>
struct Cx {
    T re, im;
};
template <class V, class I>
struct Pr {
    V v;
    I i;
};

// std::make_unsigned does not know __int128 in strict ISO mode.
template <class T>
struct Unsigned {
    using type = std::make_unsigned_t<T>;
};
template <>
struct Unsigned<__int128> {
    using type = unsigned __int128;
};

template <class T>
T ref_int(ReduceOp op, T a, T b) {
    using U = typename Unsigned<T>::type;
    switch (op) {
        case ReduceOp::sum: return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
        case ReduceOp::prod: {
            // Multiply in a type at least as wide as unsigned, then truncate.
            using W = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;
            return static_cast<T>(static_cast<U>(static_cast<W>(static_cast<U>(a)) * static_cast<W>(static_cast<U>(b))));
        }
        case ReduceOp::min: return b < a ? b : a;  // ties are equal values: either
        case ReduceOp::max: return b > a ? b : a;
        case ReduceOp::band: return static_cast<T>(a & b);
        case ReduceOp::bor: return static_cast<T>(a | b);
        case ReduceOp::bxor: return static_cast<T>(a ^ b);
        case ReduceOp::land: return static_cast<T>(a && b);
        case ReduceOp::lor: return static_cast<T>(a || b);
        case ReduceOp::lxor: return static_cast<T>(!a != !b);
        default: return b;
    }
}

template <class T>
T ref_float(ReduceOp op, T a, T b) {
    switch (op) {
        case ReduceOp::sum: return static_cast<T>(a + b);
        case ReduceOp::prod: return static_cast<T>(a * b);
        case ReduceOp::min: return a < b ? a : b;
        case ReduceOp::max: return a > b ? a : b;
        default: return b;
    }
}

template <class C>
C ref_complex(ReduceOp op, C a, C b) {
    if (op == ReduceOp::sum) return {a.re + b.re, a.im + b.im};
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

template <class P>
P ref_pair(ReduceOp op, P a, P b) {
    bool take = op == ReduceOp::minloc ? a.v < b.v : a.v > b.v;
    if (take) return a;
    if (a.v == b.v) return {b.v, a.i < b.i ? a.i : b.i};
    return b;
}

template <class T>
bool same(const T& a, const T& b) {
    return a == b;
}
template <class T>
bool same(const Cx<T>& a, const Cx<T>& b) { return a.re == b.re && a.im == b.im; }
template <class V, class I>
bool same(const Pr<V, I>& a, const Pr<V, I>& b) { return a.v == b.v && a.i == b.i; }

// ---- generators ----

struct Gen {
    std::mt19937_64 rng{12345};
    std::uint64_t bits() { return rng(); }
    // Small integers (exact floating-point sums and products) or wider values.
    double value(bool small) {
        auto r = static_cast<long long>(rng() % 2001) - 1000;
        return small ? static_cast<double>(r % 17) : static_cast<double>(r) / 8.0;
    }
};

template <class T>
T make(Gen& g, ReduceOp op) {
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, _Float16> || std::is_same_v<T, __float128>) {
        return static_cast<T>(g.value(op == ReduceOp::prod));
    } else {
        // Logical operations: a third zeros, the rest any non-zero bits.
        std::uint64_t hi = g.bits(), lo = g.bits();
        T v;
        if constexpr (sizeof(T) == 16) v = static_cast<T>((static_cast<unsigned __int128>(hi) << 64) | lo);
        else v = static_cast<T>(lo);
        if ((op == ReduceOp::land || op == ReduceOp::lor || op == ReduceOp::lxor) && hi % 3 == 0) v = 0;
        return v;
    }
}

const std::size_t kCounts[] = {0, 1, 2, 3, 7, 15, 16, 17, 31, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 1000, 1027};

// Runs kernel (op, e) of every supported instruction set against `ref` on
// arrays of T, at every count, aligned and one element off alignment: the
// two-operand kernel, and the three-operand one with out a separate buffer
// (whose neighbours must stay untouched, and whose inputs must too) and
// with out == in2.
template <class T, class Make, class Ref>
void check_kernel(ReduceOp op, Elem e, Make make_value, Ref ref) {
    REQUIRE(prim::elem_size(e) == sizeof(T));
    for (int isa = 0; isa < static_cast<int>(prim::kIsas); ++isa) {
        const prim::KernelTable* t = prim::kernels_for(static_cast<Isa>(isa));
        if (!t) continue;
        prim::ReduceKernel k = t->fn[static_cast<int>(op)][static_cast<int>(e)];
        prim::Reduce3Kernel k3 = t->fn3[static_cast<int>(op)][static_cast<int>(e)];
        prim::Reduce3StreamKernel k3s = t->fn3s[static_cast<int>(op)][static_cast<int>(e)];
        INFO("isa ", prim::isa_name(static_cast<Isa>(isa)), ", op ", static_cast<int>(op), ", elem ", prim::elem_name(e));
        REQUIRE((k != nullptr));
        REQUIRE((k3 != nullptr));
        REQUIRE((k3s != nullptr));
        Gen g;
        auto first_wrong = [](const std::vector<T>& got, const std::vector<T>& want) {
            for (std::size_t i = 0; i < got.size(); ++i)
                if (!same(got[i], want[i])) return i;
            return SIZE_MAX;
        };
        for (std::size_t n : kCounts) {
            for (std::size_t shift : {0, 1}) {
                std::vector<T> in(n + 2), io(n + 2), want(n + 2), out(n + 2), want_out(n + 2);
                for (std::size_t i = 0; i < n + 2; ++i) {
                    in[i] = make_value(g, op);
                    io[i] = make_value(g, op);
                    out[i] = make_value(g, op);
                    want[i] = io[i];
                    want_out[i] = out[i];
                }
                for (std::size_t i = shift; i < shift + n; ++i) want[i] = want_out[i] = ref(op, in[i], io[i]);
                const std::vector<T> in0 = in, io0 = io;
                INFO("count ", n, ", shift ", shift);

                {
                    // Three operands, out separate: the inputs stay as they were.
                    k3(in.data() + shift, io.data() + shift, out.data() + shift, n);
                    const std::size_t bad = first_wrong(out, want_out);
                    INFO("3-operand, out separate: first wrong element ", bad);
                    CHECK(bad == SIZE_MAX);
                    CHECK(first_wrong(in, in0) == SIZE_MAX);
                    CHECK(first_wrong(io, io0) == SIZE_MAX);
                }
                {
                    // Three operands, out == in2.
                    k3(in.data() + shift, io.data() + shift, io.data() + shift, n);
                    const std::size_t bad = first_wrong(io, want);
                    INFO("3-operand, out == in2: first wrong element ", bad);
                    CHECK(bad == SIZE_MAX);
                    CHECK(first_wrong(in, in0) == SIZE_MAX);
                }
                {
                    // One result into three outputs of one buffer, `n + 3` apart (so
                    // their vector alignments agree for some counts and not for
                    // others), then with the middle one shifted by one more element
                    // (never alike): every output gets it, nothing around them changes.
                    for (std::size_t skew : {0, 1}) {
                        const std::size_t stride = n + 3;
                        std::vector<T> outs(3 * stride + 2), outs0(outs.size());
                        for (T& v : outs) v = make_value(g, op);
                        outs0 = outs;
                        std::vector<T> want3 = outs;
                        void* dst[3];
                        for (std::size_t j = 0; j < 3; ++j) {
                            const std::size_t at = j * stride + shift + (j == 1 ? skew : 0);
                            dst[j] = outs.data() + at;
                            for (std::size_t i = 0; i < n; ++i) want3[at + i] = want_out[shift + i];
                        }
                        k3s(in0.data() + shift, io0.data() + shift, dst, 3, n);
                        const std::size_t bad = first_wrong(outs, want3);
                        INFO("3-operand streamed to 3 outputs, skew ", skew, ": first wrong element ", bad);
                        CHECK(bad == SIZE_MAX);
                    }
                }
                {
                    // Two operands.
                    io = io0;
                    k(in.data() + shift, io.data() + shift, n);
                    const std::size_t bad = first_wrong(io, want);
                    INFO("2-operand: first wrong element ", bad);
                    CHECK(bad == SIZE_MAX);
                }
            }
        }
    }
}

template <class T>
void check_integer(Elem e) {
    for (ReduceOp op : {ReduceOp::sum, ReduceOp::prod, ReduceOp::min, ReduceOp::max, ReduceOp::band, ReduceOp::bor,
                        ReduceOp::bxor, ReduceOp::land, ReduceOp::lor, ReduceOp::lxor})
        check_kernel<T>(op, e, make<T>, ref_int<T>);
}

template <class T>
void check_floating(Elem e) {
    for (ReduceOp op : {ReduceOp::sum, ReduceOp::prod, ReduceOp::min, ReduceOp::max})
        check_kernel<T>(op, e, make<T>, ref_float<T>);
}

template <class F>
void check_complex(Elem e) {
    auto gen = [](Gen& g, ReduceOp) { return Cx<F>{static_cast<F>(g.value(true)), static_cast<F>(g.value(true))}; };
    for (ReduceOp op : {ReduceOp::sum, ReduceOp::prod}) check_kernel<Cx<F>>(op, e, gen, ref_complex<Cx<F>>);
}

template <class V, class I>
void check_pair(Elem e) {
    auto gen = [](Gen& g, ReduceOp) {
        Pr<V, I> p;
        std::memset(static_cast<void*>(&p), 0, sizeof p);
        p.v = static_cast<V>(g.bits() % 4);
        p.i = static_cast<I>(g.bits() % 100);
        return p;
    };
    for (ReduceOp op : {ReduceOp::minloc, ReduceOp::maxloc}) check_kernel<Pr<V, I>>(op, e, gen, ref_pair<Pr<V, I>>);
}

}  // namespace

TEST_CASE("reduction kernels match the reference on every supported instruction set") {
    const std::string best = prim::isa_name(prim::best_isa());
    MESSAGE("reduction kernels: widest instruction set here is ", best);
    check_integer<std::int8_t>(Elem::i8);
    check_integer<std::uint8_t>(Elem::u8);
    check_integer<std::int16_t>(Elem::i16);
    check_integer<std::uint16_t>(Elem::u16);
    check_integer<std::int32_t>(Elem::i32);
    check_integer<std::uint32_t>(Elem::u32);
    check_integer<std::int64_t>(Elem::i64);
    check_integer<std::uint64_t>(Elem::u64);
    check_integer<__int128>(Elem::i128);
    check_floating<_Float16>(Elem::f16);
    check_floating<float>(Elem::f32);
    check_floating<double>(Elem::f64);
    check_floating<long double>(Elem::f80);
    check_floating<__float128>(Elem::f128);
    check_complex<_Float16>(Elem::c16);
    check_complex<float>(Elem::c32);
    check_complex<double>(Elem::c64);
    check_complex<long double>(Elem::c80);
    check_complex<__float128>(Elem::c128);
    check_pair<float, int>(Elem::float_int);
    check_pair<double, int>(Elem::double_int);
    check_pair<long, int>(Elem::long_int);
    check_pair<int, int>(Elem::int_int);
    check_pair<short, int>(Elem::short_int);
    check_pair<long double, int>(Elem::long_double_int);
    check_pair<float, float>(Elem::float_float);
    check_pair<double, double>(Elem::double_double);
}

TEST_CASE("the vector instruction sets have their own kernels for the common kinds") {
    const prim::KernelTable* portable = prim::kernels_for(Isa::portable);
    REQUIRE(portable);
    CHECK(prim::isa_supported(prim::best_isa()));
    for (Isa isa : {Isa::avx2, Isa::avx512}) {
        const prim::KernelTable* t = prim::kernels_for(isa);
        CHECK((t != nullptr) == prim::isa_supported(isa));
        if (!t) continue;
        for (Elem e : {Elem::i8, Elem::u16, Elem::i32, Elem::u64, Elem::f32, Elem::f64}) {
            auto i = static_cast<int>(e);
            CHECK((t->fn[static_cast<int>(ReduceOp::sum)][i] != portable->fn[static_cast<int>(ReduceOp::sum)][i]));
            CHECK((t->fn[static_cast<int>(ReduceOp::max)][i] != portable->fn[static_cast<int>(ReduceOp::max)][i]));
        }
        // Kinds without vector kernels fall back to the portable ones.
        CHECK((t->fn[static_cast<int>(ReduceOp::sum)][static_cast<int>(Elem::f80)] ==
               portable->fn[static_cast<int>(ReduceOp::sum)][static_cast<int>(Elem::f80)]));
    }
}

TEST_CASE("every two-operand kernel has a three-operand twin and a streaming one, and no other entry has one") {
    for (int isa = 0; isa < static_cast<int>(prim::kIsas); ++isa) {
        const prim::KernelTable* t = prim::kernels_for(static_cast<Isa>(isa));
        if (!t) continue;
        int pairs = 0;
        for (std::size_t op = 0; op < prim::kReduceOps; ++op)
            for (std::size_t e = 0; e < prim::kElems; ++e) {
                INFO("isa ", prim::isa_name(static_cast<Isa>(isa)), ", op ", op, ", elem ",
                     prim::elem_name(static_cast<Elem>(e)));
                CHECK((t->fn[op][e] != nullptr) == (t->fn3[op][e] != nullptr));
                CHECK((t->fn[op][e] != nullptr) == (t->fn3s[op][e] != nullptr));
                pairs += t->fn[op][e] != nullptr;
            }
        // 9 integer kinds x 10 operations, 5 floating x 4, 5 complex x 2, 8 pairs x 2.
        CHECK(pairs == 90 + 20 + 10 + 16);
    }
    // The runtime's accessor reads the active table.
    CHECK((prim::reduce3_kernel(ReduceOp::sum, Elem::f64) ==
           prim::active_kernels().fn3[static_cast<int>(ReduceOp::sum)][static_cast<int>(Elem::f64)]));
}

TEST_CASE("a kernel may be given the same buffer as in and inout") {
    for (int isa = 0; isa < static_cast<int>(prim::kIsas); ++isa) {
        const prim::KernelTable* t = prim::kernels_for(static_cast<Isa>(isa));
        if (!t) continue;
        std::vector<double> x(1003);
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i) * 0.5;
        t->fn[static_cast<int>(ReduceOp::sum)][static_cast<int>(Elem::f64)](x.data(), x.data(), x.size());
        for (std::size_t i = 0; i < x.size(); ++i) CHECK(x[i] == static_cast<double>(i));
        // Three operands, all one buffer.
        t->fn3[static_cast<int>(ReduceOp::sum)][static_cast<int>(Elem::f64)](x.data(), x.data(), x.data(), x.size());
        for (std::size_t i = 0; i < x.size(); ++i) CHECK(x[i] == 2.0 * static_cast<double>(i));
    }
}

// ---- the Op layer ----

TEST_CASE("predefined operations are defined on exactly the MPI 3.1 groups of types") {
    auto ok = [](MPI_Op o, MPI_Datatype t) {
        return op_check(*op_from_handle(o), *datatype_from_handle(t)) == MPI_SUCCESS;
    };
    CHECK(ok(MPI_SUM, MPI_INT));
    CHECK(ok(MPI_SUM, MPI_C_DOUBLE_COMPLEX));
    CHECK(ok(MPI_PROD, MPI_REAL16));
    CHECK(ok(MPI_LAND, MPI_INT));
    CHECK(ok(MPI_LAND, MPI_LOGICAL));
    CHECK(ok(MPI_LXOR, MPI_C_BOOL));
    CHECK(ok(MPI_BAND, MPI_BYTE));
    CHECK(ok(MPI_BOR, MPI_INTEGER));
    CHECK(ok(MPI_MINLOC, MPI_2INT));
    CHECK(ok(MPI_MAXLOC, MPI_2DOUBLE_PRECISION));
    CHECK(ok(MPI_REPLACE, MPI_CHAR));
    CHECK(ok(MPI_NO_OP, MPI_DOUBLE_INT));
    CHECK_FALSE(ok(MPI_SUM, MPI_BYTE));
    CHECK_FALSE(ok(MPI_SUM, MPI_CHAR));
    CHECK_FALSE(ok(MPI_LAND, MPI_INTEGER));
    CHECK_FALSE(ok(MPI_LAND, MPI_FLOAT));
    CHECK_FALSE(ok(MPI_BAND, MPI_LOGICAL));
    CHECK_FALSE(ok(MPI_MIN, MPI_C_FLOAT_COMPLEX));
    CHECK_FALSE(ok(MPI_MINLOC, MPI_INT));
    CHECK_FALSE(ok(MPI_SUM, MPI_2INT));
    CHECK_FALSE(ok(MPI_SUM, MPI_PACKED));
    CHECK(op_from_handle(MPI_OP_NULL) == nullptr);
    CHECK(op_from_handle(reinterpret_cast<MPI_Op>(0x25)) == nullptr);
    CHECK(op_from_handle(MPI_NO_OP)->predefined);
}

namespace {

struct UserCalls {
    std::vector<int> lens;
    std::vector<std::uintptr_t> in_addrs;
    MPI_Datatype type = MPI_DATATYPE_NULL;
};
thread_local UserCalls* g_calls = nullptr;

void record(void* in, void*, int* len, MPI_Datatype* type) {
    g_calls->lens.push_back(*len);
    g_calls->in_addrs.push_back(reinterpret_cast<std::uintptr_t>(in));
    g_calls->type = *type;
}

// A derived datatype from the core's constructor (the MPI constructors in
// api/ check arguments, then call it).
const Datatype* build(std::vector<TypePart> parts) {
    Datatype* t = nullptr;
    REQUIRE(datatype_build(parts.data(), parts.size(), true, &t) == MPI_SUCCESS);
    t->committed = true;
    return t;
}

}  // namespace

TEST_CASE("user functions get counts above INT_MAX in pieces, with the type's handle") {
    UserCalls calls;
    g_calls = &calls;
    const Op* op = op_create(record, false);
    const Datatype& dbl = *datatype_from_handle(MPI_DOUBLE);
    // The function only records its arguments: the buffers are never read.
    const std::int64_t count = 2LL * INT_MAX + 5;
    op_apply(*op, reinterpret_cast<const void*>(0x10000), reinterpret_cast<void*>(0x20000), count, dbl);
    REQUIRE(calls.lens.size() == 3);
    CHECK(calls.lens[0] == INT_MAX);
    CHECK(calls.lens[1] == INT_MAX);
    CHECK(calls.lens[2] == 5);
    CHECK(calls.in_addrs[1] == 0x10000 + static_cast<std::uintptr_t>(INT_MAX) * 8);
    CHECK(calls.type == MPI_DOUBLE);
    CHECK_FALSE(op->commutative);
    op_release(op);
    g_calls = nullptr;
}

TEST_CASE("a user operation lives until its last reference is released") {
    const Op* op = op_create(record, true);
    MPI_Op h = op->handle;
    CHECK(op_from_handle(h) == op);
    op_retain(op);  // a pending operation
    CHECK(op->refs.load() == 2);
    op_release(op);  // MPI_Op_free
    CHECK(op_from_handle(h) == op);
    CHECK(op->refs.load() == 1);
    op_release(op);  // the operation completes: freed
    // Predefined operations are never counted.
    const Op* sum = op_from_handle(MPI_SUM);
    op_retain(sum);
    op_release(sum);
    op_release(sum);
    CHECK(op_from_handle(MPI_SUM) == sum);
}

TEST_CASE("predefined operations on derived datatypes work on the one basic type") {
    const Datatype& dbl = *datatype_from_handle(MPI_DOUBLE);
    const Op& sum = *op_from_handle(MPI_SUM);

    // vector(2 blocks of 1 double, stride 2): doubles at 0 and 16, extent 24.
    const Datatype* vec = build({TypePart{&dbl, 0, 1, 2, 16}});
    REQUIRE(vec->extent == 24);
    CHECK(vec->uniform_basic == MPI_DOUBLE);
    std::vector<double> in(9), io(9), want(9);
    for (int i = 0; i < 9; ++i) {
        in[static_cast<std::size_t>(i)] = i + 0.5;
        io[static_cast<std::size_t>(i)] = 100.0 * i;
    }
    want = io;
    for (int e = 0; e < 3; ++e)
        for (int off : {0, 2}) want[static_cast<std::size_t>(3 * e + off)] += in[static_cast<std::size_t>(3 * e + off)];
    REQUIRE(op_check(sum, *vec) == MPI_SUCCESS);
    op_apply(sum, in.data(), io.data(), 3, *vec);
    CHECK(io == want);
    CHECK(op_check(*op_from_handle(MPI_BAND), *vec) == MPI_ERR_OP);  // not defined on the basic type

    // Doubles at odd addresses (displacement 1): not aligned for double.
    const Datatype* odd = build({TypePart{&dbl, 1, 1}});
    std::vector<unsigned char> a(1 + 8 * 50), b(a.size());
    for (int i = 0; i < 50; ++i) {
        double x = i, y = 1000 + i;
        std::memcpy(&a[1 + 8 * static_cast<std::size_t>(i)], &x, 8);
        std::memcpy(&b[1 + 8 * static_cast<std::size_t>(i)], &y, 8);
    }
    op_apply(*op_from_handle(MPI_MAX), a.data(), b.data(), 50, *odd);
    op_apply(sum, a.data(), b.data(), 50, *odd);
    for (int i = 0; i < 50; ++i) {
        double r;
        std::memcpy(&r, &b[1 + 8 * static_cast<std::size_t>(i)], 8);
        CHECK(r == 1000 + 2 * i);
    }

    // contiguous(2, MPI_SHORT_INT): {short; int} pairs with a 2-byte gap.
    struct SI {
        short v;
        int i;
    };
    const Datatype* pairs = build({TypePart{datatype_from_handle(MPI_SHORT_INT), 0, 2}});
    CHECK(pairs->uniform_basic == MPI_SHORT_INT);
    std::vector<SI> p(6), q(6), w(6);
    for (int i = 0; i < 6; ++i) {
        p[static_cast<std::size_t>(i)] = {static_cast<short>(i % 3), 10 + i};
        q[static_cast<std::size_t>(i)] = {static_cast<short>(1), 20 - i};
    }
    for (int i = 0; i < 6; ++i) {
        SI x = p[static_cast<std::size_t>(i)], y = q[static_cast<std::size_t>(i)];
        w[static_cast<std::size_t>(i)] = x.v < y.v ? x : (x.v == y.v ? SI{y.v, x.i < y.i ? x.i : y.i} : y);
    }
    const Op& minloc = *op_from_handle(MPI_MINLOC);
    REQUIRE(op_check(minloc, *pairs) == MPI_SUCCESS);
    op_apply(minloc, p.data(), q.data(), 3, *pairs);
    for (int i = 0; i < 6; ++i) {
        CHECK(q[static_cast<std::size_t>(i)].v == w[static_cast<std::size_t>(i)].v);
        CHECK(q[static_cast<std::size_t>(i)].i == w[static_cast<std::size_t>(i)].i);
    }

    // Mixed basic types: no predefined operation, user operations only.
    const Datatype* mixed = build({TypePart{&dbl, 0, 1}, TypePart{datatype_from_handle(MPI_INT), 8, 1}});
    CHECK(mixed->uniform_basic == MPI_DATATYPE_NULL);
    CHECK(op_check(sum, *mixed) == MPI_ERR_OP);
    CHECK(op_check(*op_from_handle(MPI_REPLACE), *mixed) == MPI_ERR_OP);
    const Op* user = op_create(record, true);
    CHECK(op_check(*user, *mixed) == MPI_SUCCESS);
    op_release(user);

    for (const Datatype* t : {vec, odd, pairs, mixed}) datatype_release(t);
}

namespace {

// A non-commutative user function: inout = in - inout, on MPI_INT or on
// elements of 3 ints whose first and last are data (the test's vector type).
void subtract(void* in, void* inout, int* len, MPI_Datatype* type) {
    const int* a = static_cast<const int*>(in);
    int* b = static_cast<int*>(inout);
    if (*type == MPI_INT) {
        for (int i = 0; i < *len; ++i) b[i] = a[i] - b[i];
        return;
    }
    for (int e = 0; e < *len; ++e)
        for (int j : {3 * e, 3 * e + 2}) b[j] = a[j] - b[j];
}

}  // namespace

TEST_CASE("op_apply3_stream stores one result into every output, or does nothing where it has no kernel") {
    const Datatype& dbl = *datatype_from_handle(MPI_DOUBLE);
    const Op& sum = *op_from_handle(MPI_SUM);
    const std::size_t n = 1027;
    std::vector<double> a(n), b(n), o1(n + 1, -1.0), o2(n + 1, -1.0);
    for (std::size_t i = 0; i < n; ++i) {
        a[i] = static_cast<double>(i) * 0.25;
        b[i] = 5.0 - static_cast<double>(i);
    }
    void* outs[2] = {o1.data(), o2.data() + 1};  // one of them off the vector alignment
    CHECK(op_apply3_stream(sum, a.data(), b.data(), outs, 2, static_cast<std::int64_t>(n), dbl));
    for (std::size_t i = 0; i < n; ++i) {
        CHECK(o1[i] == a[i] + b[i]);
        CHECK(o2[i + 1] == a[i] + b[i]);
    }
    CHECK(o1[n] == -1.0);
    CHECK(o2[0] == -1.0);

    // No kernel: a user operation, MPI_REPLACE, a derived type. Nothing written.
    std::vector<double> untouched(n + 1, -1.0);
    const Op* user = op_create([](void*, void*, int*, MPI_Datatype*) {}, true);
    const Datatype* pair = build({TypePart{&dbl, 0, 2}});
    void* one[1] = {untouched.data()};
    CHECK_FALSE(op_apply3_stream(*user, a.data(), b.data(), one, 1, static_cast<std::int64_t>(n), dbl));
    CHECK_FALSE(op_apply3_stream(*op_from_handle(MPI_REPLACE), a.data(), b.data(), one, 1,
                                 static_cast<std::int64_t>(n), dbl));
    CHECK_FALSE(op_apply3_stream(sum, a.data(), b.data(), one, 1, static_cast<std::int64_t>(n / 2), *pair));
    CHECK(untouched == std::vector<double>(n + 1, -1.0));
    op_release(user);
    datatype_release(pair);
}

TEST_CASE("op_apply3 writes in (op) in2 into a third buffer, as op_apply would into in2") {
    const Datatype& dbl = *datatype_from_handle(MPI_DOUBLE);
    const Datatype& i32 = *datatype_from_handle(MPI_INT);
    const Op& sum = *op_from_handle(MPI_SUM);

    SUBCASE("predefined operation on a predefined type, out separate and out == in2") {
        for (std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(1000), std::size_t(1027)}) {
            std::vector<double> a(n), b(n), out(n + 1, -1.0), want(n);
            for (std::size_t i = 0; i < n; ++i) {
                a[i] = static_cast<double>(i) * 0.5;
                b[i] = 3.0 - static_cast<double>(i);
            }
            const std::vector<double> b0 = b;
            want = b;
            op_apply(*op_from_handle(MPI_MAX), a.data(), want.data(), static_cast<std::int64_t>(n), dbl);
            op_apply3(*op_from_handle(MPI_MAX), a.data(), b.data(), out.data(), static_cast<std::int64_t>(n), dbl);
            CHECK(std::vector<double>(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n)) == want);
            CHECK(out[n] == -1.0);
            CHECK(b == b0);
            op_apply3(sum, a.data(), b.data(), b.data(), static_cast<std::int64_t>(n), dbl);
            for (std::size_t i = 0; i < n; ++i) CHECK(b[i] == a[i] + b0[i]);
        }
        double x = 1, y = 2, z = 7;
        op_apply3(sum, &x, &y, &z, 0, dbl);  // count 0: nothing
        CHECK(z == 7);
    }

    SUBCASE("derived types: the gaps of out stay, misaligned elements, padded pairs") {
        // vector(2 blocks of 1 double, stride 2): doubles at 0 and 16, extent 24.
        const Datatype* vec = build({TypePart{&dbl, 0, 1, 2, 16}});
        std::vector<double> in(9), in2(9), out(9, -7.0), want(9, -7.0);
        for (int i = 0; i < 9; ++i) {
            in[static_cast<std::size_t>(i)] = i + 0.5;
            in2[static_cast<std::size_t>(i)] = 100.0 * i;
        }
        for (int e = 0; e < 3; ++e)
            for (int off : {0, 2}) {
                auto j = static_cast<std::size_t>(3 * e + off);
                want[j] = in[j] + in2[j];
            }
        const std::vector<double> in2_0 = in2;
        op_apply3(sum, in.data(), in2.data(), out.data(), 3, *vec);
        CHECK(out == want);
        CHECK(in2 == in2_0);

        // Doubles at odd addresses (displacement 1).
        const Datatype* odd = build({TypePart{&dbl, 1, 1}});
        std::vector<unsigned char> a(1 + 8 * 50), b(a.size()), c(a.size(), 0xee);
        for (int i = 0; i < 50; ++i) {
            double x = i, y = 1000 + i;
            std::memcpy(&a[1 + 8 * static_cast<std::size_t>(i)], &x, 8);
            std::memcpy(&b[1 + 8 * static_cast<std::size_t>(i)], &y, 8);
        }
        op_apply3(sum, a.data(), b.data(), c.data(), 50, *odd);
        CHECK(c[0] == 0xee);
        for (int i = 0; i < 50; ++i) {
            double r;
            std::memcpy(&r, &c[1 + 8 * static_cast<std::size_t>(i)], 8);
            CHECK(r == 1000 + 2 * i);
        }

        // contiguous(2, MPI_SHORT_INT): {short; int} pairs with a 2-byte gap.
        struct SI {
            short v;
            int i;
        };
        const Datatype* pairs = build({TypePart{datatype_from_handle(MPI_SHORT_INT), 0, 2}});
        std::vector<SI> p(6), q(6), r(6);
        for (int i = 0; i < 6; ++i) {
            p[static_cast<std::size_t>(i)] = {static_cast<short>(i % 3), 10 + i};
            q[static_cast<std::size_t>(i)] = {static_cast<short>(1), 20 - i};
        }
        std::vector<SI> w = q;
        const Op& minloc = *op_from_handle(MPI_MINLOC);
        op_apply(minloc, p.data(), w.data(), 3, *pairs);
        op_apply3(minloc, p.data(), q.data(), r.data(), 3, *pairs);
        for (int i = 0; i < 6; ++i) {
            CHECK(r[static_cast<std::size_t>(i)].v == w[static_cast<std::size_t>(i)].v);
            CHECK(r[static_cast<std::size_t>(i)].i == w[static_cast<std::size_t>(i)].i);
        }
        for (const Datatype* t : {vec, odd, pairs}) datatype_release(t);
    }

    SUBCASE("user operations keep in as the left operand; MPI_REPLACE and MPI_NO_OP") {
        const Op* sub = op_create(subtract, false);
        std::vector<int> a{10, 20, 30, 40, 50}, b{1, 2, 3, 4, 5}, out(5, -1);
        op_apply3(*sub, a.data(), b.data(), out.data(), 5, i32);
        CHECK(out == std::vector<int>{9, 18, 27, 36, 45});
        CHECK(b == std::vector<int>{1, 2, 3, 4, 5});
        op_apply3(*sub, a.data(), b.data(), b.data(), 5, i32);
        CHECK(b == std::vector<int>{9, 18, 27, 36, 45});

        // A user operation on a type with gaps: only the data of out changes.
        const Datatype* vec = build({TypePart{&i32, 0, 1, 2, 8}});  // ints at 0 and 8, extent 12
        std::vector<int> x{10, 11, 12, 20, 21, 22}, y{1, 2, 3, 4, 5, 6}, z(6, -1);
        op_apply3(*sub, x.data(), y.data(), z.data(), 2, *vec);
        CHECK(z == std::vector<int>{9, -1, 9, 16, -1, 16});
        datatype_release(vec);
        op_release(sub);

        std::vector<int> r(5, -1);
        op_apply3(*op_from_handle(MPI_REPLACE), a.data(), b.data(), r.data(), 5, i32);
        CHECK(r == a);
        op_apply3(*op_from_handle(MPI_NO_OP), a.data(), b.data(), r.data(), 5, i32);
        CHECK(r == b);
    }
}
