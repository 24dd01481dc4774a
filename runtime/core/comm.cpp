#include "core/comm.hpp"

#include "core/rank.hpp"

namespace hmpi {

void comm_retain(Comm* c) noexcept {
    if (!c->predefined) c->refs.retain();
}

void comm_release(Comm* c) noexcept {
    if (!c->predefined && c->refs.release()) delete c;
}

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
