// Virtual topologies (MPI 3.1, chapter 7): Cartesian grids, graphs,
// distributed graphs, Dims_create, Topo_test. Argument checks and error
// classes here; the arithmetic and the collective constructors are in
// runtime/core/topology.cpp. What users see is in docs/topologies.md.
//
// Error classes: MPI_ERR_COMM for an invalid, null or inter- communicator;
// MPI_ERR_TOPOLOGY for a communicator without the topology a query needs;
// MPI_ERR_DIMS for a negative number of dimensions or a bad dimension
// extent; MPI_ERR_RANK for a rank outside the communicator; MPI_ERR_INFO for
// an invalid info handle; MPI_ERR_ARG for everything else (null arrays,
// negative lengths, grids larger than the communicator, bad graph arrays,
// coordinates outside a non-periodic dimension, bad directions, weights).
// Output arrays shorter than the data (maxdims, maxneighbors, ...) receive
// the first entries only.
#include <algorithm>
#include <vector>

#include "api/api.hpp"
#include "core/info.hpp"
#include "core/topology.hpp"

using namespace hmpi;
using namespace hmpi::api;

namespace {

const char* kind_name(TopologyKind k) {
    switch (k) {
        case TopologyKind::cart: return "Cartesian";
        case TopologyKind::graph: return "graph";
        case TopologyKind::dist_graph: return "distributed graph";
    }
    return "?";
}

MPI_Comm handle_of(Comm* c) { return c ? c->handle : MPI_COMM_NULL; }

// A communicator that carries a topology of the wanted kind.
int topology_comm(const Call& c, MPI_Comm h, TopologyKind kind, Comm** comm, const Topology** topo) {
    if (int e = c.comm(h, comm)) return e;
    const Topology* t = (*comm)->topology.get();
    if (!t)
        return c.fail(*comm, MPI_ERR_TOPOLOGY, "argument comm = %s has no virtual topology, but this call needs a %s one",
                      comm_name(*comm), kind_name(kind));
    if (t->kind != kind)
        return c.fail(*comm, MPI_ERR_TOPOLOGY, "argument comm = %s has a %s topology, but this call needs a %s one",
                      comm_name(*comm), kind_name(t->kind), kind_name(kind));
    *topo = t;
    return MPI_SUCCESS;
}

// A communicator a new topology can be built on.
int intra_comm(const Call& c, MPI_Comm h, const char* arg, Comm** comm) {
    if (int e = c.comm(h, comm)) return e;
    if ((*comm)->is_inter())
        return c.fail(*comm, MPI_ERR_COMM, "argument %s = %s is an intercommunicator; topologies need an intracommunicator",
                      arg, comm_name(*comm));
    return MPI_SUCCESS;
}

int non_negative(const Call& c, const Comm* comm, const char* arg, int v) {
    return v >= 0 ? MPI_SUCCESS : c.fail(comm, MPI_ERR_ARG, "argument %s = %d is negative", arg, v);
}

// A grid description for Cart_create / Cart_map: dims and periods, whose
// number of nodes must fit in comm.
int check_grid(const Call& c, const Comm* comm, int ndims, const int dims[], const int periods[],
               std::vector<int>* dims_out, std::vector<char>* periods_out) {
    if (ndims < 0) return c.fail(comm, MPI_ERR_DIMS, "argument ndims = %d is negative", ndims);
    if (ndims > 0) {
        if (int e = c.not_null(comm, "dims", dims)) return e;
        if (int e = c.not_null(comm, "periods", periods)) return e;
    }
    for (int i = 0; i < ndims; ++i)
        if (dims[i] <= 0) return c.fail(comm, MPI_ERR_DIMS, "argument dims[%d] = %d is not positive", i, dims[i]);
    const std::int64_t nnodes = product_of(dims, ndims);
    if (nnodes > comm->size())
        return c.fail(comm, MPI_ERR_ARG, "the grid has %lld nodes (the product of dims), but %s has only %d ranks",
                      static_cast<long long>(nnodes), comm_name(comm), comm->size());
    dims_out->assign(dims, dims + ndims);
    periods_out->resize(static_cast<std::size_t>(ndims));
    for (int i = 0; i < ndims; ++i) (*periods_out)[static_cast<std::size_t>(i)] = periods[i] ? 1 : 0;
    return MPI_SUCCESS;
}

// A graph description for Graph_create / Graph_map.
int check_graph(const Call& c, const Comm* comm, int nnodes, const int index[], const int edges[],
                std::vector<int>* index_out, std::vector<int>* edges_out) {
    if (nnodes < 0) return c.fail(comm, MPI_ERR_ARG, "argument nnodes = %d is negative", nnodes);
    if (nnodes > comm->size())
        return c.fail(comm, MPI_ERR_ARG, "argument nnodes = %d, but %s has only %d ranks", nnodes, comm_name(comm),
                      comm->size());
    if (nnodes == 0) return MPI_SUCCESS;
    if (int e = c.not_null(comm, "index", index)) return e;
    for (int i = 0; i < nnodes; ++i) {
        int before = i == 0 ? 0 : index[i - 1];
        if (index[i] < before)
            return c.fail(comm, MPI_ERR_ARG, "argument index[%d] = %d is smaller than %s = %d (index must not decrease)", i,
                          index[i], i == 0 ? "0" : "the entry before it", before);
    }
    const int nedges = index[nnodes - 1];
    if (nedges > 0)
        if (int e = c.not_null(comm, "edges", edges)) return e;
    for (int k = 0; k < nedges; ++k)
        if (edges[k] < 0 || edges[k] >= nnodes)
            return c.fail(comm, MPI_ERR_ARG, "argument edges[%d] = %d is not a node of the graph (0..%d)", k, edges[k],
                          nnodes - 1);
    index_out->assign(index, index + nnodes);
    edges_out->assign(edges, edges + nedges);
    return MPI_SUCCESS;
}

int check_info(const Call& c, const Comm* comm, MPI_Info info) {
    if (info == MPI_INFO_NULL || info_from_handle(info)) return MPI_SUCCESS;
    return c.fail(comm, MPI_ERR_INFO, "argument info = %p is not a valid info object", static_cast<void*>(info));
}

// Ranks of comm named in a distributed graph's edges.
int check_ranks(const Call& c, const Comm* comm, const char* arg, const int ranks[], int n) {
    for (int k = 0; k < n; ++k)
        if (ranks[k] < 0 || ranks[k] >= comm->size())
            return c.fail(comm, MPI_ERR_RANK, "argument %s[%d] = %d, but %s has %d ranks", arg, k, ranks[k], comm_name(comm),
                          comm->size());
    return MPI_SUCCESS;
}

bool real_weights(const int* w) { return w && w != MPI_UNWEIGHTED && w != MPI_WEIGHTS_EMPTY; }

// Weights of n edges of a weighted graph: a real array of non-negative
// values (MPI_WEIGHTS_EMPTY or anything when n is 0).
int check_weights(const Call& c, const Comm* comm, const char* arg, const int weights[], int n, std::vector<int>* out) {
    if (n == 0) return MPI_SUCCESS;
    if (!real_weights(weights))
        return c.fail(comm, MPI_ERR_ARG, "argument %s is %s, but there are %d edges to weigh (or pass MPI_UNWEIGHTED)", arg,
                      weights == MPI_WEIGHTS_EMPTY ? "MPI_WEIGHTS_EMPTY" : "NULL", n);
    for (int k = 0; k < n; ++k)
        if (weights[k] < 0) return c.fail(comm, MPI_ERR_ARG, "argument %s[%d] = %d is negative", arg, k, weights[k]);
    out->assign(weights, weights + n);
    return MPI_SUCCESS;
}

}  // namespace

