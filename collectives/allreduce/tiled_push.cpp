// Tiled allreduce with pushed tiles: Li, Hoefler, Hu, Snir (2014), Section
// 2.4 ("tiled-reduce-broadcast", Fig. 9), with the broadcast of each tile
// done by the rank that reduced it. The vector is cut into p slices at
// cache-line granularity (no two ranks write one line); rank k folds slice
// k of every rank's input into slice k of its own receive buffer, a strip
// of strip_bytes (knobs.hpp) at a time, and stores each finished strip,
// still in its cache, into slice k of every other rank's receive buffer
// (non-temporal stores past the cache, YHCCL Algorithm 1). Every rank
// waits for every other's "done" before returning: others write into its
// receive buffer and read its input.
//
// Past the cache (non-temporal stores) the last fold of each strip stores
// its result into all p receive buffers at once, this rank's included
// (reduce_data3_to_all: one streaming kernel, the loads of the inputs
// overlapping the stores), instead of folding into this rank's receive
// buffer and streaming copies of the strip out of it: that fetched each
// line of its own receive buffer before writing it and stopped the loads
// while each copy's stores drained. 2 ranks on the EPYC guest, 16 MiB,
// alternating runs: 778-816 us against 891-1020 (stop 44,
// docs/performance-collectives.md). With more than two inputs the folds
// before the last go into a scratch strip that stays in cache. A user op,
// a non-commutative one, a derived type or MPI_IN_PLACE keeps the fold
// and copies.
//
// Why: each byte of every input is read once and each byte of every result
// written once, by one rank, 2 p m bytes of data access in all and 2 m per
// rank: the least an allreduce moves (../shared/design/collectives-
// techniques.md, "T >= 2pm / memory bandwidth"). tiled's q = 1 form copies
// each input first and broadcasts from one rank; movement_avoiding (YHCCL
// 3.3) folds each rank's own input into shared slices and then copies them
// out: per rank, for p = 2, 2 m read and 1.5 m written. Those extra
// accesses are what keep large vectors from the bound (2 ranks on the
// EPYC guest, 16 MiB: docs/performance-collectives.md, stop 35).
//
// Cost (our formula; the reduce-scatter's, slice_fold_cost, cost.hpp, plus
// the pushes): two waits of every rank, then per line of a rank's slice of
// m/p lines the fold chain of the p inputs (the first into a third buffer):
//   T = 2 (a + Y(p)) + (max(r, R_slices p) + (p-2) max(b, B p)) m/p
//     + peer_args (p - 1) + D(p - 1) + X (p-1) m/p for a non-commutative op
//       (fold_sweep_excess)
//     + (p - 1) m/p W, W = push_held_line in the L2, push_line past it
//       within the cache, 64 B / nt_copy_bandwidth beyond
// (the pushes: stores into lines the rank wrote in the previous call and
// holds, below at allreduce_tiled_push_cost); a vector of one line, one
// slice: - (a + Y(p)) / p, its one rank's closing wait. Beyond the cache
// with a commutative op, where the profile measured it (format 15):
//   T = 2 (a + Y(p)) + m fold_stream_line + peer_args (p - 1) + D(p - 1)
// (D: the peers' first data lines, peer_args at 2 ranks, 0 where the fold
// sweeps them; peer_data_sweep_cost, cost.hpp).
//
// Any op: a non-commutative one folds each slice in rank order
// (reduce_staggered). MPI_IN_PLACE: slice k of every receive buffer (an
// input) is read and written by rank k alone, each strip read before it is
// overwritten.
//
// Flags: flag 1 step 1 = "my slice is in every receive buffer and I read no
// input any more"; every rank waits for all of them before returning.
#include <algorithm>
#include <cmath>
#include <vector>

#include "collectives/allreduce/allreduce.hpp"
#include "collectives/allreduce/tiles.hpp"
#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduction.hpp"

