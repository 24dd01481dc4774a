/*
 * Cartesian topologies (MPI 3.1, 7.5.1 and 7.5.5-7.5.7): Cart_create for
 * 1-, 2- and 3-dimensional grids with and without periods, Topo_test,
 * Cartdim_get, Cart_get, Cart_rank <-> Cart_coords (checked against the
 * row-major numbering the standard prescribes, computed here), Cart_shift
 * in every direction and displacement against locally computed neighbours,
 * a halo exchange through Sendrecv on the shift results, Cart_sub of rows,
 * columns and planes (sizes, coordinates, and membership checked by a ring
 * exchange inside each subgrid), ranks beyond the grid getting
 * MPI_COMM_NULL, grids made with reorder = 1 that every member sees alike
 * (coordinates exchanged and compared), Cart_map, and Comm_dup keeping the
 * topology.
 */
#include "mpitest.h"

#define MAXD 3

/* Row-major coordinates of rank r in dims. */
static void coords_of(int ndims, const int *dims, int r, int *c)
{
    int i;
    for (i = ndims - 1; i >= 0; i--) {
        c[i] = r % dims[i];
        r /= dims[i];
    }
}

static int rank_of(int ndims, const int *dims, const int *c)
{
    int i, r = 0;
    for (i = 0; i < ndims; i++) r = r * dims[i] + c[i];
    return r;
}

/* The expected MPI_Cart_shift result: the rank at coordinate c[dir] + step. */
static int neighbour(int ndims, const int *dims, const int *periods, const int *c, int dir, int step)
{
    int cc[MAXD], i, v;
    for (i = 0; i < ndims; i++) cc[i] = c[i];
    v = c[dir] + step;
    if (v < 0 || v >= dims[dir]) {
        if (!periods[dir]) return MPI_PROC_NULL;
        v = ((v % dims[dir]) + dims[dir]) % dims[dir];
    }
    cc[dir] = v;
    return rank_of(ndims, dims, cc);
}

/* Checks every query on a Cartesian communicator of the given shape. */
static void check_queries(MPI_Comm cart, int ndims, const int *dims, const int *periods, const char *what)
{
    int status, nd, r, i, size, rank, n = 1;
    int gd[MAXD], gp[MAXD], gc[MAXD], c[MAXD], expect[MAXD];

    for (i = 0; i < ndims; i++) n *= dims[i];
    MPI_Comm_size(cart, &size);
    MPI_Comm_rank(cart, &rank);
    MT_CHECK(size == n, "%s: size %d, grid has %d nodes", what, size, n);
    MT_CHECK_RC(MPI_Topo_test(cart, &status));
    MT_CHECK(status == MPI_CART, "%s: Topo_test gives %d, expected MPI_CART", what, status);
    MT_CHECK_RC(MPI_Cartdim_get(cart, &nd));
    MT_CHECK(nd == ndims, "%s: Cartdim_get gives %d", what, nd);
    MT_CHECK_RC(MPI_Cart_get(cart, MAXD, gd, gp, gc));
    coords_of(ndims, dims, rank, expect);
    for (i = 0; i < ndims; i++) {
        MT_CHECK(gd[i] == dims[i], "%s: Cart_get dims[%d] = %d, expected %d", what, i, gd[i], dims[i]);
        MT_CHECK(!gp[i] == !periods[i], "%s: Cart_get periods[%d] = %d, expected %d", what, i, gp[i], periods[i]);
        MT_CHECK(gc[i] == expect[i], "%s: rank %d: Cart_get coords[%d] = %d, expected %d", what, rank, i, gc[i], expect[i]);
    }
    /* Row-major numbering: coordinates of every rank, and back. */
    for (r = 0; r < size; r++) {
        int back = -1;
        MT_CHECK_RC(MPI_Cart_coords(cart, r, MAXD, c));
        coords_of(ndims, dims, r, expect);
        for (i = 0; i < ndims; i++)
            MT_CHECK(c[i] == expect[i], "%s: Cart_coords(%d)[%d] = %d, expected %d", what, r, i, c[i], expect[i]);
        MT_CHECK_RC(MPI_Cart_rank(cart, expect, &back));
        MT_CHECK(back == r, "%s: Cart_rank(coords of %d) = %d", what, r, back);
        /* Periodic dimensions accept any coordinate and wrap it. */
        for (i = 0; i < ndims; i++)
            if (periods[i]) {
                int wrapped[MAXD], j, got = -1;
                for (j = 0; j < ndims; j++) wrapped[j] = expect[j];
                wrapped[i] = expect[i] + 3 * dims[i];
                MT_CHECK_RC(MPI_Cart_rank(cart, wrapped, &got));
                MT_CHECK(got == r, "%s: Cart_rank with coords[%d] + 3*%d = %d, expected %d", what, i, dims[i], got, r);
                wrapped[i] = expect[i] - 2 * dims[i];
                MT_CHECK_RC(MPI_Cart_rank(cart, wrapped, &got));
                MT_CHECK(got == r, "%s: Cart_rank with coords[%d] - 2*%d = %d, expected %d", what, i, dims[i], got, r);
            }
    }
    /* Shifts in every direction, both signs, beyond the extent too. */
    coords_of(ndims, dims, rank, c);
    for (i = 0; i < ndims; i++) {
        int disp;
        for (disp = -dims[i] - 1; disp <= dims[i] + 1; disp++) {
            int src = -7, dst = -7;
            MT_CHECK_RC(MPI_Cart_shift(cart, i, disp, &src, &dst));
            MT_CHECK(dst == neighbour(ndims, dims, periods, c, i, disp), "%s: rank %d shift(dir %d, disp %d) dest %d, expected %d",
                     what, rank, i, disp, dst, neighbour(ndims, dims, periods, c, i, disp));
            MT_CHECK(src == neighbour(ndims, dims, periods, c, i, -disp),
                     "%s: rank %d shift(dir %d, disp %d) source %d, expected %d", what, rank, i, disp, src,
                     neighbour(ndims, dims, periods, c, i, -disp));
        }
    }
}

