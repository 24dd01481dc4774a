// Inline gather (copy-in/copy-out, framework/inline.hpp): every rank but
// the root packs its block into its own flag payload (up to 48 bytes) or
// inline area (up to inline_capacity(p)), publishes it to the root and returns;
// the root copies each block into its receive buffer as it arrives. No rank
// waits for another, and the root reads one line (or the block's lines) per
// peer instead of the peers' send buffers, which would need an
// acknowledgement before the senders could return.
//
// Source: collectives-techniques.md (copy-in/copy-out lets a rank return
// early); the flat gather, mirror of Li, Hoefler et al.'s one-stage
// broadcast (Section 2.2). MPI_Gather only (the v form's blocks differ per
// rank); blocks up to inline_capacity(p), any datatype (packed).
//
// Cost (our formula; inline.hpp), the mean over ranks: senders leave after
// their copy-in; the root alone pulls p - 1 blocks of m lines, q - 1 from
// its cache domain, p - q across:
//   T = (a + Y(p) + (q-1) c_a m + (p-q) c_b m) / p   (copy costs)
// (Y(w) = all_poll_excess(w): HMPI's wait for w ranks' flags at once; inline.hpp)
#include <limits>

#include "collectives/framework/blocks.hpp"
#include "collectives/framework/inline.hpp"
#include "collectives/gather/gather.hpp"

namespace hmpi::coll {

bool gather_inline_applies(const CollCtx& ctx, const char** why) { return inline_fits(ctx, message_bytes(ctx), why); }

// The other ranks never wait (CollTask::finished); the root copies its own
// block, then takes the others' (take_from_peers).
CollTask gather_inline(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    if (ctx.rank() == me.root) {
        const int own = me.in_place ? MPI_SUCCESS : copy_block(send_whole(me), recv_block(me, me.root));
        return take_from_peers<inline_block_ready, inline_block_take>(ctx, own);
    }
    const SrcBlock mine = send_whole(me);
    const std::size_t bytes = block_bytes(mine);
    inline_copy_in(mine.buf, *mine.type, bytes, inline_begin(ctx, bytes));
    inline_publish(ctx, bytes, me.root);
    return CollTask::finished(MPI_SUCCESS);
}

double gather_inline_cost(const CostQuery& q) {
    if (q.kind != CollKind::gather || q.bytes > inline_capacity(q.p())) return std::numeric_limits<double>::infinity();
    const int p = q.p();
    if (p <= 1) return 0;
    const double m = q.m();
    const std::size_t ws = static_cast<std::size_t>(p) * q.bytes;
    return inline_copy_in_cost(q, q.bytes) +
           mean_over_ranks(q, 1, inline_read_cost(q, LineOp::copy, (q.q() - 1) * m, (p - q.q()) * m, 1, ws, p - 1));
}

}  // namespace hmpi::coll
