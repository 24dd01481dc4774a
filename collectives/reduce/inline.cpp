// Inline reduce (copy-in/copy-out, framework/inline.hpp): every rank but
// the root copies its input vector into its own inline area (or flag
// payload, up to 48 bytes), publishes it to the root and returns; the root
// folds the p vectors in rank order into its receive buffer, its own input
// where it is. Non-roots never wait for the root (they rewrite their inline
// data only once it has released this slot's previous collective).
//
// Source: the copy-in/copy-out reduce XHC keeps for vectors up to 4 KiB
// (collectives-techniques.md); the flat (one-stage) reduction of Li,
// Hoefler et al., Section 2.2, with the root reading copies instead of the
// send buffers, so the senders need no acknowledgement. Vectors of a
// contiguous type up to inline_capacity(p).
//
// Cost (our formula; inline.hpp), the mean over ranks: senders leave after
// their copy-in; the root alone pulls and folds p - 1 vectors, q - 1 from
// its cache domain, p - q across:
//   T = (a + Y(p) + (q-1) b_a m + (p-q) b_b m) / p
// (Y(w) = all_poll_excess(w): HMPI's wait for w ranks' flags at once; inline.hpp)
#include <limits>

#include "collectives/framework/inline.hpp"
#include "collectives/reduce/reduce.hpp"
#include "collectives/reduce/reduction.hpp"

namespace hmpi::coll {

namespace {
// The root (CollTask::polling): once everybody's contribution is there,
// reduces them.
int reduce_inline_root(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), root = me.root;
    const std::int64_t n = me.sendcount;
    const Datatype& type = *me.sendtype;
    const std::size_t bytes = data_bytes(n, type);
    if (!inline_all_ready(ctx, 0, p, root, {bytes, 0, bytes})) return CollTask::kPending;
    if (!inline_sizes_match(ctx, 0, p, root, bytes)) return MPI_ERR_TRUNCATE;
    const Operand mine = input_of(me);
    auto x = [&](int r) -> Operand { return r == root ? mine : Operand{inline_of(ctx, r).data, &type}; };
    return reduce_in_order(*me.op, type, n, 0, p, x, me.recvbuf, *me.recvtype, me.in_place ? root : -1);
}
}  // namespace

// The other ranks never wait (CollTask::finished); the root waits once.
CollTask reduce_inline(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    if (ctx.rank() == me.root) return CollTask::polling<reduce_inline_root>(ctx);
    const Datatype& type = *me.sendtype;
    const std::size_t bytes = data_bytes(me.sendcount, type);
    inline_copy_in(input_of(me).buf, type, bytes, inline_begin(ctx, bytes));
    inline_publish(ctx, bytes, me.root);
    return CollTask::finished(MPI_SUCCESS);
}

double reduce_inline_cost(const CostQuery& q) {
    if (q.bytes > inline_capacity(q.p())) return std::numeric_limits<double>::infinity();
    const int p = q.p();
    if (p <= 1) return 0;
    const double m = q.m();
    const std::size_t ws = (static_cast<std::size_t>(p) + 1) * q.bytes;  // the inputs and the results
    return inline_copy_in_cost(q, q.bytes) +
           mean_over_ranks(q, 1, inline_read_cost(q, LineOp::reduce, (q.q() - 1) * m, (p - q.q()) * m, 1, ws, p - 1));
}

}  // namespace hmpi::coll
