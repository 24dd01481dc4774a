/*
 * t_errhandler: error handlers, and user error classes, codes and strings
 * (MPI-3.1 8.3-8.5).
 *
 * - A user handler (MPI_Comm_create_errhandler) runs on a real error (an
 *   invalid rank in MPI_Send) with the communicator's handle and the error
 *   code, once; the call then returns that code.
 * - MPI_Comm_call_errhandler runs it with the given code and returns
 *   MPI_SUCCESS; under MPI_ERRORS_RETURN it just returns.
 * - Reference counting: MPI_Comm_get_errhandler's result can be freed; the
 *   user's own handle can be freed while attached; the handler keeps working
 *   until replaced.
 * - A handler on a duplicated communicator gets that communicator's handle;
 *   a dup inherits its parent's handler.
 * - The deprecated MPI_Errhandler_create/set/get.
 * - MPI_Add_error_class/code/string round trip through MPI_Error_class and
 *   MPI_Error_string; MPI_LASTUSEDCODE covers the new values; invalid uses
 *   return MPI_ERR_ARG.
 *
 * Handler calls are recorded per world rank in arrays (a handler has no
 * extra_state; ranks may share globals, so each writes only its own slot).
 *
 * Standard notes:
 * - 8.5: a code with no string added has the empty string.
 * - 8.3: errors with no communicator go to MPI_COMM_WORLD (3.1) or
 *   MPI_COMM_SELF (4.0): the test accepts either.
 */
#include "mpitest.h"

/* The deprecated MPI-1 forms are tested on purpose. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

static int handler_calls[MT_MAX_RANKS];
static int handler_code[MT_MAX_RANKS];
static MPI_Comm handler_comm[MT_MAX_RANKS];

static int world_rank(void)
{
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r < MT_MAX_RANKS ? r : MT_MAX_RANKS - 1;
}

static void record_handler(MPI_Comm *comm, int *code, ...)
{
    int r = world_rank();
    char s[MPI_MAX_ERROR_STRING];
    int len;
    handler_calls[r]++;
    handler_code[r] = *code;
    handler_comm[r] = *comm;
    /* Handlers may call MPI. */
    MPI_Error_string(*code, s, &len);
}

static void reset_handler(int r)
{
    handler_calls[r] = 0;
    handler_code[r] = MPI_SUCCESS;
    handler_comm[r] = MPI_COMM_NULL;
}

static int last_used_code(void)
{
    int *p = NULL, flag = 0;
    MT_CHECK_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &p, &flag));
    MT_CHECK(flag == 1 && p, "MPI_LASTUSEDCODE missing");
    return flag && p ? *p : -1;
}

