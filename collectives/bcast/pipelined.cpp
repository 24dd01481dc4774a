// Hierarchical pipelined broadcast (XHC, Section IV-B): the data flows down
// the XHC tree of the topology levels (collectives/allreduce/xhc_tree.hpp,
// rooted at the broadcast's root, which leads every group it is in) in
// chunks of knobs::kPipelineChunkBytes. Each rank publishes how many chunks
// its receive buffer holds (flag 2, a single-writer progress counter); its
// children copy each chunk as soon as it is counted and republish, so the
// levels work at the same time on successive chunks. Chunks are counted in
// flag steps: at most 255 of them (larger chunks for larger messages).
//
// Ranks may pass different datatypes of one type signature: a rank copies
// chunk by chunk (bytes) when its type and its parent's are contiguous,
// else it waits for the parent's whole buffer and copies it in one go (and
// then counts all chunks at once for its own children).
//
// Tiny messages (<= knobs::kFlagPayloadBytes = 56 B, sender's type contiguous)
// travel in the flag's payload: one cache line per hop.
//
// Cost (our formula from XHC's pipeline; f_l the largest number of
// participants of a group at level l, link l = alpha up to the cache-domain
// level, beta above; k = chunk lines, N chunks):
//   max_l [max(c_l, (f_l - 1) C_l) m + X_l]  +  sum_l (a_l + c_l * k)  +  N * a_alpha
// (readers of one leader share its bandwidth, a lone reader copies at c_l
// and pays the near excess X_l = near_excess(m) of a waiting source, else
// X_l = 0; the levels overlap after the first chunk's way down). Tiny:
// sum_l a_l.
//
// Flags: flag 2 = chunks ready in my receive buffer (or step 1 = the data
// is in my payload); flag 1 step 1 = "I have read everything of my parent"
// (a parent returns only once its children have).
#include <algorithm>
#include <cstring>

#include "collectives/allreduce/knobs_yhccl.hpp"
#include "collectives/allreduce/xhc_tree.hpp"
#include "collectives/bcast/bcast.hpp"
#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduction.hpp"

namespace hmpi::coll {

namespace {
unsigned bcast_chunks(std::size_t bytes) noexcept {
    const std::size_t want = (bytes + knobs::kPipelineChunkBytes - 1) / knobs::kPipelineChunkBytes;
    return static_cast<unsigned>(std::clamp<std::size_t>(want, 1, knobs::kMaxFlagSteps));
}
const LinkCost& bcast_link(const CostQuery& q, std::size_t l) noexcept {
    return q.topo.domain_level < 0 || static_cast<int>(l) <= q.topo.domain_level ? q.params.alpha : q.params.beta;
}
}  // namespace

CollTask bcast_pipelined(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int rank = ctx.rank(), root = me.root;
    const XhcTree tree(ctx.topology(), root);
    const int parent = tree.parent(rank);
    const bool inner = tree.has_children(rank);
    const Datatype& type = *me.recvtype;
    int rc = MPI_SUCCESS;
    bool counted = false;  // whether my children have been told about every chunk
    // A rank counts its own chunks by its own size (equal on every rank in
    // a correct program) and reads its parent's counter in the parent's
    // units: only the parent's arguments are read (it waits for my
    // acknowledgement), never the root's.
    const std::size_t bytes = data_bytes(me.recvcount, type);
    const bool tiny = bytes > 0 && bytes <= knobs::kFlagPayloadBytes;
    const unsigned chunks = bcast_chunks(bytes);

    if (parent >= 0) {
        CO_WAIT_UNTIL(ctx.arrived(parent));
        const CollCall& from = ctx.args_of(parent);
        const std::size_t from_bytes = data_bytes(from.recvcount, *from.recvtype);
        const bool from_tiny = from_bytes > 0 && from_bytes <= knobs::kFlagPayloadBytes;
        const unsigned from_chunks = bcast_chunks(from_bytes);
        const bool chunked = !tiny && type.contiguous && from.recvtype->contiguous && from_bytes == bytes;
        const StoreKind kind = store_kind_for(2 * bytes, ctx.topology(), inner);
        if (chunked) {
            for (unsigned c = 0; c < chunks; ++c) {
                CO_WAIT_UNTIL(ctx.reached(parent, 2, c + 1));
                const auto lo = static_cast<std::int64_t>(
                    slice_begin(static_cast<std::int64_t>(bytes), static_cast<int>(c), static_cast<int>(chunks)));
                const auto hi = static_cast<std::int64_t>(
                    slice_begin(static_cast<std::int64_t>(bytes), static_cast<int>(c + 1), static_cast<int>(chunks)));
                copy_bytes(byte_offset(me.recvbuf, lo), byte_offset(from.recvbuf, lo), static_cast<std::size_t>(hi - lo),
                           kind);
                if (inner) ctx.publish(2, c + 1);
            }
            counted = true;
        } else {
            CO_WAIT_UNTIL(ctx.reached(parent, 2, from_tiny ? 1 : from_chunks));
            // A tiny message of a contiguous type is in the parent's
            // payload, laid out as its type.
            const void* src = from_tiny && from.recvtype->contiguous ? ctx.payload_of(parent, 2) : from.recvbuf;
            rc = copy_data(src, from.recvcount, *from.recvtype, me.recvbuf, me.recvcount, type, kind);
        }
        ctx.publish_to(1, 1, parent);
    }
    if (inner && !counted) {
        if (tiny && type.contiguous) std::memcpy(ctx.payload(2), me.recvbuf, bytes);  // the data is at the start
        ctx.publish(2, tiny ? 1 : chunks);
    }
    CO_WAIT_UNTIL(tree.all_children(rank, [&](int c) { return ctx.reached(c, 1, 1); }));
    co_return rc;
}

double bcast_pipelined_cost(const CostQuery& q) {
    const std::size_t L = q.topo.levels.size();
    if (q.p() <= 1) return 0;
    const std::size_t ws = 2 * q.bytes;
    double fill = 0, bottleneck = 0;
    const bool tiny = q.bytes <= knobs::kFlagPayloadBytes;
    const unsigned chunks = bcast_chunks(q.bytes);
    const double m = q.m(), k = std::ceil(m / chunks);
    for (std::size_t l = 0; l < L; ++l) {
        const int f = XhcTree::fan(q.topo, l);
        if (f <= 1) continue;
        const LinkCost& lk = bcast_link(q, l);
        // A level's children read their parent's arguments (peer_args_cost).
        fill += lk.a + peer_args_cost(q, 1) + (tiny ? 0.0 : copy_line_cost(q, lk, ws) * k);
        // The f - 1 readers of one parent share its lines; a lone reader
        // copies at its own rate c, not the ring's C (priced C, 2 ranks chose
        // pipelined at 16 MiB, which took 2x split's time; stop 52), and pays
        // for its waiting parent's last lines, as one-stage's reader does.
        if (!tiny)
            bottleneck = std::max(bottleneck, shared_copy_line_cost(q, lk, f - 1, ws) * m +
                                                  (f == 2 ? near_excess(q, m) : 0.0));
    }
    // Plus the children's final acknowledgement (the lifetime rule): the
    // root of a tiny broadcast waits for it, where `inline` does not.
    return (tiny ? fill : bottleneck + fill + chunks * q.params.alpha.a) + q.params.alpha.a;
}

}  // namespace hmpi::coll