// ---- Cartesian --------------------------------------------------------------

HMPI_API(int, Cart_create, (MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                            MPI_Comm* comm_cart)) {
    Call c("MPI_Cart_create");
    if (int e = c.require_initialized()) return e;
    Comm* old;
    if (int e = intra_comm(c, comm_old, "comm_old", &old)) return e;
    std::vector<int> d;
    std::vector<char> p;
    if (int e = check_grid(c, old, ndims, dims, periods, &d, &p)) return e;
    if (int e = c.not_null(old, "comm_cart", comm_cart)) return e;
    Comm* created = nullptr;
    if (int e = cart_create(*c.rank(), *old, std::move(d), std::move(p), reorder != 0, &created))
        return c.fail(old, e, "could not create the Cartesian communicator");
    *comm_cart = handle_of(created);
    return MPI_SUCCESS;
}

HMPI_API(int, Cart_map, (MPI_Comm comm, int ndims, const int dims[], const int periods[], int* newrank)) {
    Call c("MPI_Cart_map");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    if (int e = intra_comm(c, comm, "comm", &cm)) return e;
    std::vector<int> d;
    std::vector<char> p;
    if (int e = check_grid(c, cm, ndims, dims, periods, &d, &p)) return e;
    if (int e = c.not_null(cm, "newrank", newrank)) return e;
    *newrank = cart_map(*cm, d, p);
    return MPI_SUCCESS;
}

