// CollShared: what the members of a communicator share for collectives.
//
// Per member, per slot: kFlagsPerSlot single-writer flags (each on its own
// cache lines) and a pointer to the member's CollCall. A slot belongs to one
// collective at a time: collective number `seq` on a communicator uses slot
// seq % kSlots, so a rank may have up to kSlots collectives in flight on one
// communicator (nonblocking ones); the next waits until the slot's previous
// collective has finished on that rank.
//
// Flag values are stamps (seq << 8 | step), step in 1..255: they grow from
// one collective to the next in a slot, so "reached(stamp)" is a >= test and
// a slow reader never mistakes a newer collective for its own.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>

#include "base/cacheline.hpp"
#include "collectives/framework/call.hpp"
#include "collectives/framework/kinds.hpp"
#include "collectives/framework/levels.hpp"
#include "collectives/framework/placement.hpp"
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

inline constexpr std::uint64_t stamp(std::uint64_t seq, unsigned step) noexcept { return (seq << 8) | step; }

struct alignas(kFalseSharingRange) CollMember {
    SingleWriterFlag flags[kSlots][kFlagsPerSlot];
    // The member's arguments for the collective in each slot; valid once
    // its arrival flag (flag 0, step 1) is reached.
    alignas(kFalseSharingRange) std::atomic<const CollCall*> args[kSlots] = {};
    // A buffer of the algorithm's own (a subtree's partial result) that it
    // offers to peers: CollCtx::publish_scratch / scratch_of.
    std::atomic<const void*> scratch[kSlots] = {};
    // ---- Touched by the owner only (any of its threads).
    alignas(kFalseSharingRange) std::atomic<std::uint64_t> next_seq{kFirstSeq};
    // The seq of the last collective that released each slot.
    std::atomic<std::uint64_t> slot_released[kSlots] = {};
    // The seq of the last collective whose algorithm has started here:
    // algorithms start in sequence order, so anything they do in order at
    // their start (an intercommunicator algorithm taking nested sequence
    // numbers on its local group) happens in the same order on every member.
    std::atomic<std::uint64_t> started{kFirstSeq - 1};
    Rank* rank = nullptr;  // whose doorbell wakes it
};

// Per collective, size range and op commutativity: the algorithms ranked
// by predicted time (registry.cpp). Each entry packs up to 15 algorithm
// indices + 1 in 4-bit fields, lowest first; 0 = not decided yet. Any rank
// may decide (they all compute the same ranking) and store it.
inline constexpr int kSizeRanges = 96;
struct DecisionCache {
    std::atomic<std::uint64_t> ranking[kCollKinds][2][kSizeRanges] = {};
};

struct CollShared {
    int size = 0;
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

}  // namespace hmpi::coll
