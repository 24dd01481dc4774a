/*
 * t_coll_inter: the collectives MPI 3.1 defines on intercommunicators
 * (5.2.2 and each operation's "if comm is an intercommunicator" text):
 * Barrier, Bcast, Gather(v), Scatter(v), Allgather(v), Alltoall(v,w),
 * Reduce, Allreduce, Reduce_scatter(_block), blocking and nonblocking
 * (every I-form, completed by MPI_Wait), checked against values computed
 * locally (colltest.h):
 * - rooted operations: the root passes MPI_ROOT, the other processes of its
 *   group MPI_PROC_NULL (their buffers are NULL: not significant), the other
 *   group passes the root's rank; data flows between the groups only;
 * - Allgather(v): each group receives the other group's contributions (and
 *   the two groups may send different counts);
 * - Alltoall(v,w): each process exchanges a block with every process of the
 *   other group;
 * - Reduce/Allreduce: the reduction of the other group's data, in its rank
 *   order (the non-commutative user operation checks that);
 * - Reduce_scatter(_block): the other group's reduction scattered over this
 *   group by this group's recvcounts (both groups reduce the same count);
 * - Barrier: every process of the other group has entered before any of
 *   this group leaves.
 * Intercommunicators: world split into the first third and the rest (groups
 * of different sizes), even and odd ranks, and a dup of the first. With one
 * rank there is no intercommunicator: nothing to test.
 *
 * Options: -n ITER (default 250; env T_COLL_ITER), -s SEED, -c NAMES, --no-sweep, -v.
 */
#include "mpitest.h"
#include "colltest.h"

#define NINTER 3

typedef struct {
    MPI_Comm comm;
    const char *name;
    int side;       /* 0 or 1: which group this process is in */
    int nside[2];   /* group sizes */
} inter_t;

/* Stream owner id of process r of group s. */
static int who(int s, int r)
{
    return s * 100000 + r;
}

/* Splits count into n parts (some empty) drawn from key. */
static void split_counts(long count, int n, uint64_t key, int *out)
{
    long w = 0, used = 0;
    int i;
    for (i = 0; i < n; i++) w += (long)(ct_h(key, (uint64_t)i) % 4);
    for (i = 0; i < n; i++) {
        long wi = (long)(ct_h(key, (uint64_t)i) % 4);
        out[i] = w ? (int)(count * wi / w) : 0;
        used += out[i];
    }
    out[n - 1] += (int)(count - used);
}

/* Draws and prepares a case on intercommunicator ic. The root fields:
 * c->root is the argument this process passes (MPI_ROOT, MPI_PROC_NULL or
 * the root's rank in the other group). */
