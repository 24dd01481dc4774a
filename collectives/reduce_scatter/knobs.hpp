// Knobs of the reduce-scatter algorithms: what each controls, its unit and
// where its default comes from.
#pragma once
#include <cstddef>

namespace hmpi::coll::knobs {

// tiled: bytes of a rank's block folded from all p inputs before moving on
// (Li, Hoefler et al., Section 2.4 "tiles"; YHCCL Section 3.3 strip
// mining): the destination tile stays in L1/L2 while p inputs stream
// through it. 32 KiB = this machine's L1d is 48 KiB (Sapphire Rapids), so a
// tile and the streaming input lines fit in L1; on other CPUs it still fits
// in L2 comfortably.
inline constexpr std::size_t kReduceScatterTileBytes = 32 * 1024;

}  // namespace hmpi::coll::knobs
