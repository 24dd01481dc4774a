/*
 * Intercommunicators between the even and the odd world ranks:
 * MPI_Intercomm_create, Comm_test_inter, Comm_size / Comm_remote_size,
 * Comm_group / Comm_remote_group, point-to-point across (destinations and
 * MPI_SOURCE are ranks of the remote group), Comm_dup of an
 * intercommunicator, Comm_compare, MPI_Intercomm_merge with the high flag
 * both ways and equal, and Comm_split / Comm_create of an intercommunicator. Everything is checked against lists computed
 * here. A single rank has no one to pair with: it only checks test_inter.
 */
#include "mpitest.h"
#include <stdlib.h>


/* World ranks of a group, via translate_ranks to the world group. */
static void world_ranks(MPI_Group g, int n, int *out)
{
    MPI_Group world;
    int *idx = (int *)mt_malloc(sizeof(int) * (size_t)n), i;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    for (i = 0; i < n; i++) idx[i] = i;
    MPI_Group_translate_ranks(g, n, idx, world, out);
    MPI_Group_free(&world);
    free(idx);
}

/* World ranks of parity p, in order. */
static int parity_list(int size, int p, int *out)
{
    int n = 0, i;
    for (i = p; i < size; i += 2) out[n++] = i;
    return n;
}

/* Every local rank sends its world rank to remote rank (local rank mod
 * remote size); every remote rank receives with MPI_ANY_SOURCE and checks
 * the source (a remote-group rank) against the payload. Both directions. */
static void traffic(MPI_Comm inter, const int *remote, int nremote, int nlocal, const char *what)
{
    int me, lrank, i, pass;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_rank(inter, &lrank);
    for (pass = 0; pass < 2; pass++) {
        int sending = (pass == 0) == (me % 2 == 0);
        if (sending) {
            int msg[2] = {me, lrank};
            MPI_Send(msg, 2, MPI_INT, lrank % nremote, 20 + pass, inter);
        } else {
            /* the remote ranks r with r mod nlocal == lrank send to me */
            for (i = lrank; i < nremote; i += nlocal) {
                int msg[2] = {-1, -1};
                MPI_Status st;
                MPI_Recv(msg, 2, MPI_INT, MPI_ANY_SOURCE, 20 + pass, inter, &st);
                MT_CHECK(st.MPI_SOURCE >= 0 && st.MPI_SOURCE < nremote && msg[1] == st.MPI_SOURCE &&
                             msg[0] == remote[st.MPI_SOURCE],
                         "%s: got world %d (remote rank %d) with MPI_SOURCE %d", what, msg[0], msg[1], st.MPI_SOURCE);
            }
        }
    }
    /* A ping-pong between local rank 0 and remote rank 0. */
    if (lrank == 0) {
        int v = -1;
        if (me % 2 == 0) {
            MPI_Send(&me, 1, MPI_INT, 0, 30, inter);
            MPI_Recv(&v, 1, MPI_INT, 0, 31, inter, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&v, 1, MPI_INT, 0, 30, inter, MPI_STATUS_IGNORE);
            MPI_Send(&me, 1, MPI_INT, 0, 31, inter);
        }
        MT_CHECK(v == remote[0], "%s: ping-pong got %d, expected %d", what, v, remote[0]);
    }
}

static void check_inter(MPI_Comm inter, const int *local, int nlocal, const int *remote, int nremote, const char *what)
{
    int flag = 0, n = -1, rn = -1, r = -1, me, i;
    int *got = (int *)mt_malloc(sizeof(int) * (size_t)(nlocal + nremote));
    MPI_Group g;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_test_inter(inter, &flag);
    MT_CHECK(flag, "%s: not an intercommunicator", what);
    MPI_Comm_size(inter, &n);
    MPI_Comm_remote_size(inter, &rn);
    MPI_Comm_rank(inter, &r);
    MT_CHECK(n == nlocal && rn == nremote, "%s: size %d remote size %d, expected %d and %d", what, n, rn, nlocal, nremote);
    MT_CHECK(r >= 0 && r < nlocal && local[r] == me, "%s: rank %d", what, r);
    MPI_Comm_group(inter, &g);
    world_ranks(g, nlocal, got);
    for (i = 0; i < nlocal; i++) MT_CHECK(got[i] == local[i], "%s: local group member %d is %d", what, i, got[i]);
    MPI_Group_free(&g);
    MPI_Comm_remote_group(inter, &g);
    world_ranks(g, nremote, got);
    for (i = 0; i < nremote; i++) MT_CHECK(got[i] == remote[i], "%s: remote group member %d is %d", what, i, got[i]);
    MPI_Group_free(&g);
    free(got);
    traffic(inter, remote, nremote, nlocal, what);
}

