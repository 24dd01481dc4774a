// Two-stage gather: within each cache domain other than the root's, the
// members pack their blocks into a buffer of their leader's (one slot per
// member, in domain order); the leader then copies every slot into its
// block of the root's receive buffer. The root's own domain writes into the
// root's buffer directly (as gather_parallel does).
//
// Li, Hoefler et al., Section 2.6 (gather through domain leaders), the
// mirror of the two-stage broadcast of Section 2.2. Plain Gather only: the
// leader's buffer needs equal blocks (Gatherv's counts differ per rank).
// Cost:
//   a_alpha + C_alpha (q - 1) m          (members into the leader's buffer)
//   + a_beta + C_beta (s - 1) q m        (the leaders into the root's buffer at once)
//   + a_alpha                            (the root's flag round)
// and +infinity with one cache domain (s == 1), where it runs gather_parallel.
//
// Flags: flag 2 step 1 = "my leader buffer is ready" (leaders; the root has
// arrived by then); flag 1 = "my block(s) are in" at step 2 if everything
// fit, 1 if something was truncated (members to their leader; leaders and
// the root's domain to the root). "Fit" is the higher step because a
// sender may already be in a later collective of the slot (stamps are >=).
#include <algorithm>
#include <limits>
#include <memory>

#include "collectives/framework/blocks.hpp"
#include "collectives/framework/registry.hpp"
#include "collectives/gather/domains.hpp"
#include "collectives/gather/gather.hpp"

namespace hmpi::coll {

bool gather_two_stage_applies(const CollCtx& ctx, const char** why) {
    if (!intra_only(ctx, why)) return false;
    if (ctx.call().kind != CollKind::gatherv) return true;
    *why = "the leaders' buffers need equal blocks (Gatherv's counts differ per rank)";
    return false;
}

CollTask gather_two_stage(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int root = me.root, r = ctx.rank();
    const DomainView domains(ctx, root);
    int rc = MPI_SUCCESS;
    if (domains.count() <= 1) {
        CO_RUN(rc, gather_parallel(ctx));
        co_return rc;
    }
    const int d = domains.domain_of(r), root_domain = domains.domain_of(root);
    if (r == root) {
        if (!me.in_place) rc = copy_block(send_whole(me), recv_block(me, root));
        // Wait for every other leader and for the members of the root's domain.
        for (int e = 0; e < domains.count(); ++e) {
            const int q = e == root_domain ? -1 : domains.leader(e);
            if (q < 0) continue;
            CO_WAIT_UNTIL(ctx.reached(q, 1, 1));
            if (!ctx.reached(q, 1, 2)) rc = MPI_ERR_TRUNCATE;
        }
        for (int i = 0, n = domains.size_of(root_domain); i < n; ++i) {
            const int q = domains.member(root_domain, i);
            if (q == root) continue;
            CO_WAIT_UNTIL(ctx.reached(q, 1, 1));
            if (!ctx.reached(q, 1, 2)) rc = MPI_ERR_TRUNCATE;
        }
        co_return rc;
    }
    CO_WAIT_UNTIL(ctx.arrived(root));
    const CollCall& at_root = ctx.args_of(root);
    if (d == root_domain) {  // straight into the root's buffer
        const int e = copy_block(send_whole(me), recv_block(at_root, r));
        ctx.publish_to(1, e == MPI_SUCCESS ? 2 : 1, root);
        co_return MPI_SUCCESS;
    }
    // One slot per domain member, the size of the root's blocks (equal in
    // a Gather). The root's arguments stay valid until this domain's leader
    // has reported, which is after every member has.
    const std::size_t slot = block_bytes(recv_block(at_root, 0));
    const std::size_t mine = block_bytes(send_whole(me));
    const int leader = domains.leader(d);
    if (r != leader) {
        CO_WAIT_UNTIL(ctx.reached(leader, 2, 1));
        auto* buf = static_cast<unsigned char*>(const_cast<void*>(ctx.scratch_of(leader)));
        pack_bytes(me.sendbuf, *me.sendtype, std::min(mine, slot),
                   buf + static_cast<std::size_t>(domains.index_of(r)) * slot);
        ctx.publish_to(1, mine <= slot ? 2 : 1, leader);
        co_return MPI_SUCCESS;
    }
    const int n = domains.size_of(d);
    std::unique_ptr<unsigned char[]> buf(new unsigned char[std::max<std::size_t>(1, slot * static_cast<std::size_t>(n))]);
    ctx.publish_scratch(buf.get());
    ctx.publish(2, 1);
    bool fit = mine <= slot;
    pack_bytes(me.sendbuf, *me.sendtype, std::min(mine, slot), buf.get() + static_cast<std::size_t>(domains.index_of(r)) * slot);
    for (int i = 0; i < n; ++i) {
        const int q = domains.member(d, i);
        if (q == r) continue;
        CO_WAIT_UNTIL(ctx.reached(q, 1, 1));
        if (!ctx.reached(q, 1, 2)) fit = false;
    }
    for (int i = 0; i < n; ++i) {
        const DstBlock dst = recv_block(at_root, domains.member(d, i));
        const std::size_t room = block_bytes(dst);
        if (room < slot) fit = false;
        if (const std::size_t k = std::min(room, slot)) unpack_bytes(buf.get() + static_cast<std::size_t>(i) * slot, k, dst.buf, *dst.type);
    }
    ctx.publish_to(1, fit ? 2 : 1, root);
    co_return MPI_SUCCESS;
}

double gather_two_stage_cost(const CostQuery& q) {
    if (q.s() <= 1) return std::numeric_limits<double>::infinity();
    const std::size_t ws = q.bytes * static_cast<std::size_t>(q.p());
    const double members = q.q() > 1 ? congested_copy_step_cost(q, q.params.alpha, q.m(), q.q() - 1, ws) : 0.0;
    const double leaders = congested_copy_step_cost(q, q.params.beta, q.m() * q.q(), q.s() - 1, ws);
    // The members read their leader's arguments, the leaders the root's.
    return members + leaders + peer_args_cost(q, q.q() > 1 ? 2 : 1) + q.params.alpha.a;
}

}  // namespace hmpi::coll
