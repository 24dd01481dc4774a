// Neighborhood collectives (MPI 3.1, 7.6-7.7): the algorithms (pull.cpp,
// push.cpp, listed in table.cpp) and what they share (edges.cpp): the
// neighbour lists of a process topology, the pairing of one rank's
// out-edges with another's in-edges, and the block of a buffer that belongs
// to one edge.
//
// Neighbour lists (MPI 3.1, 7.6): on a Cartesian grid, per dimension the
// neighbour in the negative direction then the one in the positive
// direction (MPI_Cart_shift with disp 1), MPI_PROC_NULL past a non-periodic
// border; incoming and outgoing lists are the same. On a graph, the
// MPI_Graph_neighbors order, incoming = outgoing. On a distributed graph,
// the sources (in) and destinations (out) in the order the rank gave them.
//
// Pairing of edges: which block of a sender's buffer lands in which block of
// a receiver's.
//  - Cartesian: the block a rank sends in one direction of a dimension is
//    received in the block of the opposite direction: out-edge j of the
//    sender pairs with in-edge j ^ 1 of the receiver. This is the rule of
//    MPI 4.0's erratum to MPI 3.1 (Annex B.1.1, item 1; MPI 4.1, 8.6), and
//    the only one that decides the periodic dimensions of extent 1 and 2,
//    where one rank is both the negative and the positive neighbour.
//  - Graphs and distributed graphs: the k-th edge from X to Y (in X's
//    out-list) pairs with the k-th edge into Y from X (in Y's in-list), the
//    order in which messages between one pair would match.
// MPI_PROC_NULL edges carry nothing: their receive blocks stay untouched.
#pragma once
#include <cstdint>
#include <vector>

#include "collectives/framework/call.hpp"
#include "collectives/framework/context.hpp"
#include "collectives/framework/task.hpp"
#include "collectives/model/cost.hpp"
#include "core/topology.hpp"

namespace hmpi::coll {

// ---- Algorithms.
CollTask neighbor_pull(CollCtx& ctx);
double neighbor_pull_cost(const CostQuery& q);
CollTask neighbor_push(CollCtx& ctx);
double neighbor_push_cost(const CostQuery& q);

// ---- The caller's topology, carried by its CollCall so that peers reach
// it (a distributed graph's edges are known only to their owner). The API
// layer sets it; it lives as long as the communicator, which the collective
// holds.
inline void set_call_topology(CollCall& call, const Topology* t) noexcept { call.topology = t; }
inline const Topology& call_topology(const CollCall& call) noexcept { return *call.topology; }

// ---- Neighbour lists.
enum class EdgeDirection { in, out };

// Number of in- or out-edges of `rank` (for a distributed graph, `t` must be
// that rank's own topology).
int neighbor_count(const Topology& t, int rank, EdgeDirection d);
// The in- or out-list of `rank` into *list (same condition).
void neighbors_of(const Topology& t, int rank, EdgeDirection d, std::vector<int>* list);
// occurrence[i] = how many entries before i equal list[i].
std::vector<int> occurrence_ranks(const std::vector<int>& list);

// The edge of `peer` that pairs with edge `index` of `self`, whose lists
// (in `self_dir`) are `self_list` with `occurrence` = occurrence_ranks of
// it; `peer_topology` is the peer's topology (its own, for a distributed
// graph). Returns the index in the peer's list of the opposite direction,
// or -1 if the peer has no such edge (an inconsistent distributed graph).
// `scratch` holds the peer's list between calls.
int paired_edge(const Topology& peer_topology, int peer, int self, int index, EdgeDirection self_dir,
                const std::vector<int>& occurrence, std::vector<int>* scratch);

// ---- Blocks of the buffers, per edge.
struct SendBlock {
    const void* buf;
    std::int64_t count;
    const Datatype* type;
};
struct RecvBlock {
    void* buf;
    std::int64_t count;
    const Datatype* type;
};
// Whether the form sends each out-neighbour its own block (alltoall*), as
// opposed to the same buffer to all (allgather*).
bool block_per_edge(CollKind k) noexcept;
// The block `call` sends along its out-edge j / receives along in-edge i.
SendBlock send_block(const CollCall& call, int j) noexcept;
RecvBlock recv_block(const CollCall& call, int i) noexcept;

}  // namespace hmpi::coll
