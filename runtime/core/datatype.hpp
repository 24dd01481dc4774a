// Datatypes as the core sees them (MPI 3.1, chapter 4).
//
// A datatype is a size (bytes of data per element), bounds (lb, ub, extent:
// where consecutive elements go; true_lb/true_ub: where the data really is)
// and its layout, flattened when the type is constructed into a compact
// program (core/datatype_layout.hpp): a list of strided blocks ("a run of
// `len` bytes repeated in up to three nested strides") and loops over
// sub-lists, so that a vector of a million doubles is one block, not a
// million segments. Copy loops work on whole blocks.
//
// Each type carries three programs over the same memory:
//   flat   - data runs, merged wherever memory allows (packing, copies);
//   typed  - the same runs split by basic type (external32 conversion,
//            MPI_Get_elements, MPI_Status_set_elements);
//   blocks - only for types made of one padded pair type (MPI_DOUBLE_INT,
//            MPI_SHORT_INT, ...): runs of whole pair elements laid out as a C
//            array (reductions); empty otherwise (then flat serves).
//
// Predefined types are a fixed table indexed by their ABI handle value.
// Derived types are heap objects whose address is their handle; they are
// reference counted (the user's handle, each request using them, each
// derived type whose contents name them).
#pragma once
#include <mpi.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/refcount.hpp"
#include "core/attributes.hpp"
#include "core/datatype_layout.hpp"

namespace hmpi {

struct Datatype;

// Reference counting of derived datatypes (no-ops for predefined ones).
void datatype_retain(const Datatype* t) noexcept;
void datatype_release(const Datatype* t) noexcept;

// The datatypes a derived type was constructed from (MPI_Type_get_contents),
// held with a reference each.
class RetainedTypes {
public:
    RetainedTypes() = default;
    RetainedTypes(const RetainedTypes& o) : v_(o.v_) {
        for (const Datatype* t : v_) datatype_retain(t);
    }
    RetainedTypes& operator=(const RetainedTypes& o) {
        if (this != &o) {
            RetainedTypes copy(o);
            std::swap(v_, copy.v_);
        }
        return *this;
    }
    ~RetainedTypes() {
        for (const Datatype* t : v_) datatype_release(t);
    }
    void push_back(const Datatype* t) {
        datatype_retain(t);
        v_.push_back(t);
    }
    std::size_t size() const noexcept { return v_.size(); }
    const Datatype* operator[](std::size_t i) const noexcept { return v_[i]; }

private:
    std::vector<const Datatype*> v_;
};

struct Datatype {
    static constexpr std::uint32_t kMagic = 0x44545950;  // "DTYP"
    static constexpr std::uint32_t kDeadMagic = 0x64656164;  // set when the object is destroyed
    std::uint32_t magic = kMagic;
    // MPI_Type_set_name / MPI_Type_get_name; predefined types carry their
    // standard name ("MPI_INT"). Points to a literal or to name_buf.
    const char* name = "";
    char name_buf[MPI_MAX_OBJECT_NAME] = {};

    std::size_t size = 0;        // bytes of data in one element
    std::ptrdiff_t extent = 0;   // ub - lb: distance between consecutive elements
    std::ptrdiff_t lb = 0, ub = 0;
    std::ptrdiff_t true_lb = 0, true_ub = 0;  // bounds of the data bytes alone
    // One run at offset 0 of length size == extent (or no data at all): the
    // data of `count` elements is `count * size` bytes at the buffer's start.
    bool contiguous = true;
    // The type map has entries (data or bound markers) / has sticky lb and
    // ub markers (MPI_LB, MPI_UB, MPI_Type_create_resized): how bounds
    // propagate into types built from this one (MPI 3.1, 4.1.6; MPI-2.2 4.1.7).
    bool has_entries = true;
    bool lb_marker = false, ub_marker = false;
    // Largest natural alignment of the basic types in the type (the struct
    // constructor's extent padding).
    std::size_t align = 1;

    // The predefined type all basic elements are made of (MPI_DOUBLE for a
    // vector of doubles, MPI_2INT for a contiguous of MPI_2INT pairs), or
    // MPI_DATATYPE_NULL if mixed or empty. Pair types count as one element here.
    MPI_Datatype uniform_basic = MPI_DATATYPE_NULL;
    // Basic elements per element (pairs count as two, per MPI_Get_elements).
    std::int64_t basic_count = 0;
    // Bytes of one element in the external32 representation (MPI 3.1, 13.5.2).
    std::int64_t external32_size = 0;

    Layout flat, typed, blocks;

