/*
 * t_coll_neighbor: the neighborhood collectives of MPI 3.1 (7.6, 7.7):
 * Neighbor_allgather(v), Neighbor_alltoall(v,w) and their I-forms, checked
 * element by element against values computed locally (colltest.h), on:
 * - 2-D Cartesian grids, periodic and not (at the borders the neighbor is
 *   MPI_PROC_NULL: its receive block must stay untouched);
 * - 1-D periodic Cartesian grids of 1 process (itself as both neighbors) and
 *   of 2 processes (the same neighbor on both sides), and a 1 x n grid
 *   periodic in its first dimension only;
 * - a graph communicator (MPI_Graph_create: a ring, with chords when the
 *   size is even; 2 processes are each other's neighbor twice);
 * - a distributed graph (MPI_Dist_graph_create_adjacent) with asymmetric
 *   in/out lists, repeated edges, a self edge, and a process with no
 *   neighbors at all (when there are 3 or more).
 * Block order (MPI 3.1 7.6, with the MPI 4.0 errata on Cartesian grids):
 * Cartesian: for each dimension the -1 then the +1 neighbor, and block s a
 * process sends arrives in block s^1 of the neighbor (what goes "up" comes
 * from "down"); graphs: the order of MPI_Graph_neighbors /
 * MPI_Dist_graph_neighbors, and the k-th edge from i to j carries the block
 * that arrives at the k-th occurrence of i among j's sources.
 *
 * Options: -n ITER (default 800; env T_COLL_ITER), -s SEED, -c NAMES (only
 * these, e.g. -c neighbor_alltoallv), --no-sweep, -v.
 */
#include "mpitest.h"
#include "colltest.h"

enum { NB_ALLGATHER, NB_ALLGATHERV, NB_ALLTOALL, NB_ALLTOALLV, NB_ALLTOALLW, NNB };
static const char *const nb_name[NNB] = {"neighbor_allgather", "neighbor_allgatherv", "neighbor_alltoall",
                                         "neighbor_alltoallv", "neighbor_alltoallw"};

#define MAXTOPO 8
#define MAXDEG 8 /* the size budget of a case is split in this many blocks */

typedef struct {
    MPI_Comm comm; /* MPI_COMM_NULL where this process has none */
    const char *name;
    int cart;      /* block s arrives in block s^1 */
    int dup_cart;  /* Cartesian with a periodic dimension of size 1 or 2 */
    int size, rank;
    int nin, nout;
    int *in, *out; /* this process's sources and destinations (MPI_PROC_NULL allowed) */
    /* graphs: every process's destination lists, to find the sender's block */
    int *gidx, *gdst; /* destinations of r: gdst[gidx[r] .. gidx[r+1]) */
} topo_t;

static int *ints_copy(const int *a, int n)
{
    int *p = ct_ints(n);
    if (n > 0) memcpy(p, a, sizeof(int) * (size_t)n);
    return p;
}

/* Cartesian neighbors in block order; checks them against MPI_Cart_shift. */
static void topo_cart(topo_t *t, MPI_Comm comm, const char *name)
{
    int nd, d, dims[8], periods[8], coords[8];
    memset(t, 0, sizeof *t);
    t->comm = comm;
    t->name = name;
    t->cart = 1;
    if (comm == MPI_COMM_NULL) return;
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_size(comm, &t->size);
    MPI_Comm_rank(comm, &t->rank);
    MPI_Cartdim_get(comm, &nd);
    MPI_Cart_get(comm, nd, dims, periods, coords);
    t->nin = t->nout = 2 * nd;
    t->in = ct_ints(2 * nd);
    t->out = ct_ints(2 * nd);
    for (d = 0; d < nd; d++) {
        int src, dst;
        MPI_Cart_shift(comm, d, 1, &src, &dst);
        t->in[2 * d] = t->out[2 * d] = src;
        t->in[2 * d + 1] = t->out[2 * d + 1] = dst;
        if (periods[d] && dims[d] <= 2) t->dup_cart = 1;
    }
}

