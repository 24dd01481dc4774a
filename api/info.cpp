// Info objects (MPI 3.1, chapter 9; MPI_Info_get_string from MPI 4.0).
//
// Keys are 1 to MPI_MAX_INFO_KEY - 1 characters and values 1 to
// MPI_MAX_INFO_VAL - 1 (so either always fits a buffer of the constant's
// size with its terminating null, as Open MPI does); longer ones raise
// MPI_ERR_INFO_KEY / MPI_ERR_INFO_VALUE. MPI_INFO_ENV can be read and
// duplicated, not changed or freed. Errors go to MPI_COMM_WORLD's handler.
#include <algorithm>
#include <cstring>

#include "api/api.hpp"
#include "core/info.hpp"

using namespace hmpi;
using namespace hmpi::api;

namespace {

int check_info(const Call& c, MPI_Info h, Info** out) {
    *out = info_from_handle(h);
    if (*out) return MPI_SUCCESS;
    if (h == MPI_INFO_NULL) return c.fail(nullptr, MPI_ERR_INFO, "argument info is MPI_INFO_NULL");
    return c.fail(nullptr, MPI_ERR_INFO, "argument info = %p is not a valid info object", static_cast<void*>(h));
}

int check_writable(const Call& c, Info* info) {
    if (!info_is_env(info)) return MPI_SUCCESS;
    return c.fail(nullptr, MPI_ERR_INFO, "argument info is MPI_INFO_ENV, which is read-only");
}

int check_key(const Call& c, const char* key) {
    if (!key) return c.fail(nullptr, MPI_ERR_INFO_KEY, "argument key is NULL");
    std::size_t n = std::strlen(key);
    if (n == 0) return c.fail(nullptr, MPI_ERR_INFO_KEY, "argument key is empty");
    if (n >= MPI_MAX_INFO_KEY)
        return c.fail(nullptr, MPI_ERR_INFO_KEY, "argument key has %zu characters, more than MPI_MAX_INFO_KEY - 1 = %d", n,
                      MPI_MAX_INFO_KEY - 1);
    return MPI_SUCCESS;
}

}  // namespace

HMPI_API(int, Info_create, (MPI_Info *info)) {
    Call c("MPI_Info_create");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "info", info)) return e;
    *info = info_to_handle(new Info);
    return MPI_SUCCESS;
}

HMPI_API(int, Info_dup, (MPI_Info info, MPI_Info *newinfo)) {
    Call c("MPI_Info_dup");
    if (int e = c.require_initialized()) return e;
    Info* in;
    if (int e = check_info(c, info, &in)) return e;
    if (int e = c.not_null(nullptr, "newinfo", newinfo)) return e;
    auto* copy = new Info;
    copy->entries = in->entries;
    *newinfo = info_to_handle(copy);
    return MPI_SUCCESS;
}

HMPI_API(int, Info_set, (MPI_Info info, const char *key, const char *value)) {
    Call c("MPI_Info_set");
    if (int e = c.require_initialized()) return e;
    Info* in;
    if (int e = check_info(c, info, &in)) return e;
    if (int e = check_writable(c, in)) return e;
    if (int e = check_key(c, key)) return e;
    if (!value) return c.fail(nullptr, MPI_ERR_INFO_VALUE, "argument value is NULL");
    std::size_t n = std::strlen(value);
    if (n == 0) return c.fail(nullptr, MPI_ERR_INFO_VALUE, "argument value is empty");
    if (n >= MPI_MAX_INFO_VAL)
        return c.fail(nullptr, MPI_ERR_INFO_VALUE, "argument value has %zu characters, more than MPI_MAX_INFO_VAL - 1 = %d",
                      n, MPI_MAX_INFO_VAL - 1);
    info_set(*in, key, value);
    return MPI_SUCCESS;
}

HMPI_API(int, Info_get, (MPI_Info info, const char *key, int valuelen, char *value, int *flag)) {
    Call c("MPI_Info_get");
    if (int e = c.require_initialized()) return e;
    Info* in;
    if (int e = check_info(c, info, &in)) return e;
    if (int e = check_key(c, key)) return e;
    if (valuelen < 0) return c.fail(nullptr, MPI_ERR_ARG, "argument valuelen = %d is negative", valuelen);
    if (int e = c.not_null(nullptr, "value", value)) return e;
    if (int e = c.not_null(nullptr, "flag", flag)) return e;
    const std::string* v = info_find(*in, key);
    *flag = v ? 1 : 0;
    if (v) {
        // MPI 3.1, 9: valuelen excludes the terminating null; longer values are truncated.
        std::size_t n = std::min(v->size(), static_cast<std::size_t>(valuelen));
        std::memcpy(value, v->data(), n);
        value[n] = '\0';
    }
    return MPI_SUCCESS;
}

