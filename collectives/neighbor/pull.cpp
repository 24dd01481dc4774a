// Pull: every rank copies, for each of its in-edges, the block its
// in-neighbour sends along the paired out-edge (neighbor.hpp) straight from
// the neighbour's send buffer into its own receive block, then tells its
// in-neighbours it is done reading; a rank returns once all its
// out-neighbours have said so (until then they may still read its buffer).
//
// Source: MPI 3.1, 7.6 defines each neighbourhood collective as one
// send/receive pair per edge; this is that exchange done as single copies
// in shared memory, as HMPI's direct collectives do (Li, Hoefler, Hu and
// Snir 2014, Section 2: one copy per block, by the receiver, straight from
// the sender's layout to its own, with flags instead of messages).
//
// Cost: a rank makes indegree copies of m bytes (the block sizes), its own
// writes into its own buffer, and reads 1 + outdegree flags:
// ~ a + indegree * b * m; a sender's allgather buffer is read by its
// outdegree readers at once (B instead of b when they congest). Edges are
// served in the order their senders arrive, so a late neighbour does not
// hold back the copies from the others.
//
// Flags: flag 0 step 1 is the driver's "arrived" (args published; the
// readers wait for it); flag 1 step 1 = "I have read all my in-edges"
// (read by my in-neighbours, who are the owners of what I read).
//
// Model cost (bytes are per-edge, so only latency terms): the arrivals of
// the in-neighbours, then the done round: 2 a_alpha.
#include <algorithm>

#include "collectives/framework/data.hpp"
#include "collectives/neighbor/neighbor.hpp"

namespace hmpi::coll {

namespace {
void keep_first_error(int* rc, int e) {
    if (*rc == MPI_SUCCESS) *rc = e;
}
}  // namespace

CollTask neighbor_pull(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const Topology& topo = call_topology(me);
    const int self = ctx.rank();
    const bool per_edge = block_per_edge(me.kind);
    std::vector<int> in, out, peer_list;
    neighbors_of(topo, self, EdgeDirection::in, &in);
    neighbors_of(topo, self, EdgeDirection::out, &out);
    const std::vector<int> occurrence = per_edge ? occurrence_ranks(in) : std::vector<int>{};

    std::vector<int> pending;  // in-edges not copied yet
    for (std::size_t i = 0; i < in.size(); ++i)
        if (in[i] != MPI_PROC_NULL) pending.push_back(static_cast<int>(i));
    int rc = MPI_SUCCESS;
    while (!pending.empty()) {
        std::size_t still = 0;
        for (const int i : pending) {
            const int from = in[static_cast<std::size_t>(i)];
            if (!ctx.arrived(from)) {
                pending[still++] = i;
                continue;
            }
            const CollCall& src = ctx.args_of(from);
            int j = 0;  // the sender's out-edge (allgather forms: any, the buffer is the same)
            if (per_edge) {
                // A distributed graph's edges are known to their owner only.
                const Topology& peer_topo = topo.kind == TopologyKind::dist_graph ? call_topology(src) : topo;
                j = paired_edge(peer_topo, from, self, i, EdgeDirection::in, occurrence, &peer_list);
                if (j < 0) {  // the sender names no matching edge: an inconsistent distributed graph
                    keep_first_error(&rc, MPI_ERR_TOPOLOGY);
                    continue;
                }
            }
            const SendBlock s = send_block(src, j);
            const RecvBlock r = recv_block(me, i);
            keep_first_error(&rc, copy_data(s.buf, s.count, *s.type, r.buf, r.count, *r.type));
        }
        pending.resize(still);
        if (!pending.empty()) co_await std::suspend_always{};  // some sender has not arrived yet
    }

    // Done reading: release my in-neighbours (each woken once).
    std::vector<int> readers_of_me;
    for (const int x : in)
        if (x != MPI_PROC_NULL) readers_of_me.push_back(x);
    std::sort(readers_of_me.begin(), readers_of_me.end());
    readers_of_me.erase(std::unique(readers_of_me.begin(), readers_of_me.end()), readers_of_me.end());
    if (readers_of_me.empty()) ctx.publish_to(1, 1, self);
    for (const int x : readers_of_me) ctx.publish_to(1, 1, x);

    // My buffer and arguments are mine again once every out-neighbour has read.
    for (const int y : out)
        if (y != MPI_PROC_NULL) CO_WAIT_UNTIL(ctx.reached(y, 1, 1));
    co_return rc;
}

double neighbor_pull_cost(const CostQuery& q) { return 2 * q.params.alpha.a; }

}  // namespace hmpi::coll
