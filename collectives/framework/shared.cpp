// Making and freeing a communicator's collective state. The members' flags
// are placed on their own ranks' NUMA nodes (placement.hpp).
#include "collectives/framework/shared.hpp"

#include "core/comm.hpp"
#include "core/rank.hpp"

#include <new>
#include <vector>

namespace hmpi::coll {

namespace {

void free_shared(CollShared* s) noexcept { delete s; }

// Installed when the library loads, before any rank thread exists.
[[maybe_unused]] const bool deleter_installed = (CollStateSlot::deleter = free_shared, true);

CollShared* make_shared_state(const CommShared& comm) {
    auto* s = new CollShared;
    s->size = comm.size;
    s->inline_bytes = inline_capacity(comm.size);
    Job& j = job();
    s->topology = comm_topology_of_world_ranks(comm.world_rank_of);
    // Each member's flags and arguments on its own rank's NUMA node: it
    // writes them, and its group's peers on the same node read them.
    std::vector<int> numa_of(static_cast<std::size_t>(comm.size), -1);
    for (std::size_t r = 0; r < numa_of.size() && r < s->topology.places.size(); ++r)
        numa_of[r] = s->topology.places[r].numa;
    s->members = NodeArray<CollMember>(numa_of);
    for (int r = 0; r < comm.size; ++r) {
        CollMember& m = s->members[static_cast<std::size_t>(r)];
        m.rank = j.ranks[static_cast<std::size_t>(comm.world_rank_of[static_cast<std::size_t>(r)])].get();
        for (unsigned i = 0; i < kSlots; ++i) m.slot_released[i].store(i, std::memory_order_relaxed);
        const std::size_t seen_bytes =
            (static_cast<std::size_t>(comm.size) * sizeof(std::atomic<std::uint64_t>) + kFalseSharingRange - 1) /
            kFalseSharingRange * kFalseSharingRange;
        m.seen_memory = NodeMemory(seen_bytes, kFalseSharingRange, numa_of[static_cast<std::size_t>(r)]);
        m.seen_released = static_cast<std::atomic<std::uint64_t>*>(m.seen_memory.data());
        for (int i = 0; i < comm.size; ++i) new (&m.seen_released[i]) std::atomic<std::uint64_t>(kFirstSeq);
    }
    return s;
}

}  // namespace

// Somebody is parked somewhere (ring_others): ring every other member, each
// doorbell after its own heavy-barrier pairing (Doorbell::ring_fenced).
void ring_parked_others(const CollShared& shared, int self) noexcept {
    for (int r = 0; r < shared.size; ++r)
        if (r != self) shared.members[static_cast<std::size_t>(r)].rank->doorbell.ring_fenced();
}

CollShared& coll_shared(const CommShared& comm) {
    if (CollShared* s = comm.coll.get()) return *s;
    return *comm.coll.install(make_shared_state(comm));
}

}  // namespace hmpi::coll
