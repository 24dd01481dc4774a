// Split broadcast: the p - 1 copies of the root's buffer are cut into
// chunks (kBcastKnobs.split_chunk_bytes) that every rank, the root
// included, claims from a shared counter and copies, straight from the
// root's buffer into the destination's; everyone returns once the last
// chunk is copied. The one-stage broadcast leaves the root idle while the
// readers copy; here it copies its share, which halves a two-rank
// broadcast of a large message (the single-copy transfers of
// point-to-point split the same way, docs/point-to-point.md).
//
// Source: Li, Hoefler et al., Section 2.2, one-stage broadcast (P - 1
// concurrent copies of one buffer), with the copies shared among all P
// threads; the chunked work sharing of a large copy as in XHC's pipelined
// broadcast (chunks claimed as they come, 16-256 KiB;
// collectives-techniques.md).
//
// Cost (our formula, Li-Hoefler parameters): the (P - 1) m lines are moved
// by P threads at once, the busiest taking ceil(k / P) chunks, then the
// completion flag:
//   T = a + min((P - 1) m, ceil(k / P) min(m, chunk)) max(c, C P) + a_alpha + claim_line (2 k + P)
//       (+ near_excess of the reader's half at P = 2 with two or more chunks: below)
// ((a, c, C) = alpha, or beta across cache domains, copy costs; in or out of cache by
// the working set P m bytes; k = (P - 1) ceil(m / chunk) chunks (at 2
// ranks a message of up to two chunks is cut in halves): the shared
// counter's line serializes the k claims, the P claims that find none left
// and the k completions. At 16 ranks on a 16-core Xeon they made an 8-byte
// split Bcast 4.1 us against 0.86 without them, stop 48).
//
// A destination or a root whose datatype is not contiguous is copied as
// one typed chunk by whoever claims its first chunk (its other chunks are
// empty), so any datatypes work.
//
// Counters (the root's work counters): 0 = next chunk to claim, 1 = chunks
// done. Flags: flag 1 step 1 = "the counters are set, the payload holds the
// root's buffer" (root).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "base/cacheline.hpp"
#include "collectives/bcast/bcast.hpp"
#include "collectives/bcast/knobs.hpp"
#include "collectives/framework/data.hpp"
#include "collectives/framework/registry.hpp"

