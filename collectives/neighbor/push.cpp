// Push: every rank copies, for each of its out-edges, its send block
// straight into the receive block of the paired in-edge (neighbor.hpp) of
// its out-neighbour, once that neighbour has arrived (its receive
// arguments are published), then tells its out-neighbours it is done
// writing; a rank returns once all its in-neighbours have said so (until
// then they may still be writing into its receive buffer).
//
// Source: MPI 3.1, 7.6 (one send/receive pair per edge), done as single
// copies in shared memory by the sender, the writer-copies counterpart of
// pull.cpp (Li, Hoefler, Hu and Snir 2014, Section 2: one copy per block,
// flags instead of messages).
//
// Cost: a rank makes outdegree copies of m bytes into other ranks'
// buffers (remote writes: each line is fetched for ownership, so b is
// larger than in the pull form's local writes), and reads 1 + indegree
// flags: ~ a + outdegree * b' * m. Its send data is read once, by itself,
// which keeps a large allgather block in its cache across the copies.
// The pull form is preferred; this one exists for comparison and for
// senders whose data is hot in their own cache.
//
// Errors: a block larger than its receive block is copied as far as it fits
// and MPI_ERR_TRUNCATE is returned on the sending rank (the receiver does
// not see the sender's arguments after the copy).
//
// Flags: flag 0 step 1 is the driver's "arrived" (the writers wait for it);
// flag 1 step 1 = "I have written all my out-edges" (read by my
// out-neighbours, whose buffers and arguments I used).
//
// Model cost (latency terms only): 2 a_alpha, plus a_alpha for the remote
// writes' ownership transfers, so that pull is preferred: 3 a_alpha.
#include <algorithm>

#include "collectives/framework/data.hpp"
#include "collectives/neighbor/neighbor.hpp"

namespace hmpi::coll {

namespace {
void keep_first_error(int* rc, int e) {
    if (*rc == MPI_SUCCESS) *rc = e;
}
}  // namespace

CollTask neighbor_push(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const Topology& topo = call_topology(me);
    const int self = ctx.rank();
    std::vector<int> in, out, peer_list;
    neighbors_of(topo, self, EdgeDirection::in, &in);
    neighbors_of(topo, self, EdgeDirection::out, &out);
    const std::vector<int> occurrence = occurrence_ranks(out);

    std::vector<int> pending;  // out-edges not written yet
    for (std::size_t j = 0; j < out.size(); ++j)
        if (out[j] != MPI_PROC_NULL) pending.push_back(static_cast<int>(j));
    int rc = MPI_SUCCESS;
    while (!pending.empty()) {
        std::size_t still = 0;
        for (const int j : pending) {
            const int to = out[static_cast<std::size_t>(j)];
            if (!ctx.arrived(to)) {
                pending[still++] = j;
                continue;
            }
            const CollCall& dst = ctx.args_of(to);
            // A distributed graph's edges are known to their owner only.
            const Topology& peer_topo = topo.kind == TopologyKind::dist_graph ? call_topology(dst) : topo;
            const int i = paired_edge(peer_topo, to, self, j, EdgeDirection::out, occurrence, &peer_list);
            if (i < 0) {  // the receiver names no matching edge: an inconsistent distributed graph
                keep_first_error(&rc, MPI_ERR_TOPOLOGY);
                continue;
            }
            const SendBlock s = send_block(me, j);
            const RecvBlock r = recv_block(dst, i);
            keep_first_error(&rc, copy_data(s.buf, s.count, *s.type, r.buf, r.count, *r.type));
        }
        pending.resize(still);
        if (!pending.empty()) co_await std::suspend_always{};  // some receiver has not arrived yet
    }

    // Done writing: release my out-neighbours (each woken once).
    std::vector<int> written = out;
    written.erase(std::remove(written.begin(), written.end(), MPI_PROC_NULL), written.end());
    std::sort(written.begin(), written.end());
    written.erase(std::unique(written.begin(), written.end()), written.end());
    if (written.empty()) ctx.publish_to(1, 1, self);
    for (const int y : written) ctx.publish_to(1, 1, y);

    // My receive buffer is complete once every in-neighbour has written.
    for (const int x : in)
        if (x != MPI_PROC_NULL) CO_WAIT_UNTIL(ctx.reached(x, 1, 1));
    co_return rc;
}

double neighbor_push_cost(const CostQuery& q) { return 3 * q.params.alpha.a; }

}  // namespace hmpi::coll
