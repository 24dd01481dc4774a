// Hierarchical pipelined allreduce (XHC, Section IV-B): a reduction up the
// XHC tree of the topology levels (xhc_tree.hpp, rooted at rank 0) followed
// by a broadcast down it, both pipelined in chunks of
// knobs::kPipelineChunkBytes with single-writer progress counters: a rank
// publishes how many chunks of its partial (flag 1) or of the final result
// (flag 2) are ready, and its parent / children fold or copy
// min(chunk, what is ready) and publish in turn. A leaf's partial is its
// input (ready at once); an inner rank folds its own input and its
// children's partials into its receive buffer chunk by chunk; the root's
// folded chunks are final; every other rank copies final chunks from its
// parent's receive buffer into its own, where its children read them.
// Chunks are counted in flag steps, so a vector is cut into at most 255
// chunks (larger chunks for vectors over 255 * 16 KiB).
//
// Tiny vectors (<= knobs::kFlagPayloadBytes = 56 B, contiguous types) travel in
// the flags' payloads both ways: one cache line per hop.
//
// The fold order follows the tree, not rank order: commutative ops only.
//
// Cost (our formula from XHC's pipeline; L levels, f_l the largest number
// of participants of a group at level l, link of level l = alpha up to the
// cache-domain level, beta above; k = chunk lines, N chunks):
//   up   = sum_l (f_l - 1) * b_l * m        (the root folds all its children's vectors)
//          + (r - b) m                       (its first fold takes its own input along: a
//                                             third-buffer reduction, r, for the paper's b)
//   down = max_l (f_l - 1) * B_l * m        (concurrent readers of one leader; levels overlap)
//   fill = sum_l 2 * (a_l + b_l * k)        (the first chunk's way up and down)
//   sync = N * a_alpha
//   rewrite = rewrite_line * m while 4 m fits the L2 (the root folds into the
//          lines its children copied out last call;
//          pipelined_result_source_rewrite_cost)
//   wait = sum_l (all_poll_excess(f_l) + busy_excess(f_l))   (HMPI's flag waits: the leader's
//          for its f_l - 1 members, the level's step down; docs/model.md, stop 26)
// Tiny vectors: 2 * sum_l a_l + wait.
//
// MPI_IN_PLACE: a leaf's input is its receive buffer, which it overwrites
// chunk by chunk only after its parent has published the final chunk
// (which it does after folding the leaf's chunk); likewise for an inner
// rank's partial.
//
// Flags: flag 1 = partial chunks ready (to the parent); flag 2 = final
// chunks ready (to the children); flag 3 step 1 = "I have read everything
// of my parent" (the parent waits for its children's before returning).
#include <algorithm>
#include <cstring>
#include <limits>

#include "collectives/allreduce/knobs_yhccl.hpp"
#include "collectives/allreduce/xhc_tree.hpp"
#include "collectives/allreduce/yhccl.hpp"
#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduction.hpp"

