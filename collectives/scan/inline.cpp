// Inline scan and exscan (copy-in/copy-out, framework/inline.hpp): every
// rank copies its input vector into its own flag payload (up to 48 bytes)
// or inline area (up to inline_capacity(p)) and publishes it; rank r then folds
// x_0 .. x_r (exscan: x_0 .. x_{r-1}) in rank order from those copies into
// its receive buffer. No rank waits for a higher one (the linear form waits
// until its input's readers are done); a rank rewrites its inline data only
// once they have released this slot's previous collective.
//
// Source: the linear prefix (every rank folds the inputs below it, all at
// once) with copy-in/copy-out as collectives-techniques.md describes it
// for small data. Vectors of a contiguous type up to inline_capacity(p).
//
// Cost (our formula; inline.hpp), the mean over ranks: rank 0 reads nothing
// and leaves after its copy-in; rank r waits for the handoff and pulls the r
// vectors below it, p/2 on average over the p - 1 readers, their shares
// within and across cache domains as for the whole communicator, all ranks
// at once:
//   T = (p-1)/p (a + Y(ceil(p/2)+1) + p(q-1)/(2(p-1)) m max(b_a, B_a p) + p(p-q)/(2(p-1)) m max(b_b, B_b p))
// (Y(w) = all_poll_excess(w): HMPI's wait for w ranks' flags at once; inline.hpp)
// (Up to stop 19 a reader was charged (p-1)/2 vectors, the mean over all p
// ranks rather than over the readers: half the pull at 2 ranks, where
// rank 1 pulls rank 0's whole vector.)
#include <limits>

#include "collectives/framework/inline.hpp"
#include "collectives/reduce/reduction.hpp"
#include "collectives/scan/scan.hpp"

namespace hmpi::coll {

namespace {

// Once the inputs below this rank are there, folds them (CollTask::polling).
// `inclusive`: scan (x_0 .. x_r), else exscan (x_0 .. x_{r-1}).
template <bool inclusive>
int prefix_inline_fold(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int rank = ctx.rank();
    const std::int64_t n = me.sendcount;
    const Datatype& type = *me.sendtype;
    const std::size_t bytes = data_bytes(n, type);
    const int last = inclusive ? rank + 1 : rank;  // fold ranks [0, last)
    if (!inline_all_ready(ctx, 0, rank, -1, {bytes, 0, bytes})) return CollTask::kPending;
    if (!inline_sizes_match(ctx, 0, rank, -1, bytes)) return MPI_ERR_TRUNCATE;
    if (last == 0) return MPI_SUCCESS;  // exscan's rank 0: its result is undefined (MPI 3.1, 5.11.2)
    // This rank's own operand is its input where it is, never its inline
    // copy (why: own_inline_operand, inline.hpp); under MPI_IN_PLACE that
    // is the receive buffer, which the fold takes as its alias (x_r is the
    // last operand, so nothing is overwritten before it is read).
    const Operand own = input_of(me);
    auto x = [&](int r) -> Operand { return r == rank ? own : Operand{inline_of(ctx, r).data, &type}; };
    const int alias = inclusive && me.in_place ? rank : -1;
    return reduce_in_order(*me.op, type, n, 0, last, x, me.recvbuf, *me.recvtype, alias);
}

// Publish (all but the last rank, whose input has no reader), then one
// wait: a frameless task.
template <bool inclusive>
CollTask prefix_inline(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    if (ctx.rank() + 1 < ctx.size()) {
        const std::size_t bytes = data_bytes(me.sendcount, *me.sendtype);
        inline_copy_in(input_of(me).buf, *me.sendtype, bytes, inline_begin(ctx, bytes));
        inline_publish(ctx, bytes);
    }
    return CollTask::polling<prefix_inline_fold<inclusive>>(ctx);
}

double prefix_inline_cost(const CostQuery& q) {
    if (q.bytes > inline_capacity(q.p())) return std::numeric_limits<double>::infinity();
    const int p = q.p();
    if (p <= 1) return 0;
    const double m = q.m();
    const std::size_t ws = static_cast<std::size_t>(p) * q.bytes;
    // Reader r pulls r vectors: p/2 on average, their domain shares as in the whole.
    const double per = p / 2.0 / (p - 1);
    // Rank r's vector is read by the p - 1 - r ranks after it.
    return inline_copy_in_all_cost(q, q.bytes, (p - 1) / 2.0) +
           mean_over_ranks(q, p - 1,
                           inline_read_cost(q, LineOp::reduce, per * (q.q() - 1) * m, per * (p - q.q()) * m, p, ws, (p + 1) / 2));
}
}  // namespace

CollTask scan_inline(CollCtx& ctx) { return prefix_inline<true>(ctx); }
CollTask exscan_inline(CollCtx& ctx) { return prefix_inline<false>(ctx); }
double scan_inline_cost(const CostQuery& q) { return prefix_inline_cost(q); }
double exscan_inline_cost(const CostQuery& q) { return prefix_inline_cost(q); }

}  // namespace hmpi::coll
