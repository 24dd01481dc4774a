// Tree allreduce: Li, Hoefler, Hu, Snir (2014), Section 2.2 ("reduce-
// broadcast"): an n-ary reduction tree mapped onto the topology (cache
// domains first, then across them; framework/tree_place.hpp), whose first
// intra-domain phase is Eq. 1's congestion-aware one (q - d reductions at
// once), then a one-stage or two-stage broadcast of the result (Eq. 4),
// whichever the model predicts cheaper (li_bcast's two_stage).
//
// Cost, Eq. 5 = Eq. 3 + Eq. 4:
//   T = a_a + (q-d) B_a m + (a_a + b_a m) ceil(log2 d)      (Eq. 1 + intra)
//     + (a_b + b_b m) ceil(log2 s)                          (Eq. 2)
//     + min(a_a + B_a (q-1) m + a_b + b_b m, a_b + B_b q m) (Eq. 4)
//     + rewrite(m) (the top's fold stores into the lines its readers
//       copied last call: result_source_rewrite_cost; fold_rewrite_line m
//       at every size, or rewrite_line m while 4 m fits the L2 where the
//       profile has no fold_rewrite_line)
//     + (r - b) m (the first fold takes the top's input along;
//       tree_first_fold_excess, tree_shape.hpp)
//     + step_overhead (the broadcast's step is one of HMPI's, as the
//       reduction's levels are: busy_excess(2))
// (the a of Eq. 1, the intra part and Eq. 2 are busy_a(p) = a +
// step_overhead + busy_step (p - 2), params.hpp: HMPI's step, every rank
// in the tree's steps at once)
// with the n-ary forms (n - 1)(a + b m) ceil(log_n x) for radix n != 2
// (knobs.hpp), and the in-cache or memory per-line costs by the working
// set p * m lines (cost.hpp); plus a_a / p: the top alone waits one more
// handoff for the broadcast's acknowledgements (predictions are the mean
// over ranks, docs/model.md), except for a result in a flag payload, which
// needs none (result_bcast).
//
// Any op (non-commutative ones fold in rank order, the lower rank as `in`),
// any datatype, MPI_IN_PLACE. Vectors of a contiguous type up to 56 bytes
// travel in flag payloads: one cache line per tree step, no buffer reads,
// no scratch. A node's partial is its receive buffer (which holds its input
// under MPI_IN_PLACE), so nothing is allocated, except for an in-place
// inner node of a non-commutative op (one scratch, reduction.hpp).
//
// Flags: flag 1 step 1 = "my partial is ready" (to the parent); flag 2 step
// 1 = "my receive buffer (payload) holds the result", flag 3 step 1 = "I
// have copied it" (result_bcast). Every input and partial is read before
// the top has the result, so the broadcast's acknowledgements are all the
// lifetime rule needs.
#include <cstring>

#include "collectives/allreduce/allreduce.hpp"
#include "collectives/allreduce/knobs.hpp"
#include "collectives/allreduce/tree_shape.hpp"
#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduction.hpp"

