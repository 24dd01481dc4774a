// The tuning knobs of the broadcast algorithms, in one table: what each
// controls, its unit, and where its default comes from. The model
// (collectives/model/) chooses between algorithms; these only shape one.
#pragma once
#include <cstddef>

namespace hmpi::coll {

struct BcastKnobs {
    // split: the bytes one claim of the shared copy moves (one atomic
    // increment on the root's work counter per chunk). 64 KiB: large enough
    // that the increment (a cross-core round trip, ~0.2-0.7 us on the
    // development machine) costs under 2% of the chunk's copy at ~5 GB/s,
    // small enough that a 1 MiB message still spreads over 16 chunks.
    std::size_t split_chunk_bytes = 64 * 1024;
    // split at 2 ranks, the smallest half: a message of two such halves up
    // to two chunks is cut in two (line-aligned), so that the root and the
    // reader each copy one; as one chunk, one of them copied it all while
    // the other waited. 4 KiB: a half's copy (64 lines at 9-12 ns each on
    // the 2-core Xeon guest, stop 50) is 3-5 times the claims around it.
    std::size_t split_min_half_bytes = 4 * 1024;
};

inline constexpr BcastKnobs kBcastKnobs{};

}  // namespace hmpi::coll