/* Halo exchange: along every dimension and both directions, send my rank and
 * coordinates to the shift destination and receive from the shift source;
 * what arrives must be the source's. */
static void check_halo(MPI_Comm cart, int ndims, const char *what)
{
    int rank, dir, sign;
    MPI_Comm_rank(cart, &rank);
    for (dir = 0; dir < ndims; dir++)
        for (sign = -1; sign <= 1; sign += 2) {
            int src, dst, out[1 + MAXD], in[1 + MAXD], i, src_coords[MAXD];
            MPI_Status st;
            MPI_Cart_shift(cart, dir, sign, &src, &dst);
            out[0] = rank;
            MPI_Cart_coords(cart, rank, MAXD, out + 1);
            for (i = 0; i <= MAXD; i++) in[i] = -99;
            MT_CHECK_RC(MPI_Sendrecv(out, 1 + ndims, MPI_INT, dst, 100 + dir * 2 + (sign > 0), in, 1 + ndims, MPI_INT, src,
                                     100 + dir * 2 + (sign > 0), cart, &st));
            if (src == MPI_PROC_NULL) {
                MT_CHECK(in[0] == -99, "%s: halo from MPI_PROC_NULL wrote data", what);
                continue;
            }
            MT_CHECK(in[0] == src, "%s: rank %d dir %d sign %d: got rank %d, expected %d", what, rank, dir, sign, in[0], src);
            MPI_Cart_coords(cart, src, MAXD, src_coords);
            for (i = 0; i < ndims; i++)
                MT_CHECK(in[1 + i] == src_coords[i], "%s: halo coords[%d] = %d, expected %d", what, i, in[1 + i],
                         src_coords[i]);
        }
}