namespace hmpi::coll {

namespace {

unsigned pipeline_chunks(std::size_t bytes) noexcept {
    const std::size_t want = (bytes + knobs::kPipelineChunkBytes - 1) / knobs::kPipelineChunkBytes;
    return static_cast<unsigned>(std::clamp<std::size_t>(want, 1, knobs::kMaxFlagSteps));
}

bool travels_inline(std::size_t bytes, const Datatype& t) noexcept {
    return bytes > 0 && bytes <= knobs::kFlagPayloadBytes && t.contiguous;
}

const LinkCost& link_of_level(const CostQuery& q, std::size_t l) noexcept {
    return q.topo.domain_level < 0 || static_cast<int>(l) <= q.topo.domain_level ? q.params.alpha : q.params.beta;
}

}  // namespace

CollTask allreduce_hierarchical(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int rank = ctx.rank();
    const std::int64_t count = me.sendcount;
    const Datatype& type = *me.recvtype;
    const std::size_t bytes = data_bytes(count, type);
    const XhcTree tree(ctx.topology(), 0);
    const int parent = tree.parent(rank);
    const bool inner = tree.has_children(rank);
    const Operand mine = input_of(me);
    int rc = MPI_SUCCESS;

    if (travels_inline(bytes, type)) {
        // Contiguous: the data is `bytes` bytes at the buffer's start.
        FrameBytes<knobs::kFlagPayloadBytes> acc_bytes, in_bytes;  // not alignas on the arrays: see FrameBytes
        unsigned char* const acc = acc_bytes.bytes;
        unsigned char* const in = in_bytes.bytes;
        std::memcpy(acc, mine.buf, bytes);
        CO_WAIT_UNTIL(tree.all_children(rank, [&](int c) { return ctx.reached(c, 1, 1); }));
        // Any order is fine for a commutative op.
        tree.for_each_child(rank, [&](int c) {
            std::memcpy(in, ctx.payload_of(c, 1), bytes);
            reduce_data(*me.op, in, acc, count, type);
        });
        if (parent >= 0) {
            std::memcpy(ctx.payload(1), acc, bytes);
            ctx.publish_to(1, 1, parent);
            CO_WAIT_UNTIL(ctx.reached(parent, 2, 1));
            std::memcpy(acc, ctx.payload_of(parent, 2), bytes);
            ctx.publish_to(3, 1, parent);
        }
        if (inner) {
            std::memcpy(ctx.payload(2), acc, bytes);
            ctx.publish(2, 1);
        }
        std::memcpy(me.recvbuf, acc, bytes);
        CO_WAIT_UNTIL(tree.all_children(rank, [&](int c) { return ctx.reached(c, 3, 1); }));
        co_return rc;
    }

    const unsigned chunks = pipeline_chunks(bytes);
    auto chunk_first = [&](unsigned c) { return slice_begin(count, static_cast<int>(c), static_cast<int>(chunks)); };
    // Final chunks copied into a buffer nobody reads again go out with the
    // stores YHCCL Algorithm 1 picks; an inner rank's children read them.
    const StoreKind down_kind =
        store_kind_for(2 * static_cast<std::size_t>(ctx.size()) * bytes, ctx.topology(), inner);
    // A child's partial: its receive buffer if it folds children of its own,
    // else its input.
    auto partial_of = [&](int c) -> Operand {
        const CollCall& a = ctx.args_of(c);
        return tree.has_children(c) ? Operand{a.recvbuf, a.recvtype} : input_of(a);
    };

    unsigned up = inner ? 0 : chunks, down = 0;
    if (!inner && parent >= 0) ctx.publish_to(1, chunks, parent);  // a leaf's partial is its input
    if (parent < 0 && !inner) {
        // A single rank: the result is its input.
        if (!me.in_place) rc = copy_data(mine.buf, count, *mine.type, me.recvbuf, count, type);
        co_return rc;
    }
    while (down < chunks) {
        auto up_ready = [&] {
            return up < chunks && tree.all_children(rank, [&](int c) { return ctx.reached(c, 1, up + 1); });
        };
        auto down_ready = [&] { return parent >= 0 && down < up && ctx.reached(parent, 2, down + 1); };
        CO_WAIT_UNTIL(up_ready() || down_ready());
        if (up_ready()) {
            const std::int64_t lo = chunk_first(up), n = chunk_first(up + 1) - lo;
            void* acc = element_at(me.recvbuf, lo, type);
            // The first child's chunk and this rank's fold into acc in one
            // pass (a third-buffer reduction), not a copy and a fold; in
            // place, acc holds this rank's chunk already.
            bool first = !me.in_place;
            if (n > 0)
                tree.for_each_child(rank, [&](int c) {
                    const void* theirs = at(partial_of(c), lo).buf;
                    if (first) reduce_data3(*me.op, theirs, element_at(mine.buf, lo, *mine.type), acc, n, type);
                    else reduce_data(*me.op, theirs, acc, n, type);
                    first = false;
                });
            ++up;
            if (parent >= 0) {
                ctx.publish_to(1, up, parent);
            } else {
                down = up;
                ctx.publish(2, up);
            }
        }
        if (down_ready()) {
            const std::int64_t lo = chunk_first(down), n = chunk_first(down + 1) - lo;
            const CollCall& from = ctx.args_of(parent);
            if (n > 0) {
                if (int e = copy_data(element_at(from.recvbuf, lo, *from.recvtype), n, *from.recvtype,
                                      element_at(me.recvbuf, lo, type), n, type, down_kind))
                    rc = e;
            }
            ++down;
            if (inner) ctx.publish(2, down);
        }
    }
    if (parent >= 0) ctx.publish_to(3, 1, parent);
    CO_WAIT_UNTIL(tree.all_children(rank, [&](int c) { return ctx.reached(c, 3, 1); }));
    co_return rc;
}

double allreduce_hierarchical_cost(const CostQuery& q) {
    if (!q.commutative) return std::numeric_limits<double>::infinity();  // commutative ops only
    const std::size_t L = q.topo.levels.size();
    if (q.p() <= 1) return q.params.alpha.a;
    const std::size_t ws = 2 * static_cast<std::size_t>(q.p()) * q.bytes;
    // A level's step up: its leader waits for the flags of all f - 1
    // members at once (the flat barrier's wait, all_poll_excess); its step
    // down: f ranks step at once (busy_excess). HMPI's costs beyond a.
    auto level_excess = [&](int f) { return all_poll_excess(q, f) + busy_excess(q, f); };
    if (q.bytes <= knobs::kFlagPayloadBytes) {
        double t = 0;
        for (std::size_t l = 0; l < L; ++l) {
            const int f = XhcTree::fan(q.topo, l);
            if (f > 1) t += 2 * link_of_level(q, l).a + level_excess(f);
        }
        return t;
    }
    const double m = q.m();
    const unsigned chunks = pipeline_chunks(q.bytes);
    const double k = std::ceil(m / chunks);
    double up = 0, down = 0, fill = 0;
    bool first_fold = true;
    for (std::size_t l = 0; l < L; ++l) {
        const int f = XhcTree::fan(q.topo, l);
        if (f <= 1) continue;
        const LinkCost& lk = link_of_level(q, l);
        up += (f - 1) * line_cost(q, lk, ws) * m;
        if (first_fold) up += (reduce3_line_cost(q, lk, ws) - line_cost(q, lk, ws)) * m;
        first_fold = false;
        down = std::max(down, (f - 1) * congested_copy_line_cost(q, lk, ws) * m);
        fill += 2 * (lk.a + line_cost(q, lk, ws) * k) + level_excess(f);
        // A level's leader reads its f - 1 members' arguments on the way up,
        // each member its leader's on the way down.
        fill += peer_args_cost(q, f) + peer_data_cost(q, f);
    }
    return up + down + fill + chunks * q.params.alpha.a + pipelined_result_source_rewrite_cost(q);
}

}  // namespace hmpi::coll
