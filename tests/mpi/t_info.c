/*
 * t_info: info objects (MPI-3.1 chapter 9; MPI_Info_get_string of MPI-4.0
 * where the implementation has it).
 *
 * create, set (new and replacing), get (whole, truncated), get_valuelen,
 * get_nkeys, get_nthkey (every key exactly once), delete, dup (an independent
 * copy), free; keys and values at their length limits and just beyond;
 * MPI_INFO_ENV readable and duplicable; and the error classes under
 * MPI_ERRORS_RETURN: MPI_INFO_NULL -> MPI_ERR_INFO, too long or empty key ->
 * MPI_ERR_INFO_KEY, too long value -> MPI_ERR_INFO_VALUE, deleting a missing
 * key -> MPI_ERR_INFO_NOKEY, nthkey out of range -> MPI_ERR_ARG.
 *
 * Standard notes:
 * - Keys may be up to MPI_MAX_INFO_KEY characters in MPI-3.1 wording; Open
 *   MPI (and HMPI) take at most MPI_MAX_INFO_KEY - 1 so a key and its null fit
 *   a buffer of MPI_MAX_INFO_KEY chars. The test uses MPI_MAX_INFO_KEY - 1 as
 *   the longest valid key and MPI_MAX_INFO_KEY + 8 as a surely invalid one;
 *   likewise for values.
 * - The order of MPI_Info_get_nthkey is not specified: the test checks that
 *   the keys are a permutation of those set.
 * - Errors with no communicator go to MPI_COMM_WORLD (MPI-3.1) or
 *   MPI_COMM_SELF (MPI-4.0): both get MPI_ERRORS_RETURN.
 */
#include "mpitest.h"

#if MPI_VERSION >= 4 || defined(HMPI)
#define HAVE_INFO_GET_STRING 1
#endif

/* Fails with want or, where implementations differ, with also_ok. */
static void expect_class2(int rc, int want, int also_ok, const char *what)
{
    int cls;
    MT_CHECK(rc != MPI_SUCCESS, "%s: returned MPI_SUCCESS, expected class %d", what, want);
    if (rc == MPI_SUCCESS) return;
    cls = mt_error_class(rc);
    MT_CHECK(cls == want || cls == also_ok, "%s: class %d, expected %d", what, cls, want);
}

/* A string of n characters that depends on (seed, i). */
static void make_string(char *out, int n, int seed)
{
    int i;
    for (i = 0; i < n; i++) out[i] = (char)('a' + (seed * 7 + i * 3) % 26);
    out[n] = '\0';
}

static int nkeys_of(MPI_Info info)
{
    int n = -1;
    MT_CHECK_RC(MPI_Info_get_nkeys(info, &n));
    return n;
}

static void check_value(MPI_Info info, const char *key, const char *want)
{
    char buf[MPI_MAX_INFO_VAL + 1];
    int flag = -1, len = -1;
    buf[0] = '\0';
    MT_CHECK_RC(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, buf, &flag));
    MT_CHECK(flag == 1, "key %s missing", key);
    if (flag == 1) MT_CHECK(strcmp(buf, want) == 0, "key %s: value '%s', expected '%s'", key, buf, want);
    MT_CHECK_RC(MPI_Info_get_valuelen(info, key, &len, &flag));
    MT_CHECK(flag == 1 && len == (int)strlen(want), "key %s: valuelen %d, expected %d", key, len, (int)strlen(want));
}

