// Flat barrier: every rank waits for every other's arrival flag.
//
// The arrival flag is the one the driver publishes when a rank enters the
// collective (context.hpp), so the barrier adds no write of its own.
// Cost: one flag write per rank, then each rank polls P flags: P - 1 cache
// line transfers per rank, all in parallel, so time ~ a + (P - 1) * line
// transfer (Li-Hoefler's latency term for a flat, congestion-free read).
// The answer for small P; the tree and dissemination forms win as P grows.
#include "collectives/barrier/barrier.hpp"

namespace hmpi::coll {

CollTask barrier_flat(CollCtx& ctx) {
    CO_WAIT_UNTIL(ctx.all_reached(0, 1));
    co_return MPI_SUCCESS;
}

}  // namespace hmpi::coll
