// Movement-avoiding reduce-scatter (YHCCL, Section 3.3, the reduce-scatter
// stage on its own): in step t rank r visits block j = (r + t) mod p and
// folds its OWN input block j into block j's result, so every rank reads
// only its own (cache-warm) input and the results travel instead. The first
// visitor of block j is rank j itself, which copies its input block into
// its result; the others follow one after another (rank r starts step t
// once rank r + 1 has finished step t - 1, which was on the same block), a
// single-writer step counter per rank (flag 1).
//
// Block j's result lives in rank j's receive buffer, except when rank j is
// MPI_IN_PLACE and its block does not start at element 0 (its receive
// buffer is then its whole input, and the result's place holds other
// blocks it has yet to read): then in a scratch it offers to the visitors
// (publish_scratch, announced by its first step) and copies into place once
// the last visitor is done.
//
// Visitors of block j come in the order j, j - 1, ..., j + 1 (mod p), a
// rotation of rank order: commutative ops only.
//
// Data access volume (YHCCL): p reads of input blocks and p - 1
// read-modify-writes of a result per block.
// Cost: p a_alpha + (max(c, C p) + (p - 1) max(b, B p)) * m_b  (m_b = the
// largest block in lines; p concurrent ranks, each copying one input block
// into its result and folding p - 1 of its own blocks into results that
// come from other ranks; charged per copied or folded line, like
// Li-Hoefler's b, not per line touched: (3p - 2) B p until stop 27).
// Across s > 1 cache domains: beta's a, and beta's fold for the s times a
// result crosses into another domain. Each of the p steps, every rank
// folding a block at once, pays a slice's first lines' excess
// (slice_near_excess(m_b), cost.hpp), and the peers' arguments and first
// lines are reached once (peer_args_sweep, peer_data_sweep).
// The p a are busy_a(p) = a + step_overhead + busy_step (p - 2)
// (params.hpp): every rank takes its steps at the same time.
//
// Lifetime: block j is complete once rank j + 1 (its last visitor) has
// finished step p - 1, and every earlier visitor finished before it; nobody
// reads rank j's buffers after that, so rank j may return then.
//
// Flags: flag 1 = step counter (1..p).
#include <algorithm>
#include <limits>

#include "collectives/allreduce/yhccl.hpp"
#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduction.hpp"
#include "collectives/reduce_scatter/reduce_scatter.hpp"

namespace hmpi::coll {

CollTask reduce_scatter_movement_avoiding(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), rank = ctx.rank(), next = (rank + 1) % p, prev = (rank + p - 1) % p;
    const ScatterBlocks blocks(me, p);
    const Datatype& type = *me.sendtype;
    const Operand mine = input_of(me);
    const auto own = static_cast<std::size_t>(rank);
    // Where my block's result accumulates (see the header comment).
    const bool in_scratch = me.in_place && blocks.first[own] != 0 && blocks.count[own] > 0;
    TypedScratch scratch;
    if (in_scratch) scratch = TypedScratch(blocks.count[own], type);
    ctx.publish_scratch(scratch.data());
    auto home_of = [&](int j) -> std::pair<void*, const Datatype*> {
        const CollCall& a = ctx.args_of(j);
        const auto ji = static_cast<std::size_t>(j);
        if (a.in_place && blocks.first[ji] != 0 && blocks.count[ji] > 0)
            return {const_cast<void*>(ctx.scratch_of(j)), &type};
        return {a.recvbuf, a.recvtype};
    };
    for (int t = 0; t < p; ++t) {
        const int j = (rank + t) % p;
        const auto ji = static_cast<std::size_t>(j);
        if (t > 0) CO_WAIT_UNTIL(ctx.reached(next, 1, static_cast<unsigned>(t)));
        const std::int64_t n = blocks.count[ji];
        if (n > 0) {
            const auto [result, rtype] = home_of(j);
            const void* in = element_at(mine.buf, blocks.first[ji], *mine.type);
            if (t > 0) reduce_data(*me.op, in, result, n, type);
            else if (in != result) copy_data(in, n, *mine.type, result, n, *rtype);
        }
        // Only the rank behind waits for my steps (for its next visit, and
        // for my last one: I am the last visitor of its block).
        ctx.publish_to(1, static_cast<unsigned>(t) + 1, prev);
    }
    // My block is complete once its last visitor (rank + 1) has finished.
    CO_WAIT_UNTIL(ctx.reached(next, 1, static_cast<unsigned>(p)));
    int rc = MPI_SUCCESS;
    if (in_scratch) rc = copy_data(scratch.data(), blocks.count[own], type, me.recvbuf, blocks.count[own], *me.recvtype);
    co_return rc;
}

double reduce_scatter_movement_avoiding_cost(const CostQuery& q) {
    if (!q.commutative) return std::numeric_limits<double>::infinity();  // commutative ops only
    const int p = q.p();
    if (p > 255) return std::numeric_limits<double>::infinity();
    const double mb = std::ceil(q.m() / std::max(1, p));
    const std::size_t ws = (static_cast<std::size_t>(p) + 1) * q.bytes;  // the inputs and the results
    // The result visits the ranks in rotated rank order: it crosses into
    // another cache domain at most s times (ranks numbered domain by domain).
    const int crossings = q.s() > 1 ? std::min(p - 1, q.s()) : 0;
    const LinkCost &al = q.params.alpha, &be = q.params.beta;
    const double lines = shared_copy_line_cost(q, al, p, ws) + (p - 1 - crossings) * shared_line_cost(q, al, p, ws) +
                         crossings * shared_line_cost(q, be, p, ws);
    return p * busy_a(q, q.s() > 1 ? be : al, p) + lines * mb + p * slice_near_excess(q, mb) +
           peer_args_sweep_cost(q, p - 1) + peer_data_sweep_cost(q, p - 1);
}

}  // namespace hmpi::coll
