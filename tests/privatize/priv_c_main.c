/*
 * Privatization test, C (with priv_c_other.c): every kind of global and static a C program
 * has, each checked for its initial value, then written with rank-specific values by every
 * rank, then checked again after the ranks have synchronized -- under HMPI (ranks are threads;
 * built with hmpicc, which privatizes) and under Open MPI (ranks are processes), where it must
 * pass the same way. Also: threads started inside a rank share its globals; MPI callbacks (an
 * error handler, a user reduction operation) see the calling rank's globals; rand, strtok and
 * getopt_long keep per-rank state across interleaved calls; stdout, errno still work.
 * Standard MPI, point-to-point only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mpi/mpitest.h"
#include "priv_c.h"

/* ---- the globals ---- */
int main_initialized = 7;
static long file_static = 3;
char message[32] = "hello";
static int zero_counter;
static unsigned char big[BIG_COUNT];
int tentative; /* -fcommon: also in priv_c_other.c */

/* Initializers holding addresses of other globals. */
int *p_main = &main_initialized;
void *self_pointer = &self_pointer;
unsigned char *big_last = &big[BIG_COUNT - 1];
static struct {
    int *counter;
    double *element;
    const char *text;
    long *in_file;
} table = {&zero_counter, &other_array[3], "text", &file_static};
int *pointers[3] = {&main_initialized, &other_initialized, &tentative};
static const int *const const_table[2] = {&zero_counter, &main_initialized}; /* const, still per rank */

static int static_local_next(void) {
    static int next = 40;
    return next++;
}

static int zero_static_local_bump(void) {
    static int count;
    return ++count;
}

/* ---- checks ---- */
static void check_initial(void) {
    MT_CHECK(main_initialized == 7, "main_initialized = %d, expected 7", main_initialized);
    MT_CHECK(file_static == 3, "file_static = %ld", file_static);
    MT_CHECK(strcmp(message, "hello") == 0, "message = '%s'", message);
    MT_CHECK(zero_counter == 0, "zero_counter = %d", zero_counter);
    MT_CHECK(big[0] == 0 && big[BIG_COUNT / 2] == 0 && big[BIG_COUNT - 1] == 0, "big not zero");
    MT_CHECK(tentative == 0, "tentative = %d", tentative);
    MT_CHECK(p_main == &main_initialized, "p_main does not point at this rank's main_initialized");
    MT_CHECK(self_pointer == (void *)&self_pointer, "self_pointer does not point at itself");
    MT_CHECK(big_last == &big[BIG_COUNT - 1], "big_last wrong");
    MT_CHECK(table.counter == &zero_counter && table.element == &other_array[3] && strcmp(table.text, "text") == 0 &&
                 table.in_file == &file_static,
             "table's pointers wrong");
    MT_CHECK(pointers[0] == &main_initialized && pointers[1] == &other_initialized && pointers[2] == &tentative,
             "pointers[] wrong");
    MT_CHECK(const_table[0] == &zero_counter && const_table[1] == &main_initialized, "const_table wrong");
    MT_CHECK(other_initialized == 11 && other_zero == 0, "other_initialized %d other_zero %d", other_initialized,
             other_zero);
    MT_CHECK(other_array[0] == 1.5 && other_array[63] == 0.0, "other_array wrong");
    MT_CHECK(other_points_to_main == &main_initialized, "other_points_to_main wrong (address across TUs)");
    MT_CHECK(other_read_main_initialized() == 7, "main_initialized seen from the other TU");
    MT_CHECK(static_local_next() == 40, "static local initial value");
    MT_CHECK(other_static_local_next() == 100, "static local of the other TU");
    MT_CHECK(zero_static_local_bump() == 1, "zero static local");
}

static void write_rank_values(int rank) {
    main_initialized = 1000 + rank;
    file_static = 2000 + rank;
    snprintf(message, sizeof message, "rank %d", rank);
    zero_counter = 3000 + rank;
    big[0] = (unsigned char)(rank + 1);
    big[BIG_COUNT - 1] = (unsigned char)(rank + 2);
    tentative = 4000 + rank;
    other_initialized = 5000 + rank;
    other_set(6000 + rank);
    other_array[3] = 7000.5 + rank;
    self_pointer = NULL;
    *p_main += 1; /* through a pointer initialized at compile time: this rank's copy */
    *table.counter += 1;
    *other_points_to_main += 1;
}