static void user_handler(int r, int size)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL, got = MPI_ERRHANDLER_NULL;
    int x = 1, rc;

    MT_CHECK_RC(MPI_Comm_create_errhandler(record_handler, &eh));
    MT_CHECK(eh != MPI_ERRHANDLER_NULL, "Comm_create_errhandler returned MPI_ERRHANDLER_NULL");
    MT_CHECK_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));

    /* A real error. */
    reset_handler(r);
    rc = MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    MT_CHECK(handler_calls[r] == 1, "handler ran %d times on an invalid rank", handler_calls[r]);
    MT_CHECK(handler_comm[r] == MPI_COMM_WORLD, "handler got another communicator");
    MT_CHECK(mt_error_class(handler_code[r]) == MPI_ERR_RANK, "handler got class %d", mt_error_class(handler_code[r]));
    MT_CHECK(rc == handler_code[r], "call returned %d, handler saw %d", rc, handler_code[r]);

    /* Comm_call_errhandler. */
    reset_handler(r);
    rc = MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER);
    MT_CHECK(rc == MPI_SUCCESS, "Comm_call_errhandler returned %d", rc);
    MT_CHECK(handler_calls[r] == 1 && handler_code[r] == MPI_ERR_OTHER && handler_comm[r] == MPI_COMM_WORLD,
             "Comm_call_errhandler: %d calls, code %d", handler_calls[r], handler_code[r]);

    /* get returns the handler; freeing the result and the user's handle keeps it attached. */
    MT_CHECK_RC(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    MT_CHECK(got == eh, "Comm_get_errhandler returned another handler");
    MT_CHECK_RC(MPI_Errhandler_free(&got));
    MT_CHECK(got == MPI_ERRHANDLER_NULL, "Errhandler_free did not null the handle");
    MT_CHECK_RC(MPI_Errhandler_free(&eh));
    MT_CHECK(eh == MPI_ERRHANDLER_NULL, "Errhandler_free did not null the handle");
    reset_handler(r);
    rc = MPI_Send(&x, 1, MPI_INT, 0, -7, MPI_COMM_WORLD);
    MT_CHECK(handler_calls[r] == 1 && mt_error_class(handler_code[r]) == MPI_ERR_TAG,
             "freed but attached handler: %d calls, class %d", handler_calls[r], mt_error_class(handler_code[r]));
    MT_CHECK(mt_error_class(rc) == MPI_ERR_TAG, "bad tag returned class %d", mt_error_class(rc));

    /* Errors with no communicator go to WORLD's (3.1) or SELF's (4.0) handler. */
    MT_CHECK_RC(MPI_Comm_create_errhandler(record_handler, &eh));
    MT_CHECK_RC(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh));
    reset_handler(r);
    {
        int n;
        rc = MPI_Info_get_nkeys(MPI_INFO_NULL, &n);
    }
    MT_CHECK(rc != MPI_SUCCESS, "Info_get_nkeys(MPI_INFO_NULL) succeeded");
    MT_CHECK(handler_calls[r] == 1 && (handler_comm[r] == MPI_COMM_WORLD || handler_comm[r] == MPI_COMM_SELF),
             "error without a communicator: %d handler calls", handler_calls[r]);
    MT_CHECK_RC(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    MT_CHECK_RC(MPI_Errhandler_free(&eh));

    /* Back to MPI_ERRORS_RETURN: the handler no longer runs. */
    MT_CHECK_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    reset_handler(r);
    rc = MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    mt_expect_class(rc, MPI_ERR_RANK, "Send to rank size under MPI_ERRORS_RETURN");
    MT_CHECK(handler_calls[r] == 0, "replaced handler ran");
    rc = MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER);
    /* MPI_SUCCESS (8.3.4); MPICH returns the code under MPI_ERRORS_RETURN. */
    MT_CHECK(rc == MPI_SUCCESS || rc == MPI_ERR_OTHER, "Comm_call_errhandler under MPI_ERRORS_RETURN returned %d", rc);

    /* Predefined handlers from get can be freed too. */
    MT_CHECK_RC(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    MT_CHECK(got == MPI_ERRORS_RETURN, "get after setting MPI_ERRORS_RETURN");
    MT_CHECK_RC(MPI_Errhandler_free(&got));
    MT_CHECK(got == MPI_ERRHANDLER_NULL, "Errhandler_free of a predefined handler");
}

static void dup_handler(int r, int size)
{
    MPI_Errhandler eh, got;
    MPI_Comm dup, inherit;
    int x = 1, rc;
    MT_CHECK_RC(MPI_Comm_create_errhandler(record_handler, &eh));
    MT_CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MT_CHECK_RC(MPI_Comm_set_errhandler(dup, eh));
    MT_CHECK_RC(MPI_Errhandler_free(&eh));

    reset_handler(r);
    rc = MPI_Send(&x, 1, MPI_INT, size + 3, 0, dup);
    MT_CHECK(handler_calls[r] == 1 && handler_comm[r] == dup, "handler on a dup: %d calls, comm is dup: %d",
             handler_calls[r], handler_comm[r] == dup);
    MT_CHECK(mt_error_class(rc) == MPI_ERR_RANK, "class %d", mt_error_class(rc));

    /* The dup of dup inherits the user handler. */
    MT_CHECK_RC(MPI_Comm_dup(dup, &inherit));
    MT_CHECK_RC(MPI_Comm_get_errhandler(inherit, &got));
    reset_handler(r);
    MT_CHECK_RC(MPI_Comm_call_errhandler(inherit, MPI_ERR_COUNT));
    MT_CHECK(handler_calls[r] == 1 && handler_comm[r] == inherit && handler_code[r] == MPI_ERR_COUNT,
             "inherited handler: %d calls", handler_calls[r]);
    MT_CHECK_RC(MPI_Comm_free(&dup));
    /* The handler lives on in `inherit` (and in `got`). */
    reset_handler(r);
    MT_CHECK_RC(MPI_Comm_call_errhandler(inherit, MPI_ERR_TAG));
    MT_CHECK(handler_calls[r] == 1 && handler_code[r] == MPI_ERR_TAG, "handler after freeing the parent");
    MT_CHECK_RC(MPI_Comm_free(&inherit));
    /* The last reference: our result of get. It is still a valid handler. */
    MT_CHECK_RC(MPI_Comm_set_errhandler(MPI_COMM_SELF, got));
    reset_handler(r);
    MT_CHECK_RC(MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_ROOT));
    MT_CHECK(handler_calls[r] == 1 && handler_comm[r] == MPI_COMM_SELF, "handler on SELF");
    MT_CHECK_RC(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    MT_CHECK_RC(MPI_Errhandler_free(&got));
}

