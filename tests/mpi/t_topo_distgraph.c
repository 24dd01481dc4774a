/*
 * Distributed graph topologies (MPI 3.1, 7.5.4 and 7.5.5):
 * - Dist_graph_create_adjacent, weighted ring: Dist_graph_neighbors_count,
 *   and Dist_graph_neighbors in exactly the order given (the standard
 *   requires that for the adjacent form), with weights;
 * - the same unweighted (MPI_UNWEIGHTED: weighted flag false), and a star in
 *   which processes with no edges on one side pass MPI_WEIGHTS_EMPTY (the
 *   graph stays weighted);
 * - Dist_graph_create with random edges and weights named by random
 *   processes (every process can rebuild every other's choice, so each
 *   computes its own expected in/out lists; the order is up to the
 *   implementation, so lists are compared as multisets of
 *   (neighbour, weight)), with reorder = 0 and 1 (for 1, the new ranks are
 *   learnt by exchanging world ranks);
 * - Dist_graph_create unweighted with all edges named by rank 0;
 * - in every case, one message per out-edge, carrying (sender, weight):
 *   what arrives from each in-neighbour must be exactly the expected in-list;
 * - Topo_test and Comm_dup keeping the topology.
 */
#include "mpitest.h"

#define MAXE 4096

struct edge {
    int peer, weight;
};

/* MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY are small constant pointers; read
 * through a volatile so GCC's -Wstringop-overflow does not take them for
 * zero-length arrays at the call sites. */
static int *unweighted(void)
{
    int *volatile p = MPI_UNWEIGHTED;
    return p;
}

static int *weights_empty(void)
{
    int *volatile p = MPI_WEIGHTS_EMPTY;
    return p;
}

static int cmp_edge(const void *a, const void *b)
{
    const struct edge *x = (const struct edge *)a, *y = (const struct edge *)b;
    if (x->peer != y->peer) return x->peer < y->peer ? -1 : 1;
    return (x->weight > y->weight) - (x->weight < y->weight);
}

/* Compares two edge lists as multisets (sorts both). */
static void same_multiset(struct edge *got, int ngot, struct edge *want, int nwant, int weighted, const char *what,
                          const char *side)
{
    int k;
    MT_CHECK(ngot == nwant, "%s: %s-degree %d, expected %d", what, side, ngot, nwant);
    if (ngot != nwant) return;
    if (!weighted)
        for (k = 0; k < ngot; k++) got[k].weight = want[k].weight = 0;
    qsort(got, (size_t)ngot, sizeof *got, cmp_edge);
    qsort(want, (size_t)nwant, sizeof *want, cmp_edge);
    for (k = 0; k < ngot; k++)
        MT_CHECK(got[k].peer == want[k].peer && got[k].weight == want[k].weight,
                 "%s: %s-edge %d is (%d, w %d), expected (%d, w %d)", what, side, k, got[k].peer, got[k].weight,
                 want[k].peer, want[k].weight);
}

/* Reads the topology of comm and checks it against the expected lists
 * (ordered: compare in order; otherwise as multisets). Then sends
 * (my rank, weight) along every out-edge and checks what comes in. */
