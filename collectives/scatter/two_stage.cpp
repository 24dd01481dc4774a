// Two-stage scatter: the leader of each cache domain other than the root's
// packs its domain's blocks of the root's send buffer into a buffer of its
// own (one slot per member, in domain order); the members then unpack their
// slot into their receive buffers. The root's own domain copies from the
// root's buffer directly (as scatter_direct does).
//
// Li, Hoefler et al., Section 2.6 (scatter through domain leaders), the
// reverse of the two-stage gather. Plain Scatter only: the leader's buffer
// needs equal blocks (Scatterv's counts differ per rank). Cost:
//   a_beta + C_beta (s - 1) q m          (the leaders read the root's buffer at once)
//   + a_alpha + C_alpha (q - 1) m        (members from the leader's buffer)
//   + a_alpha                            (acknowledgements to the root)
// and +infinity with one cache domain (s == 1), where it runs scatter_direct.
//
// Flags: flag 2 step 1 = "my leader buffer holds my domain's blocks"
// (leaders); flag 1 step 1 = "I have read my source" (members to their
// leader; leaders, once their members are done, and the root's domain to
// the root, which returns after all of them: the members read the root's
// arguments to judge truncation, their error).
#include <algorithm>
#include <limits>
#include <memory>

#include "collectives/framework/blocks.hpp"
#include "collectives/framework/registry.hpp"
#include "collectives/gather/domains.hpp"
#include "collectives/scatter/scatter.hpp"

namespace hmpi::coll {

bool scatter_two_stage_applies(const CollCtx& ctx, const char** why) {
    if (!intra_only(ctx, why)) return false;
    if (ctx.call().kind != CollKind::scatterv) return true;
    *why = "the leaders' buffers need equal blocks (Scatterv's counts differ per rank)";
    return false;
}

CollTask scatter_two_stage(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int root = me.root, r = ctx.rank();
    const DomainView domains(ctx, root);
    int rc = MPI_SUCCESS;
    if (domains.count() <= 1) {
        CO_RUN(rc, scatter_direct(ctx));
        co_return rc;
    }
    const int d = domains.domain_of(r), root_domain = domains.domain_of(root);
    if (r == root) {
        if (!me.in_place) rc = copy_block(send_block(me, root), recv_whole(me));
        for (int e = 0; e < domains.count(); ++e)
            if (e != root_domain) CO_WAIT_UNTIL(ctx.reached(domains.leader(e), 1, 1));
        for (int i = 0, n = domains.size_of(root_domain); i < n; ++i) {
            const int q = domains.member(root_domain, i);
            if (q != root) CO_WAIT_UNTIL(ctx.reached(q, 1, 1));
        }
        co_return rc;
    }
    CO_WAIT_UNTIL(ctx.arrived(root));
    const CollCall& at_root = ctx.args_of(root);
    if (d == root_domain) {  // straight from the root's buffer
        rc = copy_block(send_block(at_root, r), recv_whole(me));
        ctx.publish_to(1, 1, root);
        co_return rc;
    }
    const std::size_t slot = block_bytes(send_block(at_root, 0));  // equal in a Scatter
    const std::size_t room = block_bytes(recv_whole(me));
    const int leader = domains.leader(d);
    if (r != leader) {
        CO_WAIT_UNTIL(ctx.reached(leader, 2, 1));
        const auto* buf = static_cast<const unsigned char*>(ctx.scratch_of(leader));
        if (const std::size_t k = std::min(room, slot))
            unpack_bytes(buf + static_cast<std::size_t>(domains.index_of(r)) * slot, k, me.recvbuf, *me.recvtype);
        ctx.publish_to(1, 1, leader);
        co_return slot > room ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    }
    const int n = domains.size_of(d);
    std::unique_ptr<unsigned char[]> buf(new unsigned char[std::max<std::size_t>(1, slot * static_cast<std::size_t>(n))]);
    for (int i = 0; i < n; ++i) {
        const SrcBlock src = send_block(at_root, domains.member(d, i));
        if (const std::size_t k = std::min(block_bytes(src), slot))
            pack_bytes(src.buf, *src.type, k, buf.get() + static_cast<std::size_t>(i) * slot);
    }
    ctx.publish_scratch(buf.get());
    ctx.publish(2, 1);
    const std::size_t own = static_cast<std::size_t>(domains.index_of(r)) * slot;
    if (const std::size_t k = std::min(room, slot)) unpack_bytes(buf.get() + own, k, me.recvbuf, *me.recvtype);
    for (int i = 0; i < n; ++i) {
        const int q = domains.member(d, i);
        if (q != r) CO_WAIT_UNTIL(ctx.reached(q, 1, 1));
    }
    ctx.publish_to(1, 1, root);
    co_return slot > room ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

double scatter_two_stage_cost(const CostQuery& q) {
    if (q.s() <= 1) return std::numeric_limits<double>::infinity();
    const std::size_t ws = q.bytes * static_cast<std::size_t>(q.p());
    const double leaders = congested_copy_step_cost(q, q.params.beta, q.m() * q.q(), q.s() - 1, ws);
    const double members = q.q() > 1 ? congested_copy_step_cost(q, q.params.alpha, q.m(), q.q() - 1, ws) : 0.0;
    // The leaders read the root's arguments, the members their leader's.
    return leaders + members + peer_args_cost(q, q.q() > 1 ? 2 : 1) + q.params.alpha.a;
}

}  // namespace hmpi::coll
