// The packed copy of an in-place Alltoall(v,w)'s receive buffer
// (alltoall.hpp): one copy of the rank's own data into its own memory, the
// least an in-place alltoall can do when every peer reads the buffer that
// is being overwritten.
#include <mpi.h>

#include "collectives/alltoall/alltoall.hpp"

namespace hmpi::coll {

namespace {
const Datatype& byte_type() noexcept { return *datatype_from_handle(MPI_BYTE); }
}  // namespace

void InPlaceSnapshot::take(const CollCall& c, int size) {
    offset_.assign(static_cast<std::size_t>(size) + 1, 0);
    for (int j = 0; j < size; ++j)
        offset_[static_cast<std::size_t>(j) + 1] = offset_[static_cast<std::size_t>(j)] + block_bytes(recv_block(c, j));
    bytes_.reset(new unsigned char[offset_.back() > 0 ? offset_.back() : 1]);
    const Datatype& bytes = byte_type();
    for (int j = 0; j < size; ++j) {
        const DstBlock b = recv_block(c, j);
        const std::size_t at = offset_[static_cast<std::size_t>(j)];
        const auto n = static_cast<std::int64_t>(offset_[static_cast<std::size_t>(j) + 1] - at);
        if (n) copy_data(b.buf, b.count, *b.type, bytes_.get() + at, n, bytes);
    }
}

SrcBlock InPlaceSnapshot::block(int j) const noexcept {
    const std::size_t at = offset_[static_cast<std::size_t>(j)];
    const auto n = static_cast<std::int64_t>(offset_[static_cast<std::size_t>(j) + 1] - at);
    return {bytes_.get() + at, n, &byte_type()};
}

}  // namespace hmpi::coll
