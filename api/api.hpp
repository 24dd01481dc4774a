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
// timeout dumps and crash reports, and checks arguments. Every check is an
// inline test on the success path; the error paths (message formatting,
// error handler) are out of line.
class Call {
public:
    explicit Call(const char* name) noexcept : name_(name), rank_(current_rank()), scope_(rank_, name) {}
    const char* name() const noexcept { return name_; }
    Rank* rank() const noexcept { return rank_; }
    int fail(const Comm* comm, int cls, const char* fmt, ...) const __attribute__((format(printf, 4, 5)));
    // Before blocking: what the call waits for (shown if the job times out).
    void waiting_for(int peer, int tag) noexcept { scope_.waiting_for(peer, tag); }

    // MPI_SUCCESS, or the error raised because MPI is not usable here.
    int require_initialized() const {
        if (rank_ && rank_->phase.load(std::memory_order_relaxed) == RankPhase::initialized) [[likely]]
            return MPI_SUCCESS;
        return reject_uninitialized();
    }

    // Argument checks: each returns MPI_SUCCESS or the raised error.
    int comm(MPI_Comm h, Comm** out) const {
        *out = comm_from_handle(rank_, h);
        return *out ? MPI_SUCCESS : reject_comm(h);
    }
    int count(const Comm* c, const char* arg, std::int64_t v) const {
        return v >= 0 ? MPI_SUCCESS : reject_count(c, arg, v);
    }
    // A valid datatype; communication and packing need it committed too,
    // constructors and queries do not (need_committed = false).
    int type(const Comm* c, const char* arg, MPI_Datatype h, const Datatype** out, bool need_committed = true) const {
        *out = datatype_from_handle(h);
        return (*out && ((*out)->committed || !need_committed)) ? MPI_SUCCESS : reject_type(c, arg, h);
    }
    // A buffer of n elements of t: not NULL unless empty, or unless t's data
    // lies at absolute addresses (MPI_BOTTOM, which is NULL, with a type
    // built from MPI_Get_address results); n * size must fit in 64 bits.
    int buffer(const Comm* c, const char* arg, const void* buf, std::int64_t n, const Datatype* t) const {
        std::int64_t bytes;
        if (__builtin_mul_overflow(n, static_cast<std::int64_t>(t->size), &bytes)) [[unlikely]]
            return reject_count(c, "count", n);
        return (buf || bytes == 0 || t->true_lb >= kLowestAbsoluteAddress) ? MPI_SUCCESS : reject_buffer(c, arg, n, t);
    }
    // No object lives in the first page: a type whose data starts above it
    // was built from absolute addresses.
    static constexpr std::ptrdiff_t kLowestAbsoluteAddress = 4096;
    // A rank of comm (of its remote group on an intercommunicator) or MPI_PROC_NULL.
    int dest(const Comm* c, int v) const {
        return (static_cast<unsigned>(v) < static_cast<unsigned>(c->peer_count()) || v == MPI_PROC_NULL)
                   ? MPI_SUCCESS
                   : reject_rank(c, "dest", v);
    }
    // Also MPI_ANY_SOURCE.
    int source(const Comm* c, int v) const {
        return (static_cast<unsigned>(v) < static_cast<unsigned>(c->peer_count()) || v == MPI_PROC_NULL ||
                v == MPI_ANY_SOURCE)
                   ? MPI_SUCCESS
                   : reject_rank(c, "source", v);
    }
    int send_tag(const Comm* c, int v) const { return v >= 0 ? MPI_SUCCESS : reject_send_tag(c, v); }
    int recv_tag(const Comm* c, int v) const { return (v >= 0 || v == MPI_ANY_TAG) ? MPI_SUCCESS : reject_recv_tag(c, v); }
    int not_null(const Comm* c, const char* arg, const void* p) const { return p ? MPI_SUCCESS : reject_null(c, arg); }

private:
    [[gnu::noinline]] int reject_uninitialized() const;
    [[gnu::noinline]] int reject_comm(MPI_Comm h) const;
    [[gnu::noinline]] int reject_count(const Comm* c, const char* arg, std::int64_t v) const;
    [[gnu::noinline]] int reject_type(const Comm* c, const char* arg, MPI_Datatype h) const;
    [[gnu::noinline]] int reject_buffer(const Comm* c, const char* arg, std::int64_t n, const Datatype* t) const;
    [[gnu::noinline]] int reject_rank(const Comm* c, const char* arg, int v) const;
    [[gnu::noinline]] int reject_send_tag(const Comm* c, int v) const;
    [[gnu::noinline]] int reject_recv_tag(const Comm* c, int v) const;
    [[gnu::noinline]] int reject_null(const Comm* c, const char* arg) const;

    const char* name_;
    Rank* rank_;
    CallScope scope_;
};

// The request behind a handle (nullptr for MPI_REQUEST_NULL or garbage).
Request* request_from_handle(MPI_Request h) noexcept;
inline MPI_Request to_handle(Request* r) noexcept { return reinterpret_cast<MPI_Request>(r); }

// Raises MPI_ERR_BUFFER for a buffered send that does not fit the attached buffer.
int raise_bsend_space(const Call& c, const Comm* comm, std::size_t need, std::size_t avail);

// Generalized requests' user callbacks (api/grequest.cpp): query fills the
// request's status fields; each returns the callback's error code.
int generalized_query(Request& r);
int generalized_free(Request& r);
int generalized_cancel(Request& r);

// Name of a communicator handle for messages.
const char* comm_name(const Comm* c) noexcept;


}  // namespace hmpi::api