    // Envelope and contents (MPI_Type_get_envelope / MPI_Type_get_contents).
    int combiner = MPI_COMBINER_NAMED;
    std::vector<int> ints;
    std::vector<MPI_Aint> addrs;
    RetainedTypes types;

    // The handle users hold: the constant for predefined types, this
    // object's address for derived ones (what user callbacks receive).
    MPI_Datatype handle = MPI_DATATYPE_NULL;
    // Predefined types live for the whole job and are never counted.
    bool predefined = false;
    // MPI_Type_commit was called (predefined types are always committed).
    bool committed = false;
    // MPI_Type_free was called: the user's handle is invalid, though the
    // object lives on while requests or other types hold it.
    bool freed = false;
    // The user's handle plus one per request or derived type using it.
    mutable RefCount refs;
    // Cached attributes (MPI_Type_set_attr).
    AttributeSet attrs;

    // Hand-built types (unit tests of other areas): the (offset, length)
    // data runs of one element. datatype_finish_segments turns them into
    // the layouts above; the core itself never reads this.
    struct Segment {
        std::ptrdiff_t offset;
        std::size_t length;
    };
    std::vector<Segment> segments;

    Datatype() = default;
    Datatype(const Datatype& o) { *this = o; }
    Datatype& operator=(const Datatype& o);
    ~Datatype() { magic = kDeadMagic; }
    void set_name(const char* n) noexcept;
};
using Segment = Datatype::Segment;

// Fills size, layouts, counts and bounds (lb 0, ub = extent as set) of a
// type built by hand from `segments` (its basic elements are bytes).
void datatype_finish_segments(Datatype& t);

namespace datatype_detail {
inline constexpr std::uintptr_t kFirstPredefined = 0x200;
inline constexpr std::size_t kPredefinedSlots = 0x100;
// Filled when libhmpi is loaded: slot i describes handle 0x200 + i, or is null.
extern const Datatype* const* predefined;
}  // namespace datatype_detail

// The datatype behind a handle, committed or not, or nullptr if the handle
// is not a datatype, was freed, or is MPI_DATATYPE_NULL. Communication needs
// a committed type: check `committed` (api::Call::type does).
inline const Datatype* datatype_from_handle(MPI_Datatype h) noexcept {
    const auto raw = reinterpret_cast<std::uintptr_t>(h);
    const auto v = raw - datatype_detail::kFirstPredefined;
    if (v < datatype_detail::kPredefinedSlots) return datatype_detail::predefined[v];
    if (raw < 0x1000 || raw % alignof(Datatype)) return nullptr;
    auto* t = reinterpret_cast<const Datatype*>(h);
    return (t->magic == Datatype::kMagic && !t->freed) ? t : nullptr;
}

// What a handle that datatype_from_handle rejected is (for error messages).
enum class BadDatatype { null, freed, not_a_datatype };
BadDatatype classify_bad_datatype(MPI_Datatype h) noexcept;

// ---- Moving data.

// Copies the first `bytes` bytes of the packed representation of
// (buf, count, type) to `out`.
void pack_bytes(const void* buf, const Datatype& type, std::size_t bytes, void* out) noexcept;

// Writes `bytes` bytes of packed data into (buf, type) element by element.
void unpack_bytes(const void* in, std::size_t bytes, void* buf, const Datatype& type) noexcept;

// Copies `bytes` bytes of packed data from (src, stype) into (dst, dtype),
// run by run, without an intermediate buffer. A trailing partial element
// (truncation) is copied as far as it goes.
void copy_typed(const void* src, const Datatype& stype, void* dst, const Datatype& dtype, std::size_t bytes) noexcept;

// Walks the memory of (buf, count, type) for a message that is produced or
// consumed in pieces (a ring that wraps, a chunked copy): each call moves the
// next n packed bytes.
class TypedStream {
public:
    TypedStream(const void* buf, const Datatype& type, std::int64_t count) noexcept;
    void pack(void* out, std::size_t n) noexcept { cursor_.pack(static_cast<unsigned char*>(out), n); }
    void unpack(const void* in, std::size_t n) noexcept { cursor_.unpack(static_cast<const unsigned char*>(in), n); }

private:
    LayoutCursor cursor_;
};

// ---- Iterating over the type map (reductions).

// Calls fn(std::ptrdiff_t offset, std::size_t length) for every contiguous
// run of data bytes of `count` elements of t, in type-map order; offsets are
// from the buffer address. Adjacent runs are merged.
//
// When t.uniform_basic is a type whose data has no gaps (size == extent:
// every basic type but the padded pairs MPI_DOUBLE_INT, MPI_LONG_INT,
// MPI_SHORT_INT, MPI_LONG_DOUBLE_INT), each run holds length / size whole
// basic elements back to back. For any uniform type use for_each_block.
template <class Fn>
void for_each_run(const Datatype& t, std::int64_t count, Fn&& fn) {
    if (count <= 0 || t.size == 0) return;
    if (t.contiguous) {
        fn(std::ptrdiff_t(0), static_cast<std::size_t>(count) * t.size);
        return;
    }
    layout_for_each_run(t.flat, t.extent, count, fn);
}

// For a type with a uniform basic type B (t.uniform_basic != MPI_DATATYPE_NULL):
// calls fn(std::ptrdiff_t offset, std::size_t n) for every run of n elements
// of B laid out as a C array (the i-th at offset + i * extent of B), in
// type-map order, covering the `count` elements of t.
template <class Fn>
void for_each_block(const Datatype& t, std::int64_t count, Fn&& fn);

// The predefined type behind a handle (nullptr if it is not one).
inline const Datatype* predefined_datatype(MPI_Datatype h) noexcept {
    const auto v = reinterpret_cast<std::uintptr_t>(h) - datatype_detail::kFirstPredefined;
    return v < datatype_detail::kPredefinedSlots ? datatype_detail::predefined[v] : nullptr;
}

template <class Fn>
void for_each_block(const Datatype& t, std::int64_t count, Fn&& fn) {
    if (count <= 0 || t.size == 0 || t.uniform_basic == MPI_DATATYPE_NULL) return;
    const Datatype& b = *predefined_datatype(t.uniform_basic);
    const std::size_t unit = t.blocks.empty() ? b.size : static_cast<std::size_t>(b.extent);
    if (t.contiguous) {
        fn(std::ptrdiff_t(0), static_cast<std::size_t>(count) * t.size / unit);
        return;
    }
    layout_for_each_run(t.blocks.empty() ? t.flat : t.blocks, t.extent, count,
                        [&](std::ptrdiff_t off, std::size_t len) { fn(off, len / unit); });
}

// ---- Constructors (the API layer checks arguments first).
//
// Each returns MPI_SUCCESS and a new derived type (refs 1, uncommitted, no
// envelope: the caller sets combiner and contents), or an MPI error class:
// MPI_ERR_COUNT when the new type's size or bounds overflow.

// One part of a new type: `repeat` blocks `stride` bytes apart, starting at
// byte `disp`; each block is `blocklength` elements of `type` back to back
// (type->extent apart). Vector = one part; indexed/struct = one per block.
struct TypePart {
    const Datatype* type;
    std::ptrdiff_t disp;
    std::int64_t blocklength;
    std::int64_t repeat = 1;
    std::ptrdiff_t stride = 0;
};

int datatype_build(const TypePart* parts, std::size_t nparts, bool struct_padding, Datatype** out);
int datatype_resized(const Datatype& old, std::ptrdiff_t lb, std::ptrdiff_t extent, Datatype** out);
// A copy with the same type map (MPI_Type_dup; get_contents' returned types).
Datatype* datatype_clone(const Datatype& old);
// MPI_Type_create_subarray / MPI_Type_create_darray (arguments already checked).
int datatype_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
                      const Datatype& old, Datatype** out);
int datatype_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[], const int dargs[],
                    const int psizes[], int order, const Datatype& old, Datatype** out);

// ---- Element counts (MPI_Get_elements, MPI_Status_set_elements).

// Basic elements in the first `bytes` packed bytes of a message of type t,
// or -1 if `bytes` ends inside a basic element.
std::int64_t datatype_elements(const Datatype& t, std::int64_t bytes) noexcept;
// Packed bytes of the first `elements` basic elements of a message of type t.
std::int64_t datatype_bytes_of_elements(const Datatype& t, std::int64_t elements) noexcept;

// ---- external32 (MPI_Pack_external, MPI 3.1 13.5.2).

// Converts `count` elements of (buf, type) to external32 at `out`
// (type.external32_size * count bytes). Returns MPI_SUCCESS, or
// MPI_ERR_CONVERSION if a value does not fit its external32 size.
int pack_external32(const void* buf, std::int64_t count, const Datatype& type, void* out) noexcept;
int unpack_external32(const void* in, std::int64_t count, const Datatype& type, void* buf) noexcept;

// MPI_Type_match_size: the predefined type of that class and size, or MPI_DATATYPE_NULL.
MPI_Datatype datatype_match_size(int typeclass, int size) noexcept;

}  // namespace hmpi
