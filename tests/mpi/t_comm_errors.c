/*
 * Error classes of the group and communicator functions under
 * MPI_ERRORS_RETURN: a freed or null communicator gives MPI_ERR_COMM, an
 * invalid rank MPI_ERR_RANK, an invalid group MPI_ERR_GROUP, a bad
 * argument MPI_ERR_ARG, and the job keeps running (the communicators still
 * work afterwards). Every erroneous call is made by all ranks alike, so a
 * collective one that fails fails everywhere before any communication.
 */
#include "mpitest.h"

#define EXPECT_CLASS(call, want)                                                                       \
    do {                                                                                               \
        int rc_ = (call);                                                                              \
        MT_CHECK(rc_ != MPI_SUCCESS && mt_error_class(rc_) == (want), "%s returned %d (class %d), expected class %s", \
                 #call, rc_, mt_error_class(rc_), #want);                                                 \
    } while (0)

/* Either of two classes, where implementations legitimately differ. */
#define EXPECT_CLASS2(call, want1, want2)                                                              \
    do {                                                                                               \
        int rc_ = (call), c_ = mt_error_class(rc_);                                                       \
        MT_CHECK(rc_ != MPI_SUCCESS && (c_ == (want1) || c_ == (want2)), "%s returned %d (class %d), expected %s or %s", \
                 #call, rc_, c_, #want1, #want2);                                                      \
    } while (0)

int main(int argc, char **argv)
{
    int size, me, n, flag;
    MPI_Comm dup, freed, newcomm;
    MPI_Group world, g;
    mt_init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN); /* errors on SELF go to its own handler */
    MPI_Comm_group(MPI_COMM_WORLD, &world);

    /* Null and freed communicators. */
    EXPECT_CLASS(MPI_Comm_size(MPI_COMM_NULL, &n), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_rank(MPI_COMM_NULL, &n), MPI_ERR_COMM);
    MPI_Comm_dup(MPI_COMM_WORLD, &freed);
    MT_CHECK_RC(MPI_Comm_free(&freed));
    MT_CHECK(freed == MPI_COMM_NULL, "MPI_Comm_free left the handle set");
    EXPECT_CLASS(MPI_Comm_size(freed, &n), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_free(&freed), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_dup(MPI_COMM_NULL, &newcomm), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_split(MPI_COMM_NULL, 0, 0, &newcomm), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Send(&n, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_group(MPI_COMM_NULL, &g), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_test_inter(MPI_COMM_NULL, &flag), MPI_ERR_COMM);
    {
        int r;
        EXPECT_CLASS(MPI_Comm_compare(MPI_COMM_NULL, MPI_COMM_WORLD, &r), MPI_ERR_COMM);
    }
    /* The predefined communicators cannot be freed. */
    {
        MPI_Comm w = MPI_COMM_WORLD, s = MPI_COMM_SELF;
        EXPECT_CLASS(MPI_Comm_free(&w), MPI_ERR_COMM);
        EXPECT_CLASS(MPI_Comm_free(&s), MPI_ERR_COMM);
    }

#ifdef HMPI
    /* Intercommunicator-only calls on an intracommunicator (erroneous;
     * Open MPI 4.1 does not detect it and returns garbage or crashes). */
    EXPECT_CLASS(MPI_Comm_remote_size(MPI_COMM_WORLD, &n), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_remote_group(MPI_COMM_WORLD, &g), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &newcomm), MPI_ERR_COMM);
#endif

    /* Ranks. */
    EXPECT_CLASS(MPI_Send(&n, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Send(&n, 1, MPI_INT, -5, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    {
        int bad[1] = {size}, dupl[2] = {0, 0}, out[1];
        EXPECT_CLASS(MPI_Group_incl(world, 1, bad, &g), MPI_ERR_RANK);
        EXPECT_CLASS(MPI_Group_excl(world, 1, bad, &g), MPI_ERR_RANK);
#ifdef HMPI
        /* Repeated ranks are erroneous; Open MPI does not check. */
        if (size >= 2) EXPECT_CLASS2(MPI_Group_incl(world, 2, dupl, &g), MPI_ERR_RANK, MPI_ERR_ARG);
#else
        (void)dupl;
#endif
#ifdef HMPI
        /* Open MPI does not check translate_ranks' input (it crashes). */
        EXPECT_CLASS(MPI_Group_translate_ranks(world, 1, bad, world, out), MPI_ERR_RANK);
#else
        (void)out;
#endif
    }
    {
        int range[1][3] = {{0, size, 1}}, zero[1][3] = {{0, 0, 0}};
        EXPECT_CLASS2(MPI_Group_range_incl(world, 1, range, &g), MPI_ERR_RANK, MPI_ERR_ARG);
        EXPECT_CLASS2(MPI_Group_range_incl(world, 1, zero, &g), MPI_ERR_ARG, MPI_ERR_RANK);
    }
    /* Intercomm_create with a local leader that is not a rank. */
    EXPECT_CLASS2(MPI_Intercomm_create(MPI_COMM_WORLD, size, MPI_COMM_WORLD, 0, 1, &newcomm), MPI_ERR_RANK, MPI_ERR_ARG);

    /* Groups. */
    EXPECT_CLASS(MPI_Group_size(MPI_GROUP_NULL, &n), MPI_ERR_GROUP);
    EXPECT_CLASS(MPI_Group_rank(MPI_GROUP_NULL, &n), MPI_ERR_GROUP);
    EXPECT_CLASS(MPI_Group_union(world, MPI_GROUP_NULL, &g), MPI_ERR_GROUP);
    EXPECT_CLASS(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &newcomm), MPI_ERR_GROUP);
    {
        MPI_Group null = MPI_GROUP_NULL;
        EXPECT_CLASS(MPI_Group_free(&null), MPI_ERR_GROUP);
    }
    {
        MPI_Group tmp;
        MPI_Group_incl(world, 1, &me, &tmp);
        MT_CHECK_RC(MPI_Group_free(&tmp));
        MT_CHECK(tmp == MPI_GROUP_NULL, "MPI_Group_free left the handle set");
        EXPECT_CLASS(MPI_Group_size(tmp, &n), MPI_ERR_GROUP);
    }

    /* Arguments. */
#ifdef HMPI
    /* A negative color other than MPI_UNDEFINED is erroneous; MPICH does not check. */
    EXPECT_CLASS(MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &newcomm), MPI_ERR_ARG);
#endif
    EXPECT_CLASS2(MPI_Group_incl(world, -1, &me, &g), MPI_ERR_ARG, MPI_ERR_GROUP); /* Open MPI: MPI_ERR_GROUP */
#ifdef HMPI
    /* Open MPI accepts unknown split types (it returns MPI_COMM_NULL). */
    EXPECT_CLASS(MPI_Comm_split_type(MPI_COMM_WORLD, 12345, 0, MPI_INFO_NULL, &newcomm), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Comm_set_name(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
#endif

    /* An error handler set on a new communicator is its own; the default is inherited. */
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    {
        MPI_Errhandler eh;
        MPI_Comm_get_errhandler(dup, &eh);
        MT_CHECK(eh == MPI_ERRORS_RETURN, "a dup of MPI_COMM_WORLD did not inherit MPI_ERRORS_RETURN");
        MPI_Errhandler_free(&eh);
        EXPECT_CLASS(MPI_Send(&n, 1, MPI_INT, size + 3, 0, dup), MPI_ERR_RANK);
    }

    /* Intercommunicator: ranks name the remote group. */
    if (size >= 2) {
        MPI_Comm half, inter;
        int rsize;
        MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, me % 2 ? 0 : 1, 5, &inter);
        MPI_Comm_remote_size(inter, &rsize);
        EXPECT_CLASS(MPI_Send(&n, 1, MPI_INT, rsize, 0, inter), MPI_ERR_RANK);
#ifdef HMPI
        /* MPI_Comm_split_type takes an intracommunicator (Open MPI crashes on this). */
        EXPECT_CLASS(MPI_Comm_split_type(inter, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &newcomm), MPI_ERR_COMM);
#endif
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }

    /* Everything still works. */
    {
        int partner = mt_partner(me, size), v = -1;
        MPI_Sendrecv(&me, 1, MPI_INT, partner, 7, &v, 1, MPI_INT, partner, 7, dup, MPI_STATUS_IGNORE);
        MT_CHECK(v == partner, "after the errors: got %d from %d", v, partner);
    }
    MPI_Comm_free(&dup);
    MPI_Group_free(&world);
    mt_barrier(MPI_COMM_WORLD);
    return mt_finalize();
}