static void basic(int rank)
{
    enum { N = 12 };
    MPI_Info info = MPI_INFO_NULL;
    char keys[N][32], vals[N][64], buf[MPI_MAX_INFO_VAL + 1];
    int seen[N], i, j, flag;

    MT_CHECK_RC(MPI_Info_create(&info));
    MT_CHECK(info != MPI_INFO_NULL, "Info_create returned MPI_INFO_NULL");
    MT_CHECK(nkeys_of(info) == 0, "new info has keys");

    for (i = 0; i < N; i++) {
        snprintf(keys[i], sizeof keys[i], "key_%d_rank%d", i, rank);
        make_string(vals[i], 1 + (i * 5) % 60, rank + i);
        MT_CHECK_RC(MPI_Info_set(info, keys[i], vals[i]));
        MT_CHECK(nkeys_of(info) == i + 1, "nkeys after %d sets", i + 1);
    }
    for (i = 0; i < N; i++) check_value(info, keys[i], vals[i]);

    /* Every key exactly once through nthkey. */
    memset(seen, 0, sizeof seen);
    for (i = 0; i < N; i++) {
        char k[MPI_MAX_INFO_KEY + 1];
        k[0] = '\0';
        MT_CHECK_RC(MPI_Info_get_nthkey(info, i, k));
        for (j = 0; j < N; j++)
            if (strcmp(k, keys[j]) == 0) seen[j]++;
    }
    for (j = 0; j < N; j++) MT_CHECK(seen[j] == 1, "key %s seen %d times by nthkey", keys[j], seen[j]);

    /* Missing key. */
    flag = -1;
    MT_CHECK_RC(MPI_Info_get(info, "no_such_key", MPI_MAX_INFO_VAL, buf, &flag));
    MT_CHECK(flag == 0, "missing key found");
    MT_CHECK_RC(MPI_Info_get_valuelen(info, "no_such_key", &i, &flag));
    MT_CHECK(flag == 0, "missing key has a valuelen");

    /* Replacing a value keeps one key. */
    make_string(vals[3], 40, 99);
    MT_CHECK_RC(MPI_Info_set(info, keys[3], vals[3]));
    MT_CHECK(nkeys_of(info) == N, "replace changed nkeys to %d", nkeys_of(info));
    check_value(info, keys[3], vals[3]);

    /* Truncated get: valuelen characters and a null. */
    {
        char small[8];
        int rc;
        memset(small, 'X', sizeof small);
        /* MPI-3.1 9: the value is truncated. MPICH 4 also returns
         * MPI_ERR_INFO_VALUE; the contents are checked where it succeeds. */
        rc = MPI_Info_get(info, keys[3], 4, small, &flag);
        MT_CHECK(rc == MPI_SUCCESS || mt_error_class(rc) == MPI_ERR_INFO_VALUE, "truncated get returned %d", rc);
        if (rc == MPI_SUCCESS) {
            MT_CHECK(flag == 1 && strncmp(small, vals[3], 4) == 0 && small[4] == '\0', "truncated get: '%.8s'", small);
            MT_CHECK(small[5] == 'X', "truncated get wrote beyond valuelen + 1");
        }
    }

#ifdef HAVE_INFO_GET_STRING
    {
        char small[8];
        int buflen = 0;
        flag = -1;
        small[0] = 'X';
        MT_CHECK_RC(MPI_Info_get_string(info, keys[3], &buflen, small, &flag));
        MT_CHECK(flag == 1 && buflen == (int)strlen(vals[3]) + 1, "get_string size query: flag %d buflen %d", flag, buflen);
        memset(small, 'X', sizeof small);
        buflen = 5;
        MT_CHECK_RC(MPI_Info_get_string(info, keys[3], &buflen, small, &flag));
        MT_CHECK(flag == 1 && strncmp(small, vals[3], 4) == 0 && small[4] == '\0' && small[5] == 'X',
                 "get_string truncated: '%.8s'", small);
        MT_CHECK(buflen == (int)strlen(vals[3]) + 1, "get_string buflen %d", buflen);
        buflen = (int)sizeof buf;
        MT_CHECK_RC(MPI_Info_get_string(info, keys[3], &buflen, buf, &flag));
        MT_CHECK(flag == 1 && strcmp(buf, vals[3]) == 0, "get_string whole: '%s'", buf);
        buflen = 7;
        MT_CHECK_RC(MPI_Info_get_string(info, "no_such_key", &buflen, buf, &flag));
        MT_CHECK(flag == 0 && buflen == 7, "get_string missing key: flag %d buflen %d", flag, buflen);
    }
#endif

    /* dup is an independent copy. */
    {
        MPI_Info copy = MPI_INFO_NULL;
        MT_CHECK_RC(MPI_Info_dup(info, &copy));
        MT_CHECK(copy != MPI_INFO_NULL && copy != info, "Info_dup handle");
        MT_CHECK(nkeys_of(copy) == N, "dup has %d keys", nkeys_of(copy));
        for (i = 0; i < N; i++) check_value(copy, keys[i], vals[i]);
        MT_CHECK_RC(MPI_Info_set(copy, keys[0], "changed"));
        MT_CHECK_RC(MPI_Info_delete(copy, keys[1]));
        check_value(info, keys[0], vals[0]);
        check_value(info, keys[1], vals[1]);
        MT_CHECK(nkeys_of(copy) == N - 1 && nkeys_of(info) == N, "dup not independent");
        MT_CHECK_RC(MPI_Info_free(&copy));
        MT_CHECK(copy == MPI_INFO_NULL, "Info_free did not null the handle");
    }

    /* delete */
    for (i = 0; i < N; i += 2) MT_CHECK_RC(MPI_Info_delete(info, keys[i]));
    MT_CHECK(nkeys_of(info) == N / 2, "nkeys after deletes %d", nkeys_of(info));
    for (i = 0; i < N; i++) {
        MT_CHECK_RC(MPI_Info_get(info, keys[i], MPI_MAX_INFO_VAL, buf, &flag));
        MT_CHECK(flag == (i % 2), "key %d: flag %d after deleting the even ones", i, flag);
        if (flag) MT_CHECK(strcmp(buf, vals[i]) == 0, "key %d: value changed by deletes", i);
    }
    mt_expect_class(MPI_Info_delete(info, keys[0]), MPI_ERR_INFO_NOKEY, "Info_delete of a deleted key");
    /* MPI_ERR_ARG; Open MPI 4 says MPI_ERR_INFO_KEY. */
    expect_class2(MPI_Info_get_nthkey(info, N / 2, buf), MPI_ERR_ARG, MPI_ERR_INFO_KEY, "Info_get_nthkey(n = nkeys)");
    mt_expect_class(MPI_Info_get_nthkey(info, -1, buf), MPI_ERR_ARG, "Info_get_nthkey(n = -1)");

    MT_CHECK_RC(MPI_Info_free(&info));
    MT_CHECK(info == MPI_INFO_NULL, "Info_free did not null the handle");
}

