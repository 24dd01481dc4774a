// Intercommunicator collectives (MPI 3.1, 5.2.2): the algorithms
// (collectives/inter/*.cpp, listed in table.cpp) and what they share.
//
// On an intercommunicator a collective's CollCtx covers the LOCAL group
// (size(), rank(), flags and args_of are the local group's); the two
// groups meet only through point-to-point messages (CollMessage, on the
// intercommunicator's internal context, peers named by their rank in the
// REMOTE group, tags from CollCtx::tag) and run collectives inside one
// group on Comm::local, the hidden intracommunicator of the local group, as
// nested collectives (framework/driver.hpp: all of an algorithm's nested
// tasks are created before its first suspension, so every member takes the
// same sequence numbers on Comm::local in the same order).
//
// Rooted collectives: CollCall::root is MPI_ROOT at the root, MPI_PROC_NULL
// at the other members of the root's group, and the root's rank in the
// remote group at the members of the other group.
#pragma once
#include <memory>

#include "collectives/framework/context.hpp"
#include "collectives/framework/message.hpp"
#include "collectives/framework/task.hpp"
#include "collectives/model/cost.hpp"
#include "core/datatype.hpp"

namespace hmpi::coll {

CollTask inter_barrier(CollCtx& ctx);
double inter_barrier_cost(const CostQuery& q);
CollTask inter_bcast(CollCtx& ctx);
double inter_bcast_cost(const CostQuery& q);
CollTask inter_gather(CollCtx& ctx);
double inter_gather_cost(const CostQuery& q);   // gather and gatherv
CollTask inter_scatter(CollCtx& ctx);
double inter_scatter_cost(const CostQuery& q);  // scatter and scatterv
CollTask inter_allgather(CollCtx& ctx);
double inter_allgather_cost(const CostQuery& q);  // allgather and allgatherv
CollTask inter_alltoall(CollCtx& ctx);
double inter_alltoall_cost(const CostQuery& q);   // alltoall, alltoallv, alltoallw
CollTask inter_reduce(CollCtx& ctx);
double inter_reduce_cost(const CostQuery& q);
CollTask inter_allreduce(CollCtx& ctx);
double inter_allreduce_cost(const CostQuery& q);
CollTask inter_reduce_scatter(CollCtx& ctx);
double inter_reduce_scatter_cost(const CostQuery& q);  // reduce_scatter and reduce_scatter_block


// A batch of point-to-point messages of one collective step, started
// together and waited for together.
class MessageBatch {
public:
    explicit MessageBatch(int capacity) : messages_(new CollMessage[static_cast<std::size_t>(capacity)]) {}

    void send(CollCtx& ctx, int peer, unsigned step, const void* buf, std::int64_t count, const Datatype& type) {
        messages_[used_++].send(ctx, peer, step, buf, count, type);
    }
    void recv(CollCtx& ctx, int peer, unsigned step, void* buf, std::int64_t count, const Datatype& type) {
        messages_[used_++].recv(ctx, peer, step, buf, count, type);
    }
    // Whether every message of the batch is complete (helping large sends along).
    bool done() {
        bool all = true;
        for (std::size_t k = 0; k < used_; ++k) all = messages_[k].done() && all;
        return all;
    }
    // MPI_SUCCESS, or the first error (MPI_ERR_TRUNCATE of a receive).
    int error() const noexcept {
        for (std::size_t k = 0; k < used_; ++k)
            if (int e = messages_[k].error()) return e;
        return MPI_SUCCESS;
    }

private:
    std::unique_ptr<CollMessage[]> messages_;
    std::size_t used_ = 0;
};

// A reduction's datatype: the send side's where the rank sends (the API
// layer fills the receive side only where the rank receives).
inline const Datatype& reduction_type(const CollCall& c) noexcept { return c.sendtype ? *c.sendtype : *c.recvtype; }

// The nested reduce to local rank 0 of `count` elements of the caller's
// send buffer, into `result` (the leader's scratch; null elsewhere).
inline CollCall local_reduce_call(const CollCall& c, std::int64_t count, void* result) {
    CollCall r;
    r.kind = CollKind::reduce;
    r.root = 0;
    r.sendbuf = c.sendbuf;
    r.sendcount = r.recvcount = count;
    r.sendtype = r.recvtype = &reduction_type(c);
    r.recvbuf = result;
    r.op = c.op;
    return r;
}

// The first error of a collective's steps.
inline void keep_first_error(int* rc, int e) noexcept {
    if (*rc == MPI_SUCCESS) *rc = e;
}

}  // namespace hmpi::coll