/* Merge and check order: the low group first (both orders), then equal flags. */
static void check_merge(MPI_Comm inter, int size, int me)
{
    int hi_even, n, r, flag, i;
    int *order = (int *)mt_malloc(sizeof(int) * (size_t)size);
    int neven = (size + 1) / 2;
    for (hi_even = 0; hi_even < 2; hi_even++) {
        MPI_Comm merged;
        int high = (me % 2 == 0) ? hi_even : !hi_even, want;
        MT_CHECK_RC(MPI_Intercomm_merge(inter, high, &merged));
        MPI_Comm_test_inter(merged, &flag);
        MPI_Comm_size(merged, &n);
        MPI_Comm_rank(merged, &r);
        MT_CHECK(!flag && n == size, "merge: inter %d size %d", flag, n);
        /* evens are low when hi_even == 0 */
        if (me % 2 == 0) want = hi_even ? (size - neven) + me / 2 : me / 2;
        else want = hi_even ? me / 2 : neven + me / 2;
        MT_CHECK(r == want, "merge (evens high %d): rank %d, expected %d", hi_even, r, want);
        /* everyone's world rank, in merged order, over the merged comm */
        {
            MPI_Request *rq = (MPI_Request *)mt_malloc(sizeof(MPI_Request) * 2 * (size_t)size);
            for (i = 0; i < size; i++) MPI_Irecv(&order[i], 1, MPI_INT, i, 40, merged, &rq[i]);
            for (i = 0; i < size; i++) MPI_Isend(&me, 1, MPI_INT, i, 40, merged, &rq[size + i]);
            MPI_Waitall(2 * size, rq, MPI_STATUSES_IGNORE);
            free(rq);
            for (i = 0; i < size; i++) {
                int low_first = hi_even ? 1 : 0; /* parity of the group placed first */
                int nfirst = low_first ? size - neven : neven;
                int w = i < nfirst ? low_first + 2 * i : (1 - low_first) + 2 * (i - nfirst);
                MT_CHECK(order[i] == w, "merge (evens high %d): rank %d is world %d, expected %d", hi_even, i, order[i], w);
            }
        }
        MPI_Comm_free(&merged);
    }
    /* Equal flags: one group first, consistently. */
    {
        MPI_Comm merged;
        int first_parity;
        MT_CHECK_RC(MPI_Intercomm_merge(inter, 0, &merged));
        MPI_Comm_size(merged, &n);
        MT_CHECK(n == size, "merge with equal flags: size %d", n);
        {
            MPI_Request *rq = (MPI_Request *)mt_malloc(sizeof(MPI_Request) * 2 * (size_t)size);
            for (i = 0; i < size; i++) MPI_Irecv(&order[i], 1, MPI_INT, i, 41, merged, &rq[i]);
            for (i = 0; i < size; i++) MPI_Isend(&me, 1, MPI_INT, i, 41, merged, &rq[size + i]);
            MPI_Waitall(2 * size, rq, MPI_STATUSES_IGNORE);
            free(rq);
        }
        first_parity = order[0] % 2;
        {
            int nfirst = first_parity ? size - neven : neven;
            for (i = 0; i < size; i++) {
                int w = i < nfirst ? first_parity + 2 * i : (1 - first_parity) + 2 * (i - nfirst);
                MT_CHECK(order[i] == w, "merge with equal flags: rank %d is world %d, expected %d", i, order[i], w);
            }
        }
        MPI_Comm_free(&merged);
    }
    free(order);
}

/* Comm_split of an intercommunicator: color = local rank mod 2 (MPI_UNDEFINED
 * for local rank 2), key = -local rank. Each color present on both sides is
 * an intercommunicator between its members, in key order. */
static void check_inter_split(MPI_Comm inter, const int *local, int nlocal, const int *remote, int nremote)
{
    int lrank, color, i, nl = 0, nr = 0;
    int *l = (int *)mt_malloc(sizeof(int) * (size_t)nlocal), *r = (int *)mt_malloc(sizeof(int) * (size_t)nremote);
    MPI_Comm sub;
    MPI_Comm_rank(inter, &lrank);
    color = lrank == 2 ? MPI_UNDEFINED : lrank % 2;
    MT_CHECK_RC(MPI_Comm_split(inter, color, -lrank, &sub));
    for (i = nlocal - 1; i >= 0; i--)
        if (i != 2 && i % 2 == color) l[nl++] = local[i];
    for (i = nremote - 1; i >= 0; i--)
        if (i != 2 && i % 2 == color) r[nr++] = remote[i];
    if (color == MPI_UNDEFINED || nr == 0) {
        MT_CHECK(sub == MPI_COMM_NULL, "inter split: color %d with %d remote members gave a communicator", color, nr);
    } else {
        MT_CHECK(sub != MPI_COMM_NULL, "inter split: color %d gave MPI_COMM_NULL", color);
        if (sub != MPI_COMM_NULL) check_inter(sub, l, nl, r, nr, "inter split");
    }
    if (sub != MPI_COMM_NULL) MPI_Comm_free(&sub);
    free(l);
    free(r);
}

