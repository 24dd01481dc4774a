// Inline scatter (copy-in/copy-out, framework/inline.hpp): the root packs
// the p - 1 blocks of the other ranks, one after another in rank order
// (its own left out), into its flag payload (up to 48 bytes in all) or
// inline area (up to inline_capacity(p)), publishes and returns; each reader
// copies its own block out. Nobody waits for anybody's
// acknowledgement; the root rewrites its inline data only once every reader
// has released this slot's previous collective.
//
// Source: collectives-techniques.md (copy-in/copy-out lets the root return
// early); Li, Hoefler et al.'s one-stage broadcast (Section 2.2) with each
// reader taking its own block. MPI_Scatter only (the v form's blocks differ
// per rank); p - 1 blocks up to inline_capacity(p) in all (2 ranks: blocks
// up to 16 KiB, where the root of a single-copy scatter waits for its
// reader's copy), any datatype (packed).
//
// Cost (our formula; inline.hpp), the mean over ranks: the root leaves
// after its copy-in; the p - 1 readers pull their m lines at once:
//   T = (p-1)/p (busy_a(p) + m max(c, C (p-1)))   (copy costs; alpha, or beta across domains)
// (busy_a(p) = a + busy_excess(p): a step all p ranks take; inline.hpp)
#include <limits>

#include "collectives/framework/blocks.hpp"
#include "collectives/framework/inline.hpp"
#include "collectives/scatter/scatter.hpp"

namespace hmpi::coll {

namespace {
// Where block `rank` sits among the root's packed blocks: the root's own is
// left out.
std::size_t packed_index(int rank, int root) noexcept {
    return static_cast<std::size_t>(rank < root ? rank : rank - 1);
}

// A reader (CollTask::polling): once the root's blocks are there, copies its
// own out.
int scatter_inline_read(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), root = me.root;
    const std::size_t mine = message_bytes(ctx), at = packed_index(ctx.rank(), root);
    if (!inline_ready(ctx, root, {mine * static_cast<std::size_t>(p - 1), at * mine, mine})) return CollTask::kPending;
    const InlineData in = inline_of(ctx, root);
    const std::size_t block = in.bytes / static_cast<std::size_t>(p - 1);
    const DstBlock to = recv_whole(me);
    return unpack_inline(in.data + at * block, block, to.buf, block_bytes(to), *to.type);
}
}  // namespace

bool scatter_inline_applies(const CollCtx& ctx, const char** why) {
    return inline_fits(ctx, message_bytes(ctx) * static_cast<std::size_t>(ctx.size() - 1), why);
}

// The root never waits (CollTask::finished); a reader waits once.
CollTask scatter_inline(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), root = me.root;
    if (ctx.rank() != root) return CollTask::polling<scatter_inline_read>(ctx);
    const std::size_t block = data_bytes(me.sendcount, *me.sendtype);
    const std::size_t total = block * static_cast<std::size_t>(p - 1);
    unsigned char* out = inline_begin(ctx, total);
    // The blocks before the root's and those after it.
    pack_consecutive(send_block(me, 0), block, root, out);
    pack_consecutive(send_block(me, root + 1), block, p - 1 - root, out + packed_index(root + 1, root) * block);
    inline_publish(ctx, total);
    // MPI_IN_PLACE: the root's block stays where it is.
    return CollTask::finished(me.in_place ? MPI_SUCCESS : copy_block(send_block(me, root), recv_whole(me)));
}

double scatter_inline_cost(const CostQuery& q) {
    const int p = q.p();
    if (q.kind != CollKind::scatter || q.bytes * static_cast<std::size_t>(p > 1 ? p - 1 : 0) > inline_capacity(p))
        return std::numeric_limits<double>::infinity();
    if (p <= 1) return 0;
    const double m = q.m();
    const bool across = q.s() > 1;
    const std::size_t all = q.bytes * static_cast<std::size_t>(p - 1);
    return inline_copy_in_cost(q, all) +
           mean_over_ranks(q, p - 1, inline_read_cost(q, LineOp::copy, across ? 0 : m, across ? m : 0, p - 1, all, 1));
}

}  // namespace hmpi::coll
