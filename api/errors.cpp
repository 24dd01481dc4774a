// Error classes, codes and strings (predefined and user-defined), error
// handlers on communicators, and raise(): the one place where an error
// reaches an error handler (MPI 3.1, 8.3-8.5).
//
// Errors not tied to a communicator go to MPI_COMM_WORLD's handler (MPI
// 3.1; MPI 4 uses MPI_COMM_SELF's): docs/errors.md.
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>

#include "api/api.hpp"
#include "core/errhandler.hpp"
#include "core/job.hpp"

namespace hmpi::api {

namespace {
struct ClassInfo {
    const char* name;
    const char* text;
};
constexpr ClassInfo kClasses[] = {
    {"MPI_SUCCESS", "no error"},
    {"MPI_ERR_BUFFER", "invalid buffer pointer"},
    {"MPI_ERR_COUNT", "invalid count argument"},
    {"MPI_ERR_TYPE", "invalid datatype"},
    {"MPI_ERR_TAG", "invalid tag"},
    {"MPI_ERR_COMM", "invalid communicator"},
    {"MPI_ERR_RANK", "invalid rank"},
    {"MPI_ERR_REQUEST", "invalid request"},
    {"MPI_ERR_ROOT", "invalid root"},
    {"MPI_ERR_GROUP", "invalid group"},
    {"MPI_ERR_OP", "invalid operation"},
    {"MPI_ERR_TOPOLOGY", "invalid topology"},
    {"MPI_ERR_DIMS", "invalid dimension argument"},
    {"MPI_ERR_ARG", "invalid argument"},
    {"MPI_ERR_UNKNOWN", "unknown error"},
    {"MPI_ERR_TRUNCATE", "message truncated on receive"},
    {"MPI_ERR_OTHER", "other error"},
    {"MPI_ERR_INTERN", "internal error"},
    {"MPI_ERR_PENDING", "pending request"},
    {"MPI_ERR_IN_STATUS", "error code is in status"},
    {"MPI_ERR_ACCESS", "permission denied"},
    {"MPI_ERR_AMODE", "invalid file access mode"},
    {"MPI_ERR_ASSERT", "invalid assert argument"},
    {"MPI_ERR_BAD_FILE", "invalid file name"},
    {"MPI_ERR_BASE", "invalid base argument"},
    {"MPI_ERR_CONVERSION", "data conversion error"},
    {"MPI_ERR_DISP", "invalid displacement"},
    {"MPI_ERR_DUP_DATAREP", "data representation already defined"},
    {"MPI_ERR_FILE_EXISTS", "file exists"},
    {"MPI_ERR_FILE_IN_USE", "file in use"},
    {"MPI_ERR_FILE", "invalid file handle"},
    {"MPI_ERR_INFO_KEY", "invalid info key"},
    {"MPI_ERR_INFO_NOKEY", "info key not defined"},
    {"MPI_ERR_INFO_VALUE", "invalid info value"},
    {"MPI_ERR_INFO", "invalid info object"},
    {"MPI_ERR_IO", "I/O error"},
    {"MPI_ERR_KEYVAL", "invalid attribute key"},
    {"MPI_ERR_LOCKTYPE", "invalid lock type"},
    {"MPI_ERR_NAME", "invalid service name"},
    {"MPI_ERR_NO_MEM", "out of memory"},
    {"MPI_ERR_NOT_SAME", "arguments not the same on all processes"},
    {"MPI_ERR_NO_SPACE", "out of storage space"},
    {"MPI_ERR_NO_SUCH_FILE", "no such file"},
    {"MPI_ERR_PORT", "invalid port name"},
    {"MPI_ERR_QUOTA", "quota exceeded"},
    {"MPI_ERR_READ_ONLY", "read-only file or file system"},
    {"MPI_ERR_RMA_ATTACH", "memory cannot be attached"},
    {"MPI_ERR_RMA_CONFLICT", "conflicting accesses to a window"},
    {"MPI_ERR_RMA_RANGE", "target memory outside the window"},
    {"MPI_ERR_RMA_SHARED", "memory cannot be shared"},
    {"MPI_ERR_RMA_SYNC", "wrong synchronization of RMA calls"},
    {"MPI_ERR_SERVICE", "invalid service"},
    {"MPI_ERR_SIZE", "invalid size"},
    {"MPI_ERR_SPAWN", "error spawning processes"},
    {"MPI_ERR_UNSUPPORTED_DATAREP", "unsupported data representation"},
    {"MPI_ERR_UNSUPPORTED_OPERATION", "unsupported operation"},
    {"MPI_ERR_WIN", "invalid window"},
    {"MPI_ERR_RMA_FLAVOR", "wrong window flavor"},
    {"MPI_ERR_PROC_ABORTED", "operation involved an aborted process"},
    {"MPI_ERR_VALUE_TOO_LARGE", "value too large for the output argument"},
    {"MPI_ERR_SESSION", "invalid session"},
    {"MPI_ERR_ERRHANDLER", "invalid error handler"},
};
constexpr int kNumClasses = static_cast<int>(sizeof kClasses / sizeof kClasses[0]);
}  // namespace

const char* error_class_name(int cls) noexcept { return cls >= 0 && cls < kNumClasses ? kClasses[cls].name : "MPI_ERR_UNKNOWN"; }
const char* error_class_text(int cls) noexcept { return cls >= 0 && cls < kNumClasses ? kClasses[cls].text : "unknown error code"; }

const char* comm_name(const Comm* c) noexcept { return c && c->name && *c->name ? c->name : "a communicator"; }

namespace {

// "MPI_ERR_RANK (invalid rank)", or for a user code "user error code 16385
// of class 16384 (its string)".
void describe_code(int code, char* out, std::size_t size) {
    if (code >= 0 && code < kNumClasses) {
        std::snprintf(out, size, "%s (%s)", kClasses[code].name, kClasses[code].text);
        return;
    }
    int cls;
    std::string text;
    if (error_class_of(code, &cls) && error_user_string(code, &text)) {
        if (cls == code)
            std::snprintf(out, size, "user error class %d (%s)", code, text.empty() ? "no string" : text.c_str());
        else
            std::snprintf(out, size, "user error code %d of class %d (%s)", code, cls,
                          text.empty() ? "no string" : text.c_str());
        return;
    }
    std::snprintf(out, size, "error code %d (not a valid error code)", code);
}

// Runs a user handler on `comm` with `code`. The handler may change or free
// itself (MPI_Comm_set_errhandler from inside it): a reference keeps it
// alive while it runs.
void call_user_handler(MPI_Errhandler handler, Errhandler* user, const Comm* comm, int code) {
    errhandler_retain(handler);
    MPI_Comm h = comm->handle;
    int c = code;
    user->comm_fn(&h, &c);
    errhandler_release(handler);
}

[[noreturn]] void fatal(Rank* rank, const char* call, int code, const char* detail) {
    char what[700];
    describe_code(code, what, sizeof what);
    char line[1600];
    if (rank)
        std::snprintf(line, sizeof line, "rank %d: %s: %s: %s", rank->world_rank, call, what, detail);
    else
        std::snprintf(line, sizeof line, "a thread that is not an MPI rank: %s: %s: %s", call, what, detail);
    end_job(1, line);
}

}  // namespace

int raise(Rank* rank, const Comm* comm, const char* call, int cls, const char* fmt, ...) {
    const Comm* target = comm ? comm : (rank ? &rank->world : nullptr);
    MPI_Errhandler handler = target ? target->errhandler : MPI_ERRORS_ARE_FATAL;
    if (handler == MPI_ERRORS_RETURN) return cls;
    if (Errhandler* user = errhandler_from_handle(handler)) {
        // MPI: the handler runs, and when it returns the call returns the code.
        call_user_handler(handler, user, target, cls);
        return cls;
    }
    // MPI_ERRORS_ARE_FATAL and MPI_ERRORS_ABORT both end the job (one
    // process: aborting the communicator's ranks aborts them all).
    char detail[600];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    fatal(rank, call, cls, detail);
}

}  // namespace hmpi::api

