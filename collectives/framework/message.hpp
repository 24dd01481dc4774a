// Point-to-point messages inside a collective, for algorithms that cross
// between the groups of an intercommunicator (shared flags live within one
// group's state) or otherwise need a message.
//
// They travel on the communicator's internal context (context id + 1), so
// user messages never match them, with CollCtx::tag(step) as the tag, so
// collectives in flight at once never take each other's. Start one, then
// CO_WAIT_UNTIL(msg.done()).
#pragma once
#include <cstdint>

#include "core/request.hpp"

namespace hmpi {
struct Comm;
struct Datatype;
}  // namespace hmpi

namespace hmpi::coll {

class CollCtx;

class CollMessage {
public:
    CollMessage() = default;
    CollMessage(const CollMessage&) = delete;
    CollMessage& operator=(const CollMessage&) = delete;

    // `peer` is a point-to-point peer of `comm` (in the remote group on an
    // intercommunicator); `comm` defaults to the collective's.
    void send(CollCtx& ctx, int peer, unsigned step, const void* buf, std::int64_t count, const Datatype& type);
    void recv(CollCtx& ctx, int peer, unsigned step, void* buf, std::int64_t count, const Datatype& type);
    void send(CollCtx& ctx, Comm& comm, int peer, unsigned step, const void* buf, std::int64_t count,
              const Datatype& type);
    void recv(CollCtx& ctx, Comm& comm, int peer, unsigned step, void* buf, std::int64_t count, const Datatype& type);

    // Whether the operation is complete (never started counts as complete).
    // A large send whose receiver is copying takes a share of the copy.
    bool done();
    // MPI_SUCCESS, or MPI_ERR_TRUNCATE for a receive that got too much.
    int error() const noexcept { return started_ ? req_.status_error : 0; }

private:
    Request req_;
    bool started_ = false;
};

}  // namespace hmpi::coll