HMPI_API(int, Cartdim_get, (MPI_Comm comm, int* ndims)) {
    Call c("MPI_Cartdim_get");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    const Topology* t;
    if (int e = topology_comm(c, comm, TopologyKind::cart, &cm, &t)) return e;
    if (int e = c.not_null(cm, "ndims", ndims)) return e;
    *ndims = t->ndims();
    return MPI_SUCCESS;
}

HMPI_API(int, Cart_get, (MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])) {
    Call c("MPI_Cart_get");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    const Topology* t;
    if (int e = topology_comm(c, comm, TopologyKind::cart, &cm, &t)) return e;
    if (int e = non_negative(c, cm, "maxdims", maxdims)) return e;
    const int n = std::min(maxdims, t->ndims());
    if (n > 0) {
        if (int e = c.not_null(cm, "dims", dims)) return e;
        if (int e = c.not_null(cm, "periods", periods)) return e;
        if (int e = c.not_null(cm, "coords", coords)) return e;
    }
    std::vector<int> here(t->dims.size());
    cart_coords_of(t->dims, cm->rank, here.data());
    for (int i = 0; i < n; ++i) {
        dims[i] = t->dims[static_cast<std::size_t>(i)];
        periods[i] = t->periods[static_cast<std::size_t>(i)];
        coords[i] = here[static_cast<std::size_t>(i)];
    }
    return MPI_SUCCESS;
}

HMPI_API(int, Cart_rank, (MPI_Comm comm, const int coords[], int* rank)) {
    Call c("MPI_Cart_rank");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    const Topology* t;
    if (int e = topology_comm(c, comm, TopologyKind::cart, &cm, &t)) return e;
    if (t->ndims() > 0)
        if (int e = c.not_null(cm, "coords", coords)) return e;
    if (int e = c.not_null(cm, "rank", rank)) return e;
    for (int i = 0; i < t->ndims(); ++i) {
        const int extent = t->dims[static_cast<std::size_t>(i)];
        if (!t->periods[static_cast<std::size_t>(i)] && (coords[i] < 0 || coords[i] >= extent))
            return c.fail(cm, MPI_ERR_ARG, "argument coords[%d] = %d is outside 0..%d of non-periodic dimension %d", i,
                          coords[i], extent - 1, i);
    }
    *rank = cart_rank_of(t->dims, t->periods, coords);
    return MPI_SUCCESS;
}