/* A graph from every process's destination lists (in: computed from them). */
static void topo_graph_lists(topo_t *t, int n, const int *gidx, const int *gdst, int me)
{
    int r, k, m = 0;
    t->size = n;
    t->rank = me;
    t->gidx = ints_copy(gidx, n + 1);
    t->gdst = ints_copy(gdst, gidx[n]);
    t->nout = gidx[me + 1] - gidx[me];
    t->out = ints_copy(gdst + gidx[me], t->nout);
    /* sources: every edge r -> me, by decreasing r, repeated edges in order */
    for (r = n - 1; r >= 0; r--)
        for (k = gidx[r]; k < gidx[r + 1]; k++)
            if (gdst[k] == me) m++;
    t->nin = m;
    t->in = ct_ints(m);
    m = 0;
    for (r = n - 1; r >= 0; r--)
        for (k = gidx[r]; k < gidx[r + 1]; k++)
            if (gdst[k] == me) t->in[m++] = r;
}

/* The block of sender s that arrives in block k of this process. */
static int sender_block(const topo_t *t, int k)
{
    int s = t->in[k], occ = 0, i, e;
    if (t->cart) return k ^ 1;
    for (i = 0; i < k; i++)
        if (t->in[i] == s) occ++;
    for (e = t->gidx[s]; e < t->gidx[s + 1]; e++)
        if (t->gdst[e] == t->rank) {
            if (occ == 0) return e - t->gidx[s];
            occ--;
        }
    return -1;
}

static void topo_free(topo_t *t)
{
    free(t->in); free(t->out); free(t->gidx); free(t->gdst);
    if (t->comm != MPI_COMM_NULL) MPI_Comm_free(&t->comm);
}

typedef struct {
    ct_case c; /* buffers, expected image, descriptions */
    int kind;
    MPI_Aint *sdispl_a, *rdispl_a;
} nbcase;

