// Single-writer flags: the synchronization primitive of the collectives.
//
// One rank writes a flag; any number read it. The value only grows (a
// collective's sequence number and step, see collectives/framework), so a
// reader waits for "value >= what I need" and a late reader is never
// confused by a writer that has already moved on. Each flag sits on its own
// cache line pair (kFalseSharingRange): a reader polling one flag never
// pulls in a line another writer is storing to. The release store pairs
// with the reader's acquire load, so everything the writer stored before
// publishing (the data of a copy, its arguments) is visible to a reader
// that sees the value. Non-temporal copies must fence (sfence) before
// publishing; the copy primitives that use them do.
//
// Source: ../shared/design/collectives-techniques.md (single-writer flags
// with monotonically increasing sequence numbers); XHC, Section IV-B.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "base/cacheline.hpp"

namespace hmpi {

// Bytes that travel inline with a flag, in the same cache line as its
// value: a reader that sees the value takes no second miss for them
// (tiny messages; collectives-techniques.md, "Tiny messages inline").
inline constexpr std::size_t kFlagPayloadBytes = 56;

struct alignas(kFalseSharingRange) SingleWriterFlag {
    std::atomic<std::uint64_t> value{0};
    // Written by the writer before publish(); read by readers after they
    // see the value that announces it (the release/acquire pair orders
    // them). The writer must not rewrite it while readers of the earlier
    // value may still read (the collectives' lifetime rule keeps that).
    alignas(8) unsigned char payload[kFlagPayloadBytes];

    // Writer side: makes `v` (>= the current value) visible with release order.
    void publish(std::uint64_t v) noexcept { value.store(v, std::memory_order_release); }
    // Reader side: whether the writer has published `v` or a later value.
    bool reached(std::uint64_t v) const noexcept { return value.load(std::memory_order_acquire) >= v; }
    std::uint64_t load() const noexcept { return value.load(std::memory_order_acquire); }
};

static_assert(sizeof(SingleWriterFlag) == kFalseSharingRange);
static_assert(sizeof(std::atomic<std::uint64_t>) + kFlagPayloadBytes == 64, "payload shares the value's cache line");

}  // namespace hmpi