/* Comm_create of an intercommunicator: each side passes its group without
 * its local rank 0; empty on either side gives MPI_COMM_NULL everywhere. */
static void check_inter_create(MPI_Comm inter, const int *local, int nlocal, const int *remote, int nremote)
{
    MPI_Group g, sub;
    MPI_Comm c;
    int lrank, first = 0;
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_group(inter, &g);
    MPI_Group_excl(g, 1, &first, &sub);
    MT_CHECK_RC(MPI_Comm_create(inter, sub, &c));
    if (lrank == 0 || nlocal < 2 || nremote < 2) {
        MT_CHECK(c == MPI_COMM_NULL, "inter create: local rank %d (%d and %d members) got a communicator", lrank, nlocal, nremote);
    } else {
        MT_CHECK(c != MPI_COMM_NULL, "inter create gave MPI_COMM_NULL");
        if (c != MPI_COMM_NULL) check_inter(c, local + 1, nlocal - 1, remote + 1, nremote - 1, "inter create");
    }
    if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
    MPI_Group_free(&sub);
    MPI_Group_free(&g);
}

int main(int argc, char **argv)
{
    int size, me, nlocal, nremote, flag = 1, result;
    int *local, *remote;
    MPI_Comm half, inter, dup;
    mt_init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_test_inter(MPI_COMM_WORLD, &flag);
    MT_CHECK(!flag, "MPI_COMM_WORLD is an intercommunicator");
    if (size < 2) {
        mt_barrier(MPI_COMM_WORLD);
        return mt_finalize();
    }
    local = (int *)mt_malloc(sizeof(int) * (size_t)size);
    remote = (int *)mt_malloc(sizeof(int) * (size_t)size);
    nlocal = parity_list(size, me % 2, local);
    nremote = parity_list(size, 1 - me % 2, remote);

    MT_CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half));
    /* Leaders: local rank 0 of each half; the remote leader named by its MPI_COMM_WORLD rank. */
    MT_CHECK_RC(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, me % 2 == 0 ? 1 : 0, 77, &inter));
    check_inter(inter, local, nlocal, remote, nremote, "intercomm");

    /* A second one, with the last local rank as leader and a dup of the world as peer. */
    {
        MPI_Comm peer, inter2;
        int last_even = (size - 1) % 2 == 0 ? size - 1 : size - 2, last_odd = (size - 1) % 2 ? size - 1 : size - 2;
        MPI_Comm_dup(MPI_COMM_WORLD, &peer);
        MT_CHECK_RC(MPI_Intercomm_create(half, nlocal - 1, peer, me % 2 == 0 ? last_odd : last_even, 78, &inter2));
        check_inter(inter2, local, nlocal, remote, nremote, "intercomm with other leaders");
        MPI_Comm_compare(inter, inter2, &result);
        MT_CHECK(result == MPI_CONGRUENT, "two intercomms over the same groups compare %d", result);
        MPI_Comm_free(&inter2);
        MPI_Comm_free(&peer);
    }

    MT_CHECK_RC(MPI_Comm_dup(inter, &dup));
    check_inter(dup, local, nlocal, remote, nremote, "dup of intercomm");
    MPI_Comm_compare(inter, dup, &result);
    MT_CHECK(result == MPI_CONGRUENT, "intercomm and its dup compare %d", result);
    MPI_Comm_compare(inter, inter, &result);
    MT_CHECK(result == MPI_IDENT, "intercomm and itself compare %d", result);
    MPI_Comm_compare(inter, half, &result);
    MT_CHECK(result == MPI_UNEQUAL, "intercomm and intracomm compare %d", result);

    /* Messages on the dup do not reach the original. */
    {
        int lrank, v = -1;
        MPI_Comm_rank(inter, &lrank);
        if (lrank == 0) {
            if (me % 2 == 0) {
                MPI_Send(&(int){1}, 1, MPI_INT, 0, 50, dup);
                MPI_Send(&(int){2}, 1, MPI_INT, 0, 50, inter);
            } else {
                MPI_Recv(&v, 1, MPI_INT, 0, 50, inter, MPI_STATUS_IGNORE);
                MT_CHECK(v == 2, "original intercomm received %d", v);
                MPI_Recv(&v, 1, MPI_INT, 0, 50, dup, MPI_STATUS_IGNORE);
                MT_CHECK(v == 1, "dup intercomm received %d", v);
            }
        }
    }

    check_merge(inter, size, me);
    check_merge(dup, size, me);
    check_inter_split(inter, local, nlocal, remote, nremote);
    check_inter_create(dup, local, nlocal, remote, nremote);

    MPI_Comm_free(&dup);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    free(local);
    free(remote);
    mt_barrier(MPI_COMM_WORLD);
    return mt_finalize();
}