HMPI_API(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims, int coords[])) {
    Call c("MPI_Cart_coords");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    const Topology* t;
    if (int e = topology_comm(c, comm, TopologyKind::cart, &cm, &t)) return e;
    if (rank < 0 || rank >= cm->size())
        return c.fail(cm, MPI_ERR_RANK, "argument rank = %d, but %s has %d ranks", rank, comm_name(cm), cm->size());
    if (int e = non_negative(c, cm, "maxdims", maxdims)) return e;
    const int n = std::min(maxdims, t->ndims());
    if (n > 0)
        if (int e = c.not_null(cm, "coords", coords)) return e;
    std::vector<int> all(t->dims.size());
    cart_coords_of(t->dims, rank, all.data());
    for (int i = 0; i < n; ++i) coords[i] = all[static_cast<std::size_t>(i)];
    return MPI_SUCCESS;
}

HMPI_API(int, Cart_shift, (MPI_Comm comm, int direction, int disp, int* rank_source, int* rank_dest)) {
    Call c("MPI_Cart_shift");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    const Topology* t;
    if (int e = topology_comm(c, comm, TopologyKind::cart, &cm, &t)) return e;
    if (direction < 0 || direction >= t->ndims())
        return c.fail(cm, MPI_ERR_ARG, "argument direction = %d is not a dimension of the %d-dimensional grid", direction,
                      t->ndims());
    if (int e = c.not_null(cm, "rank_source", rank_source)) return e;
    if (int e = c.not_null(cm, "rank_dest", rank_dest)) return e;
    cart_shift_of(t->dims, t->periods, cm->rank, direction, disp, rank_source, rank_dest);
    return MPI_SUCCESS;
}

HMPI_API(int, Cart_sub, (MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm)) {
    Call c("MPI_Cart_sub");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    const Topology* t;
    if (int e = topology_comm(c, comm, TopologyKind::cart, &cm, &t)) return e;
    if (t->ndims() > 0)
        if (int e = c.not_null(cm, "remain_dims", remain_dims)) return e;
    if (int e = c.not_null(cm, "newcomm", newcomm)) return e;
    Comm* created = nullptr;
    if (int e = cart_sub(*c.rank(), *cm, remain_dims, &created))
        return c.fail(cm, e, "could not create the Cartesian subgrid communicator");
    *newcomm = handle_of(created);
    return MPI_SUCCESS;
}

// ---- Graph ------------------------------------------------------------------