/* Draws and prepares a neighborhood case on topology t. */
static void nb_setup(ct_ctx *x, nbcase *q, int kind, const topo_t *t, uint64_t cseed, int iter)
{
    ct_case *c = &q->c;
    int nbs, nbr, l, k, me = t->rank;
    size_t ub;
    long *len, *disp, span;
    int nmax = (t->nin > t->nout ? t->nin : t->nout) + 1;
    memset(q, 0, sizeof *q);
    q->kind = kind;
    c->coll = -1;
    c->comm = t->comm;
    c->comm_name = t->name;
    c->iter = iter;
    c->cseed = cseed;
    c->rank = me;
    c->size = t->size;
    c->op = -1;
    c->szclass = ct_draw_class(ct_draw(c, 2), x->big_permille);
    c->rt = ct_move_types[ct_draw(c, 4) % CT_NMOVE];
    c->st = ct_pick_match(c->rt, ct_draw(c, 5));
    nbs = ct_types[c->st].nb;
    nbr = ct_types[c->rt].nb;
    l = ct_lcm(nbs, nbr);
    ub = (size_t)(l / nbs) * (size_t)ct_types[c->st].ext;
    if ((size_t)(l / nbr) * (size_t)ct_types[c->rt].ext > ub) ub = (size_t)(l / nbr) * (size_t)ct_types[c->rt].ext;
    len = (long *)mt_malloc(sizeof(long) * (size_t)nmax);
    disp = (long *)mt_malloc(sizeof(long) * (size_t)nmax);

    /* sizes: every process computes them for every process, so the block
     * budget must not depend on this process's degree */
#define EDGE_N(s, o) (ct_units(c->szclass, ct_h(c->cseed ^ 0xa1, (uint64_t)(s) * 4096u + (uint64_t)(o)), ub, MAXDEG, 1) * l)
#define PROC_N(s) (ct_units(c->szclass, ct_h(c->cseed ^ 0xa2, (uint64_t)(s)), ub, MAXDEG, kind == NB_ALLGATHERV) * l)
    switch (kind) {
    case NB_ALLGATHER: case NB_ALLGATHERV: {
        long Nme = kind == NB_ALLGATHER ? PROC_N(0) : PROC_N(me);
        c->count = Nme;
        c->scount = (int)(Nme / nbs);
        ct_alloc_send(c, ct_span(c->st, c->scount));
        ct_put_move(c->sbuf, 0, c->st, Nme, ct_move_key(c, me, 0));
        for (k = 0; k < t->nin; k++) {
            int s = t->in[k];
            long N = kind == NB_ALLGATHER ? Nme : s == MPI_PROC_NULL ? EDGE_N(999999, k) : PROC_N(s);
            len[k] = N / nbr;
        }
        if (kind == NB_ALLGATHER) {
            c->rcount = (int)(Nme / nbr);
            for (k = 0; k < t->nin; k++) disp[k] = (long)k * c->rcount;
            span = (long)t->nin * c->rcount;
        } else {
            span = ct_layout(t->nin, ct_h(c->cseed ^ 0xa3, (uint64_t)me), len, 2, disp);
            c->rcounts = ct_ints(t->nin);
            c->rdispls = ct_ints(t->nin);
            for (k = 0; k < t->nin; k++) {
                c->rcounts[k] = (int)len[k];
                c->rdispls[k] = (int)disp[k];
            }
        }
        ct_alloc_recv(c, ct_span(c->rt, span));
        for (k = 0; k < t->nin; k++)
            if (t->in[k] != MPI_PROC_NULL)
                ct_expect_move(c, (MPI_Aint)disp[k] * ct_types[c->rt].ext, c->rt, len[k] * nbr, t->in[k], 0,
                               ct_move_key(c, t->in[k], 0));
        break;
    }
    case NB_ALLTOALL: case NB_ALLTOALLV: {
        long sspan;
        long *sl = (long *)mt_malloc(sizeof(long) * (size_t)nmax), *sd = (long *)mt_malloc(sizeof(long) * (size_t)nmax);
        long N0 = PROC_N(0);
        for (k = 0; k < t->nout; k++) sl[k] = (kind == NB_ALLTOALL ? N0 : EDGE_N(me, k)) / nbs;
        for (k = 0; k < t->nin; k++) {
            int s = t->in[k];
            long N = kind == NB_ALLTOALL ? N0 : s == MPI_PROC_NULL ? EDGE_N(999999, k) : EDGE_N(s, sender_block(t, k));
            len[k] = N / nbr;
        }
        if (kind == NB_ALLTOALL) {
            c->scount = (int)(N0 / nbs);
            c->rcount = (int)(N0 / nbr);
            c->count = N0;
            for (k = 0; k < t->nout; k++) sd[k] = (long)k * c->scount;
            for (k = 0; k < t->nin; k++) disp[k] = (long)k * c->rcount;
            sspan = (long)t->nout * c->scount;
            span = (long)t->nin * c->rcount;
        } else {
            sspan = ct_layout(t->nout, ct_h(c->cseed ^ 0xa4, (uint64_t)me), sl, 2, sd);
            span = ct_layout(t->nin, ct_h(c->cseed ^ 0xa5, (uint64_t)me), len, 2, disp);
            c->scounts = ct_ints(t->nout);
            c->sdispls = ct_ints(t->nout);
            c->rcounts = ct_ints(t->nin);
            c->rdispls = ct_ints(t->nin);
            for (k = 0; k < t->nout; k++) {
                c->scounts[k] = (int)sl[k];
                c->sdispls[k] = (int)sd[k];
            }
            for (k = 0; k < t->nin; k++) {
                c->rcounts[k] = (int)len[k];
                c->rdispls[k] = (int)disp[k];
            }
        }
        ct_alloc_send(c, ct_span(c->st, sspan));
        for (k = 0; k < t->nout; k++)
            ct_put_move(c->sbuf, (MPI_Aint)sd[k] * ct_types[c->st].ext, c->st, sl[k] * nbs, ct_move_key(c, me, k));
        ct_alloc_recv(c, ct_span(c->rt, span));
        for (k = 0; k < t->nin; k++)
            if (t->in[k] != MPI_PROC_NULL)
                ct_expect_move(c, (MPI_Aint)disp[k] * ct_types[c->rt].ext, c->rt, len[k] * nbr, t->in[k],
                               sender_block(t, k), ct_move_key(c, t->in[k], sender_block(t, k)));
        free(sl);
        free(sd);
        break;
    }
    case NB_ALLTOALLW: {
        /* per edge (sender s, its block o): a kind, a send and a receive type */
        long sspan, *sl = (long *)mt_malloc(sizeof(long) * (size_t)nmax), *sd = (long *)mt_malloc(sizeof(long) * (size_t)nmax);
        long *sN = (long *)mt_malloc(sizeof(long) * (size_t)nmax), *rN = (long *)mt_malloc(sizeof(long) * (size_t)nmax);
        int dir;
        c->stidx = ct_ints(t->nout);
        c->rtidx = ct_ints(t->nin);
        for (dir = 0; dir < 2; dir++) {
            int cnt = dir ? t->nin : t->nout;
            for (k = 0; k < cnt; k++) {
                int s = dir ? t->in[k] : me, o = dir ? sender_block(t, k) : k;
                uint64_t pk = s == MPI_PROC_NULL ? ct_h(c->cseed ^ 0xa6, 999999u * 64u + (uint64_t)k)
                                                 : ct_h(c->cseed ^ 0xa7, (uint64_t)s * 4096u + (uint64_t)o);
                int R = ct_move_types[ct_h(pk, 1) % CT_NMOVE], S = ct_pick_match(R, ct_h(pk, 2));
                int lc = ct_lcm(ct_types[S].nb, ct_types[R].nb);
                size_t b = (size_t)(lc / ct_types[S].nb) * (size_t)ct_types[S].ext;
                long N;
                if ((size_t)(lc / ct_types[R].nb) * (size_t)ct_types[R].ext > b)
                    b = (size_t)(lc / ct_types[R].nb) * (size_t)ct_types[R].ext;
                N = ct_units(c->szclass, ct_h(pk, 4), b, MAXDEG, 1) * lc;
                if (dir == 0) {
                    c->stidx[k] = S;
                    sN[k] = N;
                    sl[k] = (long)ct_span(S, N / ct_types[S].nb);
                } else {
                    c->rtidx[k] = R;
                    rN[k] = N;
                    len[k] = (long)ct_span(R, N / ct_types[R].nb);
                }
            }
        }
        sspan = ct_layout(t->nout, ct_h(c->cseed ^ 0xa8, (uint64_t)me), sl, 7, sd);
        span = ct_layout(t->nin, ct_h(c->cseed ^ 0xa9, (uint64_t)me), len, 7, disp);
        c->scounts = ct_ints(t->nout);
        c->rcounts = ct_ints(t->nin);
        q->sdispl_a = (MPI_Aint *)mt_malloc(sizeof(MPI_Aint) * (size_t)nmax);
        q->rdispl_a = (MPI_Aint *)mt_malloc(sizeof(MPI_Aint) * (size_t)nmax);
        c->stypes = (MPI_Datatype *)mt_malloc(sizeof(MPI_Datatype) * (size_t)nmax);
        c->rtypes = (MPI_Datatype *)mt_malloc(sizeof(MPI_Datatype) * (size_t)nmax);
        ct_alloc_send(c, (size_t)sspan);
        ct_alloc_recv(c, (size_t)span);
        for (k = 0; k < t->nout; k++) {
            int S = c->stidx[k];
            c->scounts[k] = (int)(sN[k] / ct_types[S].nb);
            q->sdispl_a[k] = sd[k];
            c->stypes[k] = x->types[S];
            ct_put_move(c->sbuf, sd[k], S, sN[k], ct_move_key(c, me, k));
        }
        for (k = 0; k < t->nin; k++) {
            int R = c->rtidx[k];
            c->rcounts[k] = (int)(rN[k] / ct_types[R].nb);
            q->rdispl_a[k] = disp[k];
            c->rtypes[k] = x->types[R];
            if (t->in[k] != MPI_PROC_NULL)
                ct_expect_move(c, disp[k], R, rN[k], t->in[k], sender_block(t, k),
                               ct_move_key(c, t->in[k], sender_block(t, k)));
        }
        free(sl); free(sd); free(sN); free(rN);
        break;
    }
    default: break;
    }
#undef EDGE_N
#undef PROC_N
    free(len);
    free(disp);
    c->sref = (unsigned char *)mt_malloc(c->sbytes + 1);
    memcpy(c->sref, c->sbuf, c->sbytes + 1);
    c->sarg = c->sbuf;
    c->rarg = c->rbuf;
}

