// Datatypes: the predefined table, derived-type construction (bounds, sizes,
// layouts), and moving typed data (pack, unpack, copy between layouts,
// external32). See datatype.hpp for the representation.
#include "core/datatype.hpp"

#include <algorithm>
#include <array>
#include <complex>
#include <cstddef>
#include <cstring>
#include <memory>
#include <mutex>

namespace hmpi {

namespace {

constexpr std::uintptr_t kFirst = datatype_detail::kFirstPredefined;
constexpr std::size_t kTableSize = datatype_detail::kPredefinedSlots;

std::size_t slot_of(MPI_Datatype h) noexcept { return reinterpret_cast<std::uintptr_t>(h) - kFirst; }

// How a basic type's values look in external32 (MPI 3.1, 13.5.2): each
// element is `parts` components (2 for complex types) of `native` bytes
// here and `external` bytes there, big-endian.
enum class Ext32 : std::uint8_t {
    bytes,        // copied as is (characters, MPI_BYTE, MPI_PACKED, booleans)
    swap,         // same size, byte order reversed
    signed_narrow,    // native 8-byte long -> 4 bytes
    unsigned_narrow,  // native 8-byte unsigned long -> 4 bytes
    x87_to_quad,  // long double (x87 80-bit in 16 bytes) -> IEEE binary128
};

struct Ext32Info {
    Ext32 kind = Ext32::bytes;
    std::uint8_t parts = 1;
    std::uint8_t native = 1;
    std::uint8_t external = 1;
};

template <class A, class B>
struct Pair {
    A a;
    B b;
};


LayoutOp block(std::ptrdiff_t offset, std::size_t len, MPI_Datatype basic = MPI_DATATYPE_NULL) {
    LayoutOp b;
    b.offset = offset;
    b.len = len;
    b.bytes = len;
    b.basic = basic;
    return b;
}

struct Table {
    std::array<Datatype, kTableSize> types{};
    std::array<bool, kTableSize> valid{};
    std::array<Ext32Info, kTableSize> ext32{};

    Datatype& add(MPI_Datatype h, const char* name, std::size_t size, std::size_t align) {
        std::size_t i = slot_of(h);
        Datatype& t = types[i];
        t.name = name;
        t.size = size;
        t.extent = static_cast<std::ptrdiff_t>(size);
        t.lb = 0;
        t.ub = t.extent;
        t.true_lb = 0;
        t.true_ub = t.extent;
        t.contiguous = true;
        t.align = align;
        t.uniform_basic = h;
        t.basic_count = 1;
        t.flat = {block(0, size)};
        t.typed = {block(0, size, h)};
        t.predefined = true;
        t.committed = true;
        t.handle = h;
        valid[i] = true;
        return t;
    }

    // A basic type: one element of `parts` components of `native` bytes.
    void basic(MPI_Datatype h, const char* name, std::size_t native, std::size_t align, Ext32 kind,
               std::size_t external, int parts = 1) {
        add(h, name, native * static_cast<std::size_t>(parts), align);
        ext32[slot_of(h)] = Ext32Info{kind, static_cast<std::uint8_t>(parts), static_cast<std::uint8_t>(native),
                                      static_cast<std::uint8_t>(external)};
        types[slot_of(h)].external32_size = static_cast<std::int64_t>(external) * parts;
    }
    void same(MPI_Datatype h, const char* name, std::size_t size, int parts = 1) {
        std::size_t component = size / static_cast<std::size_t>(parts);
        basic(h, name, component, std::min<std::size_t>(component, 16), size == static_cast<std::size_t>(parts) ? Ext32::bytes : Ext32::swap,
              component, parts);
    }

    // MINLOC/MAXLOC pairs: value then int, with the C struct's padding.
    template <class A>
    void pair(MPI_Datatype h, const char* name, MPI_Datatype first) {
        using P = Pair<A, int>;
        const auto second = static_cast<std::ptrdiff_t>(offsetof(P, b));
        Datatype& t = add(h, name, sizeof(A) + sizeof(int), alignof(P));
        t.extent = sizeof(P);
        t.ub = t.extent;
        t.true_ub = second + static_cast<std::ptrdiff_t>(sizeof(int));
        t.basic_count = 2;
        LayoutBuilder flat(false);
        flat.append({block(0, sizeof(A))}, 0, 1, 0);
        flat.append({block(second, sizeof(int))}, 0, 1, 0);
        t.flat = flat.take();
        t.typed = {block(0, sizeof(A), first), block(second, sizeof(int), MPI_INT)};
        t.contiguous = t.flat.size() == 1 && t.flat[0].len == t.size && t.extent == static_cast<std::ptrdiff_t>(t.size);
        if (!t.contiguous) t.blocks = {block(0, sizeof(P), h)};
        t.external32_size = types[slot_of(first)].external32_size + 4;
    }
    // MPI_2INT-style pairs of one Fortran type: two elements, no padding.
    void twin(MPI_Datatype h, const char* name, MPI_Datatype each) {
        const Datatype& e = types[slot_of(each)];
        Datatype& t = add(h, name, 2 * e.size, e.align);
        t.basic_count = 2;
        t.typed = {block(0, 2 * e.size, each)};
        t.external32_size = 2 * e.external32_size;
    }
    // MPI_LB / MPI_UB: no data, a sticky bound at displacement 0.
    void marker(MPI_Datatype h, const char* name, bool lower) {
        Datatype& t = add(h, name, 0, 1);
        t.extent = t.ub = t.true_ub = 0;
        t.flat.clear();
        t.typed.clear();
        t.basic_count = 0;
        t.uniform_basic = MPI_DATATYPE_NULL;
        (lower ? t.lb_marker : t.ub_marker) = true;
    }

