// Push allgather: every rank copies its own contribution (its send buffer,
// or with MPI_IN_PLACE its own block of its receive buffer, which nobody
// else writes) into its block of every receive buffer, its own first, then
// the peers' in staggered order (r+1, r+2, ...) as they arrive; then it
// says it is done and returns once every rank is done (until then peers are
// still writing into its buffer).
//
// The write-side dual of direct (the one-stage allgather, Li, Hoefler et
// al., Section 2.2; as push alltoall is pairwise's): the same P copies of a
// block per rank, but every source is the writer's own, in its cache where
// the application has just written it, and every destination is a block
// the same rank wrote in the previous call, in its cache unless the owner
// read it since. Direct's readers pull P - 1 blocks from the cores that
// wrote them instead. Non-temporal stores once the P receive buffers outgrow
// the cache (YHCCL Algorithm 1), or from nt_copy_from a rank on where
// hmpi-calibrate measured them cheaper inside it (result_store_kind_for,
// data.hpp), as direct; their lines priced at nt_copy_ratio there
// (result_copy_scale, cost.hpp).
//
// Model cost: push alltoall's (push.cpp there, its own block included),
// whose copies these are with every block the same: a + X P (P - 1) m +
// a_alpha + Y ((a, C) = alpha, or beta when s > 1), X = push_line where the
// profile has it and a rank's 2 P m bytes fit its L2, push_line_beyond past
// it within the cache, else C (all_push_step_cost); Y = all_poll_excess.
// Unlike tiled_push's (no fold to hide under), the pushes
// are the whole work, so they are charged even into lines the rank holds.
//
// Flags: flag 1 step 1 = "I have written my block everywhere".
#include <algorithm>

#include "collectives/allgather/allgather.hpp"
#include "collectives/framework/blocks.hpp"

namespace hmpi::coll {

CollTask allgather_push(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int r = ctx.rank(), p = ctx.size();
    int rc = MPI_SUCCESS;
    const std::size_t ws = message_bytes(ctx) * static_cast<std::size_t>(p) * static_cast<std::size_t>(p);
    const StoreKind kind = result_store_kind_for(ws, ctx.topology(), true, me.in_place);
    const SrcBlock mine = contribution(me, r);
    if (!me.in_place) rc = copy_block(mine, recv_block(me, r), kind);
    PeerSweep peers(r, p);
    CO_WAIT_UNTIL(peers.sweep([&](int q) { return ctx.arrived(q); },
                              [&](int q) {
                                  const CollCall& theirs = ctx.args_of(q);
                                  // A truncation is the receiver's error: q judges its own below.
                                  (void)copy_block(mine, recv_block(theirs, r), kind);
                                  // What q writes into my buffer, judged while q's
                                  // arguments are surely valid (q waits for my flag).
                                  if (truncates(contribution(theirs, q), recv_block(me, q)) && rc == MPI_SUCCESS)
                                      rc = MPI_ERR_TRUNCATE;
                              }));
    ctx.publish(1, 1);
    CO_WAIT_UNTIL(ctx.all_reached(1, 1));
    co_return rc;
}

// The pushes store non-temporally where result_store_kind_for says so (its
// working set as above, m p^2).
double allgather_push_cost(const CostQuery& q) {
    const auto p = static_cast<std::size_t>(std::max(q.p(), 1));
    return all_push_exchange_cost(q, result_copy_scale(q, q.bytes * p * p));
}

}  // namespace hmpi::coll
