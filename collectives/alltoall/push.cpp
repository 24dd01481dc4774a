// Push alltoall: every rank copies its block for peer q straight into
// block r of q's receive buffer, peers taken in staggered order (r+1,
// r+2, ...) as they arrive; then it says it is done and returns once every
// rank is done (until then peers are still writing into its buffer).
//
// MPI_IN_PLACE: a rank first takes a packed snapshot of its receive buffer
// (InPlaceSnapshot) and sends from it, and publishes "my buffer may be
// overwritten" only after that; a writer waits for that flag of an
// in-place receiver. Every source is then the writer's own memory, so no
// rank ever reads a buffer that is being overwritten.
//
// The one-stage (linear) alltoall with the copies on the senders, the
// write-side dual of the pairwise exchange (Thakur, Rabenseifner and Gropp,
// IJHPCA 2005, alltoall; with the staggered peer order of their pairwise
// algorithm but without its per-round synchronization, which shared memory
// does not need). Cost per rank: a + (P - 1) * c * m, all in parallel;
// in place adds one local copy of P * m bytes and one flag round.
//
// Model cost: as pairwise with the pusher's per-line cost:
// a + X P (P - 1) m + a_alpha + Y ((a, C) = alpha, or beta when s > 1), X =
// push_line where the profile has it and a rank's 2 P m bytes fit its L2
// (stores of local lines into lines the receiver read since:
// hmpi-calibrate's pushing ring), push_line_beyond past the L2 within the
// cache (the same ring, larger), else C; Y = all_poll_excess (cost.hpp:
// all_push_exchange_cost); + c_alpha m for the rank's own block, copied
// first, past the L2s (own_block_copy_cost).
// The in-place form's extra round (the receivers' "ready") is not charged:
// the model does not see MPI_IN_PLACE. Up to stop 17 every call was
// charged that round (2 a_alpha): at 2 ranks on the 2-core EPYC push and
// pairwise measured the same fixed cost (1.18-1.19 us at 8 B), and without
// the round hmpi-info's picks were within 10% at 2 more sizes in each of
// four 2-rank runs and 2 more in two of stop 17's three 16-rank runs.
//
// Flags: flag 1 step 1 = "my (in-place) receive buffer is saved, write
// into it"; flag 2 step 1 = "I have written all my blocks".
#include "collectives/alltoall/alltoall.hpp"

namespace hmpi::coll {

CollTask alltoall_push(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), r = ctx.rank();
    InPlaceSnapshot snapshot;
    if (me.in_place) {
        snapshot.take(me, p);
        ctx.publish(1, 1);
    }
    int rc = MPI_SUCCESS;
    if (!me.in_place) rc = copy_block(send_block(me, r), recv_block(me, r));
    // In place, my own block stays where it is: it is what I send myself.
    PeerSweep peers(r, p);
    CO_WAIT_UNTIL(peers.sweep(
        [&](int q) { return ctx.arrived(q) && (!ctx.args_of(q).in_place || ctx.reached(q, 1, 1)); },
        [&](int q) {
            const CollCall& theirs = ctx.args_of(q);
            const SrcBlock mine = me.in_place ? snapshot.block(q) : send_block(me, q);
            // A truncation is the receiver's error: q judges its own below.
            (void)copy_block(mine, recv_block(theirs, r), StoreKind::rewrite);
            // What q sends me, judged now, while q's arguments are surely valid
            // (q waits for my flag 2 before it returns).
            if (truncates(outgoing(theirs, r), recv_block(me, q))) rc = MPI_ERR_TRUNCATE;
        }));
    ctx.publish(2, 1);
    CO_WAIT_UNTIL(ctx.all_reached(2, 1));
    co_return rc;
}

double alltoall_push_cost(const CostQuery& q) { return all_push_exchange_cost(q); }

}  // namespace hmpi::coll
