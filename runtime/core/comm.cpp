// Communicators: handles, reference counts, names, freeing, comparison.
// (Creating them is a collective agreement: core/comm_create.cpp.)
#include "core/comm.hpp"

#include <algorithm>
#include <cstring>

#include "core/errhandler.hpp"
#include "core/rank.hpp"

namespace hmpi {

void Comm::set_name(const char* s) noexcept {
    std::size_t n = std::min(std::strlen(s), sizeof name_buf - 1);
    std::memcpy(name_buf, s, n);
    name_buf[n] = '\0';
    name = name_buf;
}

void comm_retain(Comm* c) noexcept {
    if (!c->predefined) c->refs.retain();
}

void comm_release(Comm* c) noexcept {
    if (c->predefined || !c->refs.release()) return;
    // The handler goes with the last reference, not with MPI_Comm_free: a
    // request still pending on a freed communicator may raise through it.
    errhandler_release(c->errhandler);
    delete c;
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
