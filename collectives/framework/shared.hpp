// CollShared: what the members of a communicator share for collectives.
//
// Per member, per slot: kFlagsPerSlot single-writer flags (each on its own
// cache lines) and a pointer to the member's CollCall. A slot belongs to one
// collective at a time: collective number `seq` on a communicator uses slot
// seq % kSlots, so a rank may have up to kSlots collectives in flight on one
// communicator (nonblocking ones); the next waits until the slot's previous
// collective has finished on that rank.
//
// Flag values are stamps (seq << 9 | step << 1), step in 1..255: they grow
// from one collective to the next in a slot, so "reached(stamp)" is a >=
// test and a slow reader never mistakes a newer collective for its own.
// The lowest bit of a published value is kReleasedBit (below).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>

#include "base/cacheline.hpp"
#include "base/park.hpp"
#include "collectives/framework/call.hpp"
#include "collectives/framework/kinds.hpp"
#include "collectives/framework/levels.hpp"
#include "collectives/framework/placement.hpp"
#include "collectives/framework/plan.hpp"
#include "collectives/framework/tree_place.hpp"
#include "primitives/flag.hpp"

namespace hmpi {
struct Rank;
struct CommShared;
}  // namespace hmpi

namespace hmpi::coll {

inline constexpr unsigned kSlots = 8;
inline constexpr unsigned kFlagsPerSlot = 4;
// First sequence number: slot i's "previous collective" starts out as i.
inline constexpr std::uint64_t kFirstSeq = kSlots;

inline constexpr std::uint64_t stamp(std::uint64_t seq, unsigned step) noexcept {
    return (seq << 9) | (std::uint64_t{step} << 1);
}
// Set in a published stamp when every collective of the publisher below
// this one had released its slot (its released_below was this seq). A
// reader that sees it has learnt as much as a read of the publisher's
// released_below line would tell (CollCtx::reached keeps it in
// seen_released), so a peer whose flags a rank polls needs no such read,
// and the publisher's next store to that line takes no line back from the
// reader. Two ranks on the EPYC guest, loops of 200000 calls: MPI_Barrier
// 0.44 -> 0.38 us, 8-byte MPI_Allreduce 0.50-0.54 -> 0.42-0.43
// (docs/performance-collectives.md, stop 40). A value with the bit is still
// below the next step's stamp, so ">=" tests are unchanged.
inline constexpr std::uint64_t kReleasedBit = 1;
inline constexpr std::uint64_t stamp_seq(std::uint64_t value) noexcept { return value >> 9; }

struct alignas(kFalseSharingRange) CollMember {
    SingleWriterFlag flags[kSlots][kFlagsPerSlot];
    // The member's arguments for the collective in each slot; valid once
    // its arrival flag (flag 0, step 1) is reached.
    alignas(kFalseSharingRange) std::atomic<const CollCall*> args[kSlots] = {};
    // A buffer of the algorithm's own (a subtree's partial result) that it
    // offers to peers: CollCtx::publish_scratch / scratch_of.
    std::atomic<const void*> scratch[kSlots] = {};
    // Counters of this member's that every member may update in the slot's
    // collective (a work queue an algorithm shares out: CollCtx::
    // work_counter). The member resets them before it publishes the flag
    // that announces the work; the driver's slot rule keeps the previous
    // collective's users away by then.
    struct alignas(kFalseSharingRange) WorkCounters {
        std::atomic<std::uint64_t> value[2];
    };
    WorkCounters work[kSlots];
    // ---- Read by peers, written (once) by the owner: a line of its own, so
    // peers keep it cached.
    // The member's copy-in/copy-out area: inline_capacity(size) per slot, made on
    // first use by the member (inline_area, context.hpp), so it lands on
    // the member's NUMA node; null until then.
    alignas(kFalseSharingRange) std::atomic<unsigned char*> inline_area{nullptr};
    // The member's stamped lines (CollCtx::stamped_area): the same size, made
    // on first use the same way.
    std::atomic<unsigned char*> stamped_area{nullptr};
    Rank* rank = nullptr;  // whose doorbell wakes it (publishers read it on every flag)
    // ---- Written by the owner, read by peers now and then.
    // Every collective of this member with a sequence number below this has
    // released its slot: it reads nothing of them any more. A peer enters
    // collective `seq` only once every member's is past seq - kSlots, so
    // what the slot's previous collective left for readers (flag payloads,
    // the inline area, its CollCall) stays until they are done (driver.cpp).
    // Peers read it through their cache of it (seen_released) instead of
    // the slot counters below, which change on every call.
    alignas(kFalseSharingRange) std::atomic<std::uint64_t> released_below{kFirstSeq};
    // ---- Touched by the owner only (any of its threads).
    alignas(kFalseSharingRange) std::atomic<std::uint64_t> next_seq{kFirstSeq};
    // The seq of the last collective that released each slot.
    std::atomic<std::uint64_t> slot_released[kSlots] = {};
    // The seq of the last collective whose algorithm has started here:
    // algorithms start in sequence order, so anything they do in order at
    // their start (an intercommunicator algorithm taking nested sequence
    // numbers on its local group) happens in the same order on every member.
    std::atomic<std::uint64_t> started{kFirstSeq - 1};
    // What this member last read of each peer's released_below (or learnt
    // from a flag of the peer's with kReleasedBit), and the lowest of them:
    // only ever too low (a stale value costs a reload), so in a loop of
    // collectives one read of a peer's line covers the next few calls.
    // Atomics: threads of one rank may update them at once (acquire/release,
    // so a thread that trusts another's reload is ordered after the peer's
    // release too).
    // Its own lines (seen_memory, on the member's node): it is stored to on
    // polls, and a neighbour's array on the same line would bounce it.
    std::atomic<std::uint64_t>* seen_released = nullptr;
    NodeMemory seen_memory;
    std::atomic<std::uint64_t> seen_released_all{kFirstSeq};
    // Back inline_area and stamped_area (set by the thread that made each).
    std::unique_ptr<NodeMemory> inline_memory, stamped_memory;
    // The member's recent places in the tree algorithms' trees (CollCtx::tree_place).
    TreePlaceCache tree_places;
};

// Copy-in/copy-out bytes per member and slot (CollCtx::inline_area): data up
// to this size can be left by a writer that returns at once. At least
// kInlineBytes (XHC keeps copy-in/copy-out up to 4 KiB for reductions;
// collectives-techniques.md); on small communicators up to
// kInlineMaxBytes, as long as a member's areas stay within kInlineBudget
// bytes per slot for all its readers together (p * capacity): 16 KiB at 2
// ranks, 8 KiB at 4, 4 KiB from 8 ranks on. So a communicator's areas take
// at most kSlots * max(kInlineBudget, 4 KiB * p) bytes (256 KiB up to 8
// ranks), each made only when its member first writes inline data.
// Why larger on few ranks: at 2 ranks on the EPYC guest, 8 KiB blocks were
// faster copied in and out than read in place, where the owner has to wait
// for its reader's acknowledgement (docs/performance-collectives.md,
// stop 20); from 8 ranks on, p - 1 readers pull each area and the 4 KiB of
// stop 17's 16-rank runs stays.
inline constexpr std::size_t kInlineBytes = 4096;
inline constexpr std::size_t kInlineMaxBytes = 16384;
inline constexpr std::size_t kInlineBudget = 32768;
inline constexpr std::size_t inline_capacity(int p) noexcept {
    const std::size_t share = p > 0 ? kInlineBudget / static_cast<std::size_t>(p) / 64 * 64 : kInlineMaxBytes;
    return share < kInlineBytes ? kInlineBytes : share > kInlineMaxBytes ? kInlineMaxBytes : share;
}
static_assert(inline_capacity(1) == kInlineMaxBytes && inline_capacity(2) == 16384 && inline_capacity(4) == 8192 &&
              inline_capacity(8) == kInlineBytes && inline_capacity(64) == kInlineBytes);

// Per collective, size range and op commutativity: the algorithms ranked
// by predicted time (registry.cpp). Each entry packs up to 15 algorithm
// indices + 1 in 4-bit fields, lowest first; 0 = not decided yet. Any rank
// may decide (they all compute the same ranking) and store it.
inline constexpr int kSizeRanges = 96;
// The size range of a message of `bytes` (registry.hpp: range 0 holds 0
// bytes, then two per power of two).
inline int size_range_of(std::size_t bytes) noexcept {
    if (bytes == 0) return 0;
    const int k = 63 - __builtin_clzll(bytes);
    // Second half of the octave: bytes >= 2^k * sqrt(2), i.e. bytes^2 >=
    // 2^(2k+1), exactly in 128-bit integers (this runs on every call).
    const unsigned __int128 b = bytes;
    const int half = b * b >= (static_cast<unsigned __int128>(1) << (2 * k + 1)) ? 1 : 0;
    const int range = 1 + 2 * k + half;
    return range < kSizeRanges - 1 ? range : kSizeRanges - 1;
}
struct DecisionCache {
    std::atomic<std::uint64_t> ranking[kCollKinds][2][kSizeRanges] = {};
    // Per plan (plan.hpp), op commutativity and size range: the plan's
    // choice, tagged with the collective it was made for in the bits above
    // kPlanValueBits (kind + 1, so 0 = not made yet). Each plan serves one
    // algorithm today; the tag keeps one whose code another collective's
    // table reuses from reading that collective's choice (a tag that
    // differs makes the choice again; every rank makes the same, so a race
    // costs only time).
    std::atomic<std::uint32_t> plans[kMaxPlans][2][kSizeRanges] = {};
};

struct CollShared {
    int size = 0;
    // inline_capacity(size), computed once: readers need it on every poll.
    std::size_t inline_bytes = 0;
    // Member r lives on r's NUMA node (placement.hpp; one array, indexed
    // like the unique_ptr<CollMember[]> it replaces).
    NodeArray<CollMember> members;
    // Where the members sit (levels.hpp), made with the state.
    CommTopology topology;
    DecisionCache decisions;
    std::atomic<bool> explained{false};  // HMPI_EXPLAIN has described it
};

// The communicator side's state, made on first use.
CollShared& coll_shared(const CommShared& comm);

// Rings the doorbell of every member but `self` (after publishing anything
// they may wait for: a flag, a counter, released_below). Cheap when nobody
// sleeps (base/park.hpp): a compiler fence and one shared line's load,
// inline, since collectives call it at every flag they publish; the loop
// over the members (ring_parked_others) stays out of line, where its
// register saves cost nothing to the calls that skip it.
void ring_parked_others(const CollShared& shared, int self) noexcept;
inline void ring_others(const CollShared& shared, int self) noexcept {
    asymmetric_barrier::light();
    if (Doorbell::anyone_parked()) [[unlikely]]
        ring_parked_others(shared, self);
}

}  // namespace hmpi::coll
