// Inline allgather (copy-in/copy-out, framework/inline.hpp): every rank
// packs its block into its own flag payload (up to 48 bytes) or inline area
// (up to inline_capacity(p)) and publishes it, then copies every other rank's
// block out into its receive buffer as it arrives. One synchronized step;
// a rank returns as soon as it has every block (it rewrites its own inline
// data only once the others have released this slot's previous collective),
// where reading the peers' buffers directly would need an acknowledgement.
//
// Source: collectives-techniques.md (copy-in/copy-out for small data); the
// one-stage allgather (every rank reads every block), Li, Hoefler et al.'s
// one-stage broadcast (Section 2.2) from every rank at once. MPI_Allgather
// only (the v form's blocks differ per rank); blocks up to inline_capacity(p),
// any datatype (packed).
//
// Cost (our formula; inline.hpp): all p ranks at once pull the p - 1 other
// blocks, q - 1 within the cache domain, p - q across:
//   T = a + Y(p) + (q-1) m max(c_a, C_a p) + (p-q) m max(c_b, C_b p)   (copy costs)
// (Y(w) = all_poll_excess(w): HMPI's wait for w ranks' flags at once; inline.hpp)
#include <limits>

#include "collectives/allgather/allgather.hpp"
#include "collectives/framework/blocks.hpp"
#include "collectives/framework/inline.hpp"

namespace hmpi::coll {

bool allgather_inline_applies(const CollCtx& ctx, const char** why) {
    return inline_fits(ctx, message_bytes(ctx), why);
}

// Publish and copy this rank's own block, then take the others'
// (take_from_peers).
CollTask allgather_inline(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int rank = ctx.rank();
    const SrcBlock mine = contribution(me, rank);
    const std::size_t bytes = block_bytes(mine);
    inline_copy_in(mine.buf, *mine.type, bytes, inline_begin(ctx, bytes));
    inline_publish(ctx, bytes);
    const int own = me.in_place ? MPI_SUCCESS : copy_block(mine, recv_block(me, rank));
    return take_from_peers<inline_block_ready, inline_block_take>(ctx, own);
}

double allgather_inline_cost(const CostQuery& q) {
    if (q.kind != CollKind::allgather || q.bytes > inline_capacity(q.p())) return std::numeric_limits<double>::infinity();
    const int p = q.p();
    if (p <= 1) return 0;
    const double m = q.m();
    const std::size_t ws = static_cast<std::size_t>(p) * q.bytes;
    return inline_copy_in_all_cost(q, q.bytes, p - 1) +
           inline_read_cost(q, LineOp::copy, (q.q() - 1) * m, (p - q.q()) * m, p, ws, p - 1);
}

}  // namespace hmpi::coll
