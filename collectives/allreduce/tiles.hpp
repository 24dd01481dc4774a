// Cutting a vector into cache-line-aligned tiles and strips: what the tiled
// allreduces (tiled.cpp, tiled_push.cpp) share. Tile boundaries fall on
// multiples of tile_align_bytes from the buffer start, so no two ranks
// write one line (Li, Hoefler et al., Section 2.4, false sharing); a rank
// folds its tile strip_bytes at a time (knobs.hpp), so the partial stays in
// cache while the inputs stream past.
#pragma once
#include <algorithm>
#include <cstdint>
#include <numeric>

#include "collectives/allreduce/knobs.hpp"
#include "core/datatype.hpp"

namespace hmpi::coll {

// Element counts on which tiles may start: a multiple of the tile alignment
// in bytes (or every element when the extent does not divide it evenly).
inline std::int64_t tile_granule(const Datatype& t) noexcept {
    const std::int64_t ext = std::max<std::int64_t>(1, t.extent);
    const std::int64_t a = static_cast<std::int64_t>(kReductionKnobs.tile_align_bytes);
    return a / std::gcd(a, ext);
}

// First element of tile t of `tiles` (tile t is [tile_begin(t), tile_begin(t + 1))).
inline std::int64_t tile_begin(std::int64_t count, int t, int tiles, std::int64_t granule) noexcept {
    if (t >= tiles) return count;
    const std::int64_t raw = count * t / tiles;
    return raw / granule * granule;
}

// Elements per strip: strip_bytes, whole granules, at least one.
inline std::int64_t strip_elements(const Datatype& t, std::int64_t granule) noexcept {
    return std::max<std::int64_t>(granule, static_cast<std::int64_t>(kReductionKnobs.strip_bytes) /
                                               std::max<std::int64_t>(1, t.extent) / granule * granule);
}

}  // namespace hmpi::coll