static void check_rank_values(int rank) {
    MT_CHECK(main_initialized == 1002 + rank, "main_initialized = %d, expected %d", main_initialized, 1002 + rank);
    MT_CHECK(file_static == 2000 + rank, "file_static = %ld", file_static);
    char expect[32];
    snprintf(expect, sizeof expect, "rank %d", rank);
    MT_CHECK(strcmp(message, expect) == 0, "message = '%s', expected '%s'", message, expect);
    MT_CHECK(zero_counter == 3001 + rank, "zero_counter = %d", zero_counter);
    MT_CHECK(*const_table[0] == 3001 + rank, "*const_table[0] = %d", *const_table[0]);
    MT_CHECK(big[0] == (unsigned char)(rank + 1) && big[BIG_COUNT - 1] == (unsigned char)(rank + 2) && *big_last == big[BIG_COUNT - 1],
             "big = %d/%d", big[0], big[BIG_COUNT - 1]);
    MT_CHECK(tentative == 4000 + rank && *pointers[2] == tentative, "tentative = %d", tentative);
    MT_CHECK(other_initialized == 5000 + rank, "other_initialized = %d", other_initialized);
    MT_CHECK(other_zero == 6000 + rank && other_array[5] == 6000 + rank, "other_zero = %d", other_zero);
    MT_CHECK(*table.element == 7000.5 + rank, "other_array[3] through table = %f", *table.element);
    MT_CHECK(self_pointer == NULL, "self_pointer was reset by another rank");
    MT_CHECK(other_read_main_initialized() == 1002 + rank, "main_initialized seen from the other TU");
    MT_CHECK(static_local_next() == 41, "static local advanced by another rank");
    MT_CHECK(other_static_local_next() == 101, "static local of the other TU advanced by another rank");
    MT_CHECK(zero_static_local_bump() == 2, "zero static local");
}

/* ---- a thread started inside the rank shares the rank's globals ---- */
static void *thread_body(void *arg) {
    int rank = *(int *)arg;
    if (main_initialized != 1002 + rank) return (void *)1;
    zero_counter += 10; /* the rank's main thread must see this */
    return NULL;
}

static void check_threads(int rank) {
    pthread_t t;
    void *result = (void *)2;
    MT_CHECK(pthread_create(&t, NULL, thread_body, &rank) == 0, "pthread_create");
    pthread_join(t, &result);
    MT_CHECK(result == NULL, "a thread of rank %d did not see the rank's main_initialized", rank);
    MT_CHECK(zero_counter == 3011 + rank, "the thread's write is not the rank's: zero_counter = %d", zero_counter);
}

/* ---- callbacks run with the calling rank's globals ---- */
static int handler_saw = -1;
static void error_handler(MPI_Comm *comm, int *code, ...) {
    (void)comm;
    (void)code;
    handler_saw = main_initialized;
}

static int op_multiplier;
static void multiply_op(void *in, void *inout, int *len, MPI_Datatype *type) {
    (void)type;
    for (int i = 0; i < *len; ++i) ((int *)inout)[i] = ((int *)in)[i] * op_multiplier;
}

static void check_callbacks(int rank) {
    MPI_Errhandler eh;
    MT_CHECK_RC(MPI_Comm_create_errhandler(error_handler, &eh));
    MT_CHECK_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    MT_CHECK_RC(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER));
    MT_CHECK(handler_saw == main_initialized, "error handler saw %d, rank has %d", handler_saw, main_initialized);
    MT_CHECK_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MT_CHECK_RC(MPI_Errhandler_free(&eh));

    MPI_Op op;
    op_multiplier = rank + 3;
    MT_CHECK_RC(MPI_Op_create(multiply_op, 1, &op));
    mt_barrier(MPI_COMM_WORLD); /* every rank has set its multiplier */
    int in[2] = {1, 2}, inout[2] = {0, 0};
    MT_CHECK_RC(MPI_Reduce_local(in, inout, 2, MPI_INT, op));
    MT_CHECK(inout[0] == rank + 3 && inout[1] == 2 * (rank + 3), "user op saw multiplier %d, expected %d", inout[0],
             rank + 3);
    MT_CHECK_RC(MPI_Op_free(&op));
}

