// Copy-in/copy-out ("inline") data: a rank copies its small contribution
// into shared memory of its own and publishes a flag; readers copy it out
// when they see the flag. The writer never waits for its readers, so a
// rooted collective's non-roots (and a broadcast's root) return at once,
// and a rank's whole cost is its own copy plus one flag write; a reader
// takes one cache miss for the flag line and, above 48 bytes, the data's.
//
// Source: ../shared/design/collectives-techniques.md ("Tiny messages
// inline"; "copy-in/copy-out lets the root return early"; XHC keeps it up to
// 256 B for broadcast and 4 KiB for (all)reduce even where single-copy is
// available).
//
// Where the data goes: flag kInlineFlag's payload holds the writer's byte
// count (8 bytes) and, up to kInlinePayloadBytes, the bytes themselves, so
// a reader takes one line for flag, count and data; larger data (up to
// inline_capacity(p), shared.hpp) goes to the writer's inline area of the slot
// (CollCtx::inline_area). Readers trust the writer's count, not their own
// arguments: a mismatch (an erroneous program) copies what fits and reports
// MPI_ERR_TRUNCATE instead of reading past the data.
//
// Lifetime: the payload and the area are rewritten by this slot's next
// collective, kSlots calls later, which the driver starts on the writer only
// once every member has released this one (context.hpp, usually known
// without a remote read): readers may take their time.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "collectives/framework/blocks.hpp"
#include "collectives/framework/context.hpp"
#include "collectives/framework/data.hpp"
#include "collectives/framework/task.hpp"
#include "collectives/model/cost.hpp"
#include "primitives/flag.hpp"