static void limits(void)
{
    MPI_Info info;
    char key[MPI_MAX_INFO_KEY + 16], val[MPI_MAX_INFO_VAL + 16], buf[MPI_MAX_INFO_VAL + 16];
    int flag;
    MT_CHECK_RC(MPI_Info_create(&info));

    /* The longest key and value. */
    make_string(key, MPI_MAX_INFO_KEY - 1, 1);
    make_string(val, MPI_MAX_INFO_VAL - 1, 2);
    MT_CHECK_RC(MPI_Info_set(info, key, val));
    check_value(info, key, val);
    {
        char k[MPI_MAX_INFO_KEY + 1];
        MT_CHECK_RC(MPI_Info_get_nthkey(info, 0, k));
        MT_CHECK(strcmp(k, key) == 0, "longest key through nthkey");
    }

    /* Too long. */
    make_string(key, MPI_MAX_INFO_KEY + 8, 3);
    mt_expect_class(MPI_Info_set(info, key, "v"), MPI_ERR_INFO_KEY, "Info_set with a too long key");
    mt_expect_class(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, buf, &flag), MPI_ERR_INFO_KEY, "Info_get with a too long key");
    mt_expect_class(MPI_Info_delete(info, key), MPI_ERR_INFO_KEY, "Info_delete with a too long key");
    mt_expect_class(MPI_Info_set(info, "", "v"), MPI_ERR_INFO_KEY, "Info_set with an empty key");
    make_string(val, MPI_MAX_INFO_VAL + 8, 4);
    mt_expect_class(MPI_Info_set(info, "k", val), MPI_ERR_INFO_VALUE, "Info_set with a too long value");
    MT_CHECK(nkeys_of(info) == 1, "failed sets changed the info: %d keys", nkeys_of(info));
    MT_CHECK_RC(MPI_Info_free(&info));
}