static void inter_setup(ct_ctx *x, ct_case *c, int coll, const inter_t *ic, uint64_t cseed, int iter)
{
    int side, me, nl, nr, i, j, nbs, nbr, l, rside, rrank;
    size_t ubytes;
    memset(c, 0, sizeof *c);
    c->coll = coll;
    c->comm = ic->comm;
    c->comm_name = ic->name;
    c->iter = iter;
    c->cseed = cseed;
    c->inter = 1;
    side = ic->side;
    MPI_Comm_rank(ic->comm, &me);
    MPI_Comm_size(ic->comm, &nl);
    MPI_Comm_remote_size(ic->comm, &nr);
    c->rank = me;
    c->size = nl;
    c->szclass = x->force_class >= 0 ? x->force_class : ct_draw_class(ct_draw(c, 2), x->big_permille);
    c->rt = ct_move_types[ct_draw(c, 4) % CT_NMOVE];
    c->st = ct_pick_match(c->rt, ct_draw(c, 5));
#ifdef OPEN_MPI
    /* Open MPI 4.1's coll/inter Scatterv forwards the root's sendcounts to
     * the other group's leader as counts of the receive type: it truncates
     * or over-reads when the two types differ in size */
    if (coll == C_SCATTERV) c->st = c->rt;
#endif
    c->op = -1;
    if (ct_is_reduction(coll)) {
        c->op = x->force_op >= 0 ? x->force_op : (int)(ct_draw(c, 6) % NOPS);
        c->rt = c->st = x->force_type >= 0 ? x->force_type : ct_pick_red_type(c->op, ct_draw(c, 7));
    }
    rside = (int)(ct_draw(c, 8) % 2);
    rrank = (int)(ct_draw(c, 9) % (uint64_t)ic->nside[rside]);
    if (side == rside)
        c->root = me == rrank ? MPI_ROOT : MPI_PROC_NULL;
    else
        c->root = rrank;
    nbs = ct_types[c->st].nb;
    nbr = ct_types[c->rt].nb;
    l = ct_lcm(nbs, nbr);
    ubytes = (size_t)(l / nbs) * (size_t)ct_types[c->st].ext;
    if ((size_t)(l / nbr) * (size_t)ct_types[c->rt].ext > ubytes) ubytes = (size_t)(l / nbr) * (size_t)ct_types[c->rt].ext;

    switch (coll) {
    case C_BARRIER:
        c->sleeper = who(rside, rrank);
        c->sleep_ms = ct_draw(c, 10) % 4 == 0 ? 1 : 0;
        break;

    case C_BCAST: {
        long N = ct_units(c->szclass, ct_draw(c, 10), ubytes, 1, 0) * l;
        uint64_t key = ct_move_key(c, who(rside, rrank), 0);
        c->count = N;
        if (c->root == MPI_ROOT) {
            c->scount = (int)(N / nbs);
            ct_alloc_send(c, ct_span(c->st, c->scount));
            ct_put_move(c->sbuf, 0, c->st, N, key);
        } else if (c->root != MPI_PROC_NULL) {
            c->rcount = (int)(N / nbr);
            ct_alloc_recv(c, ct_span(c->rt, c->rcount));
            ct_expect_move(c, 0, c->rt, N, rrank, 0, key);
        }
        break;
    }

    case C_GATHER: case C_GATHERV: {
        /* the other group sends, the root receives nr blocks */
        long *len = (long *)mt_malloc(sizeof(long) * (size_t)(nl > nr ? nl : nr) + 8);
        long *disp = (long *)mt_malloc(sizeof(long) * (size_t)(nl > nr ? nl : nr) + 8);
        int nsend = ic->nside[1 - rside];
        long N = ct_units(c->szclass, ct_draw(c, 10), ubytes, nsend, 0) * l;
        c->count = N;
        for (i = 0; i < nsend; i++)
            len[i] = coll == C_GATHER ? N : ct_units(c->szclass, ct_h(c->cseed ^ 0x91, (uint64_t)i), ubytes, nsend, 1) * l;
        if (c->root == MPI_ROOT) {
            long span;
            if (coll == C_GATHER) {
                c->rcount = (int)(N / nbr);
                for (i = 0; i < nr; i++) disp[i] = (long)i * c->rcount;
                span = (long)nr * c->rcount;
            } else {
                long *rl = (long *)mt_malloc(sizeof(long) * (size_t)nr);
                for (i = 0; i < nr; i++) rl[i] = len[i] / nbr;
                span = ct_layout(nr, ct_draw(c, 11), rl, 2, disp);
                c->rcounts = ct_ints(nr);
                c->rdispls = ct_ints(nr);
                for (i = 0; i < nr; i++) {
                    c->rcounts[i] = (int)rl[i];
                    c->rdispls[i] = (int)disp[i];
                }
                free(rl);
            }
            ct_alloc_recv(c, ct_span(c->rt, span));
            for (i = 0; i < nr; i++)
                ct_expect_move(c, (MPI_Aint)disp[i] * ct_types[c->rt].ext, c->rt, len[i], i, 0,
                               ct_move_key(c, who(1 - side, i), 0));
        } else if (c->root != MPI_PROC_NULL) {
            c->scount = (int)(len[me] / nbs);
            ct_alloc_send(c, ct_span(c->st, c->scount));
            ct_put_move(c->sbuf, 0, c->st, len[me], ct_move_key(c, who(side, me), 0));
        }
        free(len);
        free(disp);
        break;
    }

    case C_SCATTER: case C_SCATTERV: {
        int nrecv = ic->nside[1 - rside];
        long *len = (long *)mt_malloc(sizeof(long) * (size_t)nrecv), *disp = (long *)mt_malloc(sizeof(long) * (size_t)nrecv);
        long N = ct_units(c->szclass, ct_draw(c, 10), ubytes, nrecv, 0) * l;
        uint64_t owner = (uint64_t)who(rside, rrank);
        c->count = N;
        for (i = 0; i < nrecv; i++)
            len[i] = coll == C_SCATTER ? N : ct_units(c->szclass, ct_h(c->cseed ^ 0x92, (uint64_t)i), ubytes, nrecv, 1) * l;
        if (c->root == MPI_ROOT) {
            long span;
            if (coll == C_SCATTER) {
                c->scount = (int)(N / nbs);
                for (i = 0; i < nr; i++) disp[i] = (long)i * c->scount;
                span = (long)nr * c->scount;
            } else {
                long *sl = (long *)mt_malloc(sizeof(long) * (size_t)nr);
                for (i = 0; i < nr; i++) sl[i] = len[i] / nbs;
                span = ct_layout(nr, ct_draw(c, 11), sl, 2, disp);
                c->scounts = ct_ints(nr);
                c->sdispls = ct_ints(nr);
                for (i = 0; i < nr; i++) {
                    c->scounts[i] = (int)sl[i];
                    c->sdispls[i] = (int)disp[i];
                }
                free(sl);
            }
            ct_alloc_send(c, ct_span(c->st, span));
            for (i = 0; i < nr; i++)
                ct_put_move(c->sbuf, (MPI_Aint)disp[i] * ct_types[c->st].ext, c->st, len[i],
                            ct_move_key(c, (int)owner, i));
        } else if (c->root != MPI_PROC_NULL) {
            c->rcount = (int)(len[me] / nbr);
            ct_alloc_recv(c, ct_span(c->rt, c->rcount));
            ct_expect_move(c, 0, c->rt, len[me], rrank, me, ct_move_key(c, (int)owner, me));
        }
        free(len);
        free(disp);
        break;
    }

    case C_ALLGATHER: case C_ALLGATHERV: {
        /* per group (allgather) or per process (allgatherv) counts */
        long Nme, *rlen = (long *)mt_malloc(sizeof(long) * (size_t)nr), *rdisp = (long *)mt_malloc(sizeof(long) * (size_t)nr);
        long span;
#define AG_N(s, r)                                                                                    \
    (coll == C_ALLGATHER ? ct_units(c->szclass, ct_h(c->cseed ^ 0x93, (uint64_t)(s)), ubytes, ic->nside[1 - (s)], 0) * l \
                         : ct_units(c->szclass, ct_h(c->cseed ^ 0x94, (uint64_t)who(s, r)), ubytes, ic->nside[1 - (s)], 1) * l)
        Nme = AG_N(side, me);
        for (i = 0; i < nr; i++) rlen[i] = AG_N(1 - side, i) / nbr;
#undef AG_N
        if (coll == C_ALLGATHER) {
            for (i = 0; i < nr; i++) rdisp[i] = (long)i * rlen[0];
            span = (long)nr * (nr ? rlen[0] : 0);
            c->rcount = nr ? (int)rlen[0] : 0;
        } else {
            span = ct_layout(nr, ct_h(c->cseed ^ 0x95, (uint64_t)side), rlen, 2, rdisp);
            c->rcounts = ct_ints(nr);
            c->rdispls = ct_ints(nr);
            for (i = 0; i < nr; i++) {
                c->rcounts[i] = (int)rlen[i];
                c->rdispls[i] = (int)rdisp[i];
            }
        }
        c->count = Nme;
        c->scount = (int)(Nme / nbs);
        ct_alloc_send(c, ct_span(c->st, c->scount));
        ct_put_move(c->sbuf, 0, c->st, Nme, ct_move_key(c, who(side, me), 0));
        ct_alloc_recv(c, ct_span(c->rt, span));
        for (i = 0; i < nr; i++)
            ct_expect_move(c, (MPI_Aint)rdisp[i] * ct_types[c->rt].ext, c->rt, rlen[i] * nbr, i, 0,
                           ct_move_key(c, who(1 - side, i), 0));
        free(rlen);
        free(rdisp);
        break;
    }

    case C_ALLTOALL: case C_ALLTOALLV: {
        long *slen = (long *)mt_malloc(sizeof(long) * (size_t)nr), *sdisp = (long *)mt_malloc(sizeof(long) * (size_t)nr);
        long *rlen = (long *)mt_malloc(sizeof(long) * (size_t)nr), *rdisp = (long *)mt_malloc(sizeof(long) * (size_t)nr);
        long sspan, rspan;
        int maxn = ic->nside[0] > ic->nside[1] ? ic->nside[0] : ic->nside[1];
        /* base elements from process a of group s to process b of the other group */
#define A2A_N(s, a, b)                                                                                \
    (coll == C_ALLTOALL ? ct_units(c->szclass, ct_h(c->cseed ^ 0x96, (uint64_t)(s)), ubytes, maxn, 0) * l \
                        : ct_units(c->szclass, ct_h(c->cseed ^ 0x97, (uint64_t)who(s, a) * 1000003u + (uint64_t)(b)), ubytes, maxn, 1) * l)
        for (j = 0; j < nr; j++) {
            slen[j] = A2A_N(side, me, j) / nbs;
            rlen[j] = A2A_N(1 - side, j, me) / nbr;
        }
#undef A2A_N
        if (coll == C_ALLTOALL) {
            for (j = 0; j < nr; j++) {
                sdisp[j] = (long)j * slen[0];
                rdisp[j] = (long)j * rlen[0];
            }
            sspan = (long)nr * slen[0];
            rspan = (long)nr * rlen[0];
            c->scount = (int)slen[0];
            c->rcount = (int)rlen[0];
            c->count = slen[0] * nbs;
        } else {
            sspan = ct_layout(nr, ct_h(c->cseed ^ 0x98, (uint64_t)who(side, me)), slen, 2, sdisp);
            rspan = ct_layout(nr, ct_h(c->cseed ^ 0x99, (uint64_t)who(side, me)), rlen, 2, rdisp);
            c->scounts = ct_ints(nr);
            c->sdispls = ct_ints(nr);
            c->rcounts = ct_ints(nr);
            c->rdispls = ct_ints(nr);
            for (j = 0; j < nr; j++) {
                c->scounts[j] = (int)slen[j];
                c->sdispls[j] = (int)sdisp[j];
                c->rcounts[j] = (int)rlen[j];
                c->rdispls[j] = (int)rdisp[j];
            }
        }
        ct_alloc_send(c, ct_span(c->st, sspan));
        ct_alloc_recv(c, ct_span(c->rt, rspan));
        for (j = 0; j < nr; j++) {
            ct_put_move(c->sbuf, (MPI_Aint)sdisp[j] * ct_types[c->st].ext, c->st, slen[j] * nbs,
                        ct_move_key(c, who(side, me), j));
            ct_expect_move(c, (MPI_Aint)rdisp[j] * ct_types[c->rt].ext, c->rt, rlen[j] * nbr, j, me,
                           ct_move_key(c, who(1 - side, j), me));
        }
        free(slen); free(sdisp); free(rlen); free(rdisp);
        break;
    }

    case C_ALLTOALLW: {
        long *slen = (long *)mt_malloc(sizeof(long) * (size_t)nr), *sdisp = (long *)mt_malloc(sizeof(long) * (size_t)nr);
        long *rlen = (long *)mt_malloc(sizeof(long) * (size_t)nr), *rdisp = (long *)mt_malloc(sizeof(long) * (size_t)nr);
        long *sN = (long *)mt_malloc(sizeof(long) * (size_t)nr), *rN = (long *)mt_malloc(sizeof(long) * (size_t)nr);
        long sspan, rspan;
        int maxn = ic->nside[0] > ic->nside[1] ? ic->nside[0] : ic->nside[1], dir;
        c->stidx = ct_ints(nr);
        c->rtidx = ct_ints(nr);
        for (j = 0; j < nr; j++)
            for (dir = 0; dir < 2; dir++) {
                /* dir 0: me -> j (other group); dir 1: j -> me */
                int s = dir ? 1 - side : side, a = dir ? j : me, b = dir ? me : j;
                uint64_t pk = ct_h(c->cseed ^ 0x9a, (uint64_t)who(s, a) * 1000003u + (uint64_t)b);
                int R = ct_move_types[ct_h(pk, 1) % CT_NMOVE], S = ct_pick_match(R, ct_h(pk, 2));
                int lc = ct_lcm(ct_types[S].nb, ct_types[R].nb);
                size_t ub = (size_t)(lc / ct_types[S].nb) * (size_t)ct_types[S].ext;
                long N;
                if ((size_t)(lc / ct_types[R].nb) * (size_t)ct_types[R].ext > ub)
                    ub = (size_t)(lc / ct_types[R].nb) * (size_t)ct_types[R].ext;
                N = ct_units(c->szclass, ct_h(pk, 4), ub, maxn, 1) * lc;
                if (dir == 0) {
                    c->stidx[j] = S;
                    sN[j] = N;
                    slen[j] = (long)ct_span(S, N / ct_types[S].nb);
                } else {
                    c->rtidx[j] = R;
                    rN[j] = N;
                    rlen[j] = (long)ct_span(R, N / ct_types[R].nb);
                }
            }
        sspan = ct_layout(nr, ct_h(c->cseed ^ 0x9b, (uint64_t)who(side, me)), slen, 7, sdisp);
        rspan = ct_layout(nr, ct_h(c->cseed ^ 0x9c, (uint64_t)who(side, me)), rlen, 7, rdisp);
        c->scounts = ct_ints(nr);
        c->sdispls = ct_ints(nr);
        c->rcounts = ct_ints(nr);
        c->rdispls = ct_ints(nr);
        c->stypes = (MPI_Datatype *)mt_malloc(sizeof(MPI_Datatype) * (size_t)nr);
        c->rtypes = (MPI_Datatype *)mt_malloc(sizeof(MPI_Datatype) * (size_t)nr);
        ct_alloc_send(c, (size_t)sspan);
        ct_alloc_recv(c, (size_t)rspan);
        for (j = 0; j < nr; j++) {
            int S = c->stidx[j], R = c->rtidx[j];
            c->scounts[j] = (int)(sN[j] / ct_types[S].nb);
            c->sdispls[j] = (int)sdisp[j];
            c->stypes[j] = x->types[S];
            c->rcounts[j] = (int)(rN[j] / ct_types[R].nb);
            c->rdispls[j] = (int)rdisp[j];
            c->rtypes[j] = x->types[R];
            ct_put_move(c->sbuf, sdisp[j], S, sN[j], ct_move_key(c, who(side, me), j));
            ct_expect_move(c, rdisp[j], R, rN[j], j, me, ct_move_key(c, who(1 - side, j), me));
        }
        free(slen); free(sdisp); free(rlen); free(rdisp); free(sN); free(rN);
        break;
    }

    case C_REDUCE: case C_ALLREDUCE: {
        int t = c->rt, nb = ct_red_nb(t);
        long cnt = ct_units(c->szclass > 4 ? 4 : c->szclass, ct_draw(c, 12), (size_t)ct_types[t].ext, 1, 0);
        uint64_t *keys = (uint64_t *)mt_malloc(sizeof(uint64_t) * (size_t)nr);
        int recv_here = coll == C_ALLREDUCE || c->root == MPI_ROOT;
        int send_here = coll == C_ALLREDUCE || (c->root != MPI_ROOT && c->root != MPI_PROC_NULL);
        for (i = 0; i < nr; i++) keys[i] = ct_red_key(c, 1 - side, i);
        c->count = cnt;
        if (recv_here) {
            ct_alloc_recv(c, ct_span(t, cnt));
            ct_put_red_result(c, c->exp, 0, t, cnt, 0, nr, nr, keys);
            ct_care_pad(c->care, 0, t, cnt * nb);
            if (cnt > 0) ct_seg_add(c, 0, t, cnt * nb, -1, 0);
        }
        if (send_here) {
            ct_alloc_send(c, ct_span(t, cnt));
            ct_put_red_input(c, c->sbuf, 0, t, cnt, 0, nl, me, ct_red_key(c, side, me));
        }
        free(keys);
        break;
    }

    case C_REDUCE_SCATTER: case C_REDUCE_SCATTER_BLOCK: {
        int t = c->rt, nb = ct_red_nb(t), cls = c->szclass > 4 ? 4 : c->szclass;
        long total, j0 = 0, mine;
        uint64_t *keys = (uint64_t *)mt_malloc(sizeof(uint64_t) * (size_t)nr);
        for (i = 0; i < nr; i++) keys[i] = ct_red_key(c, 1 - side, i);
        c->rcounts = ct_ints(nl);
        if (coll == C_REDUCE_SCATTER_BLOCK) {
            long q = ct_lcm(ic->nside[0], ic->nside[1]);
            total = ct_units(cls, ct_draw(c, 12), (size_t)ct_types[t].ext * (size_t)q, 1, 0) * q;
            c->rcount = (int)(total / nl);
            for (i = 0; i < nl; i++) c->rcounts[i] = c->rcount;
        } else {
            total = ct_units(cls, ct_draw(c, 12), (size_t)ct_types[t].ext, 1, 0);
            split_counts(total, nl, ct_h(c->cseed ^ 0x9d, (uint64_t)side), c->rcounts);
        }
        for (i = 0; i < me; i++) j0 += c->rcounts[i];
        mine = c->rcounts[me];
        c->count = total;
        ct_alloc_send(c, ct_span(t, total));
        ct_put_red_input(c, c->sbuf, 0, t, total, 0, nl, me, ct_red_key(c, side, me));
        ct_alloc_recv(c, ct_span(t, mine));
        ct_put_red_result(c, c->exp, 0, t, mine, j0, nr, nr, keys);
        ct_care_pad(c->care, 0, t, mine * nb);
        if (mine > 0) ct_seg_add(c, 0, t, mine * nb, -1, (int)j0);
        free(keys);
        break;
    }
    default: break;
    }
    if (c->sbuf) {
        c->sref = (unsigned char *)mt_malloc(c->sbytes + 1);
        memcpy(c->sref, c->sbuf, c->sbytes + 1);
    }
    c->sarg = c->sbuf;
    c->rarg = c->rbuf;
}

