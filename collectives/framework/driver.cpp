// Running collectives: sequence numbers, slots, publication of the
// arguments, algorithm selection; blocking and nonblocking drivers.
#include "collectives/framework/driver.hpp"

#include <utility>

#include "collectives/framework/context.hpp"
#include "collectives/framework/one_member.hpp"
#include "collectives/framework/registry.hpp"
#include "collectives/framework/shared.hpp"
#include "collectives/model/cost.hpp"
#include "core/datatype.hpp"
#include "core/op.hpp"
#include "core/p2p.hpp"
#include "core/rank.hpp"

namespace hmpi::coll {

namespace {

// Whether every member has released every collective up to `s`, as far as
// member `self` knows: its cache of the peers' released_below
// (shared.hpp), reloading only the peers it last saw at or below `s`.
bool all_released_through(const CollShared& shared, int self, std::uint64_t s) noexcept {
    CollMember& me = shared.members[static_cast<std::size_t>(self)];
    if (me.seen_released_all.load(std::memory_order_acquire) > s) [[likely]]
        return true;
    std::uint64_t lowest = ~std::uint64_t{0};
    for (int r = 0; r < shared.size; ++r) {
        if (r == self) continue;
        std::atomic<std::uint64_t>& seen = me.seen_released[static_cast<std::size_t>(r)];
        std::uint64_t v = seen.load(std::memory_order_acquire);
        if (v <= s) {
            v = shared.members[static_cast<std::size_t>(r)].released_below.load(std::memory_order_acquire);
            seen.store(v, std::memory_order_release);
        }
        if (v < lowest) lowest = v;
    }
    me.seen_released_all.store(lowest, std::memory_order_release);
    return lowest > s;
}

// Whether this rank may start collective `seq` in its slot: the slot's
// previous collective (seq - kSlots) is over on this rank, so by the
// lifetime rule (context.hpp) nobody reads its flags' old stamps or its
// arguments any more; it is over on every other member too, so nobody
// reads what it left in its payloads and inline area; and algorithms start
// in sequence order (shared.hpp, CollMember::started).
bool may_enter(const CollShared& shared, const CollMember& me, int rank, unsigned slot, std::uint64_t seq) noexcept {
    return me.slot_released[slot].load(std::memory_order_acquire) == seq - kSlots &&
           me.started.load(std::memory_order_acquire) == seq - 1 && all_released_through(shared, rank, seq - kSlots);
}

// The call's message size as the model counts it (none on an
// intercommunicator, whose algorithms are not chosen by size).
std::size_t call_message_bytes(const Comm& comm, const CollCall& call) noexcept {
    return comm.is_inter() ? 0 : message_bytes(call, comm.rank, comm.size());
}

// Chooses the algorithm and, where it reads them, publishes the caller's
// arguments and its arrival (CollAlgorithm::arrival).
const CollAlgorithm& enter(CollMember& me, const CollCtx& ctx, unsigned slot) {
    const CollAlgorithm& algorithm = select_algorithm(ctx.call().kind, ctx);
    if (algorithm.arrival == Arrival::read) {
        me.args[slot].store(&ctx.call(), std::memory_order_release);
        ctx.publish(0, 1);
    }
    return algorithm;
}

// The algorithm has run up to its first suspension.
void mark_started(Rank& self, CollMember& me, std::uint64_t seq) noexcept {
    me.started.store(seq, std::memory_order_release);
    // Another of this rank's collectives may wait for that (or for the slot
    // below), and this rank may be about to park in a wait for it.
    self.doorbell.ring();
}

// The collective is over on this rank: its slot is free, and released_below
// (what peers check before they start the slot's next collective) moves past
// every collective released so far; a peer that is kSlots calls ahead may be
// parked waiting for that.
void release(Rank& self, const CollShared& shared, CollMember& me, int rank, unsigned slot, std::uint64_t seq) noexcept {
    me.slot_released[slot].store(seq, std::memory_order_release);
    std::uint64_t below = me.released_below.load(std::memory_order_relaxed);
    const std::uint64_t before = below;
    std::uint64_t reach = below;
    // Collective `reach` has released once its slot's counter reached it
    // (slot collectives run one after another).
    while (me.slot_released[reach % kSlots].load(std::memory_order_acquire) >= reach) ++reach;
    if (!self.multithreaded) {
        // The only thread of the rank: a store (no locked instruction, see take_seq).
        me.released_below.store(reach, std::memory_order_release);
    } else {
        // Threads completing nonblocking collectives of this communicator may race.
        while (below < reach && !me.released_below.compare_exchange_weak(below, reach, std::memory_order_release,
                                                                         std::memory_order_relaxed)) {
        }
    }
    self.doorbell.ring();
    if (reach > before) ring_others(shared, rank);
}

// One collective from slot to release, for the nonblocking form (the
// blocking one, run_collective, does the same without a frame of its own).
// The CollCtx lives in this frame, so the algorithm (a sub-task) may keep
// references to it.
CollTask collective_task(Rank& self, Comm& comm, const CollCall& call, CollShared& shared, std::uint64_t seq) {
    CollMember& me = shared.members[static_cast<std::size_t>(comm.rank)];
    const unsigned slot = static_cast<unsigned>(seq % kSlots);
    CO_WAIT_UNTIL(may_enter(shared, me, comm.rank, slot, seq));
    CollCtx ctx(self, comm, call, shared, seq, call_message_bytes(comm, call));
    CollTask run = enter(me, ctx, slot).run(ctx);
    const bool finished = run.step();  // up to its first suspension
    mark_started(self, me, seq);
    if (!finished) {
        // The algorithm's waits got past count as this task's
        // (CollectiveOp::advances): MPI_Wait's clock restarts at each.
        std::uint32_t seen = run.advanced();
        co_await std::suspend_always{};
        while (!run.step()) {
            if (run.advanced() != seen) {
                seen = run.advanced();
                co_await NoteAdvance{};
            }
            co_await std::suspend_always{};
        }
    }
    const int rc = run.result();
    release(self, shared, me, comm.rank, slot, seq);
    co_return rc;
}

// No read-modify-write: a locked instruction would wait for every store
// still in flight, such as the last flag this rank published, whose line a
// peer is polling (a cross-core round trip). Collective calls on one
// communicator never run at once in a rank (MPI 3.1, 5.13), so a load and
// a store suffice.
std::uint64_t take_seq(CollShared& shared, const Comm& comm) {
    std::atomic<std::uint64_t>& next = shared.members[static_cast<std::size_t>(comm.rank)].next_seq;
    const std::uint64_t seq = next.load(std::memory_order_relaxed);
    next.store(seq + 1, std::memory_order_relaxed);
    return seq;
}

// Keeps a nonblocking collective's datatypes and op alive until it completes.
class CollectiveOp final : public AsyncOp {
public:
    explicit CollectiveOp(CollCall call) : call_(std::move(call)) {
        for_each_object([](const Datatype* t) { datatype_retain(t); }, [](const Op* op) { op_retain(op); });
    }
    ~CollectiveOp() override {
        for_each_object([](const Datatype* t) { datatype_release(t); }, [](const Op* op) { op_release(op); });
    }
    CollectiveOp(const CollectiveOp&) = delete;
    CollectiveOp& operator=(const CollectiveOp&) = delete;

