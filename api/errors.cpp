// Error classes, error strings, error handlers on communicators.
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "api/api.hpp"
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

int raise(Rank* rank, const Comm* comm, const char* call, int cls, const char* fmt, ...) {
    MPI_Errhandler handler = comm ? comm->errhandler : (rank ? rank->world.errhandler : MPI_ERRORS_ARE_FATAL);
    if (handler == MPI_ERRORS_RETURN) return cls;
    char detail[600];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    char line[900];
    if (rank)
        std::snprintf(line, sizeof line, "rank %d: %s: %s (%s): %s", rank->world_rank, call, error_class_name(cls),
                      error_class_text(cls), detail);
    else
        std::snprintf(line, sizeof line, "a thread that is not an MPI rank: %s: %s (%s): %s", call,
                      error_class_name(cls), error_class_text(cls), detail);
    end_job(1, line);
}

}  // namespace hmpi::api

using namespace hmpi;
using namespace hmpi::api;

HMPI_API(int, Error_class, (int errorcode, int *errorclass)) {
    if (!errorclass) return MPI_ERR_ARG;
    if (errorcode < 0 || errorcode >= 62) {
        Call c("MPI_Error_class");
        return c.fail(nullptr, MPI_ERR_ARG, "argument errorcode = %d is not a valid error code", errorcode);
    }
    *errorclass = errorcode;
    return MPI_SUCCESS;
}

HMPI_API(int, Error_string, (int errorcode, char *string, int *resultlen)) {
    if (!string || !resultlen) return MPI_ERR_ARG;
    if (errorcode < 0 || errorcode >= 62) {
        Call c("MPI_Error_string");
        return c.fail(nullptr, MPI_ERR_ARG, "argument errorcode = %d is not a valid error code", errorcode);
    }
    int n = std::snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s", error_class_name(errorcode), error_class_text(errorcode));
    *resultlen = n < MPI_MAX_ERROR_STRING ? n : MPI_MAX_ERROR_STRING - 1;
    return MPI_SUCCESS;
}

HMPI_API(int, Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler)) {
    Call c("MPI_Comm_set_errhandler");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    if (int e = c.comm(comm, &cm)) return e;
    if (errhandler != MPI_ERRORS_ARE_FATAL && errhandler != MPI_ERRORS_RETURN && errhandler != MPI_ERRORS_ABORT)
        return c.fail(cm, MPI_ERR_ARG, "argument errhandler = %p is not a valid error handler", static_cast<void*>(errhandler));
    cm->errhandler = errhandler;
    return MPI_SUCCESS;
}

HMPI_API(int, Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler *errhandler)) {
    Call c("MPI_Comm_get_errhandler");
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    if (int e = c.comm(comm, &cm)) return e;
    if (int e = c.not_null(cm, "errhandler", errhandler)) return e;
    *errhandler = cm->errhandler;
    return MPI_SUCCESS;
}

HMPI_API(int, Errhandler_free, (MPI_Errhandler *errhandler)) {
    Call c("MPI_Errhandler_free");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "errhandler", errhandler)) return e;
    // Predefined handlers are never destroyed; freeing a handle just nulls it.
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}