static int inter_start(ct_ctx *x, ct_case *c, MPI_Request *req)
{
    MPI_Comm comm = c->comm;
    MPI_Datatype st = x->types[c->st], rt = x->types[c->rt];
    MPI_Op op = c->op >= 0 ? x->ops[c->op] : MPI_OP_NULL;
    int root = c->root, rc = MPI_SUCCESS, isroot = root == MPI_ROOT, isnull = root == MPI_PROC_NULL;
    MPI_Datatype junk = MPI_DOUBLE;
    int jc = 4321;
    switch (c->coll) {
    case C_BARRIER:
        rc = req ? MPI_Ibarrier(comm, req) : MPI_Barrier(comm);
        break;
    case C_BCAST:
        if (isroot)
            rc = req ? MPI_Ibcast(c->sbuf, c->scount, st, root, comm, req) : MPI_Bcast(c->sbuf, c->scount, st, root, comm);
        else if (isnull)
            rc = req ? MPI_Ibcast(NULL, jc, junk, root, comm, req) : MPI_Bcast(NULL, jc, junk, root, comm);
        else
            rc = req ? MPI_Ibcast(c->rbuf, c->rcount, rt, root, comm, req) : MPI_Bcast(c->rbuf, c->rcount, rt, root, comm);
        break;
    case C_GATHER:
        if (isroot)
            rc = req ? MPI_Igather(NULL, jc, junk, c->rbuf, c->rcount, rt, root, comm, req)
                     : MPI_Gather(NULL, jc, junk, c->rbuf, c->rcount, rt, root, comm);
        else if (isnull)
            rc = req ? MPI_Igather(NULL, jc, junk, NULL, jc, junk, root, comm, req)
                     : MPI_Gather(NULL, jc, junk, NULL, jc, junk, root, comm);
        else
            rc = req ? MPI_Igather(c->sbuf, c->scount, st, NULL, jc, junk, root, comm, req)
                     : MPI_Gather(c->sbuf, c->scount, st, NULL, jc, junk, root, comm);
        break;
    case C_GATHERV:
        if (isroot)
            rc = req ? MPI_Igatherv(NULL, jc, junk, c->rbuf, c->rcounts, c->rdispls, rt, root, comm, req)
                     : MPI_Gatherv(NULL, jc, junk, c->rbuf, c->rcounts, c->rdispls, rt, root, comm);
        else if (isnull)
            rc = req ? MPI_Igatherv(NULL, jc, junk, NULL, NULL, NULL, junk, root, comm, req)
                     : MPI_Gatherv(NULL, jc, junk, NULL, NULL, NULL, junk, root, comm);
        else
            rc = req ? MPI_Igatherv(c->sbuf, c->scount, st, NULL, NULL, NULL, junk, root, comm, req)
                     : MPI_Gatherv(c->sbuf, c->scount, st, NULL, NULL, NULL, junk, root, comm);
        break;
    case C_SCATTER:
        if (isroot)
            rc = req ? MPI_Iscatter(c->sbuf, c->scount, st, NULL, jc, junk, root, comm, req)
                     : MPI_Scatter(c->sbuf, c->scount, st, NULL, jc, junk, root, comm);
        else if (isnull)
            rc = req ? MPI_Iscatter(NULL, jc, junk, NULL, jc, junk, root, comm, req)
                     : MPI_Scatter(NULL, jc, junk, NULL, jc, junk, root, comm);
        else
            rc = req ? MPI_Iscatter(NULL, jc, junk, c->rbuf, c->rcount, rt, root, comm, req)
                     : MPI_Scatter(NULL, jc, junk, c->rbuf, c->rcount, rt, root, comm);
        break;
    case C_SCATTERV:
        if (isroot)
            rc = req ? MPI_Iscatterv(c->sbuf, c->scounts, c->sdispls, st, NULL, jc, junk, root, comm, req)
                     : MPI_Scatterv(c->sbuf, c->scounts, c->sdispls, st, NULL, jc, junk, root, comm);
        else if (isnull)
            rc = req ? MPI_Iscatterv(NULL, NULL, NULL, junk, NULL, jc, junk, root, comm, req)
                     : MPI_Scatterv(NULL, NULL, NULL, junk, NULL, jc, junk, root, comm);
        else
            rc = req ? MPI_Iscatterv(NULL, NULL, NULL, junk, c->rbuf, c->rcount, rt, root, comm, req)
                     : MPI_Scatterv(NULL, NULL, NULL, junk, c->rbuf, c->rcount, rt, root, comm);
        break;
    case C_REDUCE:
        if (isroot)
            rc = req ? MPI_Ireduce(NULL, c->rbuf, (int)c->count, rt, op, root, comm, req)
                     : MPI_Reduce(NULL, c->rbuf, (int)c->count, rt, op, root, comm);
        else if (isnull)
            rc = req ? MPI_Ireduce(NULL, NULL, (int)c->count, rt, op, root, comm, req)
                     : MPI_Reduce(NULL, NULL, (int)c->count, rt, op, root, comm);
        else
            rc = req ? MPI_Ireduce(c->sbuf, NULL, (int)c->count, rt, op, root, comm, req)
                     : MPI_Reduce(c->sbuf, NULL, (int)c->count, rt, op, root, comm);
        break;
    default:
        /* the non-rooted ones take the same arguments as on intracommunicators */
        return ct_start(x, c, req);
    }
    if (!req) c->t_exit = ct_now();
    c->rc = rc;
    return rc;
}

