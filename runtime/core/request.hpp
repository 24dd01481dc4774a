// Requests: one per point-to-point operation in flight.
//
// Ownership: a request belongs to the rank that created it; only that rank
// frees it. Another rank may complete it (a receiver that copies a
// rendezvous message or matches a synchronous send): it publishes the
// completion with a release store to `state` and never touches the request
// again, so the owner may free it as soon as it sees kComplete.
#pragma once
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <memory>

#include "core/datatype.hpp"

namespace hmpi {

struct Rank;
struct Comm;

// A large single-copy transfer split between receiver and sender: the
// matched receiver publishes source, destination and size; then both ranks
// take chunks from `next` until none are left. The sender helps only from
// its own wait on the request, so it never touches a request it could have
// freed; the receiver completes the send only after `copied` reaches `bytes`.
struct SplitCopy {
    std::atomic<std::uint32_t> ready{0};
    const unsigned char* src = nullptr;
    unsigned char* dst = nullptr;
    std::size_t bytes = 0;
    std::size_t chunk = 0;
    // Not padded apart: a few hundred touches per large message do not
    // justify making every request (most are small) cache lines bigger.
    std::atomic<std::size_t> next{0};    // next chunk to take
    std::atomic<std::size_t> copied{0};  // bytes copied so far
    // Copies chunks until none are left to take.
    void help() noexcept;
};

// An operation the runtime advances from progress() until it is done:
// nonblocking communicator creation now, nonblocking collectives later.
// advance() runs on the owning rank, outside the rank's matching lock, and
// may start point-to-point operations; it must not block or start another
// AsyncOp.
struct AsyncOp {
    virtual ~AsyncOp() = default;
    // Makes what progress it can; true once the operation is complete.
    virtual bool advance(Rank& self) = 0;
    // How many of its internal waits it has got past so far, if it counts
    // them (a nonblocking collective's flag waits): progress() turns a
    // change into Rank::async_advances, which restarts the spin, yield and
    // park clock of whoever waits (wait_until, core/p2p.hpp).
    virtual std::uint32_t advances() const noexcept { return 0; }
    // The operation's outcome, an MPI error class, read once advance() has
    // returned true; it becomes the request's status error.
    int error = MPI_SUCCESS;
};

// User callbacks of a generalized request (MPI_Grequest_start).
struct GeneralizedHooks {
    MPI_Grequest_query_function* query = nullptr;
    MPI_Grequest_free_function* free = nullptr;
    MPI_Grequest_cancel_function* cancel = nullptr;
    void* extra_state = nullptr;
    // MPI_Grequest_complete and MPI_Request_free each add one; whichever
    // comes second frees the request (they may run on different threads).
    std::atomic<int> release_votes{0};
};

enum class RequestKind : std::uint8_t { send, recv, async, generalized };
enum class SendMode : std::uint8_t { standard, sync, ready, buffered };

struct Request {
    static constexpr std::uint32_t kMagic = 0x52455155;  // "REQU"
    static constexpr std::uint32_t kInactive = 0, kActive = 1, kComplete = 2;

    std::uint32_t magic = kMagic;
    std::atomic<std::uint32_t> state{kInactive};
    RequestKind kind = RequestKind::send;
    SendMode mode = SendMode::standard;
    bool persistent = false;
    bool detached = false;     // MPI_Request_free'd while active: reaped by progress
    bool internal = false;     // created by the runtime (e.g. a buffered send), never seen by users
    bool holds_objects = false;  // request_hold_objects was called
    Rank* owner = nullptr;

    // The operation.
    const void* send_buf = nullptr;
    void* recv_buf = nullptr;
    std::int64_t count = 0;
    const Datatype* type = nullptr;
    int peer = MPI_PROC_NULL;  // destination or source, rank in comm
    int tag = 0;
    Comm* comm = nullptr;
    std::uint32_t context = 0;  // the communicator's point-to-point context id

    // The outcome (valid once complete).
    int status_source = MPI_ANY_SOURCE;
    int status_tag = MPI_ANY_TAG;
    int status_error = MPI_SUCCESS;
    std::int64_t status_bytes = 0;
    bool status_cancelled = false;

    // Posted-receive queue links (owner's matching state).
    Request* next = nullptr;
    Request* prev = nullptr;

    // Buffered sends: the block of the attached buffer holding the copy.
    void* bsend_block = nullptr;

    // Large single-copy sends: the copy both ranks share.
    SplitCopy split;

    // RequestKind::async: the operation progress() advances.
    std::unique_ptr<AsyncOp> async;
    // RequestKind::generalized: the user's callbacks.
    std::unique_ptr<GeneralizedHooks> generalized;

    bool complete() const noexcept { return state.load(std::memory_order_acquire) == kComplete; }
};

// Keeps r.comm and r.type alive until the request is freed (MPI_Comm_free
// and MPI_Type_free let pending operations complete). For requests that
// outlive the call that made them; blocking calls' requests need not.
void request_hold_objects(Request& r) noexcept;
// Frees a heap request: drops what request_hold_objects kept, deletes it.
void free_request(Request* r) noexcept;

// Status helpers: MPI_Status keeps the byte count in MPI_internal[0..1] and
// the cancelled flag in MPI_internal[2].
void status_set(MPI_Status* st, int source, int tag, int error, std::int64_t bytes, bool cancelled) noexcept;
std::int64_t status_bytes(const MPI_Status* st) noexcept;
bool status_cancelled(const MPI_Status* st) noexcept;
// Single-completion calls leave MPI_ERROR alone (MPI 3.1, 3.2.5); the
// multiple-completion calls set it.
void status_from_request(const Request& r, MPI_Status* st, bool set_error = false) noexcept;
void status_empty(MPI_Status* st) noexcept;

}  // namespace hmpi
