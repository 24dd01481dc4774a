// Point-to-point messages inside a collective, on the internal context.
#include "collectives/framework/message.hpp"

#include "collectives/framework/context.hpp"
#include "core/p2p.hpp"

namespace hmpi::coll {

namespace {

void prepare(Request& r, RequestKind kind, CollCtx& ctx, Comm& comm, int peer, unsigned step, std::int64_t count,
             const Datatype& type) {
    r.kind = kind;
    r.internal = true;
    r.count = count;
    r.type = &type;
    r.peer = peer;
    r.tag = ctx.tag(step);
    r.comm = &comm;
    r.context = comm.shared->context_id + 1;
}

}  // namespace

void CollMessage::send(CollCtx& ctx, Comm& comm, int peer, unsigned step, const void* buf, std::int64_t count,
                       const Datatype& type) {
    prepare(req_, RequestKind::send, ctx, comm, peer, step, count, type);
    req_.send_buf = buf;
    started_ = true;
    start_send(ctx.self(), req_);
}

void CollMessage::recv(CollCtx& ctx, Comm& comm, int peer, unsigned step, void* buf, std::int64_t count,
                       const Datatype& type) {
    prepare(req_, RequestKind::recv, ctx, comm, peer, step, count, type);
    req_.recv_buf = buf;
    started_ = true;
    start_recv(ctx.self(), req_);
}

void CollMessage::send(CollCtx& ctx, int peer, unsigned step, const void* buf, std::int64_t count, const Datatype& type) {
    send(ctx, ctx.comm(), peer, step, buf, count, type);
}

void CollMessage::recv(CollCtx& ctx, int peer, unsigned step, void* buf, std::int64_t count, const Datatype& type) {
    recv(ctx, ctx.comm(), peer, step, buf, count, type);
}

bool CollMessage::done() {
    if (!started_ || req_.complete()) return true;
    if (req_.kind == RequestKind::send && req_.split.ready.load(std::memory_order_acquire)) req_.split.help();
    return req_.complete();
}

}  // namespace hmpi::coll