namespace hmpi::coll {

namespace {
// The root's buffer, as the root leaves it in its flag-1 payload. Readers
// take it from there, not from the root's CollCall: the root may have
// copied every chunk itself and returned (and freed its datatype) before a
// late reader looks; the payload stays until every member has released this
// collective. So everything a reader needs before it has claimed a chunk is
// here by value; `type` is read only after a claim, while the root waits.
struct SplitWork {
    const void* buf;
    std::int64_t count;
    const Datatype* type;
    std::size_t bytes;
    bool contiguous;
};
static_assert(sizeof(SplitWork) <= kFlagPayloadBytes);

// The bytes of one chunk for a message of `bytes` at p ranks
// (kBcastKnobs): at 2 ranks a message of up to two chunks is cut in
// halves, so that both ranks copy; from 3 ranks on the p - 1 copies give
// p - 1 of the p ranks a chunk each already.
std::size_t split_chunk_for(std::size_t bytes, int p) noexcept {
    const std::size_t chunk = kBcastKnobs.split_chunk_bytes;
    if (p != 2 || bytes < 2 * kBcastKnobs.split_min_half_bytes || bytes > 2 * chunk) return chunk;
    const std::size_t half = (bytes / 2 + kCacheLine - 1) / kCacheLine * kCacheLine;
    return std::min(chunk, half);
}
}  // namespace

CollTask bcast_split(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int root = me.root, p = ctx.size();
    if (p == 1) co_return MPI_SUCCESS;
    std::atomic<std::uint64_t>& next = ctx.work_counter(root, 0);
    std::atomic<std::uint64_t>& done = ctx.work_counter(root, 1);
    SplitWork src;
    if (ctx.rank() == root) {
        src = {me.recvbuf, me.recvcount, me.recvtype, data_bytes(me.recvcount, *me.recvtype), me.recvtype->contiguous};
        std::memcpy(ctx.payload(1), &src, sizeof src);
        next.store(0, std::memory_order_relaxed);
        done.store(0, std::memory_order_relaxed);
        ctx.publish(1, 1);
    } else {
        CO_WAIT_UNTIL(ctx.reached(root, 1, 1));
        std::memcpy(&src, ctx.payload_of(root, 1), sizeof src);
    }
    const std::size_t bytes = src.bytes;
    const std::size_t chunk = split_chunk_for(bytes, p);
    const std::uint64_t per_dest = std::max<std::uint64_t>(1, (bytes + chunk - 1) / chunk);
    const std::uint64_t total = per_dest * static_cast<std::uint64_t>(p - 1);
    const StoreKind kind = store_kind_for(bytes * static_cast<std::size_t>(p), ctx.topology(), false);
    // A chunk is claimed only while some are left, so the root (which waits
    // for all of them) is still there and src.buf and src.type are valid;
    // so is the destination (it waits too).
    for (;;) {
        const std::uint64_t c = next.fetch_add(1, std::memory_order_relaxed);
        if (c >= total) break;
        const int index = static_cast<int>(c % static_cast<std::uint64_t>(p - 1));
        const int dest = index < root ? index : index + 1;
        const std::size_t offset = static_cast<std::size_t>(c / static_cast<std::uint64_t>(p - 1)) * chunk;
        CO_WAIT_UNTIL(ctx.arrived(dest));
        const CollCall& to = ctx.args_of(dest);
        const std::size_t room = data_bytes(to.recvcount, *to.recvtype);
        if (src.contiguous && to.recvtype->contiguous) {
            // Each chunk copies what fits of [offset, offset + chunk).
            const std::size_t end = std::min({offset + chunk, bytes, room});
            if (offset < end)
                copy_bytes(static_cast<unsigned char*>(to.recvbuf) + offset,
                           static_cast<const unsigned char*>(src.buf) + offset, end - offset, kind);
        } else if (offset == 0) {
            copy_data(src.buf, src.count, *src.type, to.recvbuf, to.recvcount, *to.recvtype);
        }
        // The last chunk wakes the ranks that may be parked waiting for it.
        if (done.fetch_add(1, std::memory_order_release) + 1 == total) ctx.wake_others();
    }
    CO_WAIT_UNTIL(done.load(std::memory_order_acquire) == total);
    // The root had more than this rank can hold (an erroneous program): the
    // chunks copied what fit.
    co_return ctx.rank() != root && bytes > data_bytes(me.recvcount, *me.recvtype) ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

double bcast_split_cost(const CostQuery& q) {
    const int p = q.p();
    if (p <= 1) return 0;
    const LinkCost& link = q.s() > 1 ? q.params.beta : q.params.alpha;
    const std::size_t ws = q.bytes * static_cast<std::size_t>(p);
    const double per_line = std::max(copy_line_cost(q, link, ws), congested_copy_line_cost(q, link, ws) * p);
    // The counter's line takes every claim, the p that find no chunk left
    // and every chunk's completion one after the other: claim_line each.
    const std::size_t chunk = split_chunk_for(q.bytes, p);
    const double chunks = static_cast<double>(std::max<std::size_t>(1, (q.bytes + chunk - 1) / chunk) * (p - 1));
    const double claims = q.params.claim_line * (2 * chunks + p);
    // The busiest rank copies ceil(chunks / p) of them: with fewer chunks
    // than ranks one copies while another waits.
    const double chunk_lines = std::min(q.m(), static_cast<double>(chunk) / kCacheLine);
    const double busiest = std::min((p - 1) * q.m(), std::ceil(chunks / p) * chunk_lines);
    // At 2 ranks a message cut in halves has the root claim the first half
    // and its reader the second, the lines the root wrote last: still in its
    // L1, they cost what a waiting source's first lines do (near_excess; 2
    // ranks on the Intel guest, stop 52: 1.43 us measured at 8 KiB, 0.89
    // predicted without it, where inline took 1.24). One chunk (below
    // split_min_half_bytes twice) is the root's alone.
    const double near = p == 2 && chunks >= 2 ? near_excess(q, busiest) : 0.0;
    // A rank reads the root's arguments and a destination's (one of them its
    // own with 2 ranks).
    return link.a + busiest * per_line + near + peer_args_cost(q, p > 2 ? 2 : 1) + q.params.alpha.a + claims;
}

}  // namespace hmpi::coll
