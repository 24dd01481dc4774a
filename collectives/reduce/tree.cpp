// Tree reduction: the reduction phase of the tree allreduce (Li, Hoefler,
// Hu, Snir 2014, Section 2.6: "a reduce can be implemented as the reduction
// phase in allreduce"), an n-ary tree over the topology with Eq. 1's first
// phase (collectives/framework/tree_place.hpp). As the paper says, inner
// nodes other than the root need a temporary buffer for their partial (only
// the root has an output buffer); vectors up to 56 bytes of a contiguous type
// travel in flag payloads instead, with no buffer at all.
//
// For a commutative op the root leads every group holding it, so the
// result lands in its receive buffer; for a non-commutative one the tree
// keeps rank order with rank 0 on top, which then hands the result to the
// root (one extra copy of m lines).
//
// Cost, Eq. 3 = Eq. 1 + intra + Eq. 2:
//   T = a_a + (q-d) B_a m + (a_a + b_a m) ceil(log2 d) + (a_b + b_b m) ceil(log2 s)
// (n-ary forms for radix n != 2, knobs.hpp; working set (p + 1) m: the inputs and the result;
// each level's step also pays N(m) = near_excess, its child waiting while read), plus
// (p-1)/p a_a: every rank but the root waits one more handoff for its
// parent's "folded" (predictions are the mean over ranks). Partials that
// travel in flag payloads need no "folded" (nor the root's "copied" below):
// a payload's slot is not reused before every member has released the
// call (driver.cpp, may_enter), so a child leaves once it has published,
// and the mean over ranks is reduce_tree_payload_cost's: each level's step
// also holds the child's own code before its publish (step_overhead), and
// every rank but the root spends that code, + step_overhead (p-1)/p.
//
// Flags: flag 1 step 1 = "my partial is ready" (to the parent; the top's:
// "the result is ready" to the root when they differ); flag 2 step 1 = "I
// have folded my children" (they wait for it: their partials are read
// until then); flag 3 step 1 = "the root has copied the result" (root to
// top). tree_reduce_phase does the folding.
#include <algorithm>
#include <cstring>

#include "collectives/allreduce/knobs.hpp"
#include "collectives/allreduce/tree_shape.hpp"
#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduce.hpp"
#include "collectives/reduce/reduction.hpp"
#include "core/op.hpp"

