// Inline reduce-scatter (copy-in/copy-out, framework/inline.hpp): every
// rank copies its whole input vector into its own flag payload (up to 48
// bytes) or inline area (up to inline_capacity(p)) and publishes it; rank r then
// folds its own block of all p copies, in rank order, into its receive
// buffer; a rank with an empty block only writes. One synchronized step and
// no acknowledgement (the direct form reads the inputs in place and must
// wait until everyone is done).
// Serves Reduce_scatter_block and Reduce_scatter (whose recvcounts are the
// same on every rank).
//
// Source: the reduce-scatter stage of Li, Hoefler et al., Section 2.4, with
// copy-in/copy-out as collectives-techniques.md describes it for small
// data. Vectors of a contiguous type up to inline_capacity(p).
//
// Cost (our formula; inline.hpp): all p ranks at once pull their block
// (m/p lines) from the p - 1 others:
//   T = a + Y(p) + (q-1) m/p max(b_a, B_a p) + (p-q) m/p max(b_b, B_b p)
// (Y(w) = all_poll_excess(w): HMPI's wait for w ranks' flags at once; inline.hpp)
#include <algorithm>
#include <cmath>
#include <limits>

#include "collectives/framework/inline.hpp"
#include "collectives/reduce/reduction.hpp"
#include "collectives/reduce_scatter/reduce_scatter.hpp"

namespace hmpi::coll {

namespace {

// Once every rank's vector is there, folds this rank's block (CollTask::polling).
int reduce_scatter_inline_fold(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), rank = ctx.rank();
    const OwnBlock block = own_block(me, p, rank);
    const Datatype& type = *me.sendtype;
    const std::size_t bytes = data_bytes(block.total, type), offset = data_bytes(block.first, type);
    if (!inline_all_ready(ctx, 0, p, rank, {bytes, offset, data_bytes(block.count, type)})) return CollTask::kPending;
    if (!inline_sizes_match(ctx, 0, p, rank, bytes)) return MPI_ERR_TRUNCATE;
    const auto* own = static_cast<const unsigned char*>(own_inline_operand(me, inline_begin(ctx, bytes)));
    auto x = [&](int r) -> Operand { return {(r == rank ? own : inline_of(ctx, r).data) + offset, &type}; };
    return reduce_in_order(*me.op, type, block.count, 0, p, x, me.recvbuf, *me.recvtype, -1);
}

}  // namespace

// Publish, then one wait: a frameless task.
CollTask reduce_scatter_inline(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const OwnBlock block = own_block(me, ctx.size(), ctx.rank());
    const std::size_t bytes = data_bytes(block.total, *me.sendtype);
    inline_copy_in(input_of(me).buf, *me.sendtype, bytes, inline_begin(ctx, bytes));
    inline_publish(ctx, bytes);
    // A rank whose block is empty reads nothing and leaves, like a rooted
    // collective's writers (a vector shorter than p leaves most ranks
    // without a block).
    if (block.count == 0) return CollTask::finished(MPI_SUCCESS);
    return CollTask::polling<reduce_scatter_inline_fold>(ctx);
}

double reduce_scatter_inline_cost(const CostQuery& q) {
    if (q.bytes > inline_capacity(q.p())) return std::numeric_limits<double>::infinity();
    const int p = q.p();
    if (p <= 1) return 0;
    const double m = q.m(), mb = std::ceil(m / std::max(1, p));
    const std::size_t ws = (static_cast<std::size_t>(p) + 1) * q.bytes;  // the inputs and the results
    return inline_copy_in_cost(q, q.bytes) +
           inline_read_cost(q, LineOp::reduce, (q.q() - 1) * mb, (p - q.q()) * mb, p, ws, p - 1);
}

}  // namespace hmpi::coll
