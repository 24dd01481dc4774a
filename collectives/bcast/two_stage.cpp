// Two-stage broadcast: the leaders of the other cache domains copy the
// root's buffer into theirs, then the other members of every domain copy
// from their leader's buffer (the root leads its own domain); each reader
// acknowledges to the rank it read, which returns once all its readers have.
//
// Li, Hoefler et al., Section 2.2, Eq. 4 (two-stage form), via the domains
// of the communicator's topology (gather/domains.hpp). Cost
// (li_two_stage_bcast, cost.cpp) plus the acknowledgement round:
//   a_beta + c_beta m  (leaders) + a_alpha + C_alpha (q - 1) m  (members)
//   + a_alpha  (acknowledgements)
// and +infinity with one cache domain (s == 1), where it is the one-stage
// broadcast (which it then runs).
//
// Flags: flag 2 step 1 = "my buffer holds the data" (leaders, read by their
// members); flag 1 step 1 = "I have copied from my source" (read by the
// source: the root or the reader's leader).
#include <limits>

#include "collectives/bcast/bcast.hpp"
#include "collectives/framework/data.hpp"
#include "collectives/gather/domains.hpp"

namespace hmpi::coll {

CollTask bcast_two_stage(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int root = me.root, r = ctx.rank();
    const DomainView domains(ctx, root);
    int rc = MPI_SUCCESS;
    if (domains.count() <= 1) {
        CO_RUN(rc, bcast_one_stage(ctx));
        co_return rc;
    }
    const std::size_t bytes = data_bytes(me.recvcount, *me.recvtype);
    const StoreKind kind = store_kind_for(bytes * 2, ctx.topology(), false);
    const int my_domain = domains.domain_of(r);
    if (r != root) {
        // Leaders read the root, members their leader once it has the data.
        const bool leader = domains.is_leader(r);
        const int source = leader ? root : domains.leader(my_domain);
        if (leader || source == root)
            CO_WAIT_UNTIL(ctx.arrived(root));
        else
            CO_WAIT_UNTIL(ctx.reached(source, 2, 1));
        const CollCall& src = ctx.args_of(source);
        rc = copy_data(src.recvbuf, src.recvcount, *src.recvtype, me.recvbuf, me.recvcount, *me.recvtype, kind);
        if (leader) ctx.publish(2, 1);
        ctx.publish_to(1, 1, source);
        if (!leader) co_return rc;
    }
    // The root waits for the other leaders and its own domain's members; a
    // leader for its members.
    if (r == root) {
        for (int d = 0; d < domains.count(); ++d)
            if (d != my_domain) CO_WAIT_UNTIL(ctx.reached(domains.leader(d), 1, 1));
    }
    for (int i = 0, n = domains.size_of(my_domain); i < n; ++i) {
        const int peer = domains.member(my_domain, i);
        if (peer != r && peer != root) CO_WAIT_UNTIL(ctx.reached(peer, 1, 1));
    }
    co_return rc;
}

double bcast_two_stage_cost(const CostQuery& q) {
    if (q.s() <= 1) return std::numeric_limits<double>::infinity();
    const std::size_t ws = q.bytes * static_cast<std::size_t>(q.p());
    // The leaders read the root's arguments, the members their leader's.
    return li_two_stage_bcast(q, q.q(), q.s(), q.m(), ws) + peer_args_cost(q, q.q() > 1 ? 2 : 1) + q.params.alpha.a;
}

}  // namespace hmpi::coll
