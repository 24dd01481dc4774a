// Choosing the reduction kernels for the CPU: each instruction set's table
// is assembled once, the first time it is asked for, and only on a CPU that
// can run it (filling an AVX-512 table runs code compiled for AVX-512).
#include "primitives/reduce.hpp"

#include "base/config.hpp"
#include "base/log.hpp"

namespace hmpi::prim {

namespace {

// The layout of the MINLOC/MAXLOC pair kinds (reduce_portable.cpp's Pair).
template <class V, class I>
struct PairLayout {
    V v;
    I i;
};

struct Tables {
    KernelTable table[kIsas]{};
    bool present[kIsas]{};
    Tables() {
        portable::fill_kernels(table[0]);
        present[0] = true;
#if defined(HMPI_HAVE_X86_KERNELS)
        // The AVX files have kernels for the common kinds only: each of their
        // tables starts as a copy of the portable one.
        if (isa_supported(Isa::avx2)) {
            table[1] = table[0];
            avx2::fill_kernels(table[1]);
            present[1] = true;
        }
        if (isa_supported(Isa::avx512)) {
            table[2] = table[0];
            avx512::fill_kernels(table[2]);
            present[2] = true;
        }
#endif
    }
};

const Tables& tables() {
    static const Tables t;
    return t;
}

Isa choose_active() {
    Isa want = best_isa();
    switch (config().reduce_isa) {
        case ReduceIsa::best: return want;
        case ReduceIsa::portable: want = Isa::portable; break;
        case ReduceIsa::avx2: want = Isa::avx2; break;
        case ReduceIsa::avx512: want = Isa::avx512; break;
    }
    if (!isa_supported(want))
        die("HMPI_REDUCE_ISA=%s, but this CPU does not support %s (the widest it supports is %s)", isa_name(want),
            isa_name(want), isa_name(best_isa()));
    return want;
}

struct Active {
    Isa isa;
    const KernelTable* table;
    Active() : isa(choose_active()), table(&tables().table[static_cast<std::size_t>(isa)]) {}
};

const Active& active() {
    static const Active a;
    return a;
}

}  // namespace

bool isa_supported(Isa isa) noexcept {
    switch (isa) {
        case Isa::portable: return true;
#if defined(HMPI_HAVE_X86_KERNELS)
        // libgcc's checks include the OS's consent (XCR0) for the registers.
        case Isa::avx2: return __builtin_cpu_supports("avx2");
        case Isa::avx512:
            return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                   __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#endif
        default: return false;
    }
}

Isa best_isa() noexcept {
    if (isa_supported(Isa::avx512)) return Isa::avx512;
    if (isa_supported(Isa::avx2)) return Isa::avx2;
    return Isa::portable;
}

const char* isa_name(Isa isa) noexcept {
    switch (isa) {
        case Isa::portable: return "portable";
        case Isa::avx2: return "avx2";
        case Isa::avx512: return "avx512";
        default: return "?";
    }
}

const KernelTable* kernels_for(Isa isa) noexcept {
    auto i = static_cast<std::size_t>(isa);
    if (i >= kIsas) return nullptr;
    const Tables& t = tables();
    return t.present[i] ? &t.table[i] : nullptr;
}

Isa active_isa() noexcept { return active().isa; }

const KernelTable& active_kernels() noexcept { return *active().table; }

std::size_t elem_size(Elem e) noexcept {
    switch (e) {
        case Elem::i8: case Elem::u8: return 1;
        case Elem::i16: case Elem::u16: case Elem::f16: return 2;
        case Elem::i32: case Elem::u32: case Elem::f32: case Elem::c16: return 4;
        case Elem::i64: case Elem::u64: case Elem::f64: case Elem::c32: return 8;
        case Elem::i128: case Elem::f128: case Elem::c64: return 16;
        case Elem::f80: return sizeof(long double);
        case Elem::c80: return 2 * sizeof(long double);
        case Elem::c128: return 32;
        case Elem::float_int: return sizeof(PairLayout<float, int>);
        case Elem::double_int: return sizeof(PairLayout<double, int>);
        case Elem::long_int: return sizeof(PairLayout<long, int>);
        case Elem::int_int: return sizeof(PairLayout<int, int>);
        case Elem::short_int: return sizeof(PairLayout<short, int>);
        case Elem::long_double_int: return sizeof(PairLayout<long double, int>);
        case Elem::float_float: return 2 * sizeof(float);
        case Elem::double_double: return 2 * sizeof(double);
        case Elem::count_: break;
    }
    return 0;
}

const char* elem_name(Elem e) noexcept {
    static const char* const names[kElems] = {
        "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "i128", "f16", "f32", "f64", "f80", "f128",
        "c16", "c32", "c64", "c80", "c128", "float_int", "double_int", "long_int", "int_int", "short_int",
        "long_double_int", "float_float", "double_double"};
    auto i = static_cast<std::size_t>(e);
    return i < kElems ? names[i] : "?";
}

}  // namespace hmpi::prim
