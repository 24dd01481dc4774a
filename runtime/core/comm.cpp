#include "core/comm.hpp"

#include "core/rank.hpp"

namespace hmpi {

Comm* comm_from_handle(MPI_Comm h) noexcept { return comm_from_handle(current_rank(), h); }

Comm* comm_from_handle(Rank* self, MPI_Comm h) noexcept {
    if (!self) return nullptr;
    if (h == MPI_COMM_WORLD) return &self->world;
    if (h == MPI_COMM_SELF) return &self->self;
    if (h == MPI_COMM_NULL || reinterpret_cast<std::uintptr_t>(h) < 0x1000) return nullptr;
    auto* c = reinterpret_cast<Comm*>(h);
    return c->magic == Comm::kMagic ? c : nullptr;
}

}  // namespace hmpi
