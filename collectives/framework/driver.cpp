// Running collectives: sequence numbers, slots, publication of the
// arguments, algorithm selection; blocking and nonblocking drivers.
#include "collectives/framework/driver.hpp"

#include <utility>

#include "collectives/framework/context.hpp"
#include "collectives/framework/registry.hpp"
#include "collectives/framework/shared.hpp"
#include "core/datatype.hpp"
#include "core/op.hpp"
#include "core/p2p.hpp"
#include "core/rank.hpp"

namespace hmpi::coll {

namespace {

// One collective from slot to release. The CollCtx lives in this frame, so
// the algorithm (a sub-task) may keep references to it.
CollTask collective_task(Rank& self, Comm& comm, const CollCall& call, CollShared& shared, std::uint64_t seq) {
    CollMember& me = shared.members[static_cast<std::size_t>(comm.rank)];
    const unsigned slot = static_cast<unsigned>(seq % kSlots);
    // The slot's previous collective (seq - kSlots) must be over on this
    // rank: by the lifetime rule (context.hpp) nobody reads its flags'
    // old stamps or its arguments any more.
    // Algorithms start in sequence order (shared.hpp, CollMember::started).
    CO_WAIT_UNTIL(me.slot_released[slot].load(std::memory_order_acquire) == seq - kSlots &&
                  me.started.load(std::memory_order_acquire) == seq - 1);
    me.args[slot].store(&call, std::memory_order_release);
    CollCtx ctx(self, comm, call, shared, seq);
    ctx.publish(0, 1);
    const CollAlgorithm& algorithm = select_algorithm(call.kind, ctx);
    int rc = MPI_SUCCESS;
    CollTask run = algorithm.run(ctx);
    const bool finished = run.step();  // up to its first suspension
    me.started.store(seq, std::memory_order_release);
    // Another of this rank's collectives may wait for that (or for the slot
    // below), and this rank may be about to park in a wait for it.
    self.doorbell.ring();
    if (!finished) {
        co_await std::suspend_always{};
        while (!run.step()) co_await std::suspend_always{};
    }
    rc = run.result();
    me.slot_released[slot].store(seq, std::memory_order_release);
    self.doorbell.ring();
    co_return rc;
}

std::uint64_t take_seq(CollShared& shared, const Comm& comm) {
    return shared.members[static_cast<std::size_t>(comm.rank)].next_seq.fetch_add(1, std::memory_order_relaxed);
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

}  // namespace

int run_collective(Rank& self, Comm& comm, const CollCall& call) {
    CollShared& shared = coll_shared(*comm.shared);
    CollTask task = collective_task(self, comm, call, shared, take_seq(shared, comm));
    wait_until(self, [&] { return task.step(); });
    return task.result();
}

void start_collective(Rank& self, Comm& comm, CollCall call, Request& req) {
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