namespace hmpi::coll {

namespace {

// Every input and every receive buffer.
std::size_t push_working_set(std::size_t bytes, int p) noexcept { return 2 * static_cast<std::size_t>(p) * bytes; }

// Whether the slice can be folded with its result streamed into every
// receive buffer at once (reduce_data3_to_all): a commutative predefined
// op, not in place, every receive buffer (this rank's among them) of a
// predefined type (the kernel lays every output out as this rank's type).
// A user op keeps the fold and copies below.
bool streams_to_all(const CollCtx& ctx) {
    const CollCall& me = ctx.call();
    if (me.in_place || !me.op->commutative || me.op->kind == OpKind::user) return false;
    for (int r = 0; r < ctx.size(); ++r)
        if (!ctx.args_of(r).recvtype->predefined) return false;
    return true;
}

// Slice [lo, hi) of every input folded, a strip at a time, in the order
// reduce_staggered takes (from this rank's input on), the last fold
// storing its result into every receive buffer at once, past the caches.
// With more than two inputs the folds before the last go into a scratch
// strip that stays in cache. Same operations in the same order as the
// fold-then-copy path, so the same bits.
void fold_and_stream(const CollCtx& ctx, std::int64_t lo, std::int64_t hi, std::int64_t strip) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), rank = ctx.rank();
    const Datatype& type = *me.recvtype;
    const Op& op = *me.op;
    TypedScratch scratch;
    if (p > 2) scratch = TypedScratch(strip, type);
    std::vector<void*> outs(static_cast<std::size_t>(p));
    // Input k of the fold: rank + k's (reduce_staggered's order from this rank).
    const auto input = [&](int k, std::int64_t a) { return at(input_of(ctx.args_of((rank + k) % p)), a); };
    for (std::int64_t a = lo; a < hi; a += strip) {
        const std::int64_t n = std::min(strip, hi - a);
        for (int r = 0; r < p; ++r) outs[r] = element_at(ctx.args_of(r).recvbuf, a, *ctx.args_of(r).recvtype);
        // The folds before the last: x_rank op x_rank+1, then x_rank+k op that.
        const void *left = input(0, a).buf, *right = input(1, a).buf;
        if (p > 2) {
            reduce_staggered_swept(
                op, type, n, 0, p - 1, [&](int k) { return input(k, a); }, scratch.data(), type, -1, 0);
            left = input(p - 1, a).buf;
            right = scratch.data();
        }
        if (!reduce_data3_to_all(op, left, right, outs.data(), p, n, type)) {
            reduce_data3(op, left, right, outs[rank], n, type);
            for (int i = 1; i < p; ++i)
                copy_data(outs[rank], n, type, outs[(rank + i) % p], n, type, StoreKind::non_temporal);
        }
    }
}

}  // namespace

CollTask allreduce_tiled_push(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), rank = ctx.rank();
    const std::int64_t count = me.sendcount;
    const Datatype& type = *me.recvtype;
    const std::size_t bytes = data_bytes(count, type);
    const StoreKind out_kind = result_store_kind_for(push_working_set(bytes, p), ctx.topology(), true, me.in_place);
    const std::int64_t granule = tile_granule(type);
    const std::int64_t strip = strip_elements(type, granule);
    int rc = MPI_SUCCESS;
    CO_WAIT_UNTIL(ctx.all_reached(0, 1));
    const std::int64_t lo = tile_begin(count, rank, p, granule);
    const std::int64_t hi = tile_begin(count, rank + 1, p, granule);
    if (out_kind == StoreKind::non_temporal && streams_to_all(ctx)) {
        fold_and_stream(ctx, lo, hi, strip);
        ctx.publish(1, 1);
        CO_WAIT_UNTIL(ctx.all_reached(1, 1));
        co_return MPI_SUCCESS;
    }
    for (std::int64_t a = lo; a < hi; a += strip) {
        const std::int64_t n = std::min(strip, hi - a);
        void* result = element_at(me.recvbuf, a, type);
        if (int e = reduce_staggered_swept(
                *me.op, type, n, 0, p, [&](int r) { return at(input_of(ctx.args_of(r)), a); }, result, type,
                me.in_place ? rank : -1, rank))
            rc = e;
        for (int i = 1; i < p; ++i) {
            const CollCall& to = ctx.args_of((rank + i) % p);
            if (int e = copy_data(result, n, type, element_at(to.recvbuf, a, *to.recvtype), n, *to.recvtype,
                                  out_kind))
                rc = e;
        }
    }
    ctx.publish(1, 1);
    CO_WAIT_UNTIL(ctx.all_reached(1, 1));
    co_return rc;
}