/* MPI_ERR_INFO; MPICH 4 says MPI_ERR_ARG. */
static void null_info(void)
{
    MPI_Info info = MPI_INFO_NULL, out;
    char buf[16];
    int n, flag;
    expect_class2(MPI_Info_set(MPI_INFO_NULL, "k", "v"), MPI_ERR_INFO, MPI_ERR_ARG, "Info_set(MPI_INFO_NULL)");
    expect_class2(MPI_Info_get(MPI_INFO_NULL, "k", 4, buf, &flag), MPI_ERR_INFO, MPI_ERR_ARG, "Info_get(MPI_INFO_NULL)");
    expect_class2(MPI_Info_get_nkeys(MPI_INFO_NULL, &n), MPI_ERR_INFO, MPI_ERR_ARG, "Info_get_nkeys(MPI_INFO_NULL)");
    expect_class2(MPI_Info_get_nthkey(MPI_INFO_NULL, 0, buf), MPI_ERR_INFO, MPI_ERR_ARG, "Info_get_nthkey(MPI_INFO_NULL)");
    expect_class2(MPI_Info_get_valuelen(MPI_INFO_NULL, "k", &n, &flag), MPI_ERR_INFO, MPI_ERR_ARG, "Info_get_valuelen(MPI_INFO_NULL)");
    expect_class2(MPI_Info_delete(MPI_INFO_NULL, "k"), MPI_ERR_INFO, MPI_ERR_ARG, "Info_delete(MPI_INFO_NULL)");
    expect_class2(MPI_Info_dup(MPI_INFO_NULL, &out), MPI_ERR_INFO, MPI_ERR_ARG, "Info_dup(MPI_INFO_NULL)");
    expect_class2(MPI_Info_free(&info), MPI_ERR_INFO, MPI_ERR_ARG, "Info_free(MPI_INFO_NULL)");
}

static void env_info(void)
{
    MPI_Info copy;
    int n, i, flag, len;
    char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
    n = nkeys_of(MPI_INFO_ENV);
    MT_CHECK(n >= 0, "MPI_INFO_ENV nkeys %d", n);
    for (i = 0; i < n; i++) {
        MT_CHECK_RC(MPI_Info_get_nthkey(MPI_INFO_ENV, i, key));
        MT_CHECK_RC(MPI_Info_get_valuelen(MPI_INFO_ENV, key, &len, &flag));
        MT_CHECK(flag == 1 && len >= 0 && len < MPI_MAX_INFO_VAL, "MPI_INFO_ENV key %s: flag %d len %d", key, flag, len);
        MT_CHECK_RC(MPI_Info_get(MPI_INFO_ENV, key, MPI_MAX_INFO_VAL, val, &flag));
        MT_CHECK(flag == 1 && (int)strlen(val) == len, "MPI_INFO_ENV key %s: value length %d, valuelen %d", key,
                 (int)strlen(val), len);
    }
    /* "maxprocs", where given, is a number >= 1. */
    MT_CHECK_RC(MPI_Info_get(MPI_INFO_ENV, "maxprocs", MPI_MAX_INFO_VAL, val, &flag));
    if (flag) MT_CHECK(atoi(val) >= 1, "MPI_INFO_ENV maxprocs '%s'", val);
    MT_CHECK_RC(MPI_Info_dup(MPI_INFO_ENV, &copy));
    MT_CHECK(nkeys_of(copy) == n, "dup of MPI_INFO_ENV has %d keys, not %d", nkeys_of(copy), n);
    MT_CHECK_RC(MPI_Info_set(copy, "hmpi_test_key", "1"));
    MT_CHECK(nkeys_of(MPI_INFO_ENV) == n, "MPI_INFO_ENV changed through its dup");
    MT_CHECK_RC(MPI_Info_free(&copy));
}

/* Many objects alive at once, each with its own contents. */
static void many(int rank)
{
    enum { M = 64 };
    MPI_Info infos[M];
    char v[32];
    int i;
    for (i = 0; i < M; i++) {
        MT_CHECK_RC(MPI_Info_create(&infos[i]));
        snprintf(v, sizeof v, "%d-%d", rank, i);
        MT_CHECK_RC(MPI_Info_set(infos[i], "id", v));
    }
    mt_barrier(MPI_COMM_WORLD);
    for (i = 0; i < M; i++) {
        snprintf(v, sizeof v, "%d-%d", rank, i);
        check_value(infos[i], "id", v);
        MT_CHECK_RC(MPI_Info_free(&infos[i]));
    }
}

int main(int argc, char **argv)
{
    int rank;
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    basic(rank);
    limits();
    null_info();
    env_info();
    many(rank);

    mt_barrier(MPI_COMM_WORLD);
    return mt_finalize();
}