namespace hmpi::coll {

namespace {
// Eq. 1's survivors over every rank's input (p m), and the first fold's
// copy_hides_wait; the result is not broadcast.
const CollPlan tree_plan([](const CostQuery& q) {
    TreeChoices c;
    c.survivors = eq1_survivors(q, q.q(), static_cast<std::size_t>(q.p()) * q.bytes);
    c.copy_first = copy_hides_wait(q);
    return c.pack();
}, [](std::uint32_t v) { return TreeChoices::describe(v, false); });
}  // namespace

CollTask reduce_tree(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int rank = ctx.rank(), root = me.root;
    const std::int64_t n = me.sendcount;
    const Datatype& type = *me.sendtype;
    const bool commutative = me.op->commutative;
    const bool small = fits_payload(n, type);
    const TreeChoices choices = TreeChoices::unpack(ctx.plan(tree_plan));

    TreeOptions o;
    o.radix = kReductionKnobs.tree_radix;
    o.rank_order = !commutative;
    o.lead = commutative ? root : -1;
    o.survivors = choices.survivors;
    const TreePlace tp = ctx.tree_place(o);
    const bool top = tp.parent < 0;

    // Where this node's partial goes.
    TypedScratch scratch;
    void* dst = nullptr;
    const Datatype* dst_type = &type;
    if (!small) {
        if (top && rank == root) {
            dst = me.recvbuf;
            dst_type = me.recvtype;
        } else if (top || !tp.children.empty()) {
            scratch = TypedScratch(n, type);
            dst = scratch.data();
        }
    }
    FrameBytes<64> result_bytes;  // not alignas on an array: see FrameBytes
    unsigned char* const result = result_bytes.bytes;
    int rc = MPI_SUCCESS;
    CO_RUN(rc, tree_reduce_phase(ctx, tp, dst, dst_type, small, choices.copy_first, result));
    if (!small && !tp.children.empty()) ctx.publish(2, 1);

    if (top && rank == root) {
        if (small) rc = copy_data(result, n, type, me.recvbuf, me.recvcount, *me.recvtype);
    } else if (top) {
        // Non-commutative op, root elsewhere: offer the result, wait until it is taken.
        if (small) std::memcpy(ctx.payload(1), result, data_bytes(n, type));
        else ctx.publish_scratch(dst);
        ctx.publish_to(1, 1, root);
        if (!small) CO_WAIT_UNTIL(ctx.reached(root, 3, 1));
    }
    if (rank == root && !top) {
        CO_WAIT_UNTIL(ctx.reached(tp.top, 1, 1));
        const void* from = small ? static_cast<const void*>(ctx.payload_of(tp.top, 1)) : ctx.scratch_of(tp.top);
        rc = copy_data(from, n, type, me.recvbuf, me.recvcount, *me.recvtype);
        if (!small) ctx.publish_to(3, 1, tp.top);
    }
    if (!small && !top) CO_WAIT_UNTIL(ctx.reached(tp.parent, 2, 1));
    co_return rc;
}

namespace {

// The payload path, as the mean over ranks: a rank leaves once it has
// folded the levels it is a parent at (no "folded" to wait for). Level j
// (Eq. 1's first phase and the levels within domains, then those across)
// has one parent in n^j ranks, each waiting for its n - 1 children in
// turn, so the mean of the ranks' times is sum_j (n - 1) step_j / n^j:
// half a step at two ranks, as inline Reduce's. Eq. 1's first phase is
// paid by its d survivors, each folding its run of the domain's ranks
// while the other q - d leave at once. 2 ranks on the
// 2-core EPYC guest, 8-56 B, slow state (stop 46): 0.17-0.21 us against
// 0.58-0.62 with "folded".
// A child is not free either: it runs a step of HMPI's own code (its
// task, its place in the tree, its payload's publish: step_overhead,
// what a step costs beyond the link's a) before it publishes, so every
// parent's wait holds its child's code besides its own (busy_a), and
// every rank but the root spends that code itself: + step_overhead in
// each step, + step_overhead (p - 1) / p in the mean. Without them the
// payload path was 0.54-0.57 of its measured time at 8-32 B (2 ranks,
// EPYC guest, fast state, s61np2 and s61np2b; 0.53-0.76 on the Intel
// guest's runs of stops 50-57); docs/model.md, "A tree child's own code".
double reduce_tree_payload_cost(const CostQuery& q, std::size_t ws, int n) {
    n = std::max(2, n);
    const double m = q.m();
    const LinkCost &al = q.params.alpha, &be = q.params.beta;
    const double child_code = q.params.step_overhead;
    const double within = busy_a(q, al, q.p()) + child_code + line_cost(q, al, ws) * m;
    const double across = busy_a(q, be, q.p()) + child_code + line_cost(q, be, ws) * m;
    const int d = eq1_survivors(q, q.q(), ws);
    double share = static_cast<double>(d) / q.q();
    double mean = d < q.q() ? share * (busy_a(q, al, q.p()) + child_code +
                                       (q.q() - d) * congested_line_cost(q, al, ws) * m)
                            : 0.0;
    for (int j = ceil_log(d, n); j > 0; --j) mean += (n - 1) * within * (share /= n);
    for (int j = ceil_log(q.s(), n); j > 0; --j) mean += (n - 1) * across * (share /= n);
    return mean + child_code * (q.p() - 1) / q.p();
}

}  // namespace

double reduce_tree_cost(const CostQuery& q) {
    const std::size_t ws = (static_cast<std::size_t>(q.p()) + 1) * q.bytes;  // the inputs and the results
    const int n = kReductionKnobs.tree_radix;
    if (payload_sized(q)) return reduce_tree_payload_cost(q, ws, n);
    return nary_intra_tree_reduce(q, q.q(), q.m(), ws, n) + nary_inter_tree_reduce(q, q.s(), q.m(), ws, n) +
           tree_first_fold_excess(q, q.q(), q.s(), q.m(), ws) + tree_reduce_peer_args(q, n) +
           input_released_wait_cost(q);
}

}  // namespace hmpi::coll