static void check_dist(MPI_Comm comm, struct edge *in, int nin, struct edge *out, int nout, int weighted, int ordered,
                       const char *what)
{
    int *s = (int *)mt_malloc(sizeof(int) * MAXE), *sws = (int *)mt_malloc(sizeof(int) * MAXE);
    int *d = (int *)mt_malloc(sizeof(int) * MAXE), *dws = (int *)mt_malloc(sizeof(int) * MAXE);
    struct edge *got_in = (struct edge *)mt_malloc(sizeof(struct edge) * MAXE);
    struct edge *got_out = (struct edge *)mt_malloc(sizeof(struct edge) * MAXE);
    struct edge *want_in = (struct edge *)mt_malloc(sizeof(struct edge) * MAXE);
    int (*msg_out)[2] = (int (*)[2])mt_malloc(sizeof(int[2]) * MAXE);
    int (*msg_in)[2] = (int (*)[2])mt_malloc(sizeof(int[2]) * MAXE);
    MPI_Request *req = (MPI_Request *)mt_malloc(sizeof(MPI_Request) * 2 * MAXE);
    int indeg = -1, outdeg = -1, wflag = -1, status = -1, rank, k;

    MPI_Comm_rank(comm, &rank);
    MT_CHECK_RC(MPI_Topo_test(comm, &status));
    MT_CHECK(status == MPI_DIST_GRAPH, "%s: Topo_test gives %d, expected MPI_DIST_GRAPH", what, status);
    MT_CHECK_RC(MPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &wflag));
    MT_CHECK(indeg == nin && outdeg == nout, "%s: rank %d degrees in %d out %d, expected %d %d", what, rank, indeg, outdeg,
             nin, nout);
    MT_CHECK(!wflag == !weighted, "%s: weighted flag %d, expected %d", what, wflag, weighted);
    if (indeg != nin || outdeg != nout) goto done;
    if (weighted) {
        MT_CHECK_RC(MPI_Dist_graph_neighbors(comm, nin, s, sws, nout, d, dws));
    } else {
        MT_CHECK_RC(MPI_Dist_graph_neighbors(comm, nin, s, unweighted(), nout, d, unweighted()));
        for (k = 0; k < nin; k++) sws[k] = 0;
        for (k = 0; k < nout; k++) dws[k] = 0;
    }
    if (ordered) {
        for (k = 0; k < nin; k++)
            MT_CHECK(s[k] == in[k].peer && (!weighted || sws[k] == in[k].weight),
                     "%s: sources[%d] = (%d, w %d), expected (%d, w %d)", what, k, s[k], sws[k], in[k].peer, in[k].weight);
        for (k = 0; k < nout; k++)
            MT_CHECK(d[k] == out[k].peer && (!weighted || dws[k] == out[k].weight),
                     "%s: destinations[%d] = (%d, w %d), expected (%d, w %d)", what, k, d[k], dws[k], out[k].peer,
                     out[k].weight);
    }
    for (k = 0; k < nin; k++) {
        got_in[k].peer = s[k];
        got_in[k].weight = sws[k];
        want_in[k] = in[k];
    }
    for (k = 0; k < nout; k++) {
        got_out[k].peer = d[k];
        got_out[k].weight = dws[k];
    }
    same_multiset(got_in, nin, want_in, nin, weighted, what, "in");
    {
        struct edge *want_out = (struct edge *)mt_malloc(sizeof(struct edge) * MAXE);
        for (k = 0; k < nout; k++) want_out[k] = out[k];
        same_multiset(got_out, nout, want_out, nout, weighted, what, "out");
        free(want_out);
    }

    /* Traffic along the edges the topology reports. */
    for (k = 0; k < nin; k++) {
        msg_in[k][0] = msg_in[k][1] = -1;
        MPI_Irecv(msg_in[k], 2, MPI_INT, s[k], 4, comm, &req[k]);
    }
    for (k = 0; k < nout; k++) {
        msg_out[k][0] = rank;
        msg_out[k][1] = dws[k];
        MPI_Isend(msg_out[k], 2, MPI_INT, d[k], 4, comm, &req[nin + k]);
    }
    MT_CHECK_RC(MPI_Waitall(nin + nout, req, MPI_STATUSES_IGNORE));
    for (k = 0; k < nin; k++) {
        got_in[k].peer = msg_in[k][0];
        got_in[k].weight = msg_in[k][1];
        want_in[k] = in[k];
    }
    same_multiset(got_in, nin, want_in, nin, weighted, what, "received in");

done:
    free(s); free(sws); free(d); free(dws); free(got_in); free(got_out); free(want_in); free(msg_out); free(msg_in);
    free(req);
}

/* new_of_world[w]: the rank in comm (made from MPI_COMM_WORLD) of world
 * rank w, learnt by exchanging world ranks (identity without reorder). */
static void learn_new_ranks(MPI_Comm comm, int *new_of_world, int reorder, const char *what)
{
    int me_new, r, rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(comm, &me_new);
    for (r = 0; r < size; r++) new_of_world[r] = -1;
    new_of_world[rank] = me_new;
    for (r = 0; r < size; r++) {
        int theirs[2] = {-1, -1}, ours[2];
        ours[0] = rank;
        ours[1] = me_new;
        if (r == me_new) continue;
        MPI_Sendrecv(ours, 2, MPI_INT, r, 8, theirs, 2, MPI_INT, r, 8, comm, MPI_STATUS_IGNORE);
        if (theirs[0] >= 0 && theirs[0] < size) new_of_world[theirs[0]] = theirs[1];
    }
    for (r = 0; r < size; r++) MT_CHECK(new_of_world[r] >= 0, "%s: no member was world rank %d", what, r);
    if (!reorder) MT_CHECK(me_new == rank, "%s: without reorder world rank %d became %d", what, rank, me_new);
}

