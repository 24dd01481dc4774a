/*
 * t_misc: MPI_Alloc_mem / MPI_Free_mem, MPI_Pcontrol, MPI_Message_c2f /
 * MPI_Message_f2c (MPI-3.1 8.2, 14.2.4, 17.2.4).
 *
 * - Alloc_mem: sizes 0 .. 4 MiB, with MPI_INFO_NULL and with an info;
 *   every byte writable and kept; suitably aligned for any basic type;
 *   negative size -> MPI_ERR_ARG (under MPI_ERRORS_RETURN; Open MPI agrees).
 * - Pcontrol: any level, extra arguments, returns MPI_SUCCESS.
 * - Message handles: MPI_MESSAGE_NULL and MPI_MESSAGE_NO_PROC survive a
 *   round trip; so do real messages from MPI_Mprobe, which are then received
 *   through the converted handle; two live messages convert to different
 *   integers.
 */
#include "mpitest.h"

static void alloc_mem(int rank)
{
    static const MPI_Aint sizes[] = {0, 1, 7, 64, 1000, 65536, 4 << 20};
    MPI_Info info;
    int i, use_info, rc;
    MT_CHECK_RC(MPI_Info_create(&info));
    MT_CHECK_RC(MPI_Info_set(info, "hmpi_test_hint", "1"));
    for (use_info = 0; use_info < 2; use_info++) {
        for (i = 0; i < (int)(sizeof sizes / sizeof sizes[0]); i++) {
            unsigned char *p = NULL;
            size_t n = (size_t)sizes[i];
            MT_CHECK_RC(MPI_Alloc_mem(sizes[i], use_info ? info : MPI_INFO_NULL, &p));
            if (n > 0) {
                MT_CHECK(p != NULL, "Alloc_mem(%zu) gave NULL", n);
                if (!p) continue;
                /* Aligned like malloc's memory (16 bytes on x86-64); HMPI promises a cache line. */
                MT_CHECK((uintptr_t)p % 16 == 0, "Alloc_mem(%zu) at %p: misaligned", n, (void *)p);
#ifdef HMPI
                MT_CHECK((uintptr_t)p % 64 == 0, "Alloc_mem(%zu) at %p: not on a cache line", n, (void *)p);
#endif
                mt_fill(p, n, rank, i);
                MT_CHECK(mt_verify(p, n, rank, i) == MT_OK, "Alloc_mem(%zu): memory did not keep its contents", n);
            }
            MT_CHECK_RC(MPI_Free_mem(p));
        }
    }
    MT_CHECK_RC(MPI_Info_free(&info));

    /* Many blocks alive at once are distinct. */
    {
        enum { K = 32 };
        int *blocks[K], j;
        for (j = 0; j < K; j++) {
            MT_CHECK_RC(MPI_Alloc_mem((MPI_Aint)(sizeof(int) * 100), MPI_INFO_NULL, &blocks[j]));
            for (i = 0; i < 100; i++) blocks[j][i] = rank * 100000 + j * 100 + i;
        }
        for (j = 0; j < K; j++) {
            for (i = 0; i < 100; i++)
                if (blocks[j][i] != rank * 100000 + j * 100 + i) break;
            MT_CHECK(i == 100, "block %d overwritten at %d", j, i);
            MT_CHECK_RC(MPI_Free_mem(blocks[j]));
        }
    }

    {
        void *p = NULL;
        rc = MPI_Alloc_mem(-1, MPI_INFO_NULL, &p);
        MT_CHECK(rc != MPI_SUCCESS, "Alloc_mem(-1) succeeded");
        if (rc != MPI_SUCCESS)
            MT_CHECK(mt_error_class(rc) == MPI_ERR_ARG || mt_error_class(rc) == MPI_ERR_NO_MEM, "Alloc_mem(-1): class %d",
                     mt_error_class(rc));
    }
}

static void pcontrol(void)
{
    MT_CHECK_RC(MPI_Pcontrol(0));
    MT_CHECK_RC(MPI_Pcontrol(1));
    MT_CHECK_RC(MPI_Pcontrol(2, "extra", 3));
    MT_CHECK_RC(MPI_Pcontrol(-1));
}

static void messages(int rank, int size)
{
    MPI_Fint f;
    MPI_Message m = MPI_MESSAGE_NULL, m2 = MPI_MESSAGE_NULL, back;
    MPI_Status st;
    int x[2] = {0, 0}, i, peer_to = (rank + 1) % size, peer_from = (rank + size - 1) % size;

    f = MPI_Message_c2f(MPI_MESSAGE_NULL);
    MT_CHECK(MPI_Message_f2c(f) == MPI_MESSAGE_NULL, "MPI_MESSAGE_NULL round trip");
    f = MPI_Message_c2f(MPI_MESSAGE_NO_PROC);
    MT_CHECK(MPI_Message_f2c(f) == MPI_MESSAGE_NO_PROC, "MPI_MESSAGE_NO_PROC round trip");
    MT_CHECK(MPI_Message_c2f(MPI_MESSAGE_NULL) != MPI_Message_c2f(MPI_MESSAGE_NO_PROC), "null and no-proc collide");

    /* A message to MPI_PROC_NULL probes as MPI_MESSAGE_NO_PROC. */
    MT_CHECK_RC(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &m, &st));
    MT_CHECK(m == MPI_MESSAGE_NO_PROC, "Mprobe(MPI_PROC_NULL) message");
    back = MPI_Message_f2c(MPI_Message_c2f(m));
    MT_CHECK(back == MPI_MESSAGE_NO_PROC, "no-proc message round trip");
    MT_CHECK_RC(MPI_Mrecv(x, 0, MPI_INT, &back, &st));

    /* Real messages: two from the left neighbour, matched, converted, received. */
    for (i = 0; i < 2; i++) {
        int v = rank * 10 + i;
        MT_CHECK_RC(MPI_Send(&v, 1, MPI_INT, peer_to, 100 + i, MPI_COMM_WORLD));
    }
    MT_CHECK_RC(MPI_Mprobe(peer_from, 100, MPI_COMM_WORLD, &m, &st));
    MT_CHECK_RC(MPI_Mprobe(peer_from, 101, MPI_COMM_WORLD, &m2, &st));
    {
        MPI_Fint f1 = MPI_Message_c2f(m), f2 = MPI_Message_c2f(m2);
        MT_CHECK(f1 != f2, "two live messages convert to the same integer %d", (int)f1);
        MT_CHECK(f1 != MPI_Message_c2f(MPI_MESSAGE_NULL) && f2 != MPI_Message_c2f(MPI_MESSAGE_NULL),
                 "a real message converts like MPI_MESSAGE_NULL");
        back = MPI_Message_f2c(f2);
        MT_CHECK(back == m2, "message round trip");
        MT_CHECK_RC(MPI_Mrecv(&x[1], 1, MPI_INT, &back, &st));
        MT_CHECK(back == MPI_MESSAGE_NULL, "Mrecv did not null the message");
        back = MPI_Message_f2c(f1);
        MT_CHECK(back == m, "message round trip");
        MT_CHECK_RC(MPI_Mrecv(&x[0], 1, MPI_INT, &back, &st));
    }
    MT_CHECK(x[0] == peer_from * 10 && x[1] == peer_from * 10 + 1, "received %d %d, expected %d %d", x[0], x[1],
             peer_from * 10, peer_from * 10 + 1);
}

int main(int argc, char **argv)
{
    int rank, size;
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    alloc_mem(rank);
    pcontrol();
    messages(rank, size);

    mt_barrier(MPI_COMM_WORLD);
    return mt_finalize();
}
