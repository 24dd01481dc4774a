// Binomial-tree reduction. Node v (ranks renumbered so the tree's root is
// node 0) owns the contiguous node range [v, v + lowbit(v)) (node 0: all):
// its children are v + 1, v + 2, v + 4, ... below lowbit(v), and its
// partial result is x_v op P(v + 1) op P(v + 2) op P(v + 4) ..., where P(c)
// is child c's partial over its own range. Ranges stay contiguous and in
// order, so the tree is right for non-commutative ops as long as nodes are
// ranks in rank order: for those the tree's root is rank 0, which then
// copies the result into the real root's receive buffer; commutative ops
// renumber the ranks around the root (node = (rank - root) mod P) and need
// no final copy.
//
// A leaf's partial is its input, which its parent reads in place; an inner
// node folds into a scratch buffer (the root node into its receive buffer
// when it is the real root) and offers it to its parent (publish_scratch).
//
// Cost (Li-Hoefler Eq. 2's form at both levels, no Eq. 1 first phase: the
// binomial tree ignores congestion; rank ranges are domain-local first when
// domains are rank ranges): one scratch of m bytes per inner node. A node
// folds all its children at once, after the last is ready, so the critical
// path runs through the heads of levels 1..L (L = ceil(log2 q) +
// ceil(log2 s), levels within domains first), the head of level k folding
// a chain of k: the first into a third buffer (r), the rest accumulating
// (b), each over its child's level's link:
//   T = sum_k [ a_k + (r_1 + b_2 + ... + b_k) m + N(m) ]
// (N(m) = near_excess, cost.hpp: the child waits while its partial is read)
// (L (a + r m) + L (L - 1)/2 b m on one link). Until stop 31 each level
// was charged one b: at 2 ranks on the 2-core EPYC (one fold, x_0 op x_1
// into the receive buffer) that was b m where r m is the work.
// The a of these steps is busy_a(p) = a + step_overhead + busy_step
// (p - 2) (params.hpp): every rank takes them at the same time.
// (working set (p + 1) m: the inputs and the result). Plus (p-1)/p a_a:
// every rank but the root waits for its parent's "folded" (flag 2).
//
// Flags: flag 1 step 1 = "my partial is ready in my published scratch"
// (inner nodes, read by the parent); flag 2 step 1 = "I have folded my children's partials" (children
// wait for it before returning, since until then their buffers are read);
// flag 3 step 1 = "the result is in your receive buffer" (node 0 to the real
// root, for non-commutative ops with root != 0).
#include <cstdint>
#include <vector>

#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduce.hpp"
#include "collectives/reduce/reduction.hpp"

namespace hmpi::coll {

CollTask reduce_binomial(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), root = me.root;
    const std::int64_t n = me.sendcount;
    const Datatype& type = *me.sendtype;
    const int top = me.op->commutative ? root : 0;  // the rank at node 0
    auto real = [&](int node) { return (node + top) % p; };
    const int v = (ctx.rank() - top + p) % p;
    // Node `node` covers [node, node + span(node)); its children halve that.
    auto span = [&](int node) { return node == 0 ? p : (node & -node); };
    auto inner = [&](int node) { return node + 1 < p && span(node) > 1; };
    const int parent = v > 0 ? v - span(v) : -1;

    std::vector<int> children;
    for (int d = 1; d < span(v) && v + d < p; d <<= 1) children.push_back(v + d);
    const std::size_t k = children.size();

    // Where this node's partial goes.
    const bool result_in_recvbuf = v == 0 && ctx.rank() == root;
    TypedScratch scratch;
    void* dst = nullptr;
    const Datatype* dst_type = &type;
    int alias = -1;
    if (result_in_recvbuf) {
        dst = me.recvbuf;
        dst_type = me.recvtype;
        alias = me.in_place ? 0 : -1;  // operand 0 is this node's own input
    } else if (k > 0) {
        scratch = TypedScratch(n, type);
        dst = scratch.data();
    }

    for (const int c : children) {
        if (inner(c))
            CO_WAIT_UNTIL(ctx.reached(real(c), 1, 1));
        else
            CO_WAIT_UNTIL(ctx.arrived(real(c)));
    }
    // Operand 0: this node's input; operand i: child i - 1's partial.
    auto operand = [&](int i) -> Operand {
        if (i == 0) return input_of(me);
        const int c = children[static_cast<std::size_t>(i - 1)];
        if (inner(c)) return {ctx.scratch_of(real(c)), &type};
        return input_of(ctx.args_of(real(c)));
    };
    int rc = MPI_SUCCESS;
    if (result_in_recvbuf || k > 0)
        rc = reduce_in_order(*me.op, type, n, 0, static_cast<int>(k) + 1, operand, dst, *dst_type, alias);
    if (k > 0) {
        if (v > 0) {
            ctx.publish_scratch(dst);
            ctx.publish_to(1, 1, real(parent));
        }
        ctx.publish(2, 1);
    }
    if (v == 0 && !result_in_recvbuf) {
        // Every input has been folded, so the root's receive buffer (its
        // input under MPI_IN_PLACE) is no longer read by anyone.
        CO_WAIT_UNTIL(ctx.arrived(root));
        const CollCall& at_root = ctx.args_of(root);
        copy_data(dst, n, type, at_root.recvbuf, n, *at_root.recvtype);
        ctx.publish_to(3, 1, root);
    }
    if (v > 0) CO_WAIT_UNTIL(ctx.reached(real(parent), 2, 1));
    if (ctx.rank() == root && v != 0) CO_WAIT_UNTIL(ctx.reached(real(0), 3, 1));
    co_return rc;
}

double reduce_binomial_cost(const CostQuery& q) {
    const std::size_t ws = (static_cast<std::size_t>(q.p()) + 1) * q.bytes;  // the inputs and the results
    const int within = ceil_log2(q.q()), levels = within + ceil_log2(q.s());
    if (levels == 0) return 0;
    const double busy = busy_excess(q, q.p());
    auto link = [&](int level) -> const LinkCost& { return level <= within ? q.params.alpha : q.params.beta; };
    // The node heading level k folds its own input and its k children's
    // partials in one chain once all are ready: the first fold into a third
    // buffer (r, over level 1's link), each further one accumulating (b, over
    // its child's level). Its largest child is the previous level's head.
    double t = 0, chain = reduce3_line_cost(q, link(1), ws);
    for (int k = 1; k <= levels; ++k) {
        if (k > 1) chain += line_cost(q, link(k), ws);
        t += link(k).a + busy + chain * q.m() + near_excess(q, q.m());  // the child waits while it is read
    }
    // Each level reads its child's arguments. Every rank but the root then
    // waits one more handoff for its parent's "folded" (the mean over
    // ranks, as the tree's and linear's; docs/model.md, "Reduce's waits at
    // two ranks").
    return t + peer_args_cost(q, levels) + peer_data_cost(q, levels) + input_released_wait_cost(q);
}

}  // namespace hmpi::coll
