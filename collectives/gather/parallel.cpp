// Parallel gather (ranks push): every non-root rank waits for the root to
// arrive, copies its send buffer straight into its own block of the root's
// receive buffer, and says so; the root copies its own block meanwhile and
// returns once every block is in. The P - 1 copies run on P - 1 cores at
// once, and a non-root rank leaves as soon as its copy is done (it never
// waits for the others).
//
// The write-side counterpart of the one-stage gather (Li, Hoefler et al.,
// Section 2.2, one-stage form, with the copies spread over the senders as
// in their tiled reduce). Cost: the P - 1 writers store their lines into
// the root's buffer at once (pushes: P, push_line, while a writer's own
// data fits its L2, else C; congested_push_step_cost), then the root
// polls their flags:
//   a + P (P - 1) m + a_alpha
// with (a, C) = alpha when s == 1, beta across cache domains; working set
// P m bytes. (2 ranks on the 2-core Xeon of stop 24: 0.55 us at 4 KiB and
// 0.76 at 16 KiB, 1.1 ns per line, where the pull's max(c, C) charged 4.3.)
// The copies store non-temporal inside the cache where hmpi-calibrate
// measured them cheaper (result_store_kind_for, data.hpp), their lines
// priced at nt_copy_ratio (result_copy_scale, cost.hpp).
//
// Flags: flag 1 = "my block is in the root's buffer": step 2 if it fit,
// step 1 if it was truncated. The receiver (the root) reports
// MPI_ERR_TRUNCATE, but the sender has left by the time the root looks, so
// the verdict travels in the flag. "Fit" is the higher step because a
// sender may already be in a later collective of the same slot (stamps are
// >= tests): a later stamp then reads as "fit", never as a false truncation.
#include "collectives/framework/blocks.hpp"
#include "collectives/gather/gather.hpp"

namespace hmpi::coll {

namespace {
// The working set the store choice weighs: p blocks sent, p received.
std::size_t store_working_set(std::size_t block, int p) noexcept { return 2 * block * static_cast<std::size_t>(p); }
}  // namespace

CollTask gather_parallel(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int root = me.root;
    // p blocks sent, p received (YHCCL Alg. 1: streaming stores once they
    // outgrow the cache; the root reads its receive buffer later, if at all).
    const std::size_t ws = store_working_set(message_bytes(ctx), ctx.size());
    if (ctx.rank() != root) {
        CO_WAIT_UNTIL(ctx.arrived(root));
        const int e = copy_block(send_whole(me), recv_block(ctx.args_of(root), ctx.rank()),
                                 result_store_kind_for(ws, ctx.topology(), true, me.in_place));
        ctx.publish_to(1, e == MPI_SUCCESS ? 2 : 1, root);
        co_return MPI_SUCCESS;
    }
    int rc = MPI_SUCCESS;
    if (!me.in_place)
        rc = copy_block(send_whole(me), recv_block(me, root), result_store_kind_for(ws, ctx.topology(), false, false));
    PeerSweep peers(root, ctx.size());
    CO_WAIT_UNTIL(peers.sweep([&](int q) { return ctx.reached(q, 1, 1); },
                              [&](int q) {
                                  if (!ctx.reached(q, 1, 2)) rc = MPI_ERR_TRUNCATE;
                              }));
    co_return rc;
}

double gather_parallel_cost(const CostQuery& q) {
    if (q.p() <= 1) return 0;
    const LinkCost& link = q.s() > 1 ? q.params.beta : q.params.alpha;
    const std::size_t ws = q.bytes * static_cast<std::size_t>(q.p());
    // Every rank reads the root's arguments. A writer's own data: its block
    // read and the same block written.
    // Non-temporal where result_store_kind_for says so.
    const double share = result_copy_scale(q, store_working_set(q.bytes, q.p()));
    return congested_push_step_cost(q, link, q.m() * share, q.p() - 1, 2 * q.bytes, ws) + peer_args_cost(q, 1) +
           q.params.alpha.a;
}

}  // namespace hmpi::coll