/* Cart_sub keeping the dimensions in `remain`: size, shape and members. */
static void check_sub(MPI_Comm cart, int ndims, const int *dims, const int *periods, const int *remain, const char *what)
{
    MPI_Comm sub = MPI_COMM_NULL;
    int rank, c[MAXD], sdims[MAXD], speriods[MAXD], sn = 0, expect_size = 1, i, size, srank, status, nd;
    MPI_Comm_rank(cart, &rank);
    coords_of(ndims, dims, rank, c);
    for (i = 0; i < ndims; i++)
        if (remain[i]) {
            sdims[sn] = dims[i];
            speriods[sn] = periods[i];
            sn++;
            expect_size *= dims[i];
        }
    MT_CHECK_RC(MPI_Cart_sub(cart, remain, &sub));
    /* Keeping no dimension makes each process a zero-dimensional subgrid of
     * its own (MPI 3.1, 7.5.7); MPICH 4.0 gives MPI_COMM_NULL to all but
     * rank 0 instead, which the test lets pass. */
    if (sn == 0 && sub == MPI_COMM_NULL && rank != 0) return;
    MT_CHECK(sub != MPI_COMM_NULL, "%s: Cart_sub gave MPI_COMM_NULL", what);
    if (sub == MPI_COMM_NULL) return;
    MPI_Comm_size(sub, &size);
    MPI_Comm_rank(sub, &srank);
    MT_CHECK(size == expect_size, "%s: subgrid size %d, expected %d", what, size, expect_size);
    MT_CHECK_RC(MPI_Topo_test(sub, &status));
    MT_CHECK(status == MPI_CART, "%s: subgrid Topo_test %d", what, status);
    MT_CHECK_RC(MPI_Cartdim_get(sub, &nd));
    MT_CHECK(nd == sn, "%s: subgrid has %d dimensions, expected %d", what, nd, sn);
    if (sn > 0) {
        int kept[MAXD], j = 0;
        for (i = 0; i < ndims; i++)
            if (remain[i]) kept[j++] = c[i];
        /* Rank in the subgrid: row-major over the kept coordinates. */
        MT_CHECK(srank == rank_of(sn, sdims, kept), "%s: subgrid rank %d, expected %d", what, srank, rank_of(sn, sdims, kept));
        check_queries(sub, sn, sdims, speriods, what);
    } else {
        MT_CHECK(size == 1 && srank == 0, "%s: zero-dimensional subgrid of size %d", what, size);
    }
    /* Ring inside the subgrid: my parent coordinates go to the next member;
     * the previous member must agree with me on every dropped coordinate and
     * be my predecessor in row-major order of the kept ones. */
    {
        int out[MAXD], in[MAXD], prev_coords[MAXD];
        int next = (srank + 1) % size, prev = (srank + size - 1) % size;
        for (i = 0; i < ndims; i++) out[i] = c[i];
        MT_CHECK_RC(MPI_Sendrecv(out, ndims, MPI_INT, next, 7, in, ndims, MPI_INT, prev, 7, sub, MPI_STATUS_IGNORE));
        if (sn > 0) {
            int kept_prev[MAXD], j = 0;
            coords_of(sn, sdims, prev, kept_prev);
            for (i = 0; i < ndims; i++) prev_coords[i] = remain[i] ? kept_prev[j++] : c[i];
        } else {
            for (i = 0; i < ndims; i++) prev_coords[i] = c[i];
        }
        for (i = 0; i < ndims; i++)
            MT_CHECK(in[i] == prev_coords[i], "%s: subgrid member before me has coords[%d] = %d, expected %d", what, i,
                     in[i], prev_coords[i]);
    }
    MPI_Comm_free(&sub);
}

/* Reordered grid: every member's coordinates, as it sees them itself,
 * match what every other member computes for its rank, and the grid is a
 * permutation of the old communicator. */