static int nb_start(ct_ctx *x, nbcase *q, MPI_Request *req)
{
    ct_case *c = &q->c;
    MPI_Datatype st = x->types[c->st], rt = x->types[c->rt];
    int rc = MPI_SUCCESS;
    switch (q->kind) {
    case NB_ALLGATHER:
        rc = req ? MPI_Ineighbor_allgather(c->sbuf, c->scount, st, c->rbuf, c->rcount, rt, c->comm, req)
                 : MPI_Neighbor_allgather(c->sbuf, c->scount, st, c->rbuf, c->rcount, rt, c->comm);
        break;
    case NB_ALLGATHERV:
        rc = req ? MPI_Ineighbor_allgatherv(c->sbuf, c->scount, st, c->rbuf, c->rcounts, c->rdispls, rt, c->comm, req)
                 : MPI_Neighbor_allgatherv(c->sbuf, c->scount, st, c->rbuf, c->rcounts, c->rdispls, rt, c->comm);
        break;
    case NB_ALLTOALL:
        rc = req ? MPI_Ineighbor_alltoall(c->sbuf, c->scount, st, c->rbuf, c->rcount, rt, c->comm, req)
                 : MPI_Neighbor_alltoall(c->sbuf, c->scount, st, c->rbuf, c->rcount, rt, c->comm);
        break;
    case NB_ALLTOALLV:
        rc = req ? MPI_Ineighbor_alltoallv(c->sbuf, c->scounts, c->sdispls, st, c->rbuf, c->rcounts, c->rdispls, rt,
                                           c->comm, req)
                 : MPI_Neighbor_alltoallv(c->sbuf, c->scounts, c->sdispls, st, c->rbuf, c->rcounts, c->rdispls, rt,
                                          c->comm);
        break;
    default:
        rc = req ? MPI_Ineighbor_alltoallw(c->sbuf, c->scounts, q->sdispl_a, c->stypes, c->rbuf, c->rcounts,
                                           q->rdispl_a, c->rtypes, c->comm, req)
                 : MPI_Neighbor_alltoallw(c->sbuf, c->scounts, q->sdispl_a, c->stypes, c->rbuf, c->rcounts,
                                          q->rdispl_a, c->rtypes, c->comm);
        break;
    }
    c->rc = rc;
    return rc;
}

