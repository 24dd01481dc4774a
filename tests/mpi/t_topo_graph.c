/*
 * Graph topologies (MPI 3.1, 7.5.3 and 7.5.5): Graph_create for a ring, a
 * star and a graph smaller than the communicator (the others get
 * MPI_COMM_NULL), with and without reorder; Topo_test, Graphdims_get,
 * Graph_get, Graph_neighbors_count and Graph_neighbors for every node,
 * checked against the arrays built here; messages sent along every edge
 * arrive from the neighbours the topology names; Graph_map; an empty graph
 * gives MPI_COMM_NULL; Comm_dup keeps the topology.
 */
#include "mpitest.h"

/* A graph in MPI's index/edges form. */
struct graph {
    int nnodes;
    int index[64];
    int edges[256];
};

static int first_edge(const struct graph *g, int node) { return node == 0 ? 0 : g->index[node - 1]; }
static int degree(const struct graph *g, int node) { return g->index[node] - first_edge(g, node); }

static void add_node(struct graph *g, int node, const int *nbrs, int n)
{
    int k, start = first_edge(g, node);
    for (k = 0; k < n; k++) g->edges[start + k] = nbrs[k];
    g->index[node] = start + n;
}

/* Every node i is joined to i-1 and i+1 (mod n): undirected, as two edges. */
static void make_ring(struct graph *g, int n)
{
    int i;
    g->nnodes = n;
    for (i = 0; i < n; i++) {
        int nb[2];
        nb[0] = (i + n - 1) % n;
        nb[1] = (i + 1) % n;
        add_node(g, i, nb, n == 1 ? 0 : 2);
    }
}

/* Node 0 is joined to every other node. */
static void make_star(struct graph *g, int n)
{
    int i, nb[64];
    g->nnodes = n;
    for (i = 1; i < n; i++) nb[i - 1] = i;
    add_node(g, 0, nb, n - 1);
    for (i = 1; i < n; i++) {
        nb[0] = 0;
        add_node(g, i, nb, 1);
    }
}

static void check_graph(MPI_Comm comm, const struct graph *g, const char *what)
{
    int status, nnodes, nedges, i, k, rank, size, count;
    int index[64], edges[256], nbrs[256];
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MT_CHECK(size == g->nnodes, "%s: size %d, graph has %d nodes", what, size, g->nnodes);
    MT_CHECK_RC(MPI_Topo_test(comm, &status));
    MT_CHECK(status == MPI_GRAPH, "%s: Topo_test gives %d, expected MPI_GRAPH", what, status);
    MT_CHECK_RC(MPI_Graphdims_get(comm, &nnodes, &nedges));
    MT_CHECK(nnodes == g->nnodes, "%s: Graphdims_get nnodes %d, expected %d", what, nnodes, g->nnodes);
    MT_CHECK(nedges == g->index[g->nnodes - 1], "%s: Graphdims_get nedges %d, expected %d", what, nedges,
             g->index[g->nnodes - 1]);
    for (i = 0; i < 64; i++) index[i] = -1;
    MT_CHECK_RC(MPI_Graph_get(comm, 64, 256, index, edges));
    for (i = 0; i < g->nnodes; i++) MT_CHECK(index[i] == g->index[i], "%s: Graph_get index[%d] = %d, expected %d", what, i, index[i], g->index[i]);
    for (k = 0; k < g->index[g->nnodes - 1]; k++)
        MT_CHECK(edges[k] == g->edges[k], "%s: Graph_get edges[%d] = %d, expected %d", what, k, edges[k], g->edges[k]);
    for (i = 0; i < g->nnodes; i++) {
        MT_CHECK_RC(MPI_Graph_neighbors_count(comm, i, &count));
        MT_CHECK(count == degree(g, i), "%s: node %d has %d neighbours, expected %d", what, i, count, degree(g, i));
        MT_CHECK_RC(MPI_Graph_neighbors(comm, i, 256, nbrs));
        for (k = 0; k < degree(g, i) && k < count; k++)
            MT_CHECK(nbrs[k] == g->edges[first_edge(g, i) + k], "%s: node %d neighbour %d is %d, expected %d", what, i, k,
                     nbrs[k], g->edges[first_edge(g, i) + k]);
    }
}

/* Every node sends its rank and a per-edge value to each neighbour it names
 * and receives from each neighbour named for it (the graphs here are
 * symmetric, so the two lists are the same multiset). */
static void check_traffic(MPI_Comm comm, const struct graph *g, const char *what)
{
    int rank, n, k;
    MPI_Request req[512];
    int out[256][2], in[256][2];
    MPI_Comm_rank(comm, &rank);
    n = degree(g, rank);
    for (k = 0; k < n; k++) {
        int to = g->edges[first_edge(g, rank) + k];
        out[k][0] = rank;
        out[k][1] = rank * 1000 + to;
        in[k][0] = in[k][1] = -1;
        MPI_Irecv(in[k], 2, MPI_INT, to, 5, comm, &req[k]);
        MPI_Isend(out[k], 2, MPI_INT, to, 5, comm, &req[n + k]);
    }
    MT_CHECK_RC(MPI_Waitall(2 * n, req, MPI_STATUSES_IGNORE));
    for (k = 0; k < n; k++) {
        int from = g->edges[first_edge(g, rank) + k];
        MT_CHECK(in[k][0] == from && in[k][1] == from * 1000 + rank, "%s: node %d got (%d, %d) from %d", what, rank, in[k][0],
                 in[k][1], from);
    }
}

