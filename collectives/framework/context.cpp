// Publishing flags and waking the members that wait for them.
#include "collectives/framework/context.hpp"

#include <memory>

#include "core/rank.hpp"

namespace hmpi::coll {

void CollCtx::publish(unsigned flag, unsigned step) const noexcept {
    member(rank()).flags[slot_][flag].publish(stamp(seq_, step) | released_bit_);
    // A waiter parks on its own doorbell after checking the flags.
    ring_others(shared_, rank());
}

void CollCtx::wake_others() const noexcept { ring_others(shared_, rank()); }

void CollCtx::publish_to(unsigned flag, unsigned step, int peer) const noexcept {
    member(rank()).flags[slot_][flag].publish(stamp(seq_, step) | released_bit_);
    if (peer != rank()) member(peer).rank->doorbell.ring();
}

namespace {
// This rank's per-slot area of `ctx` behind `areas` (one of its CollMember's),
// made on first use by the member, on its NUMA node. Two threads of the
// rank may get here at once: one area wins, the other is freed. Released,
// so a reader that loads the pointer with acquire sees the zeroed memory.
unsigned char* own_slot_area(const CollCtx& ctx, std::atomic<unsigned char*>& areas,
                             std::unique_ptr<NodeMemory>& backing) {
    unsigned char* area = areas.load(std::memory_order_acquire);
    if (!area) [[unlikely]] {
        const CommTopology& topo = ctx.topology();
        const auto r = static_cast<std::size_t>(ctx.rank());
        auto made = std::make_unique<NodeMemory>(kSlots * ctx.inline_bytes(), 64,
                                                 r < topo.places.size() ? topo.places[r].numa : -1);
        auto* fresh = static_cast<unsigned char*>(made->data());
        if (areas.compare_exchange_strong(area, fresh, std::memory_order_acq_rel, std::memory_order_acquire)) {
            backing = std::move(made);
            area = fresh;
        }
    }
    return area + ctx.seq() % kSlots * ctx.inline_bytes();
}
}  // namespace

unsigned char* CollCtx::inline_area() const {
    CollMember& me = member(rank());
    return own_slot_area(*this, me.inline_area, me.inline_memory);
}

unsigned char* CollCtx::stamped_area() const {
    CollMember& me = member(rank());
    return own_slot_area(*this, me.stamped_area, me.stamped_memory);
}

}  // namespace hmpi::coll