static void run_nb(ct_ctx *x, int kind, const topo_t *t, uint64_t cseed, int iter, int nonblocking, int verbose)
{
    nbcase q;
    if (t->comm == MPI_COMM_NULL) return;
#ifdef OPEN_MPI
    /* Open MPI 4.1's libnbc pairs the blocks of a periodic Cartesian
     * dimension of size 1 or 2 the wrong way round in Ineighbor_alltoall(v,w)
     * (open-mpi/ompi#14416; with unequal blocks it writes past them): use
     * the blocking forms there, which are right */
    if (nonblocking && t->dup_cart && kind >= NB_ALLTOALL) nonblocking = 0;
#endif
    nb_setup(x, &q, kind, t, cseed, iter);
    /* for ct_describe and ct_check: a data-movement case named by label */
    q.c.coll = kind == NB_ALLTOALLW ? C_ALLTOALLW : C_ALLTOALL;
    q.c.label = nb_name[kind];
    q.c.nb = nonblocking;
    if (verbose) {
        char d[512];
        ct_describe(&q.c, d, sizeof d);
        fprintf(stderr, "%s\n", d);
    }
    if (nonblocking) {
        MPI_Request r = MPI_REQUEST_NULL;
        if (nb_start(x, &q, &r) == MPI_SUCCESS) {
            int rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS) q.c.rc = rc;
        }
    } else {
        nb_start(x, &q, NULL);
    }
    ct_check(x, &q.c);
    ct_free(&q.c);
    free(q.sdispl_a);
    free(q.rdispl_a);
}

/* MPI_UNWEIGHTED is a special pointer constant; read through a volatile so
 * that GCC does not take it for a zero-length array at the call. */
static int *unweighted(void)
{
    int *volatile p = MPI_UNWEIGHTED;
    return p;
}