/* ---- libc state a process has to itself ---- */
static void check_libc(int rank) {
    /* rand: the sequence of a seed, with other ranks drawing in between. */
    int first[6], again[6];
    srand((unsigned)rank + 1);
    for (int i = 0; i < 3; ++i) first[i] = rand();
    mt_barrier(MPI_COMM_WORLD);
    for (int i = 3; i < 6; ++i) first[i] = rand();
    srand((unsigned)rank + 1);
    for (int i = 0; i < 6; ++i) again[i] = rand();
    MT_CHECK(memcmp(first, again, sizeof first) == 0, "rand's sequence was disturbed by other ranks");

    /* strtok: one tokenization spread over a synchronization. */
    char text[64];
    snprintf(text, sizeof text, "a%d,b%d,c%d", rank, rank, rank);
    char *tok1 = strtok(text, ",");
    mt_barrier(MPI_COMM_WORLD);
    char *tok2 = strtok(NULL, ",");
    char *tok3 = strtok(NULL, ",");
    char expect[16];
    snprintf(expect, sizeof expect, "c%d", rank);
    MT_CHECK(tok1 && tok2 && tok3 && strcmp(tok3, expect) == 0, "strtok lost its position");

    /* getopt_long: one rank-specific command line, parsed with other ranks parsing theirs. */
    static int long_flag;
    static const struct option options[] = {{"flag", no_argument, &long_flag, 0}, {"value", required_argument, NULL, 'v'},
                                            {NULL, 0, NULL, 0}};
    char value[16], avalue[16];
    snprintf(value, sizeof value, "%d", rank * 3);
    snprintf(avalue, sizeof avalue, "x%d", rank);
    char *args[] = {"prog", "-a", avalue, "file", "--flag", "--value", value, "-bc", NULL};
    int nargs = 8, a_seen = 0, b_seen = 0, c_seen = 0, v = -1;
    optind = 1;
    for (int c; (c = getopt_long(nargs, args, "a:bc", options, NULL)) != -1;) {
        if (c == 'a') a_seen = strcmp(optarg, avalue) == 0;
        else if (c == 'b') b_seen = 1;
        else if (c == 'c') c_seen = 1;
        else if (c == 'v') v = atoi(optarg);
        else if (c == 0) long_flag = rank + 1;
        mt_barrier(MPI_COMM_WORLD); /* every rank takes its next step together */
    }
    MT_CHECK(a_seen && b_seen && c_seen && v == rank * 3 && long_flag == rank + 1, "getopt_long: a%d b%d c%d v%d flag%d",
             a_seen, b_seen, c_seen, v, long_flag);
    MT_CHECK(optind == 7 && strcmp(args[optind], "file") == 0, "getopt_long: optind %d", optind);

    /* errno is per thread; stdout is the process's. */
    errno = 0;
    MT_CHECK(strtol("99999999999999999999999", NULL, 10) == LONG_MAX && errno == ERANGE, "errno");
    MT_CHECK(fprintf(stdout, "%s", "") == 0, "stdout");
}

int main(int argc, char **argv) {
    int rank;
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    check_initial();
    mt_barrier(MPI_COMM_WORLD); /* all ranks checked before any writes */
    write_rank_values(rank);
    mt_barrier(MPI_COMM_WORLD); /* all ranks wrote */
    check_rank_values(rank);
    check_threads(rank);
    check_callbacks(rank);
    check_libc(rank);
    mt_barrier(MPI_COMM_WORLD);
    MT_CHECK(main_initialized == 1002 + rank && zero_counter == 3011 + rank, "values changed at the end");
    return mt_finalize();
}
