// Recursive-doubling allgather, for a power-of-two number of ranks: in
// round k = 0 .. log2(P) - 1, rank r and its partner r XOR 2^k each hold
// the 2^k blocks of their aligned group (indices [r & ~(2^k - 1), + 2^k));
// r copies the partner's 2^k blocks straight from the partner's receive
// buffer into its own, after which both hold 2^(k+1) blocks. Round 0 starts
// from each rank's own block (placed first; there already with
// MPI_IN_PLACE). Writes in a round go to blocks outside the range any
// partner reads, so readers and the writer never touch the same bytes.
//
// Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication
// Operations in MPICH" (IJHPCA 2005), recursive doubling for allgather:
// log2(P) rounds, the k-th moving 2^k blocks, so log2(P) * a + (P - 1) * c * m
// per rank: the ring's volume in log2(P) dependent rounds instead of P - 1.
//
// Model cost: log2 P rounds, all P ranks copying (P - 1) m lines in all:
// log2(P) a + C P (P - 1) m + a_alpha ((a, C) = alpha, or beta when s > 1),
// + c_alpha m for the own block placed first, past the L2s (own_block_copy_cost);
// +infinity when P is not a power of two. Every line a rank writes into its
// receive buffer was read by its partners in the previous call (they
// copied those blocks out of it), so each store first invalidates their
// copies: + rewrite((P - 1) m) while 2 P m bytes fit the L2, and at every
// size where its block copies (m bytes each) reach the profile's
// copy_rewrite_bytes (copy_rewrite_cost, cost.hpp). Direct writes only lines nobody
// else reads. On the 16-core Xeon (stop 17) recursive doubling measured
// 13.6 ns per line per rank at 16 KiB against direct's 4.7, the difference
// about rewrite_line (8.7), and 1.8-3.4x direct's time from 1 to 128 KiB,
// where the model without the term charged both alike.
// The a of these steps is busy_a(p) = a + step_overhead + busy_step
// (p - 2) (params.hpp): every rank takes them at the same time.
//
// Flags: flag 1 step k+1 = "I have finished k rounds" (step 1: my own block
// is placed); the partner of round k waits for step k+1 before reading me,
// and I wait for every partner's step k+2 ("it has read me") before
// returning (the lifetime rule).
#include <limits>

#include "collectives/allgather/allgather.hpp"
#include "collectives/framework/blocks.hpp"

namespace hmpi::coll {

CollTask allgather_recursive_doubling(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), r = ctx.rank();
    int rc = MPI_SUCCESS;
    if (!me.in_place) rc = copy_block(send_whole(me), recv_block(me, r));
    unsigned rounds = 0;
    while ((1 << rounds) < p) ++rounds;
    // Partner of round k reads my step k+1 (to start) and k+2 (lifetime);
    // the partner of round k+1 waits for step k+2 too: ring both.
    if (rounds > 0) ctx.publish_to(1, 1, r ^ 1);
    for (unsigned k = 0; k < rounds; ++k) {
        const int partner = r ^ (1 << k);
        CO_WAIT_UNTIL(ctx.reached(partner, 1, k + 1));
        const CollCall& theirs = ctx.args_of(partner);
        const int first = partner & ~((1 << k) - 1);
        for (int j = first; j < first + (1 << k); ++j) {
            const int e = copy_block(as_source(recv_block(theirs, j)), recv_block(me, j), StoreKind::rewrite);
            if (rc == MPI_SUCCESS) rc = e;
        }
        ctx.publish_to(1, k + 2, partner);
        if (k + 1 < rounds) ctx.publish_to(1, k + 2, r ^ (1 << (k + 1)));
    }
    for (unsigned k = 0; k < rounds; ++k) CO_WAIT_UNTIL(ctx.reached(r ^ (1 << k), 1, k + 2));
    co_return rc;
}

double allgather_recursive_doubling_cost(const CostQuery& q) {
    if (q.p() <= 1) return 0;
    if ((q.p() & (q.p() - 1)) != 0) return std::numeric_limits<double>::infinity();
    const LinkCost& link = q.s() > 1 ? q.params.beta : q.params.alpha;
    const std::size_t ws = q.bytes * static_cast<std::size_t>(q.p()) * static_cast<std::size_t>(q.p());
    const double lines = (q.p() - 1) * q.m();
    // Every round reads a new partner's arguments.
    return ceil_log2(q.p()) * (busy_a(q, link, q.p()) + peer_args_cost(q, 1)) +
           congested_copy_line_cost(q, link, ws) * q.p() * lines +
           own_block_copy_cost(q, ws) + q.params.alpha.a +
           copy_rewrite_cost(q, lines, q.bytes, q.bytes * static_cast<std::size_t>(q.p()));
}

}  // namespace hmpi::coll