using namespace hmpi;
using namespace hmpi::api;

HMPI_API(int, Error_class, (int errorcode, int *errorclass)) {
    Call c("MPI_Error_class");
    if (int e = c.not_null(nullptr, "errorclass", errorclass)) return e;
    if (!error_class_of(errorcode, errorclass))
        return c.fail(nullptr, MPI_ERR_ARG, "argument errorcode = %d is not a valid error code", errorcode);
    return MPI_SUCCESS;
}

HMPI_API(int, Error_string, (int errorcode, char *string, int *resultlen)) {
    Call c("MPI_Error_string");
    if (int e = c.not_null(nullptr, "string", string)) return e;
    if (int e = c.not_null(nullptr, "resultlen", resultlen)) return e;
    int n;
    std::string user;
    if (errorcode >= 0 && errorcode < kNumClasses) {
        n = std::snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s", error_class_name(errorcode), error_class_text(errorcode));
    } else if (error_user_string(errorcode, &user)) {
        // The string given to MPI_Add_error_string, "" when none was (MPI 3.1, 8.5).
        n = std::snprintf(string, MPI_MAX_ERROR_STRING, "%s", user.c_str());
    } else {
        return c.fail(nullptr, MPI_ERR_ARG, "argument errorcode = %d is not a valid error code", errorcode);
    }
    *resultlen = n < MPI_MAX_ERROR_STRING ? n : MPI_MAX_ERROR_STRING - 1;
    return MPI_SUCCESS;
}