double allreduce_tiled_push_cost(const CostQuery& q) {
    const int p = q.p();
    if (p <= 1) return q.params.alpha.a + copy_line_cost(q, q.params.alpha, q.bytes) * q.m();
    const std::size_t ws = push_working_set(q.bytes, p);
    const double slice = std::ceil(q.m() / p);
    // The pushes store lines of the other receive buffers that this rank
    // wrote in the previous call (its slice of each) and that no rank reads
    // within the call. While the rank still holds them they are stores
    // issued from L1 while the fold streams its inputs in, and what they
    // add to the fold depends on the core: push_held_line as measured
    // (format 20; 0 where not measured: nothing charged). 2 ranks on the
    // EPYC guest, slow state: 3.8 ns per slice line from 64 to 256 KiB,
    // tiled Reduce's fold alone 3.9 (stop 35); on the Intel guest 1.0-1.9
    // ns more a pushed line from 32 to 512 KiB (s53np2d). It holds them
    // while the 2 m bytes a call touches (its slice of every input, of its
    // own and of every other receive buffer) fit its L2; past that each
    // store fetches its line first, as push Alltoall's stores into lines a
    // neighbour holds do: push_line a line (2 ranks, the runs of stops
    // 35-38: 0.3-1.2 ns per slice line more than the fold from 512 KiB to
    // 4 MiB, push_line 0.68-0.80; docs/model.md, "Tiled's tile copy and
    // tiled_push's pushes past the L2"), push_line_beyond where the profile
    // has it: those stores are past the L2, as push Alltoall's are when it
    // charges that (all_push_step_cost). 2 ranks on the EPYC guest, fast
    // state (stop 61): 512 KiB-4 MiB 0.76-0.88 of the measured time with
    // push_line, 0.79-0.92 with push_line_beyond; every recorded run
    // (replay.sh) 4760 of 8998 tree and tiled sizes within 15%, 4717
    // before, no choice moved.
    // An application that reads its results between calls makes each such
    // store take its line back at every size, as it does to every
    // algorithm's receive buffers; the model charges that to none. Beyond
    // the cache they are non-temporal stores (store_kind_for): one line per
    // 64 / nt_copy_bandwidth, the stream of one thread's non-temporal copy
    // (c_mem without that measurement). From nt_copy_from a rank on they
    // are non-temporal inside the cache too (result_store_kind_for), which
    // this does not price yet (docs/model.md, "Non-temporal stores inside
    // the cache").
    const bool held = q.topo.l2_bytes == 0 || 2 * q.bytes < q.topo.l2_bytes;
    double push_line = held ? q.params.push_held_line
                            : (q.params.push_line_beyond > 0 ? q.params.push_line_beyond : q.params.push_line);
    if (q.spills(ws))
        push_line = q.params.nt_copy_bandwidth > 0 ? static_cast<double>(kCacheLine) / q.params.nt_copy_bandwidth
                                                   : copy_line_cost(q, q.params.alpha, ws);
    // A vector of one line has one slice (tiles are whole lines): its rank
    // folds and pushes while the others, with nothing to do, publish at
    // once, so its closing wait finds every flag already set and it leaves
    // a wait early; the others still wait for it. The mean over ranks is a
    // closing wait less by 1/p (2 ranks on the EPYC guest, stop 41, against
    // profiles of the same state: 8-64 B 11-28% high without it, 128 B on
    // within 15%; docs/model.md, "tiled_push's one-line vectors").
    const double lone_slice = q.bytes <= kCacheLine ? slice_fold_wait_cost(q) / p : 0.0;
    // Past the cache with a commutative op the fold and the pushes are one
    // streaming pass (fold_and_stream): m lines read and m stored per rank
    // whatever p, measured as a whole (fold_stream_line, params.hpp),
    // between the same two waits and sweep of the peers' arguments.
    if (q.spills(ws) && q.commutative && q.params.fold_stream_line > 0)
        return 2 * slice_fold_wait_cost(q) + q.params.fold_stream_line * q.m() + peer_args_sweep_cost(q, p - 1) +
               peer_data_sweep_cost(q, p - 1) - lone_slice;
    return slice_fold_cost(q, true) + push_line * (p - 1) * slice - lone_slice;
}

}  // namespace hmpi::coll