/* Barrier check on an intercommunicator: the sleeper's entry time goes to
 * every process of the other group, which must have left after it. */
static void inter_check_barrier(ct_ctx *x, ct_case *c, const inter_t *ic)
{
    int me = c->rank, nr, i;
    MPI_Comm_remote_size(ic->comm, &nr);
    if (who(ic->side, me) == c->sleeper) {
        for (i = 0; i < nr; i++) MPI_Send(&c->t_enter, 1, MPI_DOUBLE, i, 29002, ic->comm);
    } else if (c->sleeper / 100000 != ic->side) {
        double te = 0;
        MPI_Recv(&te, 1, MPI_DOUBLE, c->sleeper % 100000, 29002, ic->comm, MPI_STATUS_IGNORE);
#ifdef OPEN_MPI
        /* Open MPI 4.1's libnbc Ibarrier on intercommunicators lets a
         * process leave once its own group (not the other) has entered */
        if (c->nb) return;
#endif
        if (c->t_exit < te)
            ct_report(x, c, "left the barrier %.6f s before process %d of the other group entered it",
                      te - c->t_exit, c->sleeper % 100000);
    }
}

static void run_inter(ct_ctx *x, int coll, const inter_t *ic, uint64_t cseed, int iter, int nb, int verbose)
{
    ct_case c;
    inter_setup(x, &c, coll, ic, cseed, iter);
    c.nb = nb;
    if (verbose) {
        char d[512];
        ct_describe(&c, d, sizeof d);
        fprintf(stderr, "%s (group %d)\n", d, ic->side);
    }
    if (c.coll == C_BARRIER) {
        if (c.sleep_ms && who(ic->side, c.rank) == c.sleeper) mt_sleep_ms(c.sleep_ms);
        c.t_enter = ct_now();
    }
    if (nb) {
        MPI_Request r = MPI_REQUEST_NULL;
        if (inter_start(x, &c, &r) == MPI_SUCCESS) {
            int rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
            c.t_exit = ct_now();
            if (rc != MPI_SUCCESS) c.rc = rc;
        }
    } else {
        inter_start(x, &c, NULL);
    }
    if (c.coll == C_BARRIER) {
        if (c.rc != MPI_SUCCESS)
            ct_check(x, &c);
        else
            inter_check_barrier(x, &c, ic);
    } else {
        ct_check(x, &c);
    }
    ct_free(&c);
}