HMPI_API(int, Graph_create, (MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                             MPI_Comm* comm_graph)) {
    Call c("MPI_Graph_create");
    if (int e = c.require_initialized()) return e;
    Comm* old;
    if (int e = intra_comm(c, comm_old, "comm_old", &old)) return e;
    std::vector<int> idx, edg;
    if (int e = check_graph(c, old, nnodes, index, edges, &idx, &edg)) return e;
    if (int e = c.not_null(old, "comm_graph", comm_graph)) return e;
    if (nnodes == 0) {  // MPI 3.1, 7.5.3: an empty graph gives MPI_COMM_NULL everywhere
        *comm_graph = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    Comm* created = nullptr;
    if (int e = graph_create(*c.rank(), *old, std::move(idx), std::move(edg), reorder != 0, &created))
        return c.fail(old, e, "could not create the graph communicator");
    *comm_graph = handle_of(created);
    return MPI_SUCCESS;
}

HMPI_API(int, Graph_map, (MPI_Comm comm, int nnodes, const int index[], const int edges[], int* newrank)) {
    Call c("MPI_Graph_map");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    if (int e = intra_comm(c, comm, "comm", &cm)) return e;
    std::vector<int> idx, edg;
    if (int e = check_graph(c, cm, nnodes, index, edges, &idx, &edg)) return e;
    if (int e = c.not_null(cm, "newrank", newrank)) return e;
    // Graphs keep the identity placement (docs/topologies.md).
    *newrank = cm->rank < nnodes ? cm->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

HMPI_API(int, Graphdims_get, (MPI_Comm comm, int* nnodes, int* nedges)) {
    Call c("MPI_Graphdims_get");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    const Topology* t;
    if (int e = topology_comm(c, comm, TopologyKind::graph, &cm, &t)) return e;
    if (int e = c.not_null(cm, "nnodes", nnodes)) return e;
    if (int e = c.not_null(cm, "nedges", nedges)) return e;
    *nnodes = t->graph_nnodes();
    *nedges = static_cast<int>(t->edges.size());
    return MPI_SUCCESS;
}

HMPI_API(int, Graph_get, (MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])) {
    Call c("MPI_Graph_get");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    const Topology* t;
    if (int e = topology_comm(c, comm, TopologyKind::graph, &cm, &t)) return e;
    if (int e = non_negative(c, cm, "maxindex", maxindex)) return e;
    if (int e = non_negative(c, cm, "maxedges", maxedges)) return e;
    const int ni = std::min(maxindex, t->graph_nnodes());
    const int ne = std::min(maxedges, static_cast<int>(t->edges.size()));
    if (ni > 0)
        if (int e = c.not_null(cm, "index", index)) return e;
    if (ne > 0)
        if (int e = c.not_null(cm, "edges", edges)) return e;
    for (int i = 0; i < ni; ++i) index[i] = t->index[static_cast<std::size_t>(i)];
    for (int k = 0; k < ne; ++k) edges[k] = t->edges[static_cast<std::size_t>(k)];
    return MPI_SUCCESS;
}

namespace {
int graph_rank(const Call& c, const Comm* cm, const Topology* t, int rank) {
    if (rank >= 0 && rank < t->graph_nnodes()) return MPI_SUCCESS;
    return c.fail(cm, MPI_ERR_RANK, "argument rank = %d, but the graph of %s has %d nodes", rank, comm_name(cm),
                  t->graph_nnodes());
}
int graph_first_edge(const Topology* t, int rank) { return rank == 0 ? 0 : t->index[static_cast<std::size_t>(rank - 1)]; }
}  // namespace

HMPI_API(int, Graph_neighbors_count, (MPI_Comm comm, int rank, int* nneighbors)) {
    Call c("MPI_Graph_neighbors_count");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    const Topology* t;
    if (int e = topology_comm(c, comm, TopologyKind::graph, &cm, &t)) return e;
    if (int e = graph_rank(c, cm, t, rank)) return e;
    if (int e = c.not_null(cm, "nneighbors", nneighbors)) return e;
    *nneighbors = t->index[static_cast<std::size_t>(rank)] - graph_first_edge(t, rank);
    return MPI_SUCCESS;
}

HMPI_API(int, Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors, int neighbors[])) {
    Call c("MPI_Graph_neighbors");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    const Topology* t;
    if (int e = topology_comm(c, comm, TopologyKind::graph, &cm, &t)) return e;
    if (int e = graph_rank(c, cm, t, rank)) return e;
    if (int e = non_negative(c, cm, "maxneighbors", maxneighbors)) return e;
    const int first = graph_first_edge(t, rank);
    const int n = std::min(maxneighbors, t->index[static_cast<std::size_t>(rank)] - first);
    if (n > 0)
        if (int e = c.not_null(cm, "neighbors", neighbors)) return e;
    for (int k = 0; k < n; ++k) neighbors[k] = t->edges[static_cast<std::size_t>(first + k)];
    return MPI_SUCCESS;
}

// ---- Distributed graph ------------------------------------------------------

HMPI_API(int, Dist_graph_create_adjacent, (MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                                           int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                           int reorder, MPI_Comm* comm_dist_graph)) {
    Call c("MPI_Dist_graph_create_adjacent");
    if (int e = c.require_initialized()) return e;
    Comm* old;
    if (int e = intra_comm(c, comm_old, "comm_old", &old)) return e;
    if (int e = non_negative(c, old, "indegree", indegree)) return e;
    if (int e = non_negative(c, old, "outdegree", outdegree)) return e;
    if (indegree > 0)
        if (int e = c.not_null(old, "sources", sources)) return e;
    if (outdegree > 0)
        if (int e = c.not_null(old, "destinations", destinations)) return e;
    if (int e = check_ranks(c, old, "sources", sources, indegree)) return e;
    if (int e = check_ranks(c, old, "destinations", destinations, outdegree)) return e;
    const bool weighted = sourceweights != MPI_UNWEIGHTED && destweights != MPI_UNWEIGHTED;
    std::vector<int> sw, dw;
    if (weighted) {
        if (int e = check_weights(c, old, "sourceweights", sourceweights, indegree, &sw)) return e;
        if (int e = check_weights(c, old, "destweights", destweights, outdegree, &dw)) return e;
    }
    if (int e = check_info(c, old, info)) return e;
    if (int e = c.not_null(old, "comm_dist_graph", comm_dist_graph)) return e;
    Comm* created = nullptr;
    if (int e = dist_graph_create_adjacent(*c.rank(), *old, std::vector<int>(sources, sources + indegree), std::move(sw),
                                           std::vector<int>(destinations, destinations + outdegree), std::move(dw),
                                           weighted, reorder != 0, &created))
        return c.fail(old, e, "could not create the distributed graph communicator");
    *comm_dist_graph = handle_of(created);
    return MPI_SUCCESS;
}

