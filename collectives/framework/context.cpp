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

// Made on first use by the member, on its NUMA node. Two threads of the
// rank may get here at once: one area wins, the other is freed. Released,
// so a reader that loads the pointer with acquire sees the zeroed memory.
unsigned char* CollCtx::own_slot_area(std::atomic<unsigned char*> CollMember::*areas,
                                      std::unique_ptr<NodeMemory> CollMember::*backing) const {
    CollMember& me = member(rank());
    unsigned char* area = (me.*areas).load(std::memory_order_acquire);
    if (!area) [[unlikely]] {
        const CommTopology& topo = topology();
        const auto r = static_cast<std::size_t>(rank());
        auto made = std::make_unique<NodeMemory>(kSlots * inline_bytes(), 64,
                                                 r < topo.places.size() ? topo.places[r].numa : -1);
        auto* fresh = static_cast<unsigned char*>(made->data());
        if ((me.*areas).compare_exchange_strong(area, fresh, std::memory_order_acq_rel, std::memory_order_acquire)) {
            me.*backing = std::move(made);
            area = fresh;
        }
    }
    return area + slot_ * inline_bytes();
}

unsigned char* CollCtx::inline_area() const {
    return own_slot_area(&CollMember::inline_area, &CollMember::inline_memory);
}

unsigned char* CollCtx::stamped_area() const {
    return own_slot_area(&CollMember::stamped_area, &CollMember::stamped_memory);
}

}  // namespace hmpi::coll
