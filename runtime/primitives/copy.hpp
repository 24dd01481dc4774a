// Copies for the collectives: temporal or non-temporal stores, chosen by the
// caller from the algorithm's working set (YHCCL Algorithm 1; the choice is
// coll::store_kind_for in collectives/framework/data.hpp).
//
// Non-temporal stores bypass the cache, so they pay off only when the
// destination will not be read soon and the working set would evict useful
// lines anyway. They are weakly ordered: a copy with them ends with an
// sfence (done here), so publishing a flag after copy_bytes returns is safe.
#pragma once
#include <cstddef>
#include <cstring>

#include "primitives/reduce_table.hpp"

namespace hmpi {

// temporal: memcpy. non_temporal: streaming stores past the cache.
// rewrite: temporal stores into lines that other cores may hold, having
// read them since (an inline area's copy-in, a block pushed into another
// rank's receive buffer, a result copied into a buffer peers read): above
// 1 KiB, string moves where the CPU has fast ones (copy.cpp).
enum class StoreKind : unsigned char { temporal, non_temporal, rewrite };

// Up to this size a rewrite is a memcpy too; above it, string moves (copy.cpp
// says why 1 KiB).
inline constexpr std::size_t kRewriteStringAboveBytes = 1024;

// The copies that are not memcpy (copy_bytes calls it for those alone):
// non-temporal ones, and rewrites above kRewriteStringAboveBytes.
void copy_bytes_out_of_line(void* dst, const void* src, std::size_t n, StoreKind kind) noexcept;

// dst and src must not overlap. Inline, because the collectives' tiny
// calls copy a few bytes a few times each and a call into the dispatch
// cost more than the copy.
inline void copy_bytes(void* dst, const void* src, std::size_t n, StoreKind kind) noexcept {
    if (kind == StoreKind::temporal || (kind == StoreKind::rewrite && n <= kRewriteStringAboveBytes))
        std::memcpy(dst, src, n);
    else
        copy_bytes_out_of_line(dst, src, n, kind);
}

// Orders earlier non-temporal stores before later stores (a flag's publish).
void store_fence() noexcept;

// The same copy with the kernel of instruction set `isa` (which the CPU
// must support: prim::isa_supported), for tests and benchmarks comparing
// the paths. copy_bytes uses prim::active_isa()'s (HMPI_REDUCE_ISA picks
// the copy kernels too). The portable kernel is SSE2 streaming stores on
// x86-64 and memcpy elsewhere.
void copy_bytes_with(prim::Isa isa, void* dst, const void* src, std::size_t n, StoreKind kind) noexcept;

}  // namespace hmpi
