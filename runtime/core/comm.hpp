// Communicators.
//
// A communicator has a part every member shares (its groups and context id:
// CommShared, immutable once built, owned jointly by the members through a
// shared_ptr) and a part each rank owns (its rank in it, error handler,
// name, attributes: Comm), because MPI makes error handlers, names and
// attributes per process. The predefined handles MPI_COMM_WORLD and
// MPI_COMM_SELF resolve through the current rank.
//
// Context ids: an intracommunicator takes two, context_id for user
// point-to-point and context_id + 1 for internal traffic (the agreements
// below, collectives later). An intercommunicator takes four: the first two
// across the groups, the last two for the hidden intracommunicator of its
// local group (Comm::local), which both groups share safely because no rank
// is in both. Communicator creation is in core/comm_create.cpp.
#pragma once
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/refcount.hpp"
#include "core/attributes.hpp"

namespace hmpi {

struct Rank;
struct Topology;  // core/topology.hpp
struct Request;   // core/request.hpp

namespace coll {
struct CollShared;  // collectives/framework/shared.hpp
}

// The collectives' state of a communicator (flags, published arguments),
// made by the first member that runs a collective on it and freed with the
// communicator. Opaque here: collectives/ owns its layout and installs the
// deleter with its first state. Copying a CommShared copies no state.
class CollStateSlot {
public:
    CollStateSlot() = default;
    CollStateSlot(const CollStateSlot&) noexcept {}
    CollStateSlot& operator=(const CollStateSlot&) = delete;
    ~CollStateSlot() {
        if (coll::CollShared* s = state_.load(std::memory_order_acquire)) deleter(s);
    }
    coll::CollShared* get() const noexcept { return state_.load(std::memory_order_acquire); }
    // Installs `fresh` unless another member was first; returns the one in use.
    coll::CollShared* install(coll::CollShared* fresh) const noexcept {
        coll::CollShared* expected = nullptr;
        if (state_.compare_exchange_strong(expected, fresh, std::memory_order_acq_rel)) return fresh;
        deleter(fresh);
        return expected;
    }
    static inline void (*deleter)(coll::CollShared*) noexcept = nullptr;

private:
    mutable std::atomic<coll::CollShared*> state_{nullptr};
};

struct CommShared {
    std::uint32_t context_id = 0;  // point-to-point context; internal traffic uses context_id + 1
    int size = 0;                  // of the local group
    std::vector<int> world_rank_of;  // local group: rank in it -> world rank
    // Intercommunicators: the remote group (rank in it -> world rank); empty
    // for intracommunicators. Each side of an intercommunicator has its own
    // CommShared (the same context id, local and remote swapped).
    std::vector<int> remote_world_rank_of;

    // Collectives' state, shared by the members (collectives/framework).
    CollStateSlot coll;

    bool is_inter() const noexcept { return !remote_world_rank_of.empty(); }
};

struct Comm {
    static constexpr std::uint32_t kMagic = 0x434f4d4d;  // "COMM"; 0 once freed
    std::uint32_t magic = kMagic;
    std::shared_ptr<const CommShared> shared;
    int rank = -1;  // in the local group
    MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
    // MPI_Comm_set_name; `name` points into name_buf (or at a literal for
    // the predefined communicators until renamed).
    char name_buf[MPI_MAX_OBJECT_NAME] = {};
    const char* name = name_buf;
    // The handle users hold (MPI_COMM_WORLD, MPI_COMM_SELF, or this object's
    // address): what callbacks (error handlers, attribute copy/delete) get.
    MPI_Comm handle = MPI_COMM_NULL;
    // MPI_COMM_WORLD and MPI_COMM_SELF live as long as the rank and are never counted.
    bool predefined = false;
    // The user's handle plus one per request holding it (request_hold_objects).
    RefCount refs;
    // Cached attributes (MPI_Comm_set_attr).
    AttributeSet attrs;
    // Virtual topology (MPI_Cart_create, ...), or null. The same on every member.
    std::shared_ptr<const Topology> topology;
    // Hints given with MPI_Comm_set_info / MPI_Comm_dup_with_info.
    std::vector<std::pair<std::string, std::string>> info;
    // Intercommunicators: this rank's member of the hidden intracommunicator
    // of its local group, for agreements within the group. Null otherwise.
    std::unique_ptr<Comm> local;
    // Number of internal agreements this rank has started on this
    // communicator. Every member starts the same ones in the same order
    // (they are collective), so the count names an agreement on every
    // member alike and tags its messages apart from its neighbours'.
    std::atomic<std::uint32_t> agreement_seq{0};

    Comm() = default;
    Comm(const Comm&) = delete;  // `name` may point into the object itself
    Comm& operator=(const Comm&) = delete;

