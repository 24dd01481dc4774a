// Inline broadcast (copy-in/copy-out, framework/inline.hpp): the root packs
// the message into its flag payload (up to 48 bytes: one cache line
// travels) or its inline area (up to inline_capacity(p)) and publishes; every
// reader waits for the flag and unpacks into its buffer. Nobody waits for
// anybody's acknowledgement: the root returns right after publishing, the
// readers right after copying.
//
// The root rewrites its inline data only once every reader has released
// this collective (the driver's rule, context.hpp), so in a loop of
// broadcasts the root runs up to kSlots calls ahead of its readers:
// the pipelining that makes a tiny broadcast cost about one cache-line
// transfer per call (collectives-techniques.md, "Tiny messages inline";
// XHC keeps copy-in/copy-out up to 256 B for broadcast, MPICH lets its root
// run ahead through 4 cells).
//
// Source: Li, Hoefler et al., Section 2.2, the one-stage broadcast, with
// the data in the root's own line(s) and no acknowledgement. Any datatype
// (packed).
//
// Cost (our formula; inline.hpp), the mean over ranks: the root leaves
// after its copy-in; the p - 1 readers pull the m lines at once:
//   T = (p-1)/p (busy_a(p) + m max(c, C (p-1)))   (copy costs; alpha, or beta across domains)
// (busy_a(p) = a + busy_excess(p): a step all p ranks take; inline.hpp)
// +infinity above inline_capacity(p).
#include <limits>

#include "collectives/bcast/bcast.hpp"
#include "collectives/framework/inline.hpp"
#include "collectives/framework/registry.hpp"

namespace hmpi::coll {

bool bcast_inline_applies(const CollCtx& ctx, const char** why) { return inline_fits(ctx, message_bytes(ctx), why); }

namespace {
// A reader (CollTask::polling): once the root's data is there, copies it out.
int bcast_inline_read(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const std::size_t n = message_bytes(ctx);
    if (!inline_ready(ctx, me.root, {n, 0, n})) return CollTask::kPending;
    const InlineData in = inline_of(ctx, me.root);
    return unpack_inline(in.data, in.bytes, me.recvbuf, n, *me.recvtype);
}
}  // namespace

// The root never waits (CollTask::finished); a reader waits once.
CollTask bcast_inline(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    if (ctx.rank() != me.root) return CollTask::polling<bcast_inline_read>(ctx);
    const std::size_t n = data_bytes(me.recvcount, *me.recvtype);
    inline_copy_in(me.recvbuf, *me.recvtype, n, inline_begin(ctx, n));
    inline_publish(ctx, n);
    return CollTask::finished(MPI_SUCCESS);
}

double bcast_inline_cost(const CostQuery& q) {
    if (q.bytes > inline_capacity(q.p())) return std::numeric_limits<double>::infinity();
    const int p = q.p();
    if (p <= 1) return 0;
    const double m = q.m();
    const bool across = q.s() > 1;
    return inline_copy_in_cost(q, q.bytes) +
           mean_over_ranks(q, p - 1, inline_read_cost(q, LineOp::copy, across ? 0 : m, across ? m : 0, p - 1, q.bytes, 1));
}

}  // namespace hmpi::coll
