// Inline broadcast of tiny messages (at most kFlagPayloadBytes = 56 bytes):
// the root packs the data into its flag's payload, which shares the flag's
// cache line, and publishes; every reader waits for the flag and unpacks
// the payload into its buffer. One cache line travels, and nobody waits for
// anybody else's acknowledgement: the root returns right after publishing,
// the readers right after copying.
//
// The payload is what readers read after the root has left, so the root may
// rewrite it only once they are done with it. The slot comes back to this
// collective kSlots collectives later; before writing, the root waits until
// every member has finished the slot's previous collective
// (CollCtx::released_previous), so a reader is never more than kSlots
// collectives behind a payload it still has to read. In a loop of
// broadcasts the root thus runs up to kSlots calls ahead of its readers:
// the pipelining that makes a tiny broadcast cost about one cache-line
// transfer per call (collectives-techniques.md, "Tiny messages inline").
//
// Source: Li, Hoefler et al., Section 2.2 (one-stage broadcast with m = one
// line, no acknowledgement). Cost: a_alpha + B_alpha (P - 1) * 1 line (the
// P - 1 readers pulling the one line at once); +infinity above 56 bytes.
//
// Flags: flag 1 = "the payload holds the data", at step 57 - n (n: the
// root's byte count), so a reader sees whether the root had more data than
// its buffer holds (MPI_ERR_TRUNCATE) with a >= test, and a later
// collective's stamp reads as "it fit", never as a false truncation.
#include <limits>

#include "collectives/bcast/bcast.hpp"
#include "collectives/framework/data.hpp"
#include "collectives/framework/registry.hpp"
#include "collectives/model/cost.hpp"

namespace hmpi::coll {

namespace {
constexpr unsigned kLastStep = kFlagPayloadBytes + 1;  // the step of an empty message
}

bool bcast_inline_applies(const CollCtx& ctx, const char** why) {
    if (!intra_only(ctx, why)) return false;
    if (message_bytes(ctx) <= kFlagPayloadBytes) return true;
    *why = "the message is larger than a flag payload (56 bytes)";
    return false;
}

CollTask bcast_inline(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int root = me.root;
    const std::size_t n = data_bytes(me.recvcount, *me.recvtype);
    if (ctx.rank() == root) {
        for (int r = 0; r < ctx.size(); ++r)
            if (r != root) CO_WAIT_UNTIL(ctx.released_previous(r));
        if (n) pack_bytes(me.recvbuf, *me.recvtype, n, ctx.payload(1));
        ctx.publish(1, kLastStep - static_cast<unsigned>(n));
        co_return MPI_SUCCESS;
    }
    CO_WAIT_UNTIL(ctx.reached(root, 1, 1));
    if (n) unpack_bytes(ctx.payload_of(root, 1), n, me.recvbuf, *me.recvtype);
    // The root had more than n bytes if its step is below kLastStep - n.
    co_return ctx.reached(root, 1, kLastStep - static_cast<unsigned>(n)) ? MPI_SUCCESS : MPI_ERR_TRUNCATE;
}

double bcast_inline_cost(const CostQuery& q) {
    if (q.bytes > kFlagPayloadBytes) return std::numeric_limits<double>::infinity();
    if (q.p() <= 1) return 0;
    return congested_step_cost(q, q.params.alpha, 1, q.p() - 1, q.bytes);
}

}  // namespace hmpi::coll
