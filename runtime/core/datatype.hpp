// Datatypes as the core sees them: a size (bytes of data per element), an
// extent (stride between elements) and the element's data as a list of
// (offset, length) segments. Predefined types are a fixed table indexed by
// their ABI handle value; derived types (object-model issue) will add
// constructors that produce the same flattened form.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/refcount.hpp"
#include "core/attributes.hpp"

namespace hmpi {

struct Segment {
    std::ptrdiff_t offset;
    std::size_t length;
};

struct Datatype {
    static constexpr std::uint32_t kMagic = 0x44545950;  // "DTYP"
    std::uint32_t magic = kMagic;
    const char* name = "";
    std::size_t size = 0;         // bytes of data in one element
    std::ptrdiff_t extent = 0;    // distance between consecutive elements
    bool contiguous = true;       // one segment at offset 0 of length size == extent
    std::vector<Segment> segments;
    // Sizes of the basic elements of one element, in order (MPI_Get_elements).
    std::vector<std::size_t> basic_sizes;
    // The handle users hold: the constant for predefined types, this
    // object's address for derived ones (what user callbacks receive).
    MPI_Datatype handle = MPI_DATATYPE_NULL;
    // Predefined types live for the whole job and are never counted.
    bool predefined = false;
    // The user's handle plus one per request or derived type using it.
    mutable RefCount refs;
    // Cached attributes (MPI_Type_set_attr).
    AttributeSet attrs;
};

// Reference counting of derived datatypes (no-ops for predefined ones).
void datatype_retain(const Datatype* t) noexcept;
void datatype_release(const Datatype* t) noexcept;

namespace datatype_detail {
inline constexpr std::uintptr_t kFirstPredefined = 0x200;
inline constexpr std::size_t kPredefinedSlots = 0x100;
// Filled when libhmpi is loaded: slot i describes handle 0x200 + i, or is null.
extern const Datatype* const* predefined;
}  // namespace datatype_detail

// The datatype behind a handle, or nullptr if the handle is not a valid
// committed datatype (MPI_DATATYPE_NULL included).
inline const Datatype* datatype_from_handle(MPI_Datatype h) noexcept {
    auto v = reinterpret_cast<std::uintptr_t>(h) - datatype_detail::kFirstPredefined;
    if (v < datatype_detail::kPredefinedSlots) return datatype_detail::predefined[v];
    return nullptr;  // derived datatypes arrive with the object-model issue
}

// Copies the first `bytes` bytes of the packed representation of
// (buf, count, type) to `out`.
void pack_bytes(const void* buf, const Datatype& type, std::size_t bytes, void* out) noexcept;

// Writes `bytes` bytes of packed data into (buf, type) element by element.
void unpack_bytes(const void* in, std::size_t bytes, void* buf, const Datatype& type) noexcept;

// Copies `bytes` bytes of packed data from (src, stype) into (dst, dtype).
void copy_typed(const void* src, const Datatype& stype, void* dst, const Datatype& dtype, std::size_t bytes) noexcept;

}  // namespace hmpi
