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

CollTask reduce_scatter_inline(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), rank = ctx.rank();
    const ScatterBlocks blocks(me, p);
    const auto i = static_cast<std::size_t>(rank);
    const std::int64_t n = blocks.count[i], first = blocks.first[i];
    const Datatype& type = *me.sendtype;
    const std::size_t bytes = data_bytes(blocks.total, type);
    unsigned char* mine = inline_begin(ctx, bytes);
    inline_copy_in(input_of(me).buf, type, bytes, mine);
    inline_publish(ctx, bytes);
    // A rank whose block is empty reads nothing and leaves, like a rooted
    // collective's writers (a vector shorter than p leaves most ranks
    // without a block).
    if (n == 0) co_return MPI_SUCCESS;
    const std::size_t offset = data_bytes(first, type);
    CO_WAIT_UNTIL(inline_all_ready(ctx, 0, p, rank, {bytes, offset, data_bytes(n, type)}));
    if (!inline_sizes_match(ctx, 0, p, rank, bytes)) co_return MPI_ERR_TRUNCATE;
    const auto* own = static_cast<const unsigned char*>(own_inline_operand(me, mine));
    auto x = [&](int r) -> Operand { return {(r == rank ? own : inline_of(ctx, r).data) + offset, &type}; };
    co_return reduce_in_order(*me.op, type, n, 0, p, x, me.recvbuf, *me.recvtype, -1);
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
