// Communicators.
//
// A communicator has a part every member shares (size, members' world ranks,
// context id: CommShared, immutable once built) and a part each rank owns
// (its rank in it, error handler, name: Comm), because MPI makes error
// handlers, names and attributes per process. The predefined handles
// MPI_COMM_WORLD and MPI_COMM_SELF resolve through the current rank.
#pragma once
#include <mpi.h>

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

struct CommShared {
    std::uint32_t context_id = 0;  // point-to-point context; collectives will use context_id + 1
    int size = 0;
    std::vector<int> world_rank_of;  // rank in this communicator -> world rank
};

struct Comm {
    static constexpr std::uint32_t kMagic = 0x434f4d4d;  // "COMM"
    std::uint32_t magic = kMagic;
    const CommShared* shared = nullptr;
    int rank = -1;
    MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
    const char* name = "";
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

    int size() const noexcept { return shared->size; }
    int world_rank(int r) const noexcept { return shared->world_rank_of[static_cast<std::size_t>(r)]; }
};

// Reference counting of derived communicators (no-ops for predefined ones).
void comm_retain(Comm* c) noexcept;
void comm_release(Comm* c) noexcept;

// Internal agreement among the members of a communicator, for creating
// communicators and topologies (collective over `comm`, blocking, on the
// communicator's collective context so user messages never interfere).
// Every member contributes `bytes` bytes; `all` receives size() * bytes,
// in rank order.
void comm_allgather(Rank& self, Comm& comm, const void* mine, std::size_t bytes, void* all);
// The same with a contribution of any length per member.
std::vector<std::vector<unsigned char>> comm_allgatherv(Rank& self, Comm& comm, const void* mine, std::size_t bytes);
// MPI_Comm_split semantics: *out is the new communicator of the caller's
// color (ordered by key, then parent rank), or nullptr for MPI_UNDEFINED.
// Returns MPI_SUCCESS or an MPI error class.
int comm_split(Rank& self, Comm& parent, int color, int key, Comm** out);

// The communicator behind a handle for the calling rank, or nullptr.
Comm* comm_from_handle(MPI_Comm h) noexcept;
// The same for a rank already known (the hot path of every call).
Comm* comm_from_handle(Rank* self, MPI_Comm h) noexcept;

}  // namespace hmpi