int main(int argc, char **argv)
{
    ct_ctx x;
    inter_t ics[NINTER];
    long iters = -1, it, mask = (1l << NCOLL) - 1 - (1l << C_SCAN) - (1l << C_EXSCAN);
    uint64_t seed = ct_env_u64("T_COLL_SEED", 1);
    int sweep = 1, verbose = 0, a, wr, ws, k, coll, n = 0;
    double t0;

    mt_init(&argc, &argv);
    for (a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "-n") && a + 1 < argc)
            iters = atol(argv[++a]);
        else if (!strcmp(argv[a], "-s") && a + 1 < argc)
            seed = strtoull(argv[++a], NULL, 0);
        else if (!strcmp(argv[a], "-c") && a + 1 < argc) {
            mask = ct_parse_colls(argv[++a]);
            if (mask <= 0 || (mask & ((1l << C_SCAN) | (1l << C_EXSCAN)))) {
                fprintf(stderr, "t_coll_inter: unknown collective (or scan/exscan: not defined on intercommunicators) in '%s'\n", argv[a]);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
        } else if (!strcmp(argv[a], "--no-sweep"))
            sweep = 0;
        else if (!strcmp(argv[a], "-v"))
            verbose = 1;
        else {
            fprintf(stderr, "usage: t_coll_inter [-n ITER] [-s SEED] [-c coll[,coll...]] [--no-sweep] [-v]\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (iters < 0) iters = (long)ct_env_u64("T_COLL_ITER", 250);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &wr);
    MPI_Comm_size(MPI_COMM_WORLD, &ws);
    ct_ctx_init(&x, MPI_COMM_WORLD, "t_coll_inter");
    x.big_permille = 10;
    t0 = MPI_Wtime();

    if (ws >= 2) {
        int third = ws / 3 > 0 ? ws / 3 : 1, flag = 0, rs, ls;
        MPI_Comm local;
        /* first third | the rest */
        ics[0].side = wr < third ? 0 : 1;
        MPI_Comm_split(MPI_COMM_WORLD, ics[0].side, wr, &local);
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, ics[0].side == 0 ? third : 0, 101, &ics[0].comm);
        MPI_Comm_free(&local);
        ics[0].name = "inter(first third | rest)";
        ics[0].nside[0] = third;
        ics[0].nside[1] = ws - third;
        /* even | odd, with the odd ranks in reverse order */
        ics[1].side = wr % 2;
        MPI_Comm_split(MPI_COMM_WORLD, ics[1].side, ics[1].side ? -wr : wr, &local);
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, ics[1].side == 0 ? (ws - 1) - ((ws - 1) % 2 == 0) : 0, 102,
                             &ics[1].comm);
        MPI_Comm_free(&local);
        ics[1].name = "inter(even | odd reversed)";
        ics[1].nside[0] = (ws + 1) / 2;
        ics[1].nside[1] = ws / 2;
        /* a dup of the first */
        MPI_Comm_dup(ics[0].comm, &ics[2].comm);
        ics[2].side = ics[0].side;
        ics[2].name = "dup(inter(first third | rest))";
        ics[2].nside[0] = ics[0].nside[0];
        ics[2].nside[1] = ics[0].nside[1];
        for (k = 0; k < NINTER; k++) {
            MPI_Comm_set_errhandler(ics[k].comm, MPI_ERRORS_RETURN);
            MPI_Comm_test_inter(ics[k].comm, &flag);
            MT_CHECK(flag, "%s: MPI_Comm_test_inter says not an intercommunicator", ics[k].name);
            MPI_Comm_size(ics[k].comm, &ls);
            MPI_Comm_remote_size(ics[k].comm, &rs);
            MT_CHECK(ls == ics[k].nside[ics[k].side] && rs == ics[k].nside[1 - ics[k].side],
                     "%s: local size %d, remote size %d", ics[k].name, ls, rs);
        }

        if (sweep) {
            for (coll = 0; coll < NCOLL; coll++) {
                int nb;
                if (!(mask & (1l << coll))) continue;
                for (k = 0; k < NINTER; k++)
                    for (nb = 0; nb < 2; nb++) {
                        x.force_class = 1 + n % 3;
                        run_inter(&x, coll, &ics[k], ct_key(seed, 1, n), -1 - n, nb, verbose);
                        n++;
                    }
            }
            for (coll = C_REDUCE; coll <= C_REDUCE_SCATTER_BLOCK; coll++) {
                int op, t;
                if (!(mask & (1l << coll))) continue;
                for (op = 0; op < NOPS; op++)
                    for (t = 0; ct_op_types[op][t] >= 0; t++) {
                        x.force_op = op;
                        x.force_type = ct_op_types[op][t];
                        x.force_class = 1 + n % 3;
                        run_inter(&x, coll, &ics[n % NINTER], ct_key(seed, 2, n), -1 - n, n % 4 == 0, verbose);
                        n++;
                    }
            }
            x.force_op = x.force_type = x.force_class = -1;
        }
        for (it = 0; it < iters; it++) {
            uint64_t cseed = ct_iter_seed(seed, it);
            k = (int)(ct_h(cseed, 1) % NINTER);
            coll = ct_pick_coll(mask, ct_h(cseed, 2));
            run_inter(&x, coll, &ics[k], cseed, (int)it, ct_h(cseed, 3) % 3 == 0, verbose);
        }
        for (k = 0; k < NINTER; k++) MPI_Comm_free(&ics[k].comm);
    }

    ct_ctx_free(&x);
    if (wr == 0) {
        printf("t_coll_inter: %ld random cases (seed %llu) in %.2f s\n", ws >= 2 ? iters : 0, (unsigned long long)seed,
               MPI_Wtime() - t0);
        fflush(stdout);
    }
    return mt_finalize();
}
