// The tuning knobs of the Li-Hoefler reduction algorithms (allreduce tree,
// dissemination and tiled; reduce tree; barrier tree), in one table.
//
// Each knob says its unit and where its default comes from. They are
// compile-time constants: the model (collectives/model/) chooses between
// algorithms, these only shape an algorithm once chosen.
#pragma once
#include <cstddef>

#include "primitives/flag.hpp"

namespace hmpi::coll {

struct ReductionKnobs {
    // n of the n-ary reduction tree (children per node per round; unit:
    // ranks). Li, Hoefler et al., Section 2.2: an n-ary tree costs
    // (n - 1) * (a + b*m) * ceil(log_n q), which grows with n, so the
    // binary tree (n = 2) is optimal under the model; the barrier tree
    // (m = 0) uses the same fan-in.
    int tree_radix = 2;
    // Strip mining (Section 2, technique 2): a rank folding its tile of
    // the inputs does it this many bytes at a time, so the partial being
    // accumulated stays in L1 while the inputs stream past it. 32 KiB fits
    // the 48 KiB L1d of the Sapphire Rapids development machine (and the
    // 16-64 KiB range of ../shared/design/collectives-techniques.md).
    std::size_t strip_bytes = 32 * 1024;
    // Tile boundaries of the tiled algorithms fall on multiples of this many
    // bytes from the buffer start (a cache line), so no two ranks write one
    // line (Section 2.4, false sharing).
    std::size_t tile_align_bytes = 64;
    // Vectors up to this many bytes of a contiguous type travel in the flag
    // payloads (kFlagPayloadBytes, flag.hpp): one cache miss per tree step,
    // no buffer reads, no scratch.
    std::size_t small_bytes = kFlagPayloadBytes;
};

inline constexpr ReductionKnobs kReductionKnobs{};

}  // namespace hmpi::coll