/* MPI_Errhandler_create/set/get were removed in MPI-3.0; HMPI and MPICH
 * still have them, Open MPI 4 only with its MPI-1 compatibility option. */
#if !defined(OPEN_MPI) || (defined(OMPI_ENABLE_MPI1_COMPAT) && OMPI_ENABLE_MPI1_COMPAT)
#define HAVE_MPI1_ERRHANDLER 1
#endif

static void deprecated_forms(int r, int size)
{
#ifdef HAVE_MPI1_ERRHANDLER
    MPI_Errhandler eh, got;
    int x = 1, rc;
    MT_CHECK_RC(MPI_Errhandler_create(record_handler, &eh));
    MT_CHECK_RC(MPI_Errhandler_set(MPI_COMM_WORLD, eh));
    MT_CHECK_RC(MPI_Errhandler_get(MPI_COMM_WORLD, &got));
    MT_CHECK(got == eh, "Errhandler_get");
    reset_handler(r);
    rc = MPI_Send(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MT_CHECK(handler_calls[r] == 1 && mt_error_class(handler_code[r]) == MPI_ERR_COUNT, "deprecated handler: %d calls",
             handler_calls[r]);
    MT_CHECK(mt_error_class(rc) == MPI_ERR_COUNT, "count -1: class %d", mt_error_class(rc));
    (void)size;
    MT_CHECK_RC(MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MT_CHECK_RC(MPI_Errhandler_free(&got));
    MT_CHECK_RC(MPI_Errhandler_free(&eh));
#else
    (void)r;
    (void)size;
#endif
}

static void handler_errors(void)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    int rc;
    rc = MPI_Comm_set_errhandler(MPI_COMM_NULL, MPI_ERRORS_RETURN);
    mt_expect_class(rc, MPI_ERR_COMM, "Comm_set_errhandler(MPI_COMM_NULL)");
    rc = MPI_Comm_call_errhandler(MPI_COMM_NULL, MPI_ERR_OTHER);
    mt_expect_class(rc, MPI_ERR_COMM, "Comm_call_errhandler(MPI_COMM_NULL)");
    rc = MPI_Errhandler_free(&eh);
    MT_CHECK(rc != MPI_SUCCESS, "Errhandler_free(MPI_ERRHANDLER_NULL) succeeded");
}

static void user_codes(int r)
{
    int cls, cls2, code, code2, other, got, len, last, rc;
    char s[MPI_MAX_ERROR_STRING], want[64];

    MT_CHECK_RC(MPI_Add_error_class(&cls));
    MT_CHECK_RC(MPI_Add_error_class(&cls2));
    MT_CHECK(cls != cls2, "two new classes are both %d", cls);
    MT_CHECK(cls > MPI_SUCCESS && cls2 > MPI_SUCCESS, "new classes %d %d", cls, cls2);
    MT_CHECK_RC(MPI_Add_error_code(cls, &code));
    MT_CHECK_RC(MPI_Add_error_code(cls, &code2));
    MT_CHECK_RC(MPI_Add_error_code(MPI_ERR_ARG, &other));
    MT_CHECK(code != code2 && code != cls && code != cls2 && code2 != cls, "codes collide");

    /* 8.5: "the current maximum error class including the user-defined ones". */
    last = last_used_code();
    MT_CHECK(last >= cls && last >= cls2 && last >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE %d below a new class", last);

    MT_CHECK_RC(MPI_Error_class(cls, &got));
#ifdef OPEN_MPI
    /* Open MPI 4 maps user classes to MPI_ERR_UNKNOWN (8.4: a class is its own class). */
    MT_CHECK(got == cls || got == MPI_ERR_UNKNOWN, "class of a new class: %d", got);
#else
    MT_CHECK(got == cls, "class of a new class: %d", got);
#endif
    MT_CHECK_RC(MPI_Error_class(code, &got));
    MT_CHECK(got == cls, "class of a new code: %d, expected %d", got, cls);
    MT_CHECK_RC(MPI_Error_class(code2, &got));
    MT_CHECK(got == cls, "class of a second code: %d", got);
    MT_CHECK_RC(MPI_Error_class(other, &got));
    MT_CHECK(got == MPI_ERR_ARG, "class of a code of MPI_ERR_ARG: %d", got);

    /* Strings: empty until added, then as added, replaceable. */
    s[0] = 'X';
    len = -1;
    MT_CHECK_RC(MPI_Error_string(code2, s, &len));
    MT_CHECK(len == 0 && s[0] == '\0', "string of a code without one: \"%s\" (%d)", s, len);
    snprintf(want, sizeof want, "rank %d's class", r);
    MT_CHECK_RC(MPI_Add_error_string(cls, want));
    MT_CHECK_RC(MPI_Error_string(cls, s, &len));
    MT_CHECK(strcmp(s, want) == 0 && len == (int)strlen(want), "class string '%s' (%d)", s, len);
    snprintf(want, sizeof want, "rank %d's code", r);
    MT_CHECK_RC(MPI_Add_error_string(code, want));
    MT_CHECK_RC(MPI_Error_string(code, s, &len));
    MT_CHECK(strcmp(s, want) == 0 && len == (int)strlen(want), "code string '%s' (%d)", s, len);
    snprintf(want, sizeof want, "rank %d's code, again", r);
    MT_CHECK_RC(MPI_Add_error_string(code, want));
    MT_CHECK_RC(MPI_Error_string(code, s, &len));
    MT_CHECK(strcmp(s, want) == 0, "replaced code string '%s'", s);

    /* A user code through a user handler. */
    {
        MPI_Errhandler eh;
        MT_CHECK_RC(MPI_Comm_create_errhandler(record_handler, &eh));
        MT_CHECK_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
        reset_handler(r);
        MT_CHECK_RC(MPI_Comm_call_errhandler(MPI_COMM_WORLD, code));
        MT_CHECK(handler_calls[r] == 1 && handler_code[r] == code, "user code through a handler: %d", handler_code[r]);
        MT_CHECK_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
        MT_CHECK_RC(MPI_Errhandler_free(&eh));
    }

    /* Misuse: erroneous programs (8.5), so no class is required; HMPI and
     * Open MPI raise MPI_ERR_ARG, MPICH 4 does not check. */
#ifndef MPICH
    rc = MPI_Add_error_string(MPI_ERR_ARG, "not allowed");
    mt_expect_class(rc, MPI_ERR_ARG, "Add_error_string on a predefined code");
    rc = MPI_Add_error_code(code, &got);
    mt_expect_class(rc, MPI_ERR_ARG, "Add_error_code on a code that is not a class");
    rc = MPI_Error_class(last + 1000000, &got);
    mt_expect_class(rc, MPI_ERR_ARG, "Error_class of an unused code");
    rc = MPI_Add_error_code(last + 1000000, &got);
    mt_expect_class(rc, MPI_ERR_ARG, "Add_error_code on an unused class");
#else
    (void)rc;
#endif

    /* Many more, still consistent. */
    {
        enum { M = 100 };
        int codes[M], i;
        for (i = 0; i < M; i++) MT_CHECK_RC(MPI_Add_error_code(i % 2 ? cls : cls2, &codes[i]));
        for (i = 0; i < M; i++) {
            MT_CHECK_RC(MPI_Error_class(codes[i], &got));
            MT_CHECK(got == (i % 2 ? cls : cls2), "code %d: class %d", i, got);
        }
    }
}

static void predefined_strings(void)
{
    int i, len, cls;
    char s[MPI_MAX_ERROR_STRING];
    int classes[] = {MPI_SUCCESS, MPI_ERR_BUFFER, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_TAG, MPI_ERR_COMM, MPI_ERR_RANK,
                     MPI_ERR_ARG, MPI_ERR_OTHER, MPI_ERR_KEYVAL, MPI_ERR_INFO, MPI_ERR_INFO_KEY, MPI_ERR_NO_MEM};
    for (i = 0; i < (int)(sizeof classes / sizeof classes[0]); i++) {
        MT_CHECK_RC(MPI_Error_class(classes[i], &cls));
        MT_CHECK(cls == classes[i], "class of predefined class %d is %d", classes[i], cls);
        len = -1;
        MT_CHECK_RC(MPI_Error_string(classes[i], s, &len));
        MT_CHECK(len > 0 && len < MPI_MAX_ERROR_STRING && (int)strlen(s) == len, "string of %d: len %d", classes[i], len);
    }
}

int main(int argc, char **argv)
{
    int rank, size, r;
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    r = world_rank();

    user_handler(r, size);
    dup_handler(r, size);
    deprecated_forms(r, size);
    handler_errors();
    user_codes(r);
    predefined_strings();

    mt_barrier(MPI_COMM_WORLD);
    return mt_finalize();
}