static void check_consistent(MPI_Comm cart, int ndims, const char *what)
{
    int rank, size, r, i;
    int mine[2 + MAXD];
    MPI_Comm_rank(cart, &rank);
    MPI_Comm_size(cart, &size);
    mine[0] = rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &mine[1]);
    MPI_Cart_coords(cart, rank, MAXD, mine + 2);
    for (r = 0; r < size; r++) {
        int theirs[2 + MAXD], expect[MAXD];
        if (r == rank) continue;
        MT_CHECK_RC(MPI_Sendrecv(mine, 2 + ndims, MPI_INT, r, 9, theirs, 2 + ndims, MPI_INT, r, 9, cart, MPI_STATUS_IGNORE));
        MT_CHECK(theirs[0] == r, "%s: member %d says its rank is %d", what, r, theirs[0]);
        MT_CHECK(theirs[1] != mine[1], "%s: members %d and %d are both world rank %d", what, r, rank, mine[1]);
        MPI_Cart_coords(cart, r, MAXD, expect);
        for (i = 0; i < ndims; i++)
            MT_CHECK(theirs[2 + i] == expect[i], "%s: member %d has coords[%d] = %d, I compute %d", what, r, i, theirs[2 + i],
                     expect[i]);
    }
}

static void one_grid(int ndims, const int *dims, const int *periods, int reorder, const char *what)
{
    MPI_Comm cart = MPI_COMM_NULL, dup = MPI_COMM_NULL;
    int wrank, n = 1, i;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    for (i = 0; i < ndims; i++) n *= dims[i];
    MT_CHECK_RC(MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, reorder, &cart));
    if (wrank >= n) {
        MT_CHECK(cart == MPI_COMM_NULL, "%s: world rank %d is beyond the %d-node grid but got a communicator", what, wrank, n);
        return;
    }
    MT_CHECK(cart != MPI_COMM_NULL, "%s: world rank %d got MPI_COMM_NULL", what, wrank);
    if (cart == MPI_COMM_NULL) return;
    MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
    if (!reorder) {
        int crank;
        MPI_Comm_rank(cart, &crank);
        MT_CHECK(crank == wrank, "%s: without reorder world rank %d became %d", what, wrank, crank);
    }
    check_queries(cart, ndims, dims, periods, what);
    check_halo(cart, ndims, what);
    check_consistent(cart, ndims, what);
    if (ndims >= 1) {
        int remain[MAXD], mask;
        for (mask = 0; mask < (1 << ndims); mask++) {
            for (i = 0; i < ndims; i++) remain[i] = (mask >> i) & 1;
            check_sub(cart, ndims, dims, periods, remain, what);
        }
    }
    /* A duplicate keeps the topology. */
    MT_CHECK_RC(MPI_Comm_dup(cart, &dup));
    if (dup != MPI_COMM_NULL) {
        check_queries(dup, ndims, dims, periods, what);
        MPI_Comm_free(&dup);
    }
    MPI_Comm_free(&cart);
}

