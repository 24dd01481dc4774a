// What the neighbourhood algorithms share: neighbour lists of the three
// kinds of process topology, the pairing of edges, and per-edge blocks of
// the buffers (the rules are in neighbor.hpp).
#include <algorithm>
#include <numeric>

#include "collectives/framework/data.hpp"
#include "collectives/neighbor/neighbor.hpp"

namespace hmpi::coll {

namespace {
// A graph node's edges are edges[first, index[rank]) (MPI 3.1, 7.5.3).
int graph_first_edge(const Topology& t, int rank) { return rank == 0 ? 0 : t.index[static_cast<std::size_t>(rank - 1)]; }
}  // namespace

int neighbor_count(const Topology& t, int rank, EdgeDirection d) {
    switch (t.kind) {
        case TopologyKind::cart: return 2 * t.ndims();
        case TopologyKind::graph: return t.index[static_cast<std::size_t>(rank)] - graph_first_edge(t, rank);
        case TopologyKind::dist_graph:
            return static_cast<int>(d == EdgeDirection::in ? t.sources.size() : t.destinations.size());
    }
    return 0;
}

void neighbors_of(const Topology& t, int rank, EdgeDirection d, std::vector<int>* list) {
    list->clear();
    switch (t.kind) {
        case TopologyKind::cart:
            for (int dim = 0; dim < t.ndims(); ++dim) {
                int negative, positive;
                cart_shift_of(t.dims, t.periods, rank, dim, 1, &negative, &positive);
                list->push_back(negative);
                list->push_back(positive);
            }
            return;
        case TopologyKind::graph:
            list->assign(t.edges.begin() + graph_first_edge(t, rank),
                         t.edges.begin() + t.index[static_cast<std::size_t>(rank)]);
            return;
        case TopologyKind::dist_graph:
            *list = d == EdgeDirection::in ? t.sources : t.destinations;
            return;
    }
}

std::vector<int> occurrence_ranks(const std::vector<int>& list) {
    // Sort positions by (value, position): the k-th of a run of equal
    // values is the k-th occurrence. O(n log n) where a scan per entry
    // would be quadratic in the degree.
    std::vector<int> order(list.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        const int va = list[static_cast<std::size_t>(a)], vb = list[static_cast<std::size_t>(b)];
        return va != vb ? va < vb : a < b;
    });
    std::vector<int> occurrence(list.size());
    for (std::size_t k = 0; k < order.size(); ++k) {
        const bool continues_run = k > 0 && list[static_cast<std::size_t>(order[k])] == list[static_cast<std::size_t>(order[k - 1])];
        occurrence[static_cast<std::size_t>(order[k])] =
            continues_run ? occurrence[static_cast<std::size_t>(order[k - 1])] + 1 : 0;
    }
    return occurrence;
}

int paired_edge(const Topology& peer_topology, int peer, int self, int index, EdgeDirection self_dir,
                const std::vector<int>& occurrence, std::vector<int>* scratch) {
    // Cartesian: the opposite direction of the same dimension (neighbor.hpp).
    if (peer_topology.kind == TopologyKind::cart) return index ^ 1;
    const EdgeDirection peer_dir = self_dir == EdgeDirection::in ? EdgeDirection::out : EdgeDirection::in;
    neighbors_of(peer_topology, peer, peer_dir, scratch);
    int k = occurrence[static_cast<std::size_t>(index)];
    for (std::size_t e = 0; e < scratch->size(); ++e)
        if ((*scratch)[e] == self && k-- == 0) return static_cast<int>(e);
    return -1;
}

bool block_per_edge(CollKind k) noexcept {
    return k == CollKind::neighbor_alltoall || k == CollKind::neighbor_alltoallv || k == CollKind::neighbor_alltoallw;
}

SendBlock send_block(const CollCall& c, int j) noexcept {
    switch (c.kind) {
        case CollKind::neighbor_alltoall:
            return {element_at(c.sendbuf, std::int64_t{j} * c.sendcount, *c.sendtype), c.sendcount, c.sendtype};
        case CollKind::neighbor_alltoallv:
            return {element_at(c.sendbuf, c.sdispls[j], *c.sendtype), c.sendcounts[j], c.sendtype};
        case CollKind::neighbor_alltoallw:
            return {byte_offset(c.sendbuf, c.sdispls_aint[j]), c.sendcounts[j], c.sendtypes[static_cast<std::size_t>(j)]};
        default:  // allgather forms: the same buffer along every edge
            return {c.sendbuf, c.sendcount, c.sendtype};
    }
}

RecvBlock recv_block(const CollCall& c, int i) noexcept {
    switch (c.kind) {
        case CollKind::neighbor_allgatherv:
        case CollKind::neighbor_alltoallv:
            return {element_at(c.recvbuf, c.rdispls[i], *c.recvtype), c.recvcounts[i], c.recvtype};
        case CollKind::neighbor_alltoallw:
            return {byte_offset(c.recvbuf, c.rdispls_aint[i]), c.recvcounts[i], c.recvtypes[static_cast<std::size_t>(i)]};
        default:  // neighbor_allgather, neighbor_alltoall: blocks of recvcount
            return {element_at(c.recvbuf, std::int64_t{i} * c.recvcount, *c.recvtype), c.recvcount, c.recvtype};
    }
}

}  // namespace hmpi::coll