/* Checks the topology's neighbor lists against MPI's own queries. */
static void check_lists(const topo_t *t, int graph, int dist)
{
    int k;
    if (t->comm == MPI_COMM_NULL) return;
    if (graph) {
        int n = 0, *nb;
        MPI_Graph_neighbors_count(t->comm, t->rank, &n);
        MT_CHECK(n == t->nout, "%s: %d neighbors, expected %d", t->name, n, t->nout);
        if (n != t->nout) return;
        nb = ct_ints(n);
        MPI_Graph_neighbors(t->comm, t->rank, n, nb);
        for (k = 0; k < n; k++) MT_CHECK(nb[k] == t->out[k], "%s: neighbor %d is %d, expected %d", t->name, k, nb[k], t->out[k]);
        free(nb);
    }
    if (dist) {
        int indeg = -1, outdeg = -1, w = 0, *s, *d;
        MPI_Dist_graph_neighbors_count(t->comm, &indeg, &outdeg, &w);
        MT_CHECK(indeg == t->nin && outdeg == t->nout, "%s: degrees %d/%d, expected %d/%d", t->name, indeg, outdeg,
                 t->nin, t->nout);
        if (indeg != t->nin || outdeg != t->nout) return;
        s = ct_ints(indeg);
        d = ct_ints(outdeg);
        MPI_Dist_graph_neighbors(t->comm, indeg, s, unweighted(), outdeg, d, unweighted());
        for (k = 0; k < indeg; k++) MT_CHECK(s[k] == t->in[k], "%s: source %d is %d, expected %d", t->name, k, s[k], t->in[k]);
        for (k = 0; k < outdeg; k++) MT_CHECK(d[k] == t->out[k], "%s: destination %d is %d, expected %d", t->name, k, d[k], t->out[k]);
        free(s);
        free(d);
    }
}