namespace hmpi::coll {

CollTask tree_reduce_phase(CollCtx& ctx, const TreePlace& tp, void* dst, const Datatype* dst_type, bool small,
                           bool copy_first, unsigned char* small_result) {
    const CollCall& me = ctx.call();
    const Op& op = *me.op;
    const std::int64_t n = me.sendcount;
    const Datatype& type = *me.sendtype;
    const Operand mine = input_of(me);
    const int k = tp.children.size();
    const bool top = tp.parent < 0;

    if (small) {
        const std::size_t bytes = data_bytes(n, type);
        FrameBytes<64> acc_bytes, tmp_bytes;  // not alignas on the arrays: see FrameBytes
        unsigned char* const acc = acc_bytes.bytes;
        unsigned char* const tmp = tmp_bytes.bytes;
        auto child_into = [&](unsigned char* to, int i) { std::memcpy(to, ctx.payload_of(tp.children[i], 1), bytes); };
        if (k == 0) {
            std::memcpy(acc, mine.buf, bytes);
        } else if (op.commutative) {
            std::memcpy(acc, mine.buf, bytes);
            for (int i = 0; i < k; ++i) {
                CO_WAIT_UNTIL(ctx.reached(tp.children[i], 1, 1));
                child_into(tmp, i);
                reduce_data(op, tmp, acc, n, type);
            }
        } else {
            CO_WAIT_UNTIL(ctx.all_reached_of(tp.children, 1, 1));
            child_into(acc, k - 1);
            for (int i = k - 2; i >= 0; --i) {
                child_into(tmp, i);
                reduce_data(op, tmp, acc, n, type);
            }
            reduce_data(op, mine.buf, acc, n, type);
        }
        if (top) {
            std::memcpy(small_result, acc, bytes);
        } else {
            std::memcpy(ctx.payload(1), acc, bytes);
            ctx.publish_to(1, 1, tp.parent);
        }
        co_return MPI_SUCCESS;
    }

    int rc = MPI_SUCCESS;
    const bool dst_is_input = me.in_place && dst == me.recvbuf;
    if (k == 0) {
        if (top && !dst_is_input) rc = copy_data(mine.buf, n, *mine.type, dst, n, *dst_type);
        if (!top) {
            ctx.publish_scratch(mine.buf);
            ctx.publish_to(1, 1, tp.parent);
        }
        co_return rc;
    }
    if (op.commutative) {
        // The first child's partial and this rank's input fold into dst in
        // one pass (a third-buffer reduction, r per line) rather than a copy
        // of the input followed by a fold (c + b per line): 2 ranks, 1 MiB
        // Reduce, 2.7 ns a line against 1.9. Only a vector whose copy would
        // not outlast the wait for that child is copied first, to overlap
        // the two (docs/model.md, "The tree's first fold, a broadcast
        // source's rewrite, and memory rates").
        int i = 0;
        if (!dst_is_input) {
            if (ctx.reached(tp.children[0], 1, 1) || !copy_first) {
                CO_WAIT_UNTIL(ctx.reached(tp.children[0], 1, 1));
                reduce_data3(op, ctx.scratch_of(tp.children[0]), mine.buf, dst, n, type);
                i = 1;
            } else {
                rc = copy_data(mine.buf, n, *mine.type, dst, n, *dst_type);
            }
        }
        for (; i < k; ++i) {
            CO_WAIT_UNTIL(ctx.reached(tp.children[i], 1, 1));
            reduce_data(op, ctx.scratch_of(tp.children[i]), dst, n, type);
        }
    } else {
        CO_WAIT_UNTIL(ctx.all_reached_of(tp.children, 1, 1));
        auto operand = [&](int i) -> Operand {
            if (i == 0) return mine;
            return {ctx.scratch_of(tp.children[i - 1]), &type};
        };
        rc = reduce_in_order(op, type, n, 0, k + 1, operand, dst, *dst_type, dst_is_input ? 0 : -1);
    }
    if (!top) {
        ctx.publish_scratch(dst);
        ctx.publish_to(1, 1, tp.parent);
    }
    co_return rc;
}

namespace {

// Every rank's input and its receive buffer (partials, then the result):
// 2 p m, as for the other allreduce algorithms.
std::size_t reduction_working_set(const CostQuery& q) { return 2 * static_cast<std::size_t>(q.p()) * q.bytes; }

const CollPlan tree_plan([](const CostQuery& q) {
    const std::size_t ws = reduction_working_set(q);
    TreeChoices c;
    c.survivors = eq1_survivors(q, q.q(), ws);
    li_bcast(q, q.q(), q.s(), q.m(), ws, &c.two_stage);
    c.copy_first = copy_hides_wait(q);
    return c.pack();
}, [](std::uint32_t v) { return TreeChoices::describe(v, true); });

}  // namespace

CollTask allreduce_tree(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const std::int64_t n = me.sendcount;
    const Datatype& type = *me.sendtype;
    const bool small = fits_payload(n, type);
    const TreeChoices choices = TreeChoices::unpack(ctx.plan(tree_plan));

    TreeOptions o;
    o.radix = kReductionKnobs.tree_radix;
    o.rank_order = !me.op->commutative;
    o.survivors = choices.survivors;
    const TreePlace tp = ctx.tree_place(o);

    FrameBytes<64> result_bytes;  // not alignas on an array: see FrameBytes
    unsigned char* const result = result_bytes.bytes;
    int rc = MPI_SUCCESS;
    CO_RUN(rc, tree_reduce_phase(ctx, tp, me.recvbuf, me.recvtype, small, choices.copy_first, result));
    if (tp.parent < 0 && small) {
        std::memcpy(ctx.payload(2), result, data_bytes(n, type));
        if (int e = copy_data(result, n, type, me.recvbuf, me.recvcount, *me.recvtype)) rc = e;
    }
    int rc2 = MPI_SUCCESS;
    CO_RUN(rc2, result_bcast(ctx, tp.top, choices.two_stage, small));
    co_return rc != MPI_SUCCESS ? rc : rc2;
}

double allreduce_tree_cost(const CostQuery& q) {
    const std::size_t ws = reduction_working_set(q);
    const int n = kReductionKnobs.tree_radix;
    const double m = q.m();
    bool two_stage = false;
    const double bcast = li_bcast(q, q.q(), q.s(), m, ws, &two_stage);
    // The reduction's levels read their children's arguments; the broadcast's
    // readers the root's (and, two-stage, their leader's). Beyond a payload,
    // the top folds into its receive buffer, which the previous call's
    // readers copied out and still hold. Within one, partials and result
    // travel in flag lines: neither. (2 ranks on the EPYC guest, stop 33:
    // 8-32 B 1.05 us against 1.74-1.83 from 64 B in the slow state, 0.33
    // against 0.48-0.52 in the fast one.)
    const bool payload = payload_sized(q);
    const double rewrite = payload ? 0.0 : result_source_rewrite_cost(q);
    const double bcast_args = payload ? 0.0 : peer_args_cost(q, two_stage ? 2 : 1);
    // The broadcast is a step of HMPI's after the reduction's last, a task
    // of its own (result_bcast) that each reader enters once the top has
    // published: its handoff pays step_overhead as the reduction's levels
    // do (busy_a), at its reader's pair (busy_excess(2): 16-rank runs
    // scored worse with all p). 2 ranks on the EPYC guest, fast state
    // (stop 61): 8-32 B 0.77-0.79 of the measured time without it, 0.98-1.01
    // with; 64 B-4 KiB 0.89-0.97, 0.99-1.05 (docs/model.md, "The tree
    // Allreduce's broadcast step").
    const double bcast_step = q.p() > 1 ? busy_excess(q, 2) : 0.0;
    return nary_intra_tree_reduce(q, q.q(), m, ws, n) + nary_inter_tree_reduce(q, q.s(), m, ws, n) +
           tree_first_fold_excess(q, q.q(), q.s(), m, ws) + rewrite + tree_reduce_peer_args(q, n) + bcast +
           bcast_step + bcast_args + (q.p() > 1 && !payload ? q.params.alpha.a / q.p() : 0.0);
}

}  // namespace hmpi::coll
