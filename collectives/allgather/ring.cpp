// Ring allgather: in round k = 1 .. P-1, rank r copies block (r - k) mod P
// from its left neighbour's receive buffer, where the neighbour placed it
// in its round k - 1 (round 0: every rank places its own block; with
// MPI_IN_PLACE it is there already). Each copy goes straight from the
// neighbour's buffer into r's; a rank reads only its left neighbour, so no
// buffer ever has more than one reader.
//
// The classic ring allgather (Thakur, Rabenseifner and Gropp, "Optimization
// of Collective Communication Operations in MPICH", IJHPCA 2005):
// P - 1 rounds, each a + c * m, so (P - 1) * (a + c * m) per rank;
// it trades the direct form's P - 1 concurrent readers per buffer for
// P - 1 dependent rounds. The per-round signal is one flag line between
// neighbours.
//
// Model cost: P - 1 dependent rounds in which all P ranks copy one block:
// (P - 1) (a + C P m) + a_alpha ((a, C) = alpha, or beta when s > 1);
// + c_alpha m for round 0's own block past the L2s (own_block_copy_cost).
// The a of these steps is busy_a(p) = a + step_overhead + busy_step
// (p - 2) (params.hpp): every rank takes them at the same time. The right
// neighbour copied every block out of this rank's receive buffer in the
// previous call: + rewrite((P - 1) m) while 2 P m fits the L2, or where
// its block copies reach copy_rewrite_bytes (recursive_doubling.cpp).
//
// Flags: flag 1 step s = "I hold s blocks" (s = 1 .. P, read by the right
// neighbour), so P <= 255 (table.cpp checks); flag 2 step 1 = "I have read
// everything I need from my left neighbour" (read by it: the lifetime rule).
#include "collectives/allgather/allgather.hpp"
#include "collectives/framework/blocks.hpp"

namespace hmpi::coll {

CollTask allgather_ring(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), r = ctx.rank();
    const int left = (r - 1 + p) % p, right = (r + 1) % p;
    int rc = MPI_SUCCESS;
    if (!me.in_place) rc = copy_block(send_whole(me), recv_block(me, r));
    ctx.publish_to(1, 1, right);
    for (int k = 1; k < p; ++k) {
        // The left neighbour holds blocks left, left-1, ..., left-k+1 = r-k after its round k-1.
        CO_WAIT_UNTIL(ctx.reached(left, 1, static_cast<unsigned>(k)));
        const int j = (r - k + p) % p;
        const int e = copy_block(as_source(recv_block(ctx.args_of(left), j)), recv_block(me, j), StoreKind::rewrite);
        if (rc == MPI_SUCCESS) rc = e;
        ctx.publish_to(1, static_cast<unsigned>(k + 1), right);
    }
    ctx.publish_to(2, 1, left);
    CO_WAIT_UNTIL(ctx.reached(right, 2, 1));
    co_return rc;
}

double allgather_ring_cost(const CostQuery& q) {
    if (q.p() <= 1) return 0;
    const LinkCost& link = q.s() > 1 ? q.params.beta : q.params.alpha;
    const std::size_t ws = q.bytes * static_cast<std::size_t>(q.p()) * static_cast<std::size_t>(q.p());
    const double round = congested_copy_step_cost(q, link, q.m(), q.p(), ws) + busy_excess(q, q.p());
    // The successor copied these blocks out of this rank's receive buffer
    // in the previous call (recursive_doubling.cpp).
    // Every round reads the left neighbour's arguments: from the cache after the first.
    return (q.p() - 1) * round + own_block_copy_cost(q, ws) + q.params.alpha.a + peer_args_cost(q, 1) +
           copy_rewrite_cost(q, (q.p() - 1) * q.m(), q.bytes, q.bytes * static_cast<std::size_t>(q.p()));
}

}  // namespace hmpi::coll
