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
#include <vector>

#include "base/refcount.hpp"

namespace hmpi {

struct Rank;

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
    // The user's handle plus one per request bound to it (request_bind).
    RefCount refs;

    int size() const noexcept { return shared->size; }
    int world_rank(int r) const noexcept { return shared->world_rank_of[static_cast<std::size_t>(r)]; }
};

// Reference counting of derived communicators (no-ops for predefined ones).
void comm_retain(Comm* c) noexcept;
void comm_release(Comm* c) noexcept;

// The communicator behind a handle for the calling rank, or nullptr.
Comm* comm_from_handle(MPI_Comm h) noexcept;
// The same for a rank already known (the hot path of every call).
Comm* comm_from_handle(Rank* self, MPI_Comm h) noexcept;

}  // namespace hmpi