HMPI_API(int, Dist_graph_create, (MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                  const int destinations[], const int weights[], MPI_Info info, int reorder,
                                  MPI_Comm* comm_dist_graph)) {
    Call c("MPI_Dist_graph_create");
    if (int e = c.require_initialized()) return e;
    Comm* old;
    if (int e = intra_comm(c, comm_old, "comm_old", &old)) return e;
    if (int e = non_negative(c, old, "n", n)) return e;
    if (n > 0) {
        if (int e = c.not_null(old, "sources", sources)) return e;
        if (int e = c.not_null(old, "degrees", degrees)) return e;
    }
    if (int e = check_ranks(c, old, "sources", sources, n)) return e;
    std::int64_t total = 0;
    for (int i = 0; i < n; ++i) {
        if (degrees[i] < 0) return c.fail(old, MPI_ERR_ARG, "argument degrees[%d] = %d is negative", i, degrees[i]);
        total += degrees[i];
    }
    if (total > (1 << 28))
        return c.fail(old, MPI_ERR_ARG, "the degrees add up to %lld edges, more than this call takes",
                      static_cast<long long>(total));
    const int edges = static_cast<int>(total);
    if (edges > 0)
        if (int e = c.not_null(old, "destinations", destinations)) return e;
    if (int e = check_ranks(c, old, "destinations", destinations, edges)) return e;
    const bool weighted = weights != MPI_UNWEIGHTED;
    std::vector<int> w;
    if (weighted)
        if (int e = check_weights(c, old, "weights", weights, edges, &w)) return e;
    if (int e = check_info(c, old, info)) return e;
    if (int e = c.not_null(old, "comm_dist_graph", comm_dist_graph)) return e;
    // The caller's edges as (source, destination) pairs.
    std::vector<int> from, to;
    from.reserve(static_cast<std::size_t>(edges));
    for (int i = 0, k = 0; i < n; ++i)
        for (int j = 0; j < degrees[i]; ++j, ++k) from.push_back(sources[i]);
    to.assign(destinations, destinations + edges);
    Comm* created = nullptr;
    if (int e = dist_graph_create(*c.rank(), *old, from, to, w, weighted, reorder != 0, &created))
        return c.fail(old, e, "could not create the distributed graph communicator");
    *comm_dist_graph = handle_of(created);
    return MPI_SUCCESS;
}

HMPI_API(int, Dist_graph_neighbors_count, (MPI_Comm comm, int* indegree, int* outdegree, int* weighted)) {
    Call c("MPI_Dist_graph_neighbors_count");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    const Topology* t;
    if (int e = topology_comm(c, comm, TopologyKind::dist_graph, &cm, &t)) return e;
    if (int e = c.not_null(cm, "indegree", indegree)) return e;
    if (int e = c.not_null(cm, "outdegree", outdegree)) return e;
    if (int e = c.not_null(cm, "weighted", weighted)) return e;
    *indegree = static_cast<int>(t->sources.size());
    *outdegree = static_cast<int>(t->destinations.size());
    *weighted = t->weighted ? 1 : 0;
    return MPI_SUCCESS;
}

