// Moving and combining typed data inside collectives.
//
// Buffers are (address, count, datatype) as MPI passes them; the copy goes
// straight from one rank's layout to another's (core/datatype.hpp
// copy_typed: no intermediate buffer). Reductions apply an op between two
// buffers of the same type, the result in the second or in a third
// (core/op.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "collectives/framework/levels.hpp"
#include "core/datatype.hpp"
#include "primitives/copy.hpp"
#include "core/op.hpp"

namespace hmpi::coll {

// Bytes of data (the type signature's size) in count elements of t.
inline std::size_t data_bytes(std::int64_t count, const Datatype& t) noexcept {
    return count <= 0 ? 0 : static_cast<std::size_t>(count) * t.size;
}

// Address of element `index` of a buffer of type t (index * extent bytes on).
inline void* element_at(void* buf, std::int64_t index, const Datatype& t) noexcept {
    return static_cast<unsigned char*>(buf) + index * t.extent;
}
inline const void* element_at(const void* buf, std::int64_t index, const Datatype& t) noexcept {
    return static_cast<const unsigned char*>(buf) + index * t.extent;
}
// Address `bytes` bytes on (Alltoallw's byte displacements).
inline void* byte_offset(void* buf, std::int64_t bytes) noexcept { return static_cast<unsigned char*>(buf) + bytes; }
inline const void* byte_offset(const void* buf, std::int64_t bytes) noexcept {
    return static_cast<const unsigned char*>(buf) + bytes;
}

// Copies (src, scount, stype) into (dst, rcount, rtype), which must match
// in type signature. Returns MPI_SUCCESS, or MPI_ERR_TRUNCATE when the
// source holds more data than the destination (what fits is copied).
int copy_data(const void* src, std::int64_t scount, const Datatype& stype, void* dst, std::int64_t rcount,
              const Datatype& rtype) noexcept;
// The same with the stores chosen by the caller (store_kind_for): when both
// sides are contiguous the copy takes copy_bytes(kind) (which fences after
// non-temporal stores, so a flag may be published right after).
int copy_data(const void* src, std::int64_t scount, const Datatype& stype, void* dst, std::int64_t rcount,
              const Datatype& rtype, StoreKind kind) noexcept;

// YHCCL Algorithm 1: non-temporal stores when the algorithm's working set
// (bytes it touches while the copied data should stay cached) exceeds the
// cache capacity C of the communicator's topology and the destination is
// not read again soon (`dst_reused` false: a copy-out to a receive buffer).
StoreKind store_kind_for(std::size_t working_set, const CommTopology& topo, bool dst_reused) noexcept;
// The same for a destination whose lines other ranks may hold (another
// rank's receive buffer, or this rank's where peers read it within the
// call): StoreKind::rewrite where store_kind_for says temporal.
StoreKind held_store_kind_for(std::size_t working_set, const CommTopology& topo, bool dst_reused) noexcept;
// For a copy into a receive buffer that holds the call's result and nothing
// the application wrote for the call (Alltoall, Scatter, Gather and
// Allgather blocks, tiled_push's and reduce_bcast's result copies):
// non-temporal also inside the cache once the working set per rank reaches
// nt_copy_from (params.hpp, nt_copy_applies), where hmpi-calibrate measured
// non-temporal copies cheaper than memcpy's, which reads every destination
// line before writing it;
// otherwise store_kind_for (held: held_store_kind_for, the destination's
// lines may be held by other ranks). Not for a buffer the application
// wrote for the call (`in_place`, or a broadcast's, which is the one the
// application writes when it is the root): non-temporal stores into lines
// a cache holds modified cost more than memcpy's (2 ranks, Bcast with a
// rotating root, 4-16 MiB: 1.3-1.6x slower; docs/model.md, "Non-temporal
// stores inside the cache").
StoreKind result_store_kind_for(std::size_t working_set, const CommTopology& topo, bool held, bool in_place) noexcept;

// inout = in (op) inout, element-wise, both laid out as `count` elements of t.
inline void reduce_data(const Op& op, const void* in, void* inout, std::int64_t count, const Datatype& t) {
    if (count > 0) op_apply(op, in, inout, count, t);
}

// out = in (op) in2, element-wise, all three laid out as `count` elements of
// t: reduce_data with the result in a third buffer, in one pass where a
// kernel does it (core/op.hpp op_apply3). `out` overlaps neither input or
// is `in2` exactly.
inline void reduce_data3(const Op& op, const void* in, const void* in2, void* out, std::int64_t count,
                         const Datatype& t) {
    if (count > 0) op_apply3(op, in, in2, out, count, t);
}

// out_j = in (op) in2 for every j < nouts, each result stored into all
// outputs at once, past the caches where it can, and fenced
// (core/op.hpp op_apply3_stream): for a fold whose result goes to several
// receive buffers that nobody reads within the call. False, with nothing
// done, where the op and type have no such kernel (a user op, a derived
// type): reduce into one output and copy it instead.
inline bool reduce_data3_to_all(const Op& op, const void* in, const void* in2, void* const* outs, int nouts,
                                std::int64_t count, const Datatype& t) {
    return op_apply3_stream(op, in, in2, outs, nouts, count, t);
}

// A scratch buffer laid out like `count` elements of t (so it can take part
// in copy_data and reduce_data as that type), uninitialized.
class TypedScratch {
public:
    TypedScratch() = default;
    TypedScratch(std::int64_t count, const Datatype& t);
    void* data() const noexcept { return origin_; }

private:
    std::unique_ptr<unsigned char[]> storage_;
    void* origin_ = nullptr;  // the address whose type map lands inside storage_
};

}  // namespace hmpi::coll
