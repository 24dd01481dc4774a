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

unsigned char* CollCtx::inline_area() const {
    CollMember& me = member(rank());
    unsigned char* area = me.inline_area.load(std::memory_order_relaxed);
    if (!area) [[unlikely]] {
        // Made by its owner, on the owner's NUMA node. Two threads of the
        // rank may get here at once: one area wins, the other is freed.
        const CommTopology& topo = topology();
        const auto r = static_cast<std::size_t>(rank());
        auto made = std::make_unique<NodeMemory>(kSlots * inline_bytes(), 64, r < topo.places.size() ? topo.places[r].numa : -1);
        auto* fresh = static_cast<unsigned char*>(made->data());
        // Readers load the pointer after the flag that announces data in it
        // (release/acquire), so relaxed order suffices here.
        if (me.inline_area.compare_exchange_strong(area, fresh, std::memory_order_relaxed)) {
            me.inline_memory = std::move(made);
            area = fresh;
        }
    }
    return area + slot_ * inline_bytes();
}

}  // namespace hmpi::coll
