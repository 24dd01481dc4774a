// Blocks of the data-movement collectives' buffers, and a sweep over peers
// that handles each one as soon as it is ready. Shared by the algorithms of
// gather/, scatter/, allgather/ and alltoall/.
//
// A "block" is one (address, count, datatype) triple inside a rank's send or
// receive buffer: the part it sends to, or receives from, one peer. Every
// form (plain, v, w) describes its blocks differently (count * index,
// element displacements, byte displacements and per-peer types); these
// functions turn a rank's CollCall into the triple of block j, so that one
// algorithm serves Alltoall, Alltoallv and Alltoallw (and so on) alike.
// Algorithms read a peer's blocks from its CollCall (ctx.args_of) and copy
// straight between the two ranks' buffers.
#pragma once
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "collectives/framework/call.hpp"
#include "collectives/framework/data.hpp"
#include "collectives/framework/kinds.hpp"

namespace hmpi::coll {

struct SrcBlock {
    const void* buf;
    std::int64_t count;
    const Datatype* type;
};
struct DstBlock {
    void* buf;
    std::int64_t count;
    const Datatype* type;
};

// A block of a receive buffer read as a source (once its data is there).
inline SrcBlock as_source(const DstBlock& b) noexcept { return {b.buf, b.count, b.type}; }

inline std::size_t block_bytes(const SrcBlock& b) noexcept { return data_bytes(b.count, *b.type); }
inline std::size_t block_bytes(const DstBlock& b) noexcept { return data_bytes(b.count, *b.type); }

// Packs `n` blocks of the plain forms' layout (block j at element j * count
// from `first`, `block` bytes of data each) back to back into `out`. A
// contiguous type's blocks are one run: one copy instead of a datatype
// call per block (an inline Scatter root at 16 ranks packed its 15 8-byte
// blocks at about 35 ns each before it could publish them). `out` is an
// inline area, whose lines the previous call's readers hold
// (StoreKind::rewrite).
inline void pack_consecutive(const SrcBlock& first, std::size_t block, int n, unsigned char* out) noexcept {
    if (n <= 0 || block == 0) return;
    if (first.type->contiguous) {
        copy_bytes(out, first.buf, block * static_cast<std::size_t>(n), StoreKind::rewrite);
        return;
    }
    for (int j = 0; j < n; ++j)
        pack_bytes(element_at(first.buf, j * first.count, *first.type), *first.type, block,
                   out + static_cast<std::size_t>(j) * block);
}

// Copies src into dst: MPI_SUCCESS, or MPI_ERR_TRUNCATE if dst is too small.
// `kind`: the stores (store_kind_for: non-temporal when the algorithm's
// working set exceeds the cache and dst is not read again soon).
inline int copy_block(const SrcBlock& src, const DstBlock& dst, StoreKind kind = StoreKind::temporal) noexcept {
    return copy_data(src.buf, src.count, *src.type, dst.buf, dst.count, *dst.type, kind);
}
// Whether copying src into dst would truncate (the receiver's error class,
// computed by the receiver where the sender does the copy).
inline bool truncates(const SrcBlock& src, const DstBlock& dst) noexcept { return block_bytes(src) > block_bytes(dst); }

// Block j of c's receive buffer: Gather(v) at the root, Allgather(v),
// Alltoall(v,w). (Scatter's receive side is the whole triple: recv_whole.)
inline DstBlock recv_block(const CollCall& c, int j) noexcept {
    switch (c.kind) {
        case CollKind::gatherv:
        case CollKind::allgatherv:
        case CollKind::alltoallv:
            return {element_at(c.recvbuf, c.rdispls[j], *c.recvtype), c.recvcounts[j], c.recvtype};
        case CollKind::alltoallw: {
            const Datatype* t = c.recvtypes[static_cast<std::size_t>(j)];
            return {byte_offset(c.recvbuf, c.rdispls_bytes[j]), c.recvcounts[j], t};
        }
        default: return {element_at(c.recvbuf, j * c.recvcount, *c.recvtype), c.recvcount, c.recvtype};
    }
}

// Block j of c's send buffer: Scatter(v) at the root, Alltoall(v,w).
inline SrcBlock send_block(const CollCall& c, int j) noexcept {
    switch (c.kind) {
        case CollKind::scatterv:
        case CollKind::alltoallv:
            return {element_at(c.sendbuf, c.sdispls[j], *c.sendtype), c.sendcounts[j], c.sendtype};
        case CollKind::alltoallw: {
            const Datatype* t = c.sendtypes[static_cast<std::size_t>(j)];
            return {byte_offset(c.sendbuf, c.sdispls_bytes[j]), c.sendcounts[j], t};
        }
        default: return {element_at(c.sendbuf, j * c.sendcount, *c.sendtype), c.sendcount, c.sendtype};
    }
}

// The whole send triple (Gather(v) and Allgather(v) contributions).
inline SrcBlock send_whole(const CollCall& c) noexcept { return {c.sendbuf, c.sendcount, c.sendtype}; }
// The whole receive triple (Scatter(v) receivers).
inline DstBlock recv_whole(const CollCall& c) noexcept { return {c.recvbuf, c.recvcount, c.recvtype}; }

// What rank `self` (whose arguments are c) contributes to a Gather(v) or
// Allgather(v): its send triple, or with MPI_IN_PLACE its own block of its
// receive buffer (MPI 3.1, 5.5 and 5.7), which it never overwrites.
inline SrcBlock contribution(const CollCall& c, int self) noexcept {
    return c.in_place ? as_source(recv_block(c, self)) : send_whole(c);
}

// What rank `self` sends to peer j in an Alltoall(v,w): block j of its send
// buffer, or with MPI_IN_PLACE block j of its receive buffer as it was on
// entry (only valid to read before anyone writes into it).
inline SrcBlock outgoing(const CollCall& c, int j) noexcept {
    return c.in_place ? as_source(recv_block(c, j)) : send_block(c, j);
}

// The peers of a rank, each to be handled once, in the staggered order
// self+1, self+2, ... (mod size) so that P ranks starting together do not
// all go to the same peer first. sweep() handles every pending peer that is
// ready and drops it; an algorithm calls it from CO_WAIT_UNTIL, so a late
// peer never holds up the ones that are already there:
//
//     PeerSweep peers(ctx.rank(), ctx.size());
//     CO_WAIT_UNTIL(peers.sweep([&](int q) { return ctx.arrived(q); }, [&](int q) { copy from q; }));
class PeerSweep {
public:
    PeerSweep(int self, int size) {
        reserve(static_cast<std::size_t>(size > 0 ? size - 1 : 0));
        for (int k = 1; k < size; ++k) data_[n_++] = (self + k) % size;
    }
    // A sweep over an explicit list of peers (in the order given).
    explicit PeerSweep(const std::vector<int>& peers) {
        reserve(peers.size());
        for (int q : peers) data_[n_++] = q;
    }
    PeerSweep(const PeerSweep&) = delete;
    PeerSweep& operator=(const PeerSweep&) = delete;

    // Calls visit(q) for each pending q with ready(q), in order; true once
    // no peer is left.
    template <class Ready, class Visit>
    bool sweep(Ready&& ready, Visit&& visit) {
        std::size_t kept = 0;
        for (std::size_t i = 0; i < n_; ++i) {
            const int q = data_[i];
            if (ready(q))
                visit(q);
            else
                data_[kept++] = q;
        }
        n_ = kept;
        return n_ == 0;
    }

private:
    // Up to kInline peers live in the object (in the algorithm's coroutine
    // frame): no heap allocation per call on small communicators.
    static constexpr std::size_t kInline = 31;
    void reserve(std::size_t n) {
        if (n > kInline) {
            heap_.resize(n);
            data_ = heap_.data();
        }
    }
    int inline_[kInline];
    std::vector<int> heap_;
    int* data_ = inline_;
    std::size_t n_ = 0;
};

}  // namespace hmpi::coll