    const CollCall& call() const noexcept { return call_; }
    void set_task(CollTask t) noexcept { task_ = std::move(t); }

    bool advance(Rank&) override {
        if (!task_.step()) return false;
        error = task_.result();
        return true;
    }
    std::uint32_t advances() const noexcept override { return task_.advanced(); }

private:
    template <class OnType, class OnOp>
    void for_each_object(OnType on_type, OnOp on_op) {
        if (call_.sendtype) on_type(call_.sendtype);
        if (call_.recvtype) on_type(call_.recvtype);
        for (const Datatype* t : call_.sendtypes)
            if (t) on_type(t);
        for (const Datatype* t : call_.recvtypes)
            if (t) on_type(t);
        if (call_.op) on_op(call_.op);
    }

    CollCall call_;
    CollTask task_;
};

// A nonblocking collective that ran to completion when it started (one
// member: run_one_member), so that the request completes at once.
class CompletedOp final : public AsyncOp {
public:
    explicit CompletedOp(int rc) noexcept { error = rc; }
    bool advance(Rank&) override { return true; }
};

// Alone in the communicator, nothing needs ordering or matching.
bool alone(const Comm& comm, const CollCall& call) noexcept {
    return comm.size() == 1 && !comm.is_inter() && has_one_member_form(call.kind);
}

}  // namespace

int run_collective(Rank& self, Comm& comm, const CollCall& call) {
    if (alone(comm, call)) return run_one_member(call);
    CollShared& shared = coll_shared(*comm.shared);
    const std::uint64_t seq = take_seq(shared, comm);
    CollMember& me = shared.members[static_cast<std::size_t>(comm.rank)];
    const unsigned slot = static_cast<unsigned>(seq % kSlots);
    // This rank's nonblocking collectives may hold the slot, or a peer may
    // be kSlots calls behind; waiting progresses both.
    if (!may_enter(shared, me, comm.rank, slot, seq)) [[unlikely]]
        wait_until(self, [&] { return may_enter(shared, me, comm.rank, slot, seq); });
    CollCtx ctx(self, comm, call, shared, seq, call_message_bytes(comm, call));
    CollTask run = enter(me, ctx, slot).run(ctx);
    const bool finished = run.step();
    mark_started(self, me, seq);
    // The clock of spinning, yielding and parking restarts at every wait
    // the algorithm gets past: only a wait that lasts HMPI_SPIN_US parks.
    std::uint32_t seen = run.advanced();
    auto advanced = [&] {
        const std::uint32_t before = std::exchange(seen, run.advanced());
        return before != seen;
    };
    if (!finished) wait_until(self, [&] { return run.step(); }, advanced);
    const int rc = run.result();
    release(self, shared, me, comm.rank, slot, seq);
    return rc;
}

void start_collective(Rank& self, Comm& comm, CollCall call, Request& req) {
    if (alone(comm, call)) return start_async(self, req, std::make_unique<CompletedOp>(run_one_member(call)));
    auto op = std::make_unique<CollectiveOp>(std::move(call));
    CollShared& shared = coll_shared(*comm.shared);
    op->set_task(collective_task(self, comm, op->call(), shared, take_seq(shared, comm)));
    start_async(self, req, std::move(op));
}

CollTask nested_collective(Rank& self, Comm& comm, const CollCall& call) {
    CollShared& shared = coll_shared(*comm.shared);
    return collective_task(self, comm, call, shared, take_seq(shared, comm));
}

}  // namespace hmpi::coll