    // Size of the local group (MPI_Comm_size).
    int size() const noexcept { return shared->size; }
    bool is_inter() const noexcept { return shared->is_inter(); }
    // Number of ranks a point-to-point peer can name: the remote group's
    // size on an intercommunicator, the size otherwise.
    int peer_count() const noexcept {
        return is_inter() ? static_cast<int>(shared->remote_world_rank_of.size()) : shared->size;
    }
    // World rank of point-to-point peer r (in the remote group on an intercommunicator).
    int world_rank(int r) const noexcept {
        const std::vector<int>& peers = shared->remote_world_rank_of.empty() ? shared->world_rank_of
                                                                             : shared->remote_world_rank_of;
        return peers[static_cast<std::size_t>(r)];
    }
    // MPI_Comm_set_name: keeps at most MPI_MAX_OBJECT_NAME - 1 characters.
    void set_name(const char* s) noexcept;
};

// Reference counting of derived communicators (no-ops for predefined ones).
void comm_retain(Comm* c) noexcept;
void comm_release(Comm* c) noexcept;

// Internal agreement among the members of an intracommunicator (of the
// local group, for an intercommunicator), for creating communicators and
// topologies (collective over `comm`, blocking, on the communicator's
// internal context so user messages never interfere; no lock is held while
// waiting).
// Every member contributes `bytes` bytes (the same on all); `all` receives
// size() * bytes, in rank order.
void comm_allgather(Rank& self, Comm& comm, const void* mine, std::size_t bytes, void* all);
// The same with a contribution of any length per member.
std::vector<std::vector<unsigned char>> comm_allgatherv(Rank& self, Comm& comm, const void* mine, std::size_t bytes);
// MPI_Comm_split semantics: *out is the new communicator of the caller's
// color (ordered by key, then parent rank; it inherits the parent's error
// handler), or nullptr for MPI_UNDEFINED. On an intercommunicator, an
// intercommunicator between the members of that color on each side
// (nullptr when one side has none). Returns MPI_SUCCESS or an MPI error class.
int comm_split(Rank& self, Comm& parent, int color, int key, Comm** out);

// ---- The other constructors (core/comm_create.cpp), for the API layer,
// which has checked the arguments. Each is collective over its parent, in
// the order of the caller's other collective calls on it. A new
// communicator has one reference (the user's handle) and inherits the
// parent's error handler; *out is nullptr where MPI gives MPI_COMM_NULL.
// They return MPI_SUCCESS or an error class.

// MPI_Comm_dup, in two steps so that the caller can copy attributes and
// hints in between: the new object (parent's hints, topology and error
// handler; not yet usable), then the agreement that gives it its groups.
Comm* comm_dup_shell(const Comm& parent);
void comm_dup(Rank& self, Comm& parent, Comm* newc);
// MPI_Comm_idup: `newc` from comm_dup_shell gets its groups when `req`
// (an async request the caller owns) completes; never waits.
void comm_idup_start(Rank& self, Comm& parent, Comm* newc, Request& req);
// MPI_Comm_create: `group` (world ranks, in order) is the caller's group, a
// subgroup of parent's (local) group; on an intracommunicator, different
// callers' groups may differ if disjoint (MPI 3.1 allows that form too); on
// an intercommunicator, the result joins the groups the two sides passed.
int comm_create(Rank& self, Comm& parent, const std::vector<int>& group, Comm** out);
// MPI_Comm_create_group: collective over the group's members only.
int comm_create_group(Rank& self, Comm& parent, const std::vector<int>& group, int tag, Comm** out);
// MPI_Intercomm_create: `peer` matters at the local leader only.
// MPI_ERR_COMM when the two groups overlap.
int intercomm_create(Rank& self, Comm& local, int local_leader, Comm* peer, int remote_leader, int tag, Comm** out);
// MPI_Intercomm_merge.
int intercomm_merge(Rank& self, Comm& inter, bool high, Comm** out);
// The MPI_Comm_split color of the caller for a split type of
// MPI_Comm_split_type (MPI_COMM_TYPE_SHARED, HMPI_COMM_TYPE_*); MPI_ERR_ARG
// for other types.
int comm_split_type_color(int split_type, int* color);
// MPI_Comm_free after the attributes are deleted: the handle stops naming
// the communicator; the object lives while requests hold it.
void comm_free(Comm* c) noexcept;
// MPI_Comm_compare: MPI_IDENT, MPI_CONGRUENT, MPI_SIMILAR or MPI_UNEQUAL.
int comm_compare(const Comm& a, const Comm& b);

// The communicator behind a handle for the calling rank, or nullptr.
Comm* comm_from_handle(MPI_Comm h) noexcept;
// The same for a rank already known (the hot path of every call).
Comm* comm_from_handle(Rank* self, MPI_Comm h) noexcept;

}  // namespace hmpi