HMPI_API(int, Info_get_string, (MPI_Info info, const char *key, int *buflen, char *value, int *flag)) {
    Call c("MPI_Info_get_string");
    if (int e = c.require_initialized()) return e;
    Info* in;
    if (int e = check_info(c, info, &in)) return e;
    if (int e = check_key(c, key)) return e;
    if (int e = c.not_null(nullptr, "buflen", buflen)) return e;
    if (*buflen < 0) return c.fail(nullptr, MPI_ERR_ARG, "argument *buflen = %d is negative", *buflen);
    if (*buflen > 0 && !value) return c.fail(nullptr, MPI_ERR_ARG, "argument value is NULL but *buflen = %d", *buflen);
    if (int e = c.not_null(nullptr, "flag", flag)) return e;
    const std::string* v = info_find(*in, key);
    *flag = v ? 1 : 0;
    if (!v) return MPI_SUCCESS;  // *buflen unchanged
    // MPI 4.0, 10: at most *buflen - 1 characters and a null; *buflen
    // becomes the size the whole value needs, null included.
    if (*buflen > 0) {
        std::size_t n = std::min(v->size(), static_cast<std::size_t>(*buflen - 1));
        std::memcpy(value, v->data(), n);
        value[n] = '\0';
    }
    *buflen = static_cast<int>(v->size()) + 1;
    return MPI_SUCCESS;
}

HMPI_API(int, Info_delete, (MPI_Info info, const char *key)) {
    Call c("MPI_Info_delete");
    if (int e = c.require_initialized()) return e;
    Info* in;
    if (int e = check_info(c, info, &in)) return e;
    if (int e = check_writable(c, in)) return e;
    if (int e = check_key(c, key)) return e;
    if (!info_remove(*in, key)) return c.fail(nullptr, MPI_ERR_INFO_NOKEY, "argument key = \"%s\" is not in the info object", key);
    return MPI_SUCCESS;
}

HMPI_API(int, Info_get_nkeys, (MPI_Info info, int *nkeys)) {
    Call c("MPI_Info_get_nkeys");
    if (int e = c.require_initialized()) return e;
    Info* in;
    if (int e = check_info(c, info, &in)) return e;
    if (int e = c.not_null(nullptr, "nkeys", nkeys)) return e;
    *nkeys = static_cast<int>(in->entries.size());
    return MPI_SUCCESS;
}

HMPI_API(int, Info_get_nthkey, (MPI_Info info, int n, char *key)) {
    Call c("MPI_Info_get_nthkey");
    if (int e = c.require_initialized()) return e;
    Info* in;
    if (int e = check_info(c, info, &in)) return e;
    int nkeys = static_cast<int>(in->entries.size());
    if (n < 0 || n >= nkeys)
        return c.fail(nullptr, MPI_ERR_ARG, "argument n = %d is out of range: the info object has %d keys", n, nkeys);
    if (int e = c.not_null(nullptr, "key", key)) return e;
    const std::string& k = in->entries[static_cast<std::size_t>(n)].first;
    std::memcpy(key, k.c_str(), k.size() + 1);  // shorter than MPI_MAX_INFO_KEY (checked on set)
    return MPI_SUCCESS;
}

HMPI_API(int, Info_get_valuelen, (MPI_Info info, const char *key, int *valuelen, int *flag)) {
    Call c("MPI_Info_get_valuelen");
    if (int e = c.require_initialized()) return e;
    Info* in;
    if (int e = check_info(c, info, &in)) return e;
    if (int e = check_key(c, key)) return e;
    if (int e = c.not_null(nullptr, "valuelen", valuelen)) return e;
    if (int e = c.not_null(nullptr, "flag", flag)) return e;
    const std::string* v = info_find(*in, key);
    *flag = v ? 1 : 0;
    if (v) *valuelen = static_cast<int>(v->size());
    return MPI_SUCCESS;
}

HMPI_API(int, Info_free, (MPI_Info *info)) {
    Call c("MPI_Info_free");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "info", info)) return e;
    Info* in;
    if (int e = check_info(c, *info, &in)) return e;
    if (info_is_env(in)) return c.fail(nullptr, MPI_ERR_INFO, "argument info is MPI_INFO_ENV, which cannot be freed");
    info_destroy(in);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}
