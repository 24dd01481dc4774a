// Inline all-to-all (copy-in/copy-out, framework/inline.hpp): every rank
// packs its p outgoing blocks, one after another, into its own flag payload
// (up to 48 bytes in all) or inline area (up to inline_capacity(p)) and
// publishes them, then copies block `rank` of every other rank's inline
// data into its receive buffer as it arrives. One synchronized step and no
// acknowledgement. MPI_IN_PLACE needs no snapshot: every outgoing block is
// packed before anything is written into the receive buffer, and nobody
// else reads that buffer.
//
// Source: collectives-techniques.md (copy-in/copy-out for small data); the
// direct (pairwise) exchange of Thakur et al. 2005 with each rank reading
// copies instead of its peers' buffers. MPI_Alltoall only (the v and w
// forms' blocks differ per rank); p blocks up to inline_capacity(p) in all, any
// datatype (packed).
//
// Cost (our formula; inline.hpp): all p ranks at once pull one block from
// each of the p - 1 others:
//   T = a + Y(p) + (q-1) m max(c_a, C_a p) + (p-q) m max(c_b, C_b p)   (copy costs)
// (Y(w) = all_poll_excess(w): HMPI's wait for w ranks' flags at once; inline.hpp)
#include <limits>

#include "collectives/alltoall/alltoall.hpp"
#include "collectives/framework/inline.hpp"

namespace hmpi::coll {

bool alltoall_inline_applies(const CollCtx& ctx, const char** why) {
    return inline_fits(ctx, message_bytes(ctx) * static_cast<std::size_t>(ctx.size()), why);
}

namespace {
// This rank's block of peer q's packed blocks, once there, into its receive
// buffer.
bool alltoall_inline_ready(const CollCtx& ctx, int q) {
    const int p = ctx.size();
    const std::size_t block = block_bytes(outgoing(ctx.call(), 0));
    const InlineRead mine{block * static_cast<std::size_t>(p), static_cast<std::size_t>(ctx.rank()) * block, block};
    return inline_ready(ctx, q, mine, inline_prefetch_share(p - 1));
}
int alltoall_inline_take(const CollCtx& ctx, int q) {
    const DstBlock to = recv_block(ctx.call(), q);
    const InlineData in = inline_of(ctx, q);
    const std::size_t theirs = in.bytes / static_cast<std::size_t>(ctx.size());
    return unpack_inline(in.data + static_cast<std::size_t>(ctx.rank()) * theirs, theirs, to.buf, block_bytes(to),
                         *to.type);
}
}  // namespace

// Publish and copy this rank's own block, then take the others'
// (take_from_peers).
CollTask alltoall_inline(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), rank = ctx.rank();
    const std::size_t block = block_bytes(outgoing(me, 0));
    const std::size_t total = block * static_cast<std::size_t>(p);
    unsigned char* out = inline_begin(ctx, total);
    // The blocks before this rank's own and those after it (its own slot stays unused).
    pack_consecutive(outgoing(me, 0), block, rank, out);
    pack_consecutive(outgoing(me, rank + 1), block, p - 1 - rank, out + static_cast<std::size_t>(rank + 1) * block);
    inline_publish(ctx, total);
    const int own = me.in_place ? MPI_SUCCESS : copy_block(send_block(me, rank), recv_block(me, rank));
    return take_from_peers<alltoall_inline_ready, alltoall_inline_take>(ctx, own);
}

double alltoall_inline_cost(const CostQuery& q) {
    const int p = q.p();
    if (q.kind != CollKind::alltoall || q.bytes * static_cast<std::size_t>(p) > inline_capacity(p))
        return std::numeric_limits<double>::infinity();
    if (p <= 1) return 0;
    const double m = q.m();
    const std::size_t ws = 2 * static_cast<std::size_t>(p) * static_cast<std::size_t>(p) * q.bytes;
    return inline_copy_in_cost(q, q.bytes * static_cast<std::size_t>(p)) +
           inline_read_cost(q, LineOp::copy, (q.q() - 1) * m, (p - q.q()) * m, p, ws, p - 1);
}

}  // namespace hmpi::coll
