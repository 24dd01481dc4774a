#include "core/datatype.hpp"

#include <algorithm>
#include <array>
#include <complex>
#include <cstddef>
#include <cstring>

namespace hmpi {

namespace {

constexpr std::uintptr_t kFirst = 0x200;
constexpr std::size_t kTableSize = 0x100;

template <class A, class B>
struct Pair {
    A a;
    B b;
};

Datatype contiguous_type(const char* name, std::size_t size, int basic_elements = 1) {
    Datatype t;
    t.basic_sizes.assign(static_cast<std::size_t>(basic_elements), size / static_cast<std::size_t>(basic_elements));
    t.name = name;
    t.size = size;
    t.extent = static_cast<std::ptrdiff_t>(size);
    t.contiguous = true;
    t.segments = {{0, size}};
    return t;
}

// The MINLOC/MAXLOC pair types: value then int, with the C struct's padding.
template <class A>
Datatype pair_type(const char* name) {
    Datatype t;
    t.name = name;
    t.size = sizeof(A) + sizeof(int);
    t.extent = sizeof(Pair<A, int>);
    using P = Pair<A, int>;
    const auto second = static_cast<std::ptrdiff_t>(offsetof(P, b));
    t.segments = {{0, sizeof(A)}, {second, sizeof(int)}};
    t.basic_sizes = {sizeof(A), sizeof(int)};
    t.contiguous = static_cast<std::ptrdiff_t>(t.size) == t.extent;
    if (t.contiguous) t.segments = {{0, t.size}};
    return t;
}

struct Table {
    std::array<Datatype, kTableSize> types{};
    std::array<bool, kTableSize> valid{};
    void add(MPI_Datatype h, Datatype t) {
        auto i = reinterpret_cast<std::uintptr_t>(h) - kFirst;
        types[i] = std::move(t);
        types[i].predefined = true;
        types[i].handle = h;
        valid[i] = true;
    }
    Table() {
        add(MPI_AINT, contiguous_type("MPI_AINT", sizeof(MPI_Aint)));
        add(MPI_COUNT, contiguous_type("MPI_COUNT", sizeof(MPI_Count)));
        add(MPI_OFFSET, contiguous_type("MPI_OFFSET", sizeof(MPI_Offset)));
        add(MPI_PACKED, contiguous_type("MPI_PACKED", 1));
        add(MPI_SHORT, contiguous_type("MPI_SHORT", sizeof(short)));
        add(MPI_INT, contiguous_type("MPI_INT", sizeof(int)));
        add(MPI_LONG, contiguous_type("MPI_LONG", sizeof(long)));
        add(MPI_LONG_LONG, contiguous_type("MPI_LONG_LONG", sizeof(long long)));
        add(MPI_UNSIGNED_SHORT, contiguous_type("MPI_UNSIGNED_SHORT", sizeof(unsigned short)));
        add(MPI_UNSIGNED, contiguous_type("MPI_UNSIGNED", sizeof(unsigned)));
        add(MPI_UNSIGNED_LONG, contiguous_type("MPI_UNSIGNED_LONG", sizeof(unsigned long)));
        add(MPI_UNSIGNED_LONG_LONG, contiguous_type("MPI_UNSIGNED_LONG_LONG", sizeof(unsigned long long)));
        add(MPI_FLOAT, contiguous_type("MPI_FLOAT", sizeof(float)));
        add(MPI_C_FLOAT_COMPLEX, contiguous_type("MPI_C_FLOAT_COMPLEX", 2 * sizeof(float)));
        add(MPI_CXX_FLOAT_COMPLEX, contiguous_type("MPI_CXX_FLOAT_COMPLEX", sizeof(std::complex<float>)));
        add(MPI_DOUBLE, contiguous_type("MPI_DOUBLE", sizeof(double)));
        add(MPI_C_DOUBLE_COMPLEX, contiguous_type("MPI_C_DOUBLE_COMPLEX", 2 * sizeof(double)));
        add(MPI_CXX_DOUBLE_COMPLEX, contiguous_type("MPI_CXX_DOUBLE_COMPLEX", sizeof(std::complex<double>)));
        add(MPI_LOGICAL, contiguous_type("MPI_LOGICAL", 4));
        add(MPI_INTEGER, contiguous_type("MPI_INTEGER", 4));
        add(MPI_REAL, contiguous_type("MPI_REAL", 4));
        add(MPI_COMPLEX, contiguous_type("MPI_COMPLEX", 8));
        add(MPI_DOUBLE_PRECISION, contiguous_type("MPI_DOUBLE_PRECISION", 8));
        add(MPI_DOUBLE_COMPLEX, contiguous_type("MPI_DOUBLE_COMPLEX", 16));
        add(MPI_LONG_DOUBLE, contiguous_type("MPI_LONG_DOUBLE", sizeof(long double)));
        add(MPI_C_LONG_DOUBLE_COMPLEX, contiguous_type("MPI_C_LONG_DOUBLE_COMPLEX", 2 * sizeof(long double)));
        add(MPI_CXX_LONG_DOUBLE_COMPLEX, contiguous_type("MPI_CXX_LONG_DOUBLE_COMPLEX", sizeof(std::complex<long double>)));
        add(MPI_FLOAT_INT, pair_type<float>("MPI_FLOAT_INT"));
        add(MPI_DOUBLE_INT, pair_type<double>("MPI_DOUBLE_INT"));
        add(MPI_LONG_INT, pair_type<long>("MPI_LONG_INT"));
        add(MPI_2INT, pair_type<int>("MPI_2INT"));
        add(MPI_SHORT_INT, pair_type<short>("MPI_SHORT_INT"));
        add(MPI_LONG_DOUBLE_INT, pair_type<long double>("MPI_LONG_DOUBLE_INT"));
        add(MPI_2REAL, contiguous_type("MPI_2REAL", 8, 2));
        add(MPI_2DOUBLE_PRECISION, contiguous_type("MPI_2DOUBLE_PRECISION", 16, 2));
        add(MPI_2INTEGER, contiguous_type("MPI_2INTEGER", 8, 2));
        add(MPI_C_BOOL, contiguous_type("MPI_C_BOOL", sizeof(bool)));
        add(MPI_CXX_BOOL, contiguous_type("MPI_CXX_BOOL", sizeof(bool)));
        add(MPI_WCHAR, contiguous_type("MPI_WCHAR", sizeof(wchar_t)));
        add(MPI_INT8_T, contiguous_type("MPI_INT8_T", 1));
        add(MPI_UINT8_T, contiguous_type("MPI_UINT8_T", 1));
        add(MPI_CHAR, contiguous_type("MPI_CHAR", 1));
        add(MPI_SIGNED_CHAR, contiguous_type("MPI_SIGNED_CHAR", 1));
        add(MPI_UNSIGNED_CHAR, contiguous_type("MPI_UNSIGNED_CHAR", 1));
        add(MPI_BYTE, contiguous_type("MPI_BYTE", 1));
        add(MPI_INT16_T, contiguous_type("MPI_INT16_T", 2));
        add(MPI_UINT16_T, contiguous_type("MPI_UINT16_T", 2));
        add(MPI_INT32_T, contiguous_type("MPI_INT32_T", 4));
        add(MPI_UINT32_T, contiguous_type("MPI_UINT32_T", 4));
        add(MPI_INT64_T, contiguous_type("MPI_INT64_T", 8));
        add(MPI_UINT64_T, contiguous_type("MPI_UINT64_T", 8));
        add(MPI_LOGICAL1, contiguous_type("MPI_LOGICAL1", 1));
        add(MPI_INTEGER1, contiguous_type("MPI_INTEGER1", 1));
        add(MPI_CHARACTER, contiguous_type("MPI_CHARACTER", 1));
        add(MPI_LOGICAL2, contiguous_type("MPI_LOGICAL2", 2));
        add(MPI_INTEGER2, contiguous_type("MPI_INTEGER2", 2));
        add(MPI_REAL2, contiguous_type("MPI_REAL2", 2));
        add(MPI_LOGICAL4, contiguous_type("MPI_LOGICAL4", 4));
        add(MPI_INTEGER4, contiguous_type("MPI_INTEGER4", 4));
        add(MPI_REAL4, contiguous_type("MPI_REAL4", 4));
        add(MPI_COMPLEX4, contiguous_type("MPI_COMPLEX4", 4));
        add(MPI_LOGICAL8, contiguous_type("MPI_LOGICAL8", 8));
        add(MPI_INTEGER8, contiguous_type("MPI_INTEGER8", 8));
        add(MPI_REAL8, contiguous_type("MPI_REAL8", 8));
        add(MPI_COMPLEX8, contiguous_type("MPI_COMPLEX8", 8));
        add(MPI_LOGICAL16, contiguous_type("MPI_LOGICAL16", 16));
        add(MPI_INTEGER16, contiguous_type("MPI_INTEGER16", 16));
        add(MPI_REAL16, contiguous_type("MPI_REAL16", 16));
        add(MPI_COMPLEX16, contiguous_type("MPI_COMPLEX16", 16));
        add(MPI_COMPLEX32, contiguous_type("MPI_COMPLEX32", 32));
    }
};

// Built during libhmpi's static initialization, before any rank runs: the
// lookup on every MPI call then needs no initialization guard.
const Table g_table;

struct PredefinedIndex {
    std::array<const Datatype*, kTableSize> slots{};
    PredefinedIndex() {
        for (std::size_t i = 0; i < kTableSize; ++i) slots[i] = g_table.valid[i] ? &g_table.types[i] : nullptr;
    }
};
const PredefinedIndex g_index;

// Walks the packed byte range [0, bytes) of (buf, type) as memory runs.
template <class Fn>
void for_each_run(const Datatype& type, std::size_t bytes, Fn&& fn) {
    std::size_t done = 0;
    for (std::size_t elem = 0; done < bytes; ++elem) {
        std::ptrdiff_t base = static_cast<std::ptrdiff_t>(elem) * type.extent;
        for (const Segment& s : type.segments) {
            std::size_t n = std::min(s.length, bytes - done);
            fn(base + s.offset, done, n);
            done += n;
            if (done == bytes) return;
        }
    }
}

}  // namespace

namespace datatype_detail {
const Datatype* const* predefined = g_index.slots.data();
}  // namespace datatype_detail

void datatype_retain(const Datatype* t) noexcept {
    if (!t->predefined) t->refs.retain();
}

void datatype_release(const Datatype* t) noexcept {
    if (!t->predefined && t->refs.release()) delete t;
}

void pack_bytes(const void* buf, const Datatype& type, std::size_t bytes, void* out) noexcept {
    if (type.contiguous) {
        if (bytes) std::memcpy(out, buf, bytes);
        return;
    }
    auto* src = static_cast<const char*>(buf);
    auto* dst = static_cast<char*>(out);
    for_each_run(type, bytes, [&](std::ptrdiff_t off, std::size_t pos, std::size_t n) { std::memcpy(dst + pos, src + off, n); });
}

void unpack_bytes(const void* in, std::size_t bytes, void* buf, const Datatype& type) noexcept {
    if (type.contiguous) {
        if (bytes) std::memcpy(buf, in, bytes);
        return;
    }
    auto* src = static_cast<const char*>(in);
    auto* dst = static_cast<char*>(buf);
    for_each_run(type, bytes, [&](std::ptrdiff_t off, std::size_t pos, std::size_t n) { std::memcpy(dst + off, src + pos, n); });
}

void copy_typed(const void* src, const Datatype& stype, void* dst, const Datatype& dtype, std::size_t bytes) noexcept {
    if (stype.contiguous) return unpack_bytes(src, bytes, dst, dtype);
    if (dtype.contiguous) return pack_bytes(src, stype, bytes, dst);
    // Both sides gapped: stream through a small bounce buffer.
    char bounce[4096];
    auto* s = static_cast<const char*>(src);
    std::size_t done = 0;
    while (done < bytes) {
        std::size_t n = std::min(sizeof bounce, bytes - done);
        // Pack the byte range [done, done + n) of the source.
        std::size_t pos = 0;
        for_each_run(stype, done + n, [&](std::ptrdiff_t off, std::size_t p, std::size_t len) {
            if (p + len <= done) return;
            std::size_t skip = p < done ? done - p : 0;
            std::memcpy(bounce + pos, s + off + static_cast<std::ptrdiff_t>(skip), len - skip);
            pos += len - skip;
        });
        auto* d = static_cast<char*>(dst);
        for_each_run(dtype, done + n, [&](std::ptrdiff_t off, std::size_t p, std::size_t len) {
            if (p + len <= done) return;
            std::size_t skip = p < done ? done - p : 0;
            std::memcpy(d + off + static_cast<std::ptrdiff_t>(skip), bounce + (p + skip - done), len - skip);
        });
        done += n;
    }
}

}  // namespace hmpi
