// Direct scatter (ranks pull): every non-root rank waits for the root to
// arrive, copies its block of the root's send buffer straight into its own
// receive buffer and acknowledges; the root copies its own block (unless
// MPI_IN_PLACE) and returns once every rank has acknowledged, since until
// then its send buffer is being read. Non-roots leave right after their copy.
//
// The one-stage scatter of Li, Hoefler et al. (Section 2.2, scatter phase):
// P - 1 concurrent readers of disjoint parts of one buffer, one copy per
// block. Cost: the P - 1 readers congest the root's memory, then the root
// waits for their acknowledgements:
//   a + C (P - 1) m + a_alpha
// with (a, C) = alpha when s == 1, beta across cache domains; working set
// P m bytes. The copies store non-temporal inside the cache where
// hmpi-calibrate measured them cheaper (result_store_kind_for, data.hpp),
// their lines priced at nt_copy_ratio (result_copy_scale, cost.hpp).
//
// Flags: flag 1 step 1 = "I have copied my block" (read by the root).
#include "collectives/framework/blocks.hpp"
#include "collectives/scatter/scatter.hpp"

namespace hmpi::coll {

namespace {
// The working set the store choice weighs: p blocks sent, p received.
std::size_t store_working_set(std::size_t block, int p) noexcept { return 2 * block * static_cast<std::size_t>(p); }
}  // namespace

CollTask scatter_direct(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int root = me.root;
    // YHCCL Alg. 1: streaming stores once the blocks outgrow the cache.
    const StoreKind kind =
        result_store_kind_for(store_working_set(message_bytes(ctx), ctx.size()), ctx.topology(), false, me.in_place);
    if (ctx.rank() != root) {
        CO_WAIT_UNTIL(ctx.arrived(root));
        const int rc = copy_block(send_block(ctx.args_of(root), ctx.rank()), recv_whole(me), kind);
        ctx.publish_to(1, 1, root);
        co_return rc;
    }
    int rc = MPI_SUCCESS;
    if (!me.in_place) rc = copy_block(send_block(me, root), recv_whole(me), kind);
    PeerSweep peers(root, ctx.size());
    CO_WAIT_UNTIL(peers.sweep([&](int q) { return ctx.reached(q, 1, 1); }, [](int) {}));
    co_return rc;
}

double scatter_direct_cost(const CostQuery& q) {
    if (q.p() <= 1) return 0;
    const LinkCost& link = q.s() > 1 ? q.params.beta : q.params.alpha;
    const std::size_t ws = q.bytes * static_cast<std::size_t>(q.p());
    // Every rank reads the root's arguments. Non-temporal where
    // result_store_kind_for says so.
    const double share = result_copy_scale(q, store_working_set(q.bytes, q.p()));
    return congested_copy_step_cost(q, link, q.m() * share, q.p() - 1, ws) + peer_args_cost(q, 1) + q.params.alpha.a;
}

}  // namespace hmpi::coll