static void one_graph(const struct graph *g, int reorder, const char *what)
{
    MPI_Comm comm = MPI_COMM_NULL, dup = MPI_COMM_NULL;
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MT_CHECK_RC(MPI_Graph_create(MPI_COMM_WORLD, g->nnodes, g->index, g->edges, reorder, &comm));
    if (wrank >= g->nnodes) {
        MT_CHECK(comm == MPI_COMM_NULL, "%s: world rank %d is not a node but got a communicator", what, wrank);
        return;
    }
    MT_CHECK(comm != MPI_COMM_NULL, "%s: world rank %d got MPI_COMM_NULL", what, wrank);
    if (comm == MPI_COMM_NULL) return;
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    if (!reorder) {
        int r;
        MPI_Comm_rank(comm, &r);
        MT_CHECK(r == wrank, "%s: without reorder world rank %d became %d", what, wrank, r);
    }
    check_graph(comm, g, what);
    check_traffic(comm, g, what);
    MT_CHECK_RC(MPI_Comm_dup(comm, &dup));
    if (dup != MPI_COMM_NULL) {
        check_graph(dup, g, what);
        MPI_Comm_free(&dup);
    }
    MPI_Comm_free(&comm);
}

int main(int argc, char **argv)
{
    int size, rank;
    struct graph mine;
    mt_init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (size > 64) {
        if (rank == 0) printf("this test needs at most 64 ranks\n");
        return mt_finalize();
    }

    make_ring(&mine, size);
    one_graph(&mine, 0, "ring");
    one_graph(&mine, 1, "ring, reorder");
    make_star(&mine, size);
    one_graph(&mine, 0, "star");
    one_graph(&mine, 1, "star, reorder");
    if (size >= 2) {
        make_ring(&mine, size - 1);
        one_graph(&mine, 0, "ring smaller than world");
    }
    {   /* A graph with self-loops and a repeated edge: node i -> i, i -> i+1 twice (mod n). */
        int i;
        mine.nnodes = size;
        for (i = 0; i < size; i++) {
            int nb[5];
            nb[0] = i;
            nb[1] = (i + 1) % size;
            nb[2] = (i + 1) % size;
            nb[3] = (i + size - 1) % size;
            nb[4] = (i + size - 1) % size;
            add_node(&mine, i, nb, 5);
        }
        one_graph(&mine, 0, "self-loops and multi-edges");
    }
    {   /* An empty graph: MPI_COMM_NULL everywhere. */
        MPI_Comm comm = (MPI_Comm)0;
        int dummy_index[1] = {0}, dummy_edges[1] = {0};
        MT_CHECK_RC(MPI_Graph_create(MPI_COMM_WORLD, 0, dummy_index, dummy_edges, 0, &comm));
        MT_CHECK(comm == MPI_COMM_NULL, "empty graph: not MPI_COMM_NULL");
    }
    {   /* Graph_map: members get distinct node numbers, the others MPI_UNDEFINED. */
        int n, got = -5, r;
        for (n = size; n >= 1 && n >= size - 1; n--) {
            make_ring(&mine, n);
            MT_CHECK_RC(MPI_Graph_map(MPI_COMM_WORLD, n, mine.index, mine.edges, &got));
            if (rank >= n) {
                /* The standard says MPI_UNDEFINED; Open MPI 4.1 returns the
                 * caller's rank, still not a node: both accepted. */
                MT_CHECK(got == MPI_UNDEFINED || got >= n, "Graph_map(%d nodes) gave %d to rank %d", n, got, rank);
                continue;
            }
            MT_CHECK(got >= 0 && got < n, "Graph_map(%d nodes) gave %d", n, got);
        }
        make_ring(&mine, size);
        MT_CHECK_RC(MPI_Graph_map(MPI_COMM_WORLD, size, mine.index, mine.edges, &got));
        if (rank == 0) {
            int *seen = (int *)calloc((size_t)size, sizeof(int)), v;
            if (got >= 0 && got < size) seen[got]++;
            for (r = 1; r < size; r++) {
                MPI_Recv(&v, 1, MPI_INT, r, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (v >= 0 && v < size) seen[v]++;
            }
            for (r = 0; r < size; r++) MT_CHECK(seen[r] == 1, "Graph_map: node %d given to %d processes", r, seen[r]);
            free(seen);
        } else {
            MPI_Send(&got, 1, MPI_INT, 0, 11, MPI_COMM_WORLD);
        }
    }
    return mt_finalize();
}