int main(int argc, char **argv)
{
    ct_ctx x;
    topo_t tp[MAXTOPO];
    int ntopo = 0, wr, ws, a, sweep = 1, verbose = 0, k, kind, n = 0, mask = (1 << NNB) - 1, nk = 0, kinds[NNB];
    long iters = -1, it;
    uint64_t seed = ct_env_u64("T_COLL_SEED", 1);
    double t0;

    mt_init(&argc, &argv);
    for (a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "-n") && a + 1 < argc)
            iters = atol(argv[++a]);
        else if (!strcmp(argv[a], "-s") && a + 1 < argc)
            seed = strtoull(argv[++a], NULL, 0);
        else if (!strcmp(argv[a], "-c") && a + 1 < argc) {
            /* comma-separated names: neighbor_allgather ... (I-forms' names too) */
            char list[256], *tok, *save = NULL;
            mask = 0;
            snprintf(list, sizeof list, "%s", argv[++a]);
            for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                const char *p = tok;
                int found = 0;
                if (strncasecmp(p, "MPI_", 4) == 0) p += 4;
                if (*p == 'i' || *p == 'I') p++;
                for (kind = 0; kind < NNB; kind++)
                    if (strcasecmp(p, nb_name[kind]) == 0) {
                        mask |= 1 << kind;
                        found = 1;
                    }
                if (!found) {
                    fprintf(stderr, "t_coll_neighbor: unknown neighborhood collective '%s'\n", tok);
                    MPI_Abort(MPI_COMM_WORLD, 2);
                }
            }
        } else if (!strcmp(argv[a], "--no-sweep"))
            sweep = 0;
        else if (!strcmp(argv[a], "-v"))
            verbose = 1;
        else {
            fprintf(stderr, "usage: t_coll_neighbor [-n ITER] [-s SEED] [-c neighbor_coll[,...]] [--no-sweep] [-v]\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (iters < 0) iters = (long)ct_env_u64("T_COLL_ITER", 800);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &wr);
    MPI_Comm_size(MPI_COMM_WORLD, &ws);
    ct_ctx_init(&x, MPI_COMM_WORLD, "t_coll_neighbor");
    x.big_permille = 10;
    t0 = MPI_Wtime();

    /* Cartesian */
    {
        int dims[2] = {0, 0}, per[2] = {1, 1}, np[2] = {0, 0}, d1[1], p1[1] = {1}, pair;
        MPI_Comm c, half;
        MPI_Dims_create(ws, 2, dims);
        MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &c);
        topo_cart(&tp[ntopo++], c, "cart 2-D periodic");
        MPI_Cart_create(MPI_COMM_WORLD, 2, dims, np, 0, &c);
        topo_cart(&tp[ntopo++], c, "cart 2-D non-periodic");
        d1[0] = 1;
        MPI_Cart_create(MPI_COMM_SELF, 1, d1, p1, 0, &c);
        topo_cart(&tp[ntopo++], c, "cart 1-D periodic, 1 process");
        /* pairs (the last process of an odd job alone) */
        pair = wr / 2;
        MPI_Comm_split(MPI_COMM_WORLD, pair, wr, &half);
        MPI_Comm_size(half, &d1[0]);
        MPI_Cart_create(half, 1, d1, p1, 0, &c);
        MPI_Comm_free(&half);
        topo_cart(&tp[ntopo++], c, "cart 1-D periodic, 2 processes");
        dims[0] = 1;
        dims[1] = ws;
        per[0] = 1;
        per[1] = 0;
        MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &c);
        topo_cart(&tp[ntopo++], c, "cart 1 x n, periodic in the first dimension only");
    }
    /* graph: ring (+ chords across when the size is even) */
    {
        int *gidx = ct_ints(ws + 1), *gdst = ct_ints(3 * ws), e = 0, r;
        topo_t *t = &tp[ntopo++];
        MPI_Comm c;
        for (r = 0; r < ws; r++) {
            gidx[r] = e;
            gdst[e++] = (r + 1) % ws;
            gdst[e++] = (r + ws - 1) % ws;
            if (ws % 2 == 0 && ws >= 4) gdst[e++] = (r + ws / 2) % ws;
        }
        gidx[ws] = e;
        MPI_Graph_create(MPI_COMM_WORLD, ws, gidx + 1, gdst, 0, &c);
        memset(t, 0, sizeof *t);
        t->comm = c;
        t->name = "graph ring+chords";
        MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
        topo_graph_lists(t, ws, gidx, gdst, wr);
        /* a symmetric graph: sources = destinations, in the order of MPI_Graph_neighbors */
        free(t->in);
        t->in = ints_copy(t->out, t->nout);
        t->nin = t->nout;
        check_lists(t, 1, 0);
        free(gidx);
        free(gdst);
    }
    /* distributed graph: edges r -> r+1, r -> r+3 twice, 0 -> 0; the last
     * process (3 or more) has no edges at all */
    {
        int *gidx = ct_ints(ws + 1), *gdst = ct_ints(4 * ws + 1), e = 0, r, j;
        int quiet = ws >= 3 ? ws - 1 : -1;
        static const int steps[3] = {1, 3, 3};
        topo_t *t = &tp[ntopo++];
        MPI_Comm c;
        for (r = 0; r < ws; r++) {
            gidx[r] = e;
            if (r == quiet) continue;
            if (r == 0) gdst[e++] = 0;
            for (j = 0; j < 3; j++) {
                int d = (r + steps[j]) % ws;
                if (d != quiet) gdst[e++] = d;
            }
        }
        gidx[ws] = e;
        memset(t, 0, sizeof *t);
        t->name = "dist graph adjacent";
        topo_graph_lists(t, ws, gidx, gdst, wr);
        MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, t->nin, t->in, unweighted(), t->nout, t->out, unweighted(),
                                       MPI_INFO_NULL, 0, &c);
        t->comm = c;
        MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
        check_lists(t, 0, 1);
        free(gidx);
        free(gdst);
    }

    for (kind = 0; kind < NNB; kind++)
        if (mask & (1 << kind)) kinds[nk++] = kind;
    if (sweep)
        for (k = 0; k < ntopo; k++)
            for (kind = 0; kind < NNB; kind++) {
                int nbk;
                if (!(mask & (1 << kind))) continue;
                for (nbk = 0; nbk < 2; nbk++) {
                    x.force_class = 1 + n % 3;
                    run_nb(&x, kind, &tp[k], ct_key(seed, 1, n), -1 - n, nbk, verbose);
                    n++;
                }
            }
    x.force_class = -1;
    for (it = 0; it < iters; it++) {
        uint64_t cseed = ct_iter_seed(seed, it);
        k = (int)(ct_h(cseed, 1) % (uint64_t)ntopo);
        kind = kinds[ct_h(cseed, 2) % (uint64_t)nk];
        run_nb(&x, kind, &tp[k], cseed, (int)it, ct_h(cseed, 3) % 2 == 0, verbose);
    }

    for (k = 0; k < ntopo; k++) topo_free(&tp[k]);
    ct_ctx_free(&x);
    if (wr == 0) {
        printf("t_coll_neighbor: %ld random cases (seed %llu) in %.2f s\n", iters, (unsigned long long)seed,
               MPI_Wtime() - t0);
        fflush(stdout);
    }
    return mt_finalize();
}
