// Making and freeing a communicator's collective state.
#include "collectives/framework/shared.hpp"

#include "core/comm.hpp"
#include "core/rank.hpp"

namespace hmpi::coll {

namespace {

void free_shared(CollShared* s) noexcept { delete s; }

// Installed when the library loads, before any rank thread exists.
[[maybe_unused]] const bool deleter_installed = (CollStateSlot::deleter = free_shared, true);

CollShared* make_shared_state(const CommShared& comm) {
    auto* s = new CollShared;
    s->size = comm.size;
    s->members.reset(new CollMember[static_cast<std::size_t>(comm.size)]);
    Job& j = job();
    s->topology = comm_topology_of_world_ranks(comm.world_rank_of);
    for (int r = 0; r < comm.size; ++r) {
        CollMember& m = s->members[static_cast<std::size_t>(r)];
        m.rank = j.ranks[static_cast<std::size_t>(comm.world_rank_of[static_cast<std::size_t>(r)])].get();
        for (unsigned i = 0; i < kSlots; ++i) m.slot_released[i].store(i, std::memory_order_relaxed);
    }
    return s;
}

}  // namespace

CollShared& coll_shared(const CommShared& comm) {
    if (CollShared* s = comm.coll.get()) return *s;
    return *comm.coll.install(make_shared_state(comm));
}

}  // namespace hmpi::coll