namespace {

int set_errhandler(const Call& c, MPI_Comm comm, MPI_Errhandler errhandler) {
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    if (int e = c.comm(comm, &cm)) return e;
    if (!errhandler_valid_for_comm(errhandler)) {
        if (errhandler == MPI_ERRHANDLER_NULL)
            return c.fail(cm, MPI_ERR_ARG, "argument errhandler is MPI_ERRHANDLER_NULL");
        return c.fail(cm, MPI_ERR_ARG, "argument errhandler = %p is not a valid communicator error handler",
                      static_cast<void*>(errhandler));
    }
    // The communicator holds a reference to its handler.
    errhandler_retain(errhandler);
    MPI_Errhandler old = cm->errhandler;
    cm->errhandler = errhandler;
    errhandler_release(old);
    return MPI_SUCCESS;
}

int get_errhandler(const Call& c, MPI_Comm comm, MPI_Errhandler* errhandler) {
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    if (int e = c.comm(comm, &cm)) return e;
    if (int e = c.not_null(cm, "errhandler", errhandler)) return e;
    // The result is a new reference: the user frees it with MPI_Errhandler_free.
    errhandler_retain(cm->errhandler);
    *errhandler = cm->errhandler;
    return MPI_SUCCESS;
}

int create_errhandler(const Call& c, MPI_Comm_errhandler_function* fn, MPI_Errhandler* errhandler) {
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "comm_errhandler_fn", reinterpret_cast<const void*>(fn))) return e;
    if (int e = c.not_null(nullptr, "errhandler", errhandler)) return e;
    *errhandler = errhandler_create_comm(fn);
    return MPI_SUCCESS;
}

}  // namespace

HMPI_API(int, Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler)) {
    Call c("MPI_Comm_set_errhandler");
    return set_errhandler(c, comm, errhandler);
}

HMPI_API(int, Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler *errhandler)) {
    Call c("MPI_Comm_get_errhandler");
    return get_errhandler(c, comm, errhandler);
}

HMPI_API(int, Errhandler_set, (MPI_Comm comm, MPI_Errhandler errhandler)) {
    Call c("MPI_Errhandler_set");
    return set_errhandler(c, comm, errhandler);
}

HMPI_API(int, Errhandler_get, (MPI_Comm comm, MPI_Errhandler *errhandler)) {
    Call c("MPI_Errhandler_get");
    return get_errhandler(c, comm, errhandler);
}

