// Inline allreduce (copy-in/copy-out, framework/inline.hpp): every rank
// copies its input vector into its own inline area (or flag payload, up to
// 48 bytes) and publishes it; then every rank folds all p vectors, in rank
// order, into its receive buffer. One synchronized step and no
// acknowledgement: a rank returns as soon as it has read the others' data,
// and rewrites its own only once they have released this slot's previous
// collective. Every rank folds in the same order, so all get the same bits
// (also for floating point), and non-commutative ops keep MPI's order.
//
// Source: the copy-in/copy-out allreduce that XHC keeps for vectors up to
// 4 KiB (collectives-techniques.md); with p = 2 it is the one-step
// exchange of Li, Hoefler et al.'s dissemination (Section 2.3) in its
// allgather form. Vectors of a contiguous type up to inline_capacity(p).
//
// Cost (our formula, Li-Hoefler parameters; inline.hpp): one step in which
// all p ranks at once pull the other p - 1 vectors, q - 1 of them within
// the cache domain and p - q across (the reduction of a pulled line is part
// of b and B as calibrated):
//   T = a + Y(p) + (q-1) m max(b_a, B_a p) + (p-q) m max(b_b, B_b p)
// (Y(w) = all_poll_excess(w): HMPI's wait for w ranks' flags at once; inline.hpp)
#include <limits>

#include "collectives/allreduce/allreduce.hpp"
#include "collectives/framework/inline.hpp"
#include "collectives/reduce/reduction.hpp"

namespace hmpi::coll {

namespace {
// Once everybody's contribution is there, folds them (CollTask::polling).
int allreduce_inline_fold(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), rank = ctx.rank();
    const std::int64_t n = me.sendcount;
    const Datatype& type = *me.sendtype;
    const std::size_t bytes = data_bytes(n, type);
    if (!inline_all_ready(ctx, 0, p, rank, {bytes, 0, bytes})) return CollTask::kPending;
    if (!inline_sizes_match(ctx, 0, p, rank, bytes)) return MPI_ERR_TRUNCATE;
    inline_prefetch_read(ctx, 0, p, rank, {bytes, 0, bytes});
    // Every rank folds in rank order, for the same bits everywhere.
    const Operand own{own_inline_operand(me, inline_begin(ctx, bytes)), &type};
    auto x = [&](int r) -> Operand { return r == rank ? own : Operand{inline_of(ctx, r).data, &type}; };
    return reduce_in_order(*me.op, type, n, 0, p, x, me.recvbuf, *me.recvtype, -1);
}
}  // namespace

// Publish, then one wait: a frameless task (CollTask::polling).
CollTask allreduce_inline(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const std::size_t bytes = data_bytes(me.sendcount, *me.sendtype);
    inline_copy_in(input_of(me).buf, *me.sendtype, bytes, inline_begin(ctx, bytes));
    inline_publish(ctx, bytes);
    return CollTask::polling<allreduce_inline_fold>(ctx);
}

double allreduce_inline_cost(const CostQuery& q) {
    if (q.bytes > inline_capacity(q.p())) return std::numeric_limits<double>::infinity();
    const int p = q.p();
    if (p <= 1) return 0;
    const double m = q.m();
    const std::size_t ws = static_cast<std::size_t>(p) * q.bytes;
    return inline_copy_in_all_cost(q, q.bytes, p - 1) +
           inline_read_cost(q, LineOp::reduce, (q.q() - 1) * m, (p - q.q()) * m, p, ws, p - 1);
}

}  // namespace hmpi::coll