    Table() {
        using E = Ext32;
        basic(MPI_AINT, "MPI_AINT", sizeof(MPI_Aint), alignof(MPI_Aint), E::swap, 8);
        basic(MPI_COUNT, "MPI_COUNT", sizeof(MPI_Count), alignof(MPI_Count), E::swap, 8);
        basic(MPI_OFFSET, "MPI_OFFSET", sizeof(MPI_Offset), alignof(MPI_Offset), E::swap, 8);
        basic(MPI_PACKED, "MPI_PACKED", 1, 1, E::bytes, 1);
        basic(MPI_SHORT, "MPI_SHORT", sizeof(short), alignof(short), E::swap, 2);
        basic(MPI_INT, "MPI_INT", sizeof(int), alignof(int), E::swap, 4);
        basic(MPI_LONG, "MPI_LONG", sizeof(long), alignof(long), sizeof(long) == 8 ? E::signed_narrow : E::swap, 4);
        basic(MPI_LONG_LONG, "MPI_LONG_LONG", sizeof(long long), alignof(long long), E::swap, 8);
        basic(MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", sizeof(unsigned short), alignof(unsigned short), E::swap, 2);
        basic(MPI_UNSIGNED, "MPI_UNSIGNED", sizeof(unsigned), alignof(unsigned), E::swap, 4);
        basic(MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", sizeof(unsigned long), alignof(unsigned long),
              sizeof(long) == 8 ? E::unsigned_narrow : E::swap, 4);
        basic(MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", sizeof(unsigned long long), alignof(unsigned long long), E::swap, 8);
        basic(MPI_FLOAT, "MPI_FLOAT", sizeof(float), alignof(float), E::swap, 4);
        basic(MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", sizeof(float), alignof(float), E::swap, 4, 2);
        basic(MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", sizeof(float), alignof(float), E::swap, 4, 2);
        basic(MPI_DOUBLE, "MPI_DOUBLE", sizeof(double), alignof(double), E::swap, 8);
        basic(MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", sizeof(double), alignof(double), E::swap, 8, 2);
        basic(MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", sizeof(double), alignof(double), E::swap, 8, 2);
        basic(MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", sizeof(long double), alignof(long double), E::x87_to_quad, 16);
        basic(MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", sizeof(long double), alignof(long double),
              E::x87_to_quad, 16, 2);
        basic(MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX", sizeof(long double), alignof(long double),
              E::x87_to_quad, 16, 2);
        basic(MPI_C_BOOL, "MPI_C_BOOL", sizeof(bool), alignof(bool), E::bytes, 1);
        basic(MPI_CXX_BOOL, "MPI_CXX_BOOL", sizeof(bool), alignof(bool), E::bytes, 1);
        basic(MPI_WCHAR, "MPI_WCHAR", sizeof(wchar_t), alignof(wchar_t), E::swap, 4);
        basic(MPI_INT8_T, "MPI_INT8_T", 1, 1, E::bytes, 1);
        basic(MPI_UINT8_T, "MPI_UINT8_T", 1, 1, E::bytes, 1);
        basic(MPI_CHAR, "MPI_CHAR", 1, 1, E::bytes, 1);
        basic(MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", 1, 1, E::bytes, 1);
        basic(MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", 1, 1, E::bytes, 1);
        basic(MPI_BYTE, "MPI_BYTE", 1, 1, E::bytes, 1);
        basic(MPI_INT16_T, "MPI_INT16_T", 2, 2, E::swap, 2);
        basic(MPI_UINT16_T, "MPI_UINT16_T", 2, 2, E::swap, 2);
        basic(MPI_INT32_T, "MPI_INT32_T", 4, 4, E::swap, 4);
        basic(MPI_UINT32_T, "MPI_UINT32_T", 4, 4, E::swap, 4);
        basic(MPI_INT64_T, "MPI_INT64_T", 8, 8, E::swap, 8);
        basic(MPI_UINT64_T, "MPI_UINT64_T", 8, 8, E::swap, 8);
        // Fortran types: gfortran's layouts (REAL16 is IEEE binary128).
        same(MPI_LOGICAL, "MPI_LOGICAL", 4);
        same(MPI_INTEGER, "MPI_INTEGER", 4);
        same(MPI_REAL, "MPI_REAL", 4);
        same(MPI_COMPLEX, "MPI_COMPLEX", 8, 2);
        same(MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8);
        same(MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16, 2);
        same(MPI_CHARACTER, "MPI_CHARACTER", 1);
        same(MPI_LOGICAL1, "MPI_LOGICAL1", 1);
        same(MPI_INTEGER1, "MPI_INTEGER1", 1);
        same(MPI_LOGICAL2, "MPI_LOGICAL2", 2);
        same(MPI_INTEGER2, "MPI_INTEGER2", 2);
        same(MPI_REAL2, "MPI_REAL2", 2);
        same(MPI_LOGICAL4, "MPI_LOGICAL4", 4);
        same(MPI_INTEGER4, "MPI_INTEGER4", 4);
        same(MPI_REAL4, "MPI_REAL4", 4);
        same(MPI_COMPLEX4, "MPI_COMPLEX4", 4, 2);
        same(MPI_LOGICAL8, "MPI_LOGICAL8", 8);
        same(MPI_INTEGER8, "MPI_INTEGER8", 8);
        same(MPI_REAL8, "MPI_REAL8", 8);
        same(MPI_COMPLEX8, "MPI_COMPLEX8", 8, 2);
        same(MPI_LOGICAL16, "MPI_LOGICAL16", 16);
        same(MPI_INTEGER16, "MPI_INTEGER16", 16);
        same(MPI_REAL16, "MPI_REAL16", 16);
        same(MPI_COMPLEX16, "MPI_COMPLEX16", 16, 2);
        same(MPI_COMPLEX32, "MPI_COMPLEX32", 32, 2);
        pair<float>(MPI_FLOAT_INT, "MPI_FLOAT_INT", MPI_FLOAT);
        pair<double>(MPI_DOUBLE_INT, "MPI_DOUBLE_INT", MPI_DOUBLE);
        pair<long>(MPI_LONG_INT, "MPI_LONG_INT", MPI_LONG);
        pair<int>(MPI_2INT, "MPI_2INT", MPI_INT);
        pair<short>(MPI_SHORT_INT, "MPI_SHORT_INT", MPI_SHORT);
        pair<long double>(MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", MPI_LONG_DOUBLE);
        twin(MPI_2REAL, "MPI_2REAL", MPI_REAL);
        twin(MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", MPI_DOUBLE_PRECISION);
        twin(MPI_2INTEGER, "MPI_2INTEGER", MPI_INTEGER);
        marker(MPI_LB, "MPI_LB", true);
        marker(MPI_UB, "MPI_UB", false);
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

bool is_padded_pair(MPI_Datatype h) noexcept {
    const Datatype* p = predefined_datatype(h);
    return p && !p->blocks.empty();
}

void update_contiguous(Datatype& t) noexcept {
    t.contiguous = t.size == 0 || (t.flat.size() == 1 && t.flat[0].levels == 0 && t.flat[0].offset == 0 &&
                                   t.flat[0].len == t.size && t.extent == static_cast<std::ptrdiff_t>(t.size));
}

// Bounds of the values a + k * s for k in [0, n).
using Wide = __int128;
Wide lowest(Wide a, Wide n, Wide s) { return a + std::min<Wide>(0, (n - 1) * s); }
Wide highest(Wide a, Wide n, Wide s) { return a + std::max<Wide>(0, (n - 1) * s); }

// Values that must fit an MPI_Aint / MPI_Count with room for arithmetic on them.
constexpr Wide kMaxBound = Wide(1) << 62;
bool fits(Wide v) { return v > -kMaxBound && v < kMaxBound; }

}  // namespace

namespace datatype_detail {
const Datatype* const* predefined = g_index.slots.data();
}  // namespace datatype_detail

void datatype_retain(const Datatype* t) noexcept {
    if (!t->predefined) t->refs.retain();
}

namespace {

// Destroyed types are kept (hollowed out, marked dead) for a while before
// their memory goes back: a handle used after MPI_Type_free then reads a
// dead mark and gets MPI_ERR_TYPE, instead of reading freed memory (which
// the address sanitizer would rightly report) or a new object at the same
// address.
class Graveyard {
public:
    void bury(Datatype* t) noexcept {
        Datatype* evicted = nullptr;
        {
            std::lock_guard<std::mutex> g(lock_);
            evicted = slots_[next_];
            slots_[next_] = t;
            next_ = (next_ + 1) % slots_.size();
        }
        delete evicted;  // ~Datatype keeps the dead mark; the memory goes back now
    }
    ~Graveyard() {
        for (Datatype* t : slots_) delete t;
    }

private:
    std::mutex lock_;
    std::array<Datatype*, 1024> slots_{};
    std::size_t next_ = 0;
};

Graveyard g_graveyard;

}  // namespace

void datatype_release(const Datatype* t) noexcept {
    if (t->predefined || !t->refs.release()) return;
    auto* dead = const_cast<Datatype*>(t);
    // Drop what it holds now (its layouts, the types it was built from).
    dead->magic = Datatype::kDeadMagic;
    dead->types = RetainedTypes{};
    Layout().swap(dead->flat);
    Layout().swap(dead->typed);
    Layout().swap(dead->blocks);
    dead->ints = {};
    dead->addrs = {};
    dead->segments = {};
    g_graveyard.bury(dead);
}

BadDatatype classify_bad_datatype(MPI_Datatype h) noexcept {
    if (h == MPI_DATATYPE_NULL) return BadDatatype::null;
    const auto raw = reinterpret_cast<std::uintptr_t>(h);
    if (raw < 0x1000 || raw % alignof(Datatype)) return BadDatatype::not_a_datatype;
    // Best effort: a freed type's memory may still hold its marks.
    auto* t = reinterpret_cast<const Datatype*>(h);
    if ((t->magic == Datatype::kMagic && t->freed) || t->magic == Datatype::kDeadMagic) return BadDatatype::freed;
    return BadDatatype::not_a_datatype;
}

// ---- Construction.

Datatype& Datatype::operator=(const Datatype& o) {
    if (this == &o) return *this;
    magic = o.magic;
    std::memcpy(name_buf, o.name_buf, sizeof name_buf);
    name = o.name == o.name_buf ? name_buf : o.name;
    size = o.size;
    extent = o.extent;
    lb = o.lb;
    ub = o.ub;
    true_lb = o.true_lb;
    true_ub = o.true_ub;
    contiguous = o.contiguous;
    has_entries = o.has_entries;
    lb_marker = o.lb_marker;
    ub_marker = o.ub_marker;
    align = o.align;
    uniform_basic = o.uniform_basic;
    basic_count = o.basic_count;
    external32_size = o.external32_size;
    flat = o.flat;
    typed = o.typed;
    blocks = o.blocks;
    combiner = o.combiner;
    ints = o.ints;
    addrs = o.addrs;
    types = o.types;
    handle = o.handle;
    predefined = o.predefined;
    committed = o.committed;
    freed = o.freed;
    refs = o.refs;
    attrs = o.attrs;
    segments = o.segments;
    return *this;
}

void Datatype::set_name(const char* n) noexcept {
    std::snprintf(name_buf, sizeof name_buf, "%s", n);
    name = name_buf;
}

void datatype_finish_segments(Datatype& t) {
    const Datatype& byte = *predefined_datatype(MPI_BYTE);
    std::vector<TypePart> parts;
    for (const Segment& s : t.segments) parts.push_back({&byte, s.offset, static_cast<std::int64_t>(s.length)});
    Datatype* built = nullptr;
    if (datatype_build(parts.data(), parts.size(), false, &built) != MPI_SUCCESS) return;
    t.size = built->size;
    t.flat = built->flat;
    t.typed = built->typed;
    t.basic_count = built->basic_count;
    t.external32_size = built->external32_size;
    t.true_lb = built->true_lb;
    t.true_ub = built->true_ub;
    t.lb = 0;
    t.ub = t.extent;
    datatype_release(built);
    update_contiguous(t);
}

int datatype_build(const TypePart* parts, std::size_t nparts, bool struct_padding, Datatype** out) {
    Wide size = 0, basic = 0, ext32 = 0;
    Wide lb_nat = 0, ub_nat = 0, lb_mark = 0, ub_mark = 0, tlb = 0, tub = 0;
    bool entries = false, data = false, lb_marker = false, ub_marker = false;
    bool uniform = true;
    MPI_Datatype uniform_basic = MPI_DATATYPE_NULL;
    std::size_t align = 1;
    for (std::size_t i = 0; i < nparts; ++i) {
        const TypePart& p = parts[i];
        if (p.blocklength <= 0 || p.repeat <= 0) continue;
        const Datatype& t = *p.type;
        const Wide copies = Wide(p.blocklength) * p.repeat;
        size += copies * Wide(t.size);
        basic += copies * t.basic_count;
        ext32 += copies * t.external32_size;
        if (!fits(size) || !fits(ext32)) return MPI_ERR_COUNT;
        if (!t.has_entries) continue;
        // Copies of t sit at disp + r * stride + b * extent.
        const Wide lo = lowest(lowest(p.disp, p.repeat, p.stride), p.blocklength, t.extent);
        const Wide hi = highest(highest(p.disp, p.repeat, p.stride), p.blocklength, t.extent);
        if (!fits(lo) || !fits(hi)) return MPI_ERR_COUNT;
        const Wide l = lo + t.lb, u = hi + t.ub;
        lb_nat = entries ? std::min(lb_nat, l) : l;
        ub_nat = entries ? std::max(ub_nat, u) : u;
        if (t.lb_marker) {
            lb_mark = lb_marker ? std::min(lb_mark, l) : l;
            lb_marker = true;
        }
        if (t.ub_marker) {
            ub_mark = ub_marker ? std::max(ub_mark, u) : u;
            ub_marker = true;
        }
        entries = true;
        if (t.size == 0) continue;
        const Wide dl = lo + t.true_lb, du = hi + t.true_ub;
        tlb = data ? std::min(tlb, dl) : dl;
        tub = data ? std::max(tub, du) : du;
        if (!data) uniform_basic = t.uniform_basic;
        else if (uniform_basic != t.uniform_basic) uniform = false;
        data = true;
        align = std::max(align, t.align);
    }
    Wide lb = lb_marker ? lb_mark : lb_nat;
    Wide ub = ub_marker ? ub_mark : ub_nat;
    if (!entries) lb = ub = 0;
    if (struct_padding && entries && !ub_marker) {
        // MPI 3.1, 4.1.6: round the extent up to the strictest alignment of
        // the basic types (as a C compiler pads a struct).
        const Wide ext = ub - lb;
        const Wide a = static_cast<Wide>(align);
        if (ext > 0 && ext % a) ub += a - ext % a;
    }
    if (!fits(lb) || !fits(ub) || !fits(ub - lb) || !fits(basic)) return MPI_ERR_COUNT;

    auto t = std::make_unique<Datatype>();
    t->size = static_cast<std::size_t>(size);
    t->lb = static_cast<std::ptrdiff_t>(lb);
    t->ub = static_cast<std::ptrdiff_t>(ub);
    t->extent = t->ub - t->lb;
    t->true_lb = data ? static_cast<std::ptrdiff_t>(tlb) : 0;
    t->true_ub = data ? static_cast<std::ptrdiff_t>(tub) : 0;
    t->has_entries = entries;
    t->lb_marker = lb_marker;
    t->ub_marker = ub_marker;
    t->align = align;
    t->uniform_basic = (data && uniform) ? uniform_basic : MPI_DATATYPE_NULL;
    t->basic_count = static_cast<std::int64_t>(basic);
    t->external32_size = static_cast<std::int64_t>(ext32);
    const bool want_blocks = is_padded_pair(t->uniform_basic);
    LayoutBuilder flat(false), typed(true), blocks(false);
    for (std::size_t i = 0; i < nparts; ++i) {
        const TypePart& p = parts[i];
        if (p.blocklength <= 0 || p.repeat <= 0 || p.type->size == 0) continue;
        const Datatype& s = *p.type;
        flat.append_blocks(s.flat, s.extent, p.disp, p.blocklength, p.repeat, p.stride);
        typed.append_blocks(s.typed, s.extent, p.disp, p.blocklength, p.repeat, p.stride);
        if (want_blocks) blocks.append_blocks(s.blocks, s.extent, p.disp, p.blocklength, p.repeat, p.stride);
    }
    t->flat = flat.take();
    t->typed = typed.take();
    if (want_blocks) t->blocks = blocks.take();
    update_contiguous(*t);
    t->handle = reinterpret_cast<MPI_Datatype>(t.get());
    *out = t.release();
    return MPI_SUCCESS;
}

Datatype* datatype_clone(const Datatype& old) {
    auto* t = new Datatype(old);
    t->magic = Datatype::kMagic;
    t->name = "";
    t->predefined = false;
    t->freed = false;
    t->attrs = AttributeSet{};
    t->handle = reinterpret_cast<MPI_Datatype>(t);
    return t;
}

int datatype_resized(const Datatype& old, std::ptrdiff_t lb, std::ptrdiff_t extent, Datatype** out) {
    const Wide ub = Wide(lb) + extent;
    if (!fits(lb) || !fits(extent) || !fits(ub)) return MPI_ERR_COUNT;
    Datatype* t = datatype_clone(old);
    t->committed = false;
    t->combiner = MPI_COMBINER_NAMED;
    t->ints.clear();
    t->addrs.clear();
    t->types = RetainedTypes{};
    t->lb = lb;
    t->ub = static_cast<std::ptrdiff_t>(ub);
    t->extent = extent;
    t->has_entries = true;
    t->lb_marker = t->ub_marker = true;
    update_contiguous(*t);
    *out = t;
    return MPI_SUCCESS;
}

namespace {

// Owns the intermediate types of subarray and darray construction.
struct Scratch {
    std::vector<Datatype*> made;
    ~Scratch() {
        for (Datatype* t : made) datatype_release(t);
    }
    // Call after the constructor returned (never in the same expression:
    // argument evaluation order would read `t` before it is written).
    int keep(int err, Datatype* t) {
        if (err == MPI_SUCCESS) made.push_back(t);
        return err;
    }
};

// Finishes an array type: the result spans the whole global array, lb 0.
int finish_array(const Datatype& inner, std::ptrdiff_t disp, Wide total_extent, Datatype** out) {
    if (!fits(total_extent)) return MPI_ERR_COUNT;
    TypePart part{&inner, disp, 1};
    Datatype* placed;
    if (int e = datatype_build(&part, 1, false, &placed)) return e;
    int e = datatype_resized(*placed, 0, static_cast<std::ptrdiff_t>(total_extent), out);
    datatype_release(placed);
    return e;
}

}  // namespace

int datatype_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
                      const Datatype& old, Datatype** out) {
    // Dimension d varies fastest last (C) or first (Fortran).
    auto dim = [&](int k) { return order == MPI_ORDER_C ? ndims - 1 - k : k; };  // k-th fastest
    Scratch scratch;
    const Datatype* cur = &old;
    Wide stride = old.extent;  // bytes between consecutive indices of the current dimension
    Wide disp = 0;
    for (int k = 0; k < ndims; ++k) {
        const int d = dim(k);
        if (!fits(stride)) return MPI_ERR_COUNT;
        TypePart part{cur, 0, k == 0 ? subsizes[d] : 1, k == 0 ? 1 : subsizes[d], static_cast<std::ptrdiff_t>(stride)};
        Datatype* next = nullptr;
        const int built = datatype_build(&part, 1, false, &next);
        if (int e = scratch.keep(built, next)) return e;
        cur = next;
        disp += Wide(starts[d]) * stride;
        stride *= sizes[d];
    }
    if (!fits(disp)) return MPI_ERR_COUNT;
    return finish_array(*cur, static_cast<std::ptrdiff_t>(disp), stride, out);
}

int datatype_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[], const int dargs[],
                    const int psizes[], int order, const Datatype& old, Datatype** out) {
    (void)size;
    // The process grid is row-major whatever `order` says (MPI 3.1, 4.1.4).
    std::vector<int> coord(static_cast<std::size_t>(ndims));
    for (int d = ndims - 1, r = rank; d >= 0; --d) {
        coord[static_cast<std::size_t>(d)] = r % psizes[d];
        r /= psizes[d];
    }
    auto dim = [&](int k) { return order == MPI_ORDER_C ? ndims - 1 - k : k; };
    Scratch scratch;
    const Datatype* cur = &old;
    Wide stride = old.extent;
    for (int k = 0; k < ndims; ++k) {
        const int d = dim(k);
        const std::int64_t g = gsizes[d], p = psizes[d], c = coord[static_cast<std::size_t>(d)];
        if (!fits(stride)) return MPI_ERR_COUNT;
        // `cur` spans one index of this dimension: place the indices this
        // process owns, in increasing order.
        std::vector<TypePart> parts;
        const auto s = static_cast<std::ptrdiff_t>(stride);
        switch (distribs[d]) {
            case MPI_DISTRIBUTE_NONE: parts.push_back({cur, 0, g}); break;
            case MPI_DISTRIBUTE_BLOCK: {
                const std::int64_t b = dargs[d] == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : dargs[d];
                const std::int64_t first = c * b, last = std::min(first + b, g);
                if (first < last) parts.push_back({cur, static_cast<std::ptrdiff_t>(first * s), last - first});
                break;
            }
            default: {  // MPI_DISTRIBUTE_CYCLIC
                const std::int64_t b = dargs[d] == MPI_DISTRIBUTE_DFLT_DARG ? 1 : dargs[d];
                const std::int64_t first = c * b, period = p * b;
                if (first >= g) break;
                const std::int64_t whole = (g - first) / period;  // full blocks of b
                const std::int64_t tail_start = first + whole * period;
                if (whole) parts.push_back({cur, static_cast<std::ptrdiff_t>(first * s), b, whole, static_cast<std::ptrdiff_t>(period * s)});
                if (tail_start < g) parts.push_back({cur, static_cast<std::ptrdiff_t>(tail_start * s), std::min(b, g - tail_start)});
            }
        }
        Datatype* placed = nullptr;
        const int built = datatype_build(parts.data(), parts.size(), false, &placed);
        if (int e = scratch.keep(built, placed)) return e;
        // The next dimension's index spans this whole dimension.
        stride *= g;
        if (!fits(stride)) return MPI_ERR_COUNT;
        Datatype* spanned = nullptr;
        const int resized = datatype_resized(*placed, 0, static_cast<std::ptrdiff_t>(stride), &spanned);
        if (int e = scratch.keep(resized, spanned)) return e;
        cur = spanned;
    }
    return finish_array(*cur, 0, stride, out);
}

// ---- Moving data.

void pack_bytes(const void* buf, const Datatype& type, std::size_t bytes, void* out) noexcept {
    if (!bytes) return;
    if (type.contiguous) {
        std::memcpy(out, buf, bytes);
        return;
    }
    const auto count = static_cast<std::int64_t>((bytes + type.size - 1) / type.size);
    if (bytes % type.size == 0 &&
        layout_move_whole(type.flat, type.extent, count, const_cast<void*>(buf), static_cast<unsigned char*>(out), true))
        return;
    LayoutCursor c(type.flat, type.extent, count, buf);
    c.pack(static_cast<unsigned char*>(out), bytes);
}

void unpack_bytes(const void* in, std::size_t bytes, void* buf, const Datatype& type) noexcept {
    if (!bytes) return;
    if (type.contiguous) {
        std::memcpy(buf, in, bytes);
        return;
    }
    const auto count = static_cast<std::int64_t>((bytes + type.size - 1) / type.size);
    if (bytes % type.size == 0 &&
        layout_move_whole(type.flat, type.extent, count, buf, const_cast<unsigned char*>(static_cast<const unsigned char*>(in)), false))
        return;
    LayoutCursor c(type.flat, type.extent, count, buf);
    c.unpack(static_cast<const unsigned char*>(in), bytes);
}

void copy_typed(const void* src, const Datatype& stype, void* dst, const Datatype& dtype, std::size_t bytes) noexcept {
    if (!bytes) return;
    if (stype.contiguous) return unpack_bytes(src, bytes, dst, dtype);
    if (dtype.contiguous) return pack_bytes(src, stype, bytes, dst);
    // Both sides gapped: walk both layouts at once. Where the current rows
    // of runs have the same run length (the usual case: the same element
    // type on both sides), copy as many runs as both rows still have in one
    // strided loop; otherwise copy the overlap of the two current runs.
    LayoutCursor from(stype.flat, stype.extent, static_cast<std::int64_t>((bytes + stype.size - 1) / stype.size), src);
    LayoutCursor to(dtype.flat, dtype.extent, static_cast<std::int64_t>((bytes + dtype.size - 1) / dtype.size), dst);
    std::size_t left = bytes;
    unsigned char *s, *d;
    std::size_t sn, dn;
    std::ptrdiff_t ss, ds;
    std::int64_t sk, dk;
    while (left && from.row(&s, &sn, &ss, &sk) && to.row(&d, &dn, &ds, &dk)) {
        if (sn == dn && sn <= left) {
            const std::int64_t k = std::min({sk, dk, static_cast<std::int64_t>(left / sn)});
            copy_rows(d, ds, s, ss, sn, k);
            from.skip_runs(k);
            to.skip_runs(k);
            left -= static_cast<std::size_t>(k) * sn;
            continue;
        }
        const std::size_t n = std::min({sn, dn, left});
        std::memcpy(d, s, n);
        from.advance(n);
        to.advance(n);
        left -= n;
    }
}

TypedStream::TypedStream(const void* buf, const Datatype& type, std::int64_t count) noexcept
    : cursor_(type.flat, type.extent, count, buf) {}

// ---- Element counts.

std::int64_t datatype_elements(const Datatype& t, std::int64_t bytes) noexcept {
    if (t.size == 0 || bytes <= 0) return 0;
    const auto size = static_cast<std::int64_t>(t.size);
    std::int64_t n = bytes / size * t.basic_count;
    std::int64_t rest = bytes % size;
    LayoutCursor c(t.typed, t.extent, 1, nullptr);
    unsigned char* p;
    std::size_t len;
    while (rest > 0 && c.run(&p, &len)) {
        // Typed runs hold basic types that are single elements (never pairs).
        const auto unit = static_cast<std::int64_t>(predefined_datatype(c.run_basic())->size);
        const auto l = static_cast<std::int64_t>(len);
        if (rest >= l) {
            n += l / unit;
            rest -= l;
            c.advance(len);
            continue;
        }
        if (rest % unit) return -1;
        n += rest / unit;
        rest = 0;
    }
    return n;
}

std::int64_t datatype_bytes_of_elements(const Datatype& t, std::int64_t elements) noexcept {
    if (t.basic_count == 0 || elements <= 0) return 0;
    std::int64_t bytes = elements / t.basic_count * static_cast<std::int64_t>(t.size);
    std::int64_t rest = elements % t.basic_count;
    LayoutCursor c(t.typed, t.extent, 1, nullptr);
    unsigned char* p;
    std::size_t len;
    while (rest > 0 && c.run(&p, &len)) {
        const auto unit = static_cast<std::int64_t>(predefined_datatype(c.run_basic())->size);
        const auto k = static_cast<std::int64_t>(len) / unit;
        if (rest >= k) {
            bytes += static_cast<std::int64_t>(len);
            rest -= k;
            c.advance(len);
        } else {
            bytes += rest * unit;
            rest = 0;
        }
    }
    return bytes;
}

// ---- external32.

namespace {

void reverse_copy(unsigned char* dst, const unsigned char* src, std::size_t n) noexcept {
    for (std::size_t i = 0; i < n; ++i) dst[i] = src[n - 1 - i];
}

// Converts one component of a basic element to external32; false if the
// value does not fit.
bool to_external(const Ext32Info& x, const unsigned char* in, unsigned char* out) noexcept {
    switch (x.kind) {
        case Ext32::bytes: std::memcpy(out, in, x.native); return true;
        case Ext32::swap: reverse_copy(out, in, x.native); return true;
        case Ext32::signed_narrow: {
            long v;
            std::memcpy(&v, in, sizeof v);
            if (v < INT32_MIN || v > INT32_MAX) return false;
            auto w = static_cast<std::int32_t>(v);
            reverse_copy(out, reinterpret_cast<unsigned char*>(&w), 4);
            return true;
        }
        case Ext32::unsigned_narrow: {
            unsigned long v;
            std::memcpy(&v, in, sizeof v);
            if (v > UINT32_MAX) return false;
            auto w = static_cast<std::uint32_t>(v);
            reverse_copy(out, reinterpret_cast<unsigned char*>(&w), 4);
            return true;
        }
        case Ext32::x87_to_quad: {
            long double v;
            std::memcpy(&v, in, sizeof v);
            __float128 q = static_cast<__float128>(v);
            reverse_copy(out, reinterpret_cast<unsigned char*>(&q), 16);
            return true;
        }
    }
    return false;
}

void from_external(const Ext32Info& x, const unsigned char* in, unsigned char* out) noexcept {
    switch (x.kind) {
        case Ext32::bytes: std::memcpy(out, in, x.native); return;
        case Ext32::swap: reverse_copy(out, in, x.native); return;
        case Ext32::signed_narrow: {
            std::int32_t w;
            reverse_copy(reinterpret_cast<unsigned char*>(&w), in, 4);
            long v = w;
            std::memcpy(out, &v, sizeof v);
            return;
        }
        case Ext32::unsigned_narrow: {
            std::uint32_t w;
            reverse_copy(reinterpret_cast<unsigned char*>(&w), in, 4);
            unsigned long v = w;
            std::memcpy(out, &v, sizeof v);
            return;
        }
        case Ext32::x87_to_quad: {
            __float128 q;
            reverse_copy(reinterpret_cast<unsigned char*>(&q), in, 16);
            long double v = static_cast<long double>(q);
            std::memset(out, 0, sizeof v);  // the x87 format leaves 6 bytes unused
            std::memcpy(out, &v, 10);
            return;
        }
    }
}

}  // namespace

int pack_external32(const void* buf, std::int64_t count, const Datatype& type, void* out) noexcept {
    LayoutCursor c(type.typed, type.extent, count, buf);
    auto* o = static_cast<unsigned char*>(out);
    unsigned char* p;
    std::size_t len;
    int err = MPI_SUCCESS;
    while (c.run(&p, &len)) {
        const Ext32Info& x = g_table.ext32[slot_of(c.run_basic())];
        for (std::size_t i = 0; i < len; i += x.native, o += x.external)
            if (!to_external(x, p + i, o)) err = MPI_ERR_CONVERSION;
        c.advance(len);
    }
    return err;
}

int unpack_external32(const void* in, std::int64_t count, const Datatype& type, void* buf) noexcept {
    LayoutCursor c(type.typed, type.extent, count, buf);
    auto* i = static_cast<const unsigned char*>(in);
    unsigned char* p;
    std::size_t len;
    while (c.run(&p, &len)) {
        const Ext32Info& x = g_table.ext32[slot_of(c.run_basic())];
        for (std::size_t k = 0; k < len; k += x.native, i += x.external) from_external(x, i, p + k);
        c.advance(len);
    }
    return MPI_SUCCESS;
}

MPI_Datatype datatype_match_size(int typeclass, int size) noexcept {
    switch (typeclass) {
        case MPI_TYPECLASS_INTEGER:
            switch (size) {
                case 1: return MPI_INT8_T;
                case 2: return MPI_INT16_T;
                case 4: return MPI_INT32_T;
                case 8: return MPI_INT64_T;
                case 16: return MPI_INTEGER16;
            }
            break;
        case MPI_TYPECLASS_REAL:
            switch (size) {
                case 2: return MPI_REAL2;
                case 4: return MPI_FLOAT;
                case 8: return MPI_DOUBLE;
                case 16: return MPI_LONG_DOUBLE;
            }
            break;
        case MPI_TYPECLASS_COMPLEX:
            switch (size) {
                case 4: return MPI_COMPLEX4;
                case 8: return MPI_C_FLOAT_COMPLEX;
                case 16: return MPI_C_DOUBLE_COMPLEX;
                case 32: return MPI_C_LONG_DOUBLE_COMPLEX;
            }
            break;
    }
    return MPI_DATATYPE_NULL;
}

}  // namespace hmpi
