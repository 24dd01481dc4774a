// Inline reduce-broadcast allreduce (copy-in/copy-out, framework/inline.hpp):
// every rank but 0 copies its vector into its inline area and publishes it;
// rank 0 polls all of them at once, folds the p vectors in rank order and
// publishes the result in its own inline area; the others copy it out. Two
// synchronized steps and no acknowledgement (the areas live until the
// slot's next collective, which waits for everyone's release).
//
// Why next to `inline`: there every rank polls every other's flag, so each
// flag line has p - 1 readers and a rank's step grows by poll_peer per peer
// (about 55 ns at 16 ranks on a 16-core Xeon: the inline step took 1.47 us
// at 8 bytes). Here each of rank 0's lines has one reader and each other
// rank polls one line: one more handoff, no all-to-all poll. With few ranks
// the single step of `inline` is cheaper; the model weighs the two.
//
// Source: the flat reduce then one-stage broadcast of Li, Hoefler et al.
// (Section 2.2 with an n-ary tree of one level, the radix as wide as the
// communicator; Eq. 4's one-stage broadcast), with XHC's copy-in/copy-out
// for small vectors (collectives-techniques.md). Vectors of a contiguous
// type up to kInlineBytes.
//
// Cost (our formula, Li-Hoefler parameters; inline.hpp): rank 0's copy-out
// of the result over lines the previous call's readers hold (W), its poll
// and fold of the others' q - 1 + (p - q) vectors as the one reader, then
// the one-stage broadcast of Eq. 4 (the others pull the m lines from one
// source at once):
//   T = W + a + (q-1) m b_a + (p-q) m b_b + [a + C (q-1) m]  (one domain;
//   across domains Eq. 4's a_b + C_b q m)
// The others' copy-in (W as well) overlaps rank 0's wait.
#include <cstring>
#include <limits>

#include "collectives/allreduce/allreduce.hpp"
#include "collectives/framework/inline.hpp"
#include "collectives/reduce/reduction.hpp"

namespace hmpi::coll {

CollTask allreduce_inline_reduce_bcast(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), rank = ctx.rank();
    const std::int64_t n = me.sendcount;
    const Datatype& type = *me.sendtype;
    const std::size_t bytes = data_bytes(n, type);
    if (rank != 0) {
        std::memcpy(inline_begin(ctx, bytes), input_of(me).buf, bytes);
        ctx.publish_to(kInlineFlag, 1, 0);
        CO_WAIT_UNTIL(inline_ready(ctx, 0));
        const InlineData result = inline_of(ctx, 0);
        // Rank 0 announces 0 bytes when the counts did not match.
        if (result.bytes != bytes) co_return MPI_ERR_TRUNCATE;
        co_return unpack_inline(result.data, result.bytes, me.recvbuf, bytes, *me.recvtype);
    }
    CO_WAIT_UNTIL(inline_all_ready(ctx, 1, p));
    if (!inline_sizes_match(ctx, 1, p, -1, bytes)) {
        inline_begin(ctx, 0);
        ctx.publish(kInlineFlag, 1);
        co_return MPI_ERR_TRUNCATE;
    }
    auto x = [&](int r) -> Operand { return r == 0 ? input_of(me) : Operand{inline_of(ctx, r).data, &type}; };
    const int rc = reduce_in_order(*me.op, type, n, 0, p, x, me.recvbuf, *me.recvtype, me.in_place ? 0 : -1);
    std::memcpy(inline_begin(ctx, bytes), me.recvbuf, bytes);
    ctx.publish(kInlineFlag, 1);
    co_return rc;
}

double allreduce_inline_reduce_bcast_cost(const CostQuery& q) {
    if (q.bytes > kInlineBytes) return std::numeric_limits<double>::infinity();
    const int p = q.p();
    if (p <= 1) return 0;
    const double m = q.m();
    const std::size_t ws = static_cast<std::size_t>(p) * q.bytes;
    return inline_copy_in_cost(q, q.bytes) +
           inline_read_cost(q, LineOp::reduce, (q.q() - 1) * m, (p - q.q()) * m, 1, ws) +
           li_one_stage_bcast(q, q.q(), q.s(), m, ws);
}

}  // namespace hmpi::coll