/* Weight of edge a -> b. */
static int wt(int a, int b) { return a * 100 + b + 1; }

/* Edges process p names in the random graph: n_p sources, each with a
 * degree and destinations and weights, all from a hash of p. */
struct spec {
    int n, sources[4], degrees[4], dests[16], weights[16];
};

static void random_spec(int p, int size, int salt, struct spec *sp)
{
    int i, j, e = 0;
    sp->n = (int)(mt_hash3(p, salt, 1) % 4);
    for (i = 0; i < sp->n; i++) {
        sp->sources[i] = (int)(mt_hash3(p, salt, 10 + i) % (uint64_t)size);
        sp->degrees[i] = (int)(mt_hash3(p, salt, 20 + i) % 5);
        for (j = 0; j < sp->degrees[i]; j++, e++) {
            sp->dests[e] = (int)(mt_hash3(p, salt, 100 + e) % (uint64_t)size);
            sp->weights[e] = (int)(mt_hash3(p, salt, 200 + e) % 100);
        }
    }
}

static void random_graph(int reorder, int salt, const char *what)
{
    int size, rank, p, i, j, e, nin = 0, nout = 0;
    struct spec mine, sp;
    struct edge *in = (struct edge *)mt_malloc(sizeof(struct edge) * MAXE);
    struct edge *out = (struct edge *)mt_malloc(sizeof(struct edge) * MAXE);
    int *new_of_world;
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    new_of_world = (int *)mt_malloc(sizeof(int) * (size_t)size);

    random_spec(rank, size, salt, &mine);
    MT_CHECK_RC(MPI_Dist_graph_create(MPI_COMM_WORLD, mine.n, mine.sources, mine.degrees, mine.dests, mine.weights,
                                      MPI_INFO_NULL, reorder, &comm));
    MT_CHECK(comm != MPI_COMM_NULL, "%s: got MPI_COMM_NULL", what);
    if (comm == MPI_COMM_NULL) goto done;
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);

    learn_new_ranks(comm, new_of_world, reorder, what);

    /* Expected lists: every process's named edges that touch me. */
    for (p = 0; p < size; p++) {
        random_spec(p, size, salt, &sp);
        for (i = 0, e = 0; i < sp.n; i++)
            for (j = 0; j < sp.degrees[i]; j++, e++) {
                if (sp.dests[e] == rank && nin < MAXE) {
                    in[nin].peer = new_of_world[sp.sources[i]];
                    in[nin++].weight = sp.weights[e];
                }
                if (sp.sources[i] == rank && nout < MAXE) {
                    out[nout].peer = new_of_world[sp.dests[e]];
                    out[nout++].weight = sp.weights[e];
                }
            }
    }
    check_dist(comm, in, nin, out, nout, 1, 0, what);
    {
        MPI_Comm dup = MPI_COMM_NULL;
        MT_CHECK_RC(MPI_Comm_dup(comm, &dup));
        if (dup != MPI_COMM_NULL) {
            check_dist(dup, in, nin, out, nout, 1, 0, what);
            MPI_Comm_free(&dup);
        }
    }
    MPI_Comm_free(&comm);
done:
    free(in);
    free(out);
    free(new_of_world);
}

