// Shared machinery of the public MPI surface.
//
// Every function is defined once, as PMPI_X with default visibility, and
// MPI_X is a weak alias of it: a profiling library that defines MPI_X wins,
// and can call PMPI_X (MPI 3.1, chapter 14).
//
// API functions do three things only: check arguments (raising the standard
// error class through the communicator's error handler, with a message that
// names the rank, the call, the argument and its value), translate handles,
// and call the core.
#pragma once
#include <mpi.h>

#include <cstdint>

#include "core/comm.hpp"
#include "core/datatype.hpp"
#include "core/p2p.hpp"
#include "core/rank.hpp"
#include "core/request.hpp"

#define HMPI_API(ret, name, params)                                                                  \
    extern "C" __attribute__((visibility("default"))) ret PMPI_##name params;                      \
    extern "C" __attribute__((weak, alias("PMPI_" #name), visibility("default"))) ret MPI_##name params; \
    extern "C" ret PMPI_##name params

namespace hmpi::api {

// The standard name of an error class ("MPI_ERR_RANK") and its meaning.
const char* error_class_name(int cls) noexcept;
const char* error_class_text(int cls) noexcept;

// Raises error class `cls` in `call` through comm's error handler (the
// rank's MPI_COMM_WORLD handler when comm is null). Returns `cls` under
// MPI_ERRORS_RETURN; ends the job under MPI_ERRORS_ARE_FATAL/ABORT.
int raise(Rank* rank, const Comm* comm, const char* call, int cls, const char* fmt, ...)
    __attribute__((format(printf, 5, 6)));

// The per-call context: finds the calling rank, records the call name for
// timeout dumps and crash reports, and checks MPI is initialized.
class Call {
public:
    explicit Call(const char* name) noexcept : name_(name), rank_(current_rank()), scope_(rank_, name) {}
    const char* name() const noexcept { return name_; }
    Rank* rank() const noexcept { return rank_; }
    // MPI_SUCCESS, or the error raised because MPI is not usable here.
    int require_initialized() const;
    int fail(const Comm* comm, int cls, const char* fmt, ...) const __attribute__((format(printf, 4, 5)));

    // Argument checks: each returns MPI_SUCCESS or the raised error.
    int comm(MPI_Comm h, Comm** out) const;
    int count(const Comm* c, const char* arg, std::int64_t v) const;
    int type(const Comm* c, const char* arg, MPI_Datatype h, const Datatype** out) const;
    int buffer(const Comm* c, const char* arg, const void* buf, std::int64_t count, const Datatype* t) const;
    int dest(const Comm* c, int v) const;    // a rank of comm or MPI_PROC_NULL
    int source(const Comm* c, int v) const;  // also MPI_ANY_SOURCE
    int send_tag(const Comm* c, int v) const;
    int recv_tag(const Comm* c, int v) const;
    int not_null(const Comm* c, const char* arg, const void* p) const;

private:
    const char* name_;
    Rank* rank_;
    CallScope scope_;
};

// The request behind a handle (nullptr for MPI_REQUEST_NULL or garbage).
Request* request_from_handle(MPI_Request h) noexcept;
inline MPI_Request to_handle(Request* r) noexcept { return reinterpret_cast<MPI_Request>(r); }

// Name of a communicator handle for messages.
const char* comm_name(const Comm* c) noexcept;

inline constexpr int kTagUpperBound = 0x7fffffff;

}  // namespace hmpi::api