HMPI_API(int, Comm_create_errhandler, (MPI_Comm_errhandler_function *comm_errhandler_fn, MPI_Errhandler *errhandler)) {
    Call c("MPI_Comm_create_errhandler");
    return create_errhandler(c, comm_errhandler_fn, errhandler);
}

HMPI_API(int, Errhandler_create, (MPI_Handler_function *function, MPI_Errhandler *errhandler)) {
    Call c("MPI_Errhandler_create");
    return create_errhandler(c, function, errhandler);
}

HMPI_API(int, Errhandler_free, (MPI_Errhandler *errhandler)) {
    Call c("MPI_Errhandler_free");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "errhandler", errhandler)) return e;
    MPI_Errhandler h = *errhandler;
    if (h == MPI_ERRHANDLER_NULL) return c.fail(nullptr, MPI_ERR_ARG, "argument *errhandler is MPI_ERRHANDLER_NULL");
    if (!errhandler_is_predefined(h) && !errhandler_from_handle(h))
        return c.fail(nullptr, MPI_ERR_ARG, "argument *errhandler = %p is not a valid error handler", static_cast<void*>(h));
    // A user handler lives on while communicators use it; predefined ones
    // are never destroyed. Either way the user's handle becomes null.
    errhandler_release(h);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

HMPI_API(int, Comm_call_errhandler, (MPI_Comm comm, int errorcode)) {
    Call c("MPI_Comm_call_errhandler");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    if (int e = c.comm(comm, &cm)) return e;
    MPI_Errhandler handler = cm->errhandler;
    if (Errhandler* user = errhandler_from_handle(handler)) {
        call_user_handler(handler, user, cm, errorcode);
    } else if (handler != MPI_ERRORS_RETURN) {
        char detail[300];
        std::snprintf(detail, sizeof detail, "error handler of %s called with argument errorcode = %d", comm_name(cm),
                      errorcode);
        fatal(c.rank(), c.name(), errorcode, detail);
    }
    // MPI 3.1, 8.3.4: MPI_SUCCESS once the handler has returned.
    return MPI_SUCCESS;
}

HMPI_API(int, Add_error_class, (int *errorclass)) {
    Call c("MPI_Add_error_class");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "errorclass", errorclass)) return e;
    if (int rc = error_add_class(errorclass))
        return c.fail(nullptr, rc, "no error class is left to allocate (the last one used is %d)", __atomic_load_n(error_last_used_code(), __ATOMIC_RELAXED));
    return MPI_SUCCESS;
}

HMPI_API(int, Add_error_code, (int errorclass, int *errorcode)) {
    Call c("MPI_Add_error_code");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "errorcode", errorcode)) return e;
    int rc = error_add_code(errorclass, errorcode);
    if (rc == MPI_ERR_ARG)
        return c.fail(nullptr, rc, "argument errorclass = %d is not a predefined or user-defined error class", errorclass);
    if (rc != MPI_SUCCESS)
        return c.fail(nullptr, rc, "no error code is left to allocate (the last one used is %d)", __atomic_load_n(error_last_used_code(), __ATOMIC_RELAXED));
    return MPI_SUCCESS;
}

HMPI_API(int, Add_error_string, (int errorcode, const char *string)) {
    Call c("MPI_Add_error_string");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "string", string)) return e;
    std::size_t len = std::strlen(string);
    if (len >= MPI_MAX_ERROR_STRING)
        return c.fail(nullptr, MPI_ERR_ARG, "argument string has %zu characters, more than MPI_MAX_ERROR_STRING - 1 = %d",
                      len, MPI_MAX_ERROR_STRING - 1);
    if (errorcode <= MPI_ERR_LASTCODE)
        return c.fail(nullptr, MPI_ERR_ARG,
                      "argument errorcode = %d is a predefined error code (<= MPI_ERR_LASTCODE), whose string cannot change",
                      errorcode);
    if (int rc = error_add_string(errorcode, string))
        return c.fail(nullptr, rc, "argument errorcode = %d is not a user-defined error class or code", errorcode);
    return MPI_SUCCESS;
}