HMPI_API(int, Dist_graph_neighbors, (MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                                     int maxoutdegree, int destinations[], int destweights[])) {
    Call c("MPI_Dist_graph_neighbors");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    const Topology* t;
    if (int e = topology_comm(c, comm, TopologyKind::dist_graph, &cm, &t)) return e;
    if (int e = non_negative(c, cm, "maxindegree", maxindegree)) return e;
    if (int e = non_negative(c, cm, "maxoutdegree", maxoutdegree)) return e;
    const int nin = std::min(maxindegree, static_cast<int>(t->sources.size()));
    const int nout = std::min(maxoutdegree, static_cast<int>(t->destinations.size()));
    if (nin > 0)
        if (int e = c.not_null(cm, "sources", sources)) return e;
    if (nout > 0)
        if (int e = c.not_null(cm, "destinations", destinations)) return e;
    for (int k = 0; k < nin; ++k) sources[k] = t->sources[static_cast<std::size_t>(k)];
    for (int k = 0; k < nout; ++k) destinations[k] = t->destinations[static_cast<std::size_t>(k)];
    // Weights go only where the caller gave a real array (MPI_UNWEIGHTED is
    // allowed for an unweighted graph, and NULL when it does not care).
    if (t->weighted && real_weights(sourceweights))
        for (int k = 0; k < nin; ++k) sourceweights[k] = t->source_weights[static_cast<std::size_t>(k)];
    if (t->weighted && real_weights(destweights))
        for (int k = 0; k < nout; ++k) destweights[k] = t->destination_weights[static_cast<std::size_t>(k)];
    return MPI_SUCCESS;
}

// ---- Dims_create, Topo_test ---------------------------------------------------

HMPI_API(int, Dims_create, (int nnodes, int ndims, int dims[])) {
    Call c("MPI_Dims_create");
    if (int e = c.require_initialized()) return e;
    if (nnodes < 1) return c.fail(nullptr, MPI_ERR_DIMS, "argument nnodes = %d is not positive", nnodes);
    if (ndims < 0) return c.fail(nullptr, MPI_ERR_DIMS, "argument ndims = %d is negative", ndims);
    if (ndims > 0)
        if (int e = c.not_null(nullptr, "dims", dims)) return e;
    std::int64_t fixed = 1;
    bool any_free = false;
    for (int i = 0; i < ndims; ++i) {
        if (dims[i] < 0) return c.fail(nullptr, MPI_ERR_DIMS, "argument dims[%d] = %d is negative", i, dims[i]);
        if (dims[i] == 0) {
            any_free = true;
            continue;
        }
        fixed *= dims[i];
        if (fixed > nnodes)
            return c.fail(nullptr, MPI_ERR_DIMS, "the nonzero entries of dims multiply to more than nnodes = %d", nnodes);
    }
    if (nnodes % fixed != 0)
        return c.fail(nullptr, MPI_ERR_DIMS, "nnodes = %d is not divisible by %lld, the product of the nonzero entries of dims",
                      nnodes, static_cast<long long>(fixed));
    if (!any_free && fixed != nnodes)
        return c.fail(nullptr, MPI_ERR_DIMS, "every entry of dims is fixed, and they multiply to %lld, not nnodes = %d",
                      static_cast<long long>(fixed), nnodes);
    dims_fill(nnodes, ndims, dims);
    return MPI_SUCCESS;
}

HMPI_API(int, Topo_test, (MPI_Comm comm, int* status)) {
    Call c("MPI_Topo_test");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    if (int e = c.comm(comm, &cm)) return e;
    if (int e = c.not_null(cm, "status", status)) return e;
    const Topology* t = cm->topology.get();
    if (!t) *status = MPI_UNDEFINED;
    else if (t->kind == TopologyKind::cart) *status = MPI_CART;
    else if (t->kind == TopologyKind::graph) *status = MPI_GRAPH;
    else *status = MPI_DIST_GRAPH;
    return MPI_SUCCESS;
}