namespace hmpi::coll {

// The flag whose payload announces inline data (step 1).
inline constexpr unsigned kInlineFlag = 1;
// Data up to this size travels in the flag's own line, after the count.
inline constexpr std::size_t kInlinePayloadBytes = kFlagPayloadBytes - sizeof(std::uint64_t);

// Writer side: where to write `bytes` (at most ctx.inline_bytes()) of inline
// data. inline_publish announces it once written.
inline unsigned char* inline_begin(const CollCtx& ctx, std::size_t bytes) {
    unsigned char* payload = ctx.payload(kInlineFlag);
    return bytes <= kInlinePayloadBytes ? payload + sizeof(std::uint64_t) : ctx.inline_area();
}

// Writer side, after the data: records the count for readers and publishes
// kInlineFlag step 1 (to `reader` alone where one is given). The count is
// stored here, after the data, not before it: the flag's line is the one
// readers poll, so a store to it early in the copy takes the line from them
// and the flag's own store, after the data's lines, has to take it back: two
// handoffs before readers see the flag where one does. 2 ranks on the Intel
// guest, inline Reduce from 56 bytes (data past the flag's line): the root's
// wait 380-600 cycles against 80-190 at 48 bytes, and the calls 50-60 ns
// slower on the mean over ranks (docs/performance-collectives.md, stop 52).
inline void inline_publish(const CollCtx& ctx, std::size_t bytes, int reader = -1) noexcept {
    const std::uint64_t count = bytes;
    std::memcpy(ctx.payload(kInlineFlag), &count, sizeof count);
    if (reader < 0)
        ctx.publish(kInlineFlag, 1);
    else
        ctx.publish_to(kInlineFlag, 1, reader);
}

// Writer side: copies `bytes` of (buf, type) packed into `out` (from
// inline_begin). The previous call's readers hold those lines
// (StoreKind::rewrite).
inline void inline_copy_in(const void* buf, const Datatype& type, std::size_t bytes, unsigned char* out) noexcept {
    if (type.contiguous)
        copy_bytes(out, buf, bytes, StoreKind::rewrite);
    else
        pack_bytes(buf, type, bytes, out);
}

// The fold's operand for this rank's own vector in a symmetric inline
// reduction: its input, not `copy`, the inline copy it has just stored.
// Those lines were last read by the peers, so the stores wait for their
// copies to be invalidated, and a load that store forwarding cannot serve
// (the fold's loads are wider than the copy's, or at other offsets) waits
// with them: a cross-core round trip (2 ranks: Scan's rank 0 0.27 us
// reading its copy, 0.16 reading its input; docs/performance-collectives.md,
// stop 20). In place the input is the receive buffer, which the fold
// overwrites from the start, so there the copy.
inline const void* own_inline_operand(const CollCall& me, const unsigned char* copy) noexcept {
    return me.in_place ? static_cast<const void*>(copy) : me.sendbuf;
}

// Reader side.
struct InlineData {
    const unsigned char* data;
    std::size_t bytes;  // what the writer wrote
};
// What a reader will take of one writer's inline data: `bytes` from
// `offset` of the `total` the writer writes, as the reader computes them
// from its own arguments (like the reads themselves).
struct InlineRead {
    std::size_t total, offset, bytes;
};

// Prefetching while waiting. Data above kInlinePayloadBytes lives in the
// writer's inline area, lines the reader only asks for once it has seen
// the flag: a second miss after the flag's, one handoff more. A waiting
// reader therefore prefetches the lines it will read on every poll, as it
// loads the flag: once the writer has written them they come alongside the
// flag, and while they are unchanged the prefetch hits the reader's own
// cache; a stale line costs what it did before (the writer invalidates it,
// the read after the flag misses). Only small reads, and all of a read or
// nothing: 2 ranks on the EPYC guest (docs/performance-collectives.md,
// stop 19), a 32 B Scatter block took 375 cycles after the flag without
// the prefetch and 50 with it, and Bcast, Gather, Scatter, Allgather and
// Alltoall got 20-30% faster from 64 B to 512 B, while prefetching the
// first 8 or 16 lines of larger data, or 8 lines of a writer's 16 (1 KiB
// Reduce_scatter, 512 B blocks), made those calls up to 1.6x slower (the
// reader pulls lines the writer is still storing to).
inline constexpr std::size_t kInlinePrefetchLines = 8;

// Lines that [offset, offset + bytes) touches.
inline std::size_t lines_spanned(std::size_t offset, std::size_t bytes) noexcept {
    return bytes == 0 ? 0 : (offset + bytes - 1) / kCacheLine - offset / kCacheLine + 1;
}
// Whether a reader prefetches `r`: the data is past the flag's line, the
// writer writes at most kInlinePrefetchLines and `r` spans at most
// `max_lines` (the same for every poll, so a multi-writer wait decides once).
inline bool inline_prefetches(const InlineRead& r, std::size_t max_lines) noexcept {
    return r.total > kInlinePayloadBytes && lines_spanned(0, r.total) <= kInlinePrefetchLines &&
           lines_spanned(r.offset, r.bytes) <= max_lines;
}
// Prefetches the lines of `peer`'s inline area that `r` covers; nothing
// while the writer has not made its area yet.
inline void inline_prefetch(const CollCtx& ctx, int peer, const InlineRead& r) noexcept {
    if (const unsigned char* area = ctx.inline_area_of(peer))
        prefetch_lines(area + r.offset, r.bytes, kInlinePrefetchLines);
}
// Lines per writer when a reader waits for `writers` of them at once.
inline std::size_t inline_prefetch_share(int writers) noexcept {
    return writers > 1 ? kInlinePrefetchLines / static_cast<std::size_t>(writers) : kInlinePrefetchLines;
}

// Whether `peer` has published its inline data; `r` is prefetched on the
// way if it spans at most `max_lines` lines.
inline bool inline_ready(const CollCtx& ctx, int peer) noexcept { return ctx.reached(peer, kInlineFlag, 1); }
inline bool inline_ready(const CollCtx& ctx, int peer, const InlineRead& r,
                         std::size_t max_lines = kInlinePrefetchLines) noexcept {
    if (inline_prefetches(r, max_lines)) inline_prefetch(ctx, peer, r);
    return inline_ready(ctx, peer);
}
// The same for members [first, last) but `skip`, in one poll
// (CollCtx::all_reached_in), reading `r` of each; with more than
// kInlinePrefetchLines writers, nothing is prefetched.
inline bool inline_all_ready(const CollCtx& ctx, int first, int last, int skip, const InlineRead& r) noexcept {
    const int writers = last - first - (skip >= first && skip < last ? 1 : 0);
    if (inline_prefetches(r, inline_prefetch_share(writers)))
        for (int q = first; q < last; ++q)
            if (q != skip) inline_prefetch(ctx, q, r);
    return ctx.all_reached_in(first, last, kInlineFlag, 1, skip);
}
// Member `peer`'s inline data; only after inline_ready(peer).
inline InlineData inline_of(const CollCtx& ctx, int peer) noexcept {
    const unsigned char* payload = ctx.payload_of(peer, kInlineFlag);
    std::uint64_t count;
    std::memcpy(&count, payload, sizeof count);
    const auto bytes = static_cast<std::size_t>(count);
    return {bytes <= kInlinePayloadBytes ? payload + sizeof count : ctx.inline_area_of(peer), bytes};
}

// After the flags: the lines a reader will fold, asked for all at once
// before its fold walks them, where the writer wrote more than
// kInlineReadPrefetchAbove lines (the wait prefetched none), up to
// kInlineReadPrefetchLines over the writers of [first, last) but `skip`,
// in that order; the fold's own loads keep fewer misses in flight. 2 ranks
// on the EPYC guest, inline Allreduce, the library without and with it
// alternating (stop 42; three runs, medians of 6, 4 and 4 rounds): 4 KiB
// 0.968 -> 0.925, 0.951 -> 0.920 and 0.962 -> 0.942 us, 8 KiB 1.275 ->
// 1.243 and 1.348 -> 1.286, 16 KiB 1.794 -> 1.684, 1.789 -> 1.710 and
// 1.869 -> 1.868: a few percent, at the runs' noise (two identical
// libraries differed by 3% at 2 KiB). At 2 KiB 0.716 -> 0.672 once and
// 0.677 -> 0.692 the next time, at 1 and 1.5 KiB slower (0.570 -> 0.602,
// 0.631 -> 0.659), so only from 33 lines on.
inline constexpr std::size_t kInlineReadPrefetchAbove = 32;
inline constexpr std::size_t kInlineReadPrefetchLines = 256;
inline void inline_prefetch_read(const CollCtx& ctx, int first, int last, int skip, const InlineRead& r) noexcept {
    if (lines_spanned(0, r.total) <= kInlineReadPrefetchAbove) return;
    std::size_t budget = kInlineReadPrefetchLines;
    for (int q = first; q < last && budget > 0; ++q) {
        if (q == skip) continue;
        const std::size_t lines = std::min(budget, lines_spanned(r.offset, r.bytes));
        prefetch_lines(inline_of(ctx, q).data + r.offset, r.bytes, lines);
        budget -= lines;
    }
}

// Whether every member of [first, last) but `skip` wrote `bytes` (what
// this rank computed); only after inline_all_ready. A mismatch is an
// erroneous program: ranks passed different counts.
inline bool inline_sizes_match(const CollCtx& ctx, int first, int last, int skip, std::size_t bytes) noexcept {
    for (int r = first; r < last; ++r)
        if (r != skip && inline_of(ctx, r).bytes != bytes) return false;
    return true;
}

// Copies `have` bytes of packed data into (buf, count, type), which holds
// `room` bytes: what fits, and MPI_ERR_TRUNCATE if not everything did.
inline int unpack_inline(const unsigned char* data, std::size_t have, void* buf, std::size_t room,
                         const Datatype& type) noexcept {
    const std::size_t n = have < room ? have : room;
    // Contiguous (nearly every call): the copy without unpack_bytes' call.
    if (type.contiguous) std::memcpy(buf, data, n);
    else unpack_bytes(data, n, buf, type);
    return have > room ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

// Peer q's inline data, one block of the agreed message size: whether it is
// there, and its copy into q's block of this rank's receive buffer (Gather's
// root, Allgather).
inline bool inline_block_ready(const CollCtx& ctx, int q) {
    const std::size_t block = message_bytes(ctx);
    return inline_ready(ctx, q, {block, 0, block}, inline_prefetch_share(ctx.size() - 1));
}
inline int inline_block_take(const CollCtx& ctx, int q) {
    const DstBlock to = recv_block(ctx.call(), q);
    const InlineData in = inline_of(ctx, q);
    return unpack_inline(in.data, in.bytes, to.buf, block_bytes(to), *to.type);
}

// The wait of an inline algorithm whose rank copies every peer's block out
// (Gather's root, Allgather, Alltoall), after it has copied its own (`own`,
// that copy's result): Ready(ctx, q) says whether peer q's block is there,
// Take(ctx, q) copies it and returns MPI_SUCCESS or an error class. From
// three ranks on a sweep (PeerSweep) that takes each block as it comes;
// at two ranks, one peer, a frameless task (CollTask::polling).
template <auto Ready, auto Take>
int take_from_only_peer(CollCtx& ctx) {
    const int peer = 1 - ctx.rank();
    return Ready(ctx, peer) ? Take(ctx, peer) : CollTask::kPending;
}
template <auto Ready, auto Take>
CollTask sweep_peers(CollCtx& ctx, int rc) {
    auto keep_error = [&rc](int e) {
        if (rc == MPI_SUCCESS) rc = e;
    };
    PeerSweep peers(ctx.rank(), ctx.size());
    CO_WAIT_UNTIL(peers.sweep([&](int q) { return Ready(ctx, q); }, [&](int q) { keep_error(Take(ctx, q)); }));
    co_return rc;
}
template <auto Ready, auto Take>
CollTask take_from_peers(CollCtx& ctx, int own) {
    if (ctx.size() == 2 && own == MPI_SUCCESS) return CollTask::polling<take_from_only_peer<Ready, Take>>(ctx);
    return sweep_peers<Ready, Take>(ctx, own);
}

// Whether a rank's inline data for this call, `bytes` (what every rank
// computes alike from the agreed message size), fits the inline area;
// intracommunicators only.
inline bool inline_fits(const CollCtx& ctx, std::size_t bytes, const char** why) noexcept {
    if (ctx.comm().is_inter()) {
        *why = "the communicator is an intercommunicator";
        return false;
    }
    if (bytes <= ctx.inline_bytes()) return true;
    *why = "the data is larger than the inline area (per rank: 16 KiB at 2 ranks, 8 KiB at 4, 4 KiB from 8 ranks on)";
    return false;
}

// The same for a reduction whose vector (the agreed message) travels
// inline: the op is applied to the packed bytes as laid-out elements, so
// the datatype (one for all ranks, MPI 3.1 5.9.1) must be contiguous.
inline bool inline_reduction_applies(const CollCtx& ctx, const char** why) noexcept {
    if (!inline_fits(ctx, message_bytes(ctx), why)) return false;
    if (ctx.call().sendtype && ctx.call().sendtype->contiguous) return true;
    *why = "the datatype is not contiguous";
    return false;
}

// The inline algorithms' cost terms (Li-Hoefler parameters, our formulas;
// docs/model.md). Predictions are the mean over ranks of each rank's time in
// the call (what benchmarks report): a rank that only writes leaves after
// its copy-in (inline_copy_in_cost), and its readers wait for that copy-in
// too, since the flag is published after it.
//
// What a reader does with each line it pulls: fold it into its result (b,
// B) or copy it out (c, C).
enum class LineOp { reduce, copy };

// Per line, a reader pulling lines over `link` while `t` readers do so at
// once (shared_line_cost, cost.hpp).
inline double concurrent_line_cost(const CostQuery& q, const LinkCost& link, LineOp op, int t,
                                   std::size_t ws) noexcept {
    return op == LineOp::copy ? shared_copy_line_cost(q, link, t, ws) : shared_line_cost(q, link, t, ws);
}
// One reader's time in a synchronized step in which `t` readers (at once)
// each pull m_near lines from peers in their cache domain and m_far lines
// from peers across domains, having waited for the flags of `writers`
// ranks: the flag handoff (a, across domains when there are several),
// HMPI's costs of the wait beyond it, and the lines. A wait for several
// writers' flags at once is the flat barrier's wait, all_poll_excess(w + 1);
// p - 1 readers of one writer take a step of all p ranks, busy_excess(p)
// (cost.hpp; docs/model.md, "Flag waits of the inline, hierarchical and
// reduce_bcast Allreduce": without them inline Allreduce at 16 ranks was
// predicted 0.38 us against 1.32 measured).
// Data past the flag's line that the wait did not prefetch (a writer's
// share of more than inline_prefetch_share(writers) lines) costs one more
// round trip after the flag: inline_read_first (format 14; 2 ranks on the
// EPYC guest, stop 40's run, every inline algorithm 0.02-0.24 us slower
// at 1 KiB than at 512 B; docs/model.md, "Inline reads past the
// prefetched lines"). Where every rank reads at once (t >= 2) the reads'
// first lines pay slice_near_excess, as the slice folds' do (format 19;
// docs/model.md, "Slice folds in the L2s").
inline double inline_read_cost(const CostQuery& q, LineOp op, double m_near, double m_far, int t,
                               std::size_t ws, int writers) noexcept {
    const double a = q.s() > 1 ? q.params.beta.a : q.params.alpha.a;
    const double wait = writers > 1 ? all_poll_excess(q, writers + 1) : busy_excess(q, q.p());
    const double per_writer = writers > 0 ? (m_near + m_far) / writers : 0.0;
    const bool unprefetched = q.bytes > kInlinePayloadBytes &&
                              std::ceil(per_writer) > static_cast<double>(inline_prefetch_share(writers));
    return a + wait + (unprefetched ? q.params.inline_read_first : 0.0) +
           (t >= 2 ? slice_near_excess(q, m_near + m_far) : 0.0) +
           m_near * concurrent_line_cost(q, q.params.alpha, op, t, ws) +
           m_far * concurrent_line_cost(q, q.params.beta, op, t, ws);
}
// A writer's copy-in of `bytes` into its inline area. The previous call's
// readers still hold those lines, so each store first invalidates their
// copies: rewrite_line per line (params.hpp). Data that fits the flag's own
// line costs nothing more than the flag handoff (in a). 16 ranks on a
// 16-core Xeon: Bcast's inline root pays about 17 ns per line this way, 4x
// what a reader pays to pull a line (docs/results/collectives-np16).
inline double inline_copy_in_cost(const CostQuery& q, std::size_t bytes) noexcept {
    return bytes <= kInlinePayloadBytes ? 0.0 : rewrite_cost(q, CostQuery::lines(bytes));
}
// The same copy-in where every rank makes its own at once and each of its
// lines was read by `sharers` others since: with two or more sharers a line
// the invalidations of all the writers queue, so a line costs
// rewrite_all_line per sharer where that is dearer than one writer's
// rewrite_line (params.hpp; 16 ranks on a 16-core Xeon, stop 48: inline
// Allgather took 2-3x its prediction from 1 KiB on, and 16 threads
// rewriting lines 15 others read paid 103-114 ns a line). With one sharer a
// store invalidates one copy, as rewrite_line's do: 16 threads each
// rewriting lines one other read paid 7.7-10 ns a line from 1 KiB on there,
// one writer 9.4 (bench/pull_patterns' alltoall writes): Alltoall,
// Reduce_scatter, Reduce and Gather, one reader a line, charge
// inline_copy_in_cost.
inline double inline_copy_in_all_cost(const CostQuery& q, std::size_t bytes, double sharers) noexcept {
    const double one_writer = inline_copy_in_cost(q, bytes);
    if (bytes <= kInlinePayloadBytes || q.params.rewrite_all_line <= 0 || sharers < 2) return one_writer;
    return std::max(one_writer, CostQuery::lines(bytes) * q.params.rewrite_all_line * sharers);
}
// The mean over the p ranks when `readers` of them take `read` and the
// others leave once they have written.
inline double mean_over_ranks(const CostQuery& q, int readers, double read) noexcept {
    return q.p() > 0 ? read * readers / q.p() : 0.0;
}

}  // namespace hmpi::coll
