// Virtual topologies (MPI 3.1, chapter 7): Cartesian grids, graphs and
// distributed graphs attached to a communicator.
//
// A communicator holds its topology through Comm::topology, a pointer to an
// immutable Topology. Cartesian and graph topologies describe the whole
// communicator, so every member's object holds the same data. A distributed
// graph is known only piecewise: each member's object holds that member's own
// incoming and outgoing edges, which is all MPI lets a process ask about.
//
// This file has two halves: the arithmetic (Dims_create, rank <-> coordinates,
// shifts, the reordering of Cartesian grids onto cache domains), which is pure
// and unit-tested on its own, and the collective constructors, which agree on
// a new communicator with comm_split / comm_allgatherv and attach a Topology.
// Argument checking and error messages are the API layer's (api/topology.cpp):
// the functions here assume valid arguments.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace hmpi {

struct Comm;
struct Rank;

enum class TopologyKind { cart, graph, dist_graph };

struct Topology {
    TopologyKind kind = TopologyKind::cart;

    // Cartesian: the extent and periodicity of each dimension. Ranks are laid
    // out in row-major order (the last dimension varies fastest). Zero
    // dimensions describe a single process.
    std::vector<int> dims;
    std::vector<char> periods;  // 0 or 1 per dimension

    // Graph: MPI_Graph_create's index and edges arrays, for all nodes.
    std::vector<int> index;
    std::vector<int> edges;

    // Distributed graph: the calling member's incoming (sources) and outgoing
    // (destinations) neighbours with their weights; weights are empty for an
    // unweighted graph.
    std::vector<int> sources, source_weights;
    std::vector<int> destinations, destination_weights;
    bool weighted = false;

    int ndims() const noexcept { return static_cast<int>(dims.size()); }
    int graph_nnodes() const noexcept { return static_cast<int>(index.size()); }
};

// ---- Arithmetic (pure).

// Product of dims[0..ndims) as a 64-bit value (no overflow for valid ints).
std::int64_t product_of(const int dims[], int ndims) noexcept;

// MPI_Dims_create for valid arguments: fills the zero entries of dims (the
// positive ones are kept) with the factorization of nnodes / product(fixed)
// whose largest and smallest factor differ least (ties: the smallest sum of
// squares, i.e. the most cube-like), in non-increasing order. Requires
// nnodes >= 1, every entry >= 0, and product(fixed) dividing nnodes.
void dims_fill(int nnodes, int ndims, int dims[]);

// Row-major rank of coords; periodic dimensions wrap any value, while an
// out-of-range coordinate of a non-periodic dimension gives -1.
int cart_rank_of(const std::vector<int>& dims, const std::vector<char>& periods, const int coords[]) noexcept;
// Coordinates of rank (0 <= rank < product(dims)).
void cart_coords_of(const std::vector<int>& dims, int rank, int coords[]) noexcept;
// MPI_Cart_shift: the ranks `disp` steps before and after `rank` along
// `direction`, or MPI_PROC_NULL past the border of a non-periodic dimension.
void cart_shift_of(const std::vector<int>& dims, const std::vector<char>& periods, int rank, int direction, int disp,
                   int* source, int* dest) noexcept;

// The number of pairs of grid neighbours (one step along one dimension,
// wrapping in periodic ones) whose cells lie in different cache domains, where
// domain_of_cell[k] is the domain of the process at row-major cell k.
std::int64_t cart_cross_domain_pairs(const std::vector<int>& dims, const std::vector<char>& periods,
                                     const std::vector<int>& domain_of_cell);

// The Cartesian rank each member of a communicator should get when
// reordering is allowed and the grid covers the whole communicator:
// member m's process sits in cache domain domain_of_member[m]. When every
// domain holds the same number D > 1 of members and there are several
// domains, each domain is given a compact block of D cells (the block shape
// with the fewest cross-domain neighbour pairs, blocks in row-major order,
// members of a domain in rank order inside their block); that mapping is used
// only if it has strictly fewer cross-domain pairs than the identity.
// Otherwise (or for a grid of another size) the identity. The result is a
// permutation of 0..members-1.
std::vector<int> cart_reorder(const std::vector<int>& dims, const std::vector<char>& periods,
                              const std::vector<int>& domain_of_member);

// The cache domain (last-level cache, else package) of each member of comm,
// from the placement rule of rank threads (world rank i on core i mod cores),
// or an empty vector when ranks are not pinned (HMPI_BIND=none).
std::vector<int> cache_domains_of_members(const Comm& comm);

// MPI_Cart_map: the rank the caller would get in a grid of dims over comm
// (MPI_UNDEFINED for a caller outside the grid). Reorders as Cart_create
// with reorder = true does.
int cart_map(const Comm& comm, const std::vector<int>& dims, const std::vector<char>& periods);

// ---- Constructors (collective over the old communicator). Each returns
// MPI_SUCCESS or an error class; *out is the new communicator, or nullptr
// for a process outside it.

int cart_create(Rank& self, Comm& old, std::vector<int> dims, std::vector<char> periods, bool reorder, Comm** out);
int cart_sub(Rank& self, Comm& cart, const int remain_dims[], Comm** out);
int graph_create(Rank& self, Comm& old, std::vector<int> index, std::vector<int> edges, bool reorder, Comm** out);
// weights: empty vectors for an unweighted graph.
int dist_graph_create_adjacent(Rank& self, Comm& old, std::vector<int> sources, std::vector<int> source_weights,
                               std::vector<int> destinations, std::vector<int> destination_weights, bool weighted,
                               bool reorder, Comm** out);
// The caller's edges (sources[k] -> destinations[k], weight weights[k]; weights
// empty when unweighted). Each member's in/out lists come out ordered by the
// member that named the edge, then by the order it gave them.
int dist_graph_create(Rank& self, Comm& old, const std::vector<int>& edge_sources, const std::vector<int>& edge_destinations,
                      const std::vector<int>& edge_weights, bool weighted, bool reorder, Comm** out);

}  // namespace hmpi