int main(int argc, char **argv)
{
    int size, rank, l, r, k;
    struct edge in[64], out[64];
    MPI_Comm comm;

    mt_init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    l = (rank + size - 1) % size;
    r = (rank + 1) % size;

    {   /* Adjacent, weighted ring: order as given. */
        int sources[2], sw[2], dests[2], dw[2];
        sources[0] = l; sources[1] = r;
        sw[0] = wt(l, rank); sw[1] = wt(r, rank);
        dests[0] = r; dests[1] = l;
        dw[0] = wt(rank, r); dw[1] = wt(rank, l);
        for (k = 0; k < 2; k++) {
            in[k].peer = sources[k];
            in[k].weight = sw[k];
            out[k].peer = dests[k];
            out[k].weight = dw[k];
        }
        comm = MPI_COMM_NULL;
        MT_CHECK_RC(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, sources, sw, 2, dests, dw, MPI_INFO_NULL, 0, &comm));
        if (comm != MPI_COMM_NULL) {
            MPI_Comm dup = MPI_COMM_NULL;
            check_dist(comm, in, 2, out, 2, 1, 1, "adjacent weighted ring");
            MT_CHECK_RC(MPI_Comm_dup(comm, &dup));
            if (dup != MPI_COMM_NULL) {
                check_dist(dup, in, 2, out, 2, 1, 1, "dup of adjacent weighted ring");
                MPI_Comm_free(&dup);
            }
            MPI_Comm_free(&comm);
        }

        /* Unweighted. */
        comm = MPI_COMM_NULL;
        MT_CHECK_RC(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, sources, unweighted(), 2, dests, unweighted(),
                                                   MPI_INFO_NULL, 0, &comm));
        if (comm != MPI_COMM_NULL) {
            check_dist(comm, in, 2, out, 2, 0, 1, "adjacent unweighted ring");
            MPI_Comm_free(&comm);
        }
        /* With reorder allowed: the same lists in the same order, naming
         * the new ranks of the old neighbours. */
        comm = MPI_COMM_NULL;
        MT_CHECK_RC(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, sources, sw, 2, dests, dw, MPI_INFO_NULL, 1, &comm));
        if (comm != MPI_COMM_NULL) {
            int *new_of_world = (int *)mt_malloc(sizeof(int) * (size_t)size);
            MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
            learn_new_ranks(comm, new_of_world, 1, "adjacent weighted ring, reorder");
            for (k = 0; k < 2; k++) {
                in[k].peer = new_of_world[sources[k]];
                out[k].peer = new_of_world[dests[k]];
            }
            check_dist(comm, in, 2, out, 2, 1, 1, "adjacent weighted ring, reorder");
            free(new_of_world);
            MPI_Comm_free(&comm);
        }
    }

    {   /* Star: rank 0 -> every other rank; MPI_WEIGHTS_EMPTY on the empty sides. */
        int dests[64], dw[64], src[1], sw[1], n = 0, i;
        comm = MPI_COMM_NULL;
        if (rank == 0) {
            for (i = 1; i < size && i < 64; i++) {
                dests[n] = i;
                dw[n] = wt(0, i);
                out[n].peer = i;
                out[n].weight = dw[n];
                n++;
            }
            MT_CHECK_RC(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, src, weights_empty(), n, dests, dw,
                                                       MPI_INFO_NULL, 0, &comm));
            if (comm != MPI_COMM_NULL) check_dist(comm, in, 0, out, n, 1, 1, "star (centre)");
        } else {
            src[0] = 0;
            sw[0] = wt(0, rank);
            in[0].peer = 0;
            in[0].weight = sw[0];
            MT_CHECK_RC(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src, sw, 0, dests, weights_empty(),
                                                       MPI_INFO_NULL, 0, &comm));
            if (comm != MPI_COMM_NULL) check_dist(comm, in, 1, out, 0, 1, 1, "star (leaf)");
        }
        if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
    }

    /* General constructor, random edges. */
    random_graph(0, 1, "random graph");
    random_graph(0, 2, "random graph 2");
    random_graph(1, 3, "random graph, reorder");

    {   /* Unweighted ring, every edge named by rank 0. */
        int n = rank == 0 ? size : 0, i;
        int *sources = (int *)mt_malloc(sizeof(int) * (size_t)size), *degrees = (int *)mt_malloc(sizeof(int) * (size_t)size);
        int *dests = (int *)mt_malloc(sizeof(int) * (size_t)size);
        for (i = 0; i < n; i++) {
            sources[i] = i;
            degrees[i] = 1;
            dests[i] = (i + 1) % size;
        }
        comm = MPI_COMM_NULL;
        MT_CHECK_RC(MPI_Dist_graph_create(MPI_COMM_WORLD, n, sources, degrees, dests, unweighted(), MPI_INFO_NULL, 0,
                                          &comm));
        in[0].peer = l;
        in[0].weight = 0;
        out[0].peer = r;
        out[0].weight = 0;
        if (comm != MPI_COMM_NULL) {
            check_dist(comm, in, 1, out, 1, 0, 1, "unweighted ring named by rank 0");
            MPI_Comm_free(&comm);
        }
        free(sources);
        free(degrees);
        free(dests);
    }
    return mt_finalize();
}
