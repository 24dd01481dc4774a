// Publishing flags and waking the members that wait for them.
#include "collectives/framework/context.hpp"

#include "core/rank.hpp"

namespace hmpi::coll {

void CollCtx::publish(unsigned flag, unsigned step) const noexcept {
    member(rank()).flags[slot_][flag].publish(stamp(seq_, step));
    // A waiter parks on its own doorbell after checking the flags; ring()
    // is cheap when nobody sleeps (base/park.hpp).
    for (int r = 0; r < size(); ++r)
        if (r != rank()) member(r).rank->doorbell.ring();
}

void CollCtx::publish_to(unsigned flag, unsigned step, int peer) const noexcept {
    member(rank()).flags[slot_][flag].publish(stamp(seq_, step));
    if (peer != rank()) member(peer).rank->doorbell.ring();
}

}  // namespace hmpi::coll