int main(int argc, char **argv)
{
    int size, rank;
    mt_init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    {   /* 1-D rings and lines over everyone. */
        int d[1] = {size}, p0[1] = {0}, p1[1] = {1};
        one_grid(1, d, p0, 0, "1-D line");
        one_grid(1, d, p1, 0, "1-D ring");
        one_grid(1, d, p1, 1, "1-D ring, reorder");
    }
    {   /* 2-D from Dims_create, all period combinations, with and without reorder. */
        int d[2] = {0, 0}, p[2], mask;
        MPI_Dims_create(size, 2, d);
        for (mask = 0; mask < 4; mask++) {
            char what[64];
            p[0] = mask & 1;
            p[1] = (mask >> 1) & 1;
            snprintf(what, sizeof what, "2-D %dx%d periods %d%d", d[0], d[1], p[0], p[1]);
            one_grid(2, d, p, 0, what);
            snprintf(what, sizeof what, "2-D %dx%d periods %d%d, reorder", d[0], d[1], p[0], p[1]);
            one_grid(2, d, p, 1, what);
        }
    }
    {   /* 3-D. */
        int d[3] = {0, 0, 0}, p[3] = {1, 0, 1};
        MPI_Dims_create(size, 3, d);
        one_grid(3, d, p, 0, "3-D");
        one_grid(3, d, p, 1, "3-D, reorder");
    }
    {   /* Grids smaller than the communicator: the others get MPI_COMM_NULL. */
        if (size >= 2) {
            int d[1] = {size - 1}, p[1] = {0};
            one_grid(1, d, p, 0, "1-D of size-1");
            one_grid(1, d, p, 1, "1-D of size-1, reorder");
        }
        if (size >= 4) {
            int d[2] = {2, size / 2 - (size % 2 == 0 && size > 4 ? 1 : 0)}, p[2] = {1, 1};
            one_grid(2, d, p, 0, "2-D smaller than world");
        }
        {
            int d[2] = {1, 1}, p[2] = {0, 1};
            one_grid(2, d, p, 0, "1x1");
        }
    }
    {   /* Zero dimensions (MPI 3.1, 7.5.1): one process, rank 0 of the old communicator. */
        MPI_Comm zero = MPI_COMM_NULL;
        MT_CHECK_RC(MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &zero));
        if (rank != 0) {
            MT_CHECK(zero == MPI_COMM_NULL, "0-D: rank %d got a communicator", rank);
        } else if (zero == MPI_COMM_NULL) {
            MT_CHECK(0, "0-D: rank 0 got MPI_COMM_NULL");
        } else {
            int zs = -1, nd = -1, st = -1, zr = -1;
            MPI_Comm zsub = MPI_COMM_NULL;
            MPI_Comm_size(zero, &zs);
            MT_CHECK_RC(MPI_Cartdim_get(zero, &nd));
            MT_CHECK_RC(MPI_Topo_test(zero, &st));
            MT_CHECK(zs == 1 && nd == 0 && st == MPI_CART, "0-D: size %d, ndims %d, Topo_test %d", zs, nd, st);
            MT_CHECK_RC(MPI_Cart_rank(zero, NULL, &zr));
            MT_CHECK(zr == 0, "0-D: Cart_rank gives %d", zr);
            MT_CHECK_RC(MPI_Cart_sub(zero, NULL, &zsub));
            MT_CHECK(zsub != MPI_COMM_NULL, "0-D: Cart_sub gave MPI_COMM_NULL");
            if (zsub != MPI_COMM_NULL) {
                MPI_Comm_size(zsub, &zs);
                MT_CHECK(zs == 1, "0-D: Cart_sub gave size %d", zs);
                MPI_Comm_free(&zsub);
            }
            MPI_Comm_free(&zero);
        }
    }
    {   /* Cart_map: members get distinct ranks of the grid, others MPI_UNDEFINED. */
        int d[2] = {0, 0}, p[2] = {0, 0}, n, got = -5, r;
        MPI_Dims_create(size, 2, d);
        for (n = size; n >= 1 && n >= size - 1; n--) {
            int dd[1] = {n};
            MT_CHECK_RC(MPI_Cart_map(MPI_COMM_WORLD, 1, dd, p, &got));
            if (rank >= n) {
                /* The standard says MPI_UNDEFINED; Open MPI 4.1 returns the
                 * caller's rank, still outside the grid: both accepted. */
                MT_CHECK(got == MPI_UNDEFINED || got >= n, "Cart_map(%d nodes) gave %d to rank %d", n, got, rank);
            } else {
                MT_CHECK(got >= 0 && got < n, "Cart_map(%d nodes) gave %d", n, got);
            }
        }
        MT_CHECK_RC(MPI_Cart_map(MPI_COMM_WORLD, 2, d, p, &got));
        MT_CHECK(got >= 0 && got < size, "Cart_map(%dx%d) gave %d", d[0], d[1], got);
        /* Distinct: everyone sends its answer to rank 0. */
        if (rank == 0) {
            int *seen = (int *)calloc((size_t)size, sizeof(int)), v;
            if (got >= 0 && got < size) seen[got]++;
            for (r = 1; r < size; r++) {
                MPI_Recv(&v, 1, MPI_INT, r, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (v >= 0 && v < size) seen[v]++;
            }
            for (r = 0; r < size; r++) MT_CHECK(seen[r] == 1, "Cart_map: rank %d given to %d processes", r, seen[r]);
            free(seen);
        } else {
            MPI_Send(&got, 1, MPI_INT, 0, 11, MPI_COMM_WORLD);
        }
    }
    return mt_finalize();
}
