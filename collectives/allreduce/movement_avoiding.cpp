// Movement-avoiding allreduce (YHCCL, Section 3.3 and Algorithm 1): the
// reduce-scatter stage visits the slices in a staggered order so that each
// rank only ever reads its OWN input (cache-warm, it was just written by the
// application) and folds it into a shared result; then every rank copies
// the finished slices out, with non-temporal stores when the collective's
// working set exceeds the cache (store_kind_for, YHCCL Algorithm 1).
//
// The vector is processed in rounds of ~knobs::kMaBlockBytes (strip mining),
// each cut into p slices. In step t of a round rank r visits slice
// j = (r + t) mod p: at t = 0 it copies its input slice j into the result
// (j == r, so the first visitor is the slice's home rank), later it folds
// its own input slice into the result. Slice j's result lives in slice j of
// rank j's receive buffer (no scratch, no allocation). The visitors of a
// slice come one after another: rank r starts step t once rank r + 1 has
// finished step t - 1 (which was on the same slice), a single-writer step
// counter per rank (flag 1). Slice k of a round is final once rank k + 1
// has finished the round's last step; every rank then copies it out.
//
// The visiting order of slice j is j, j - 1, ..., j + 1 (mod p): a rotation
// of rank order, so only commutative ops may use this (applicability).
//
// Data access volume (YHCCL): s(5p - 1) for a vector of s bytes: p inputs
// read, p - 1 read-modify-writes of the result, p (p - 1) / p = p - 1
// slices read and written in the copy-out.
// Cost: with m lines, R rounds, all p ranks moving at once (congested B,
// and C for the copy-out, which copies lines: params.hpp):
//   R * p * busy_a(p)                     (the staggered steps: chains of p handoffs
//                                           with every rank stepping; busy_a = a_alpha +
//                                           step_overhead + busy_step (p - 2), params.hpp)
//   + c_alpha * m / p                     (the first visit: a rank's own slice copied
//                                           into the result, within its cache)
//   + max(b_alpha, B_alpha p) (p - 1) m / p  (each rank folds m/p lines per step, p
//                                           steps at once; the slice it owns is in its
//                                           own cache)
//   + a_alpha + max(c_alpha, C_alpha p) (p - 1) m / p * nt  (copy-out; nt = copy_bw /
//                                           nt_copy_bw when the stores are non-temporal)
// on one cache domain. Across s > 1 domains of q ranks, a domain's link is
// shared by its q ranks and the link between two domains by the ranks of
// both, 2q (min p: exchange_link_threads, cost.hpp, as hmpi-calibrate's
// beta ring measures B_beta), and a rank's (p - 1) m / p lines split by
// where their slice lives:
//   max(b_alpha, B_alpha q) (q - 1) m / p + max(b_beta, B_beta 2q) (p - q) m / p
//   for the folds, and the same with c and C for the copy-out. (Eq. 1's
//   rule: t threads on a link never move a line faster than one alone; with
//   q = 1, one rank per domain as on the 2-core EPYC guest, B q alone
//   charged a line less than one thread's b. Up to stop 29 the link across
//   was charged q threads.)
// (2 ranks in two domains of the EPYC guest: movement_avoiding measured
// 1.5-2x faster than dissemination from 32 KiB to 4 MiB, which the
// one-domain form, charging both ranks' lines to one link, priced at 2x
// dissemination's; docs/performance-collectives.md, stop 19.)
//
// MPI_IN_PLACE: a rank's input is its receive buffer. Nobody but the rank
// itself reads its input; its slice r is written by others only after it
// was the slice's first visitor (a no-op copy in place), and it overwrites
// the rest of its buffer (copy-out) only after its own visits of the round.
//
// movement_avoiding_socket (YHCCL Section 3.4): the same idea per cache
// domain: first each domain's ranks reduce-scatter the whole vector among
// themselves (staggered, into slice i of the domain's member i's receive
// buffer), then rank k folds the s domains' partials of global slice k into
// a scratch, and finally everyone copies the p final slices out. Only the
// second stage crosses domains, once per byte. No strip mining (the
// domain-local slices are 1/q of the vector).
// Cost: q a_alpha + B_alpha q m                 (intra-domain stage)
//       + a_beta + B_beta s m                   (each rank reads s partials of m/p lines)
//       + a_alpha + ((q - 1) C_alpha + (p - q) C_beta) m * nt   (copy-out)
// +infinity with one domain (s == 1: it equals movement_avoiding there,
// and runs correctly when forced).
//
// Flags: flag 1 = step counter (steps 1..R p, or 1..q in the socket form);
// flag 2 step 1 = "I have copied everything out" (plain) / "my final slice
// is in my scratch and I read no partials any more" (socket); flag 3 step 1
// = "I have copied everything out" (socket). Every rank waits for all of
// the last flag before returning (the lifetime rule).
#include <algorithm>
#include <limits>

#include "collectives/allreduce/yhccl.hpp"
#include "collectives/framework/registry.hpp"
#include "collectives/allreduce/knobs_yhccl.hpp"
#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduction.hpp"

namespace hmpi::coll {

namespace {

// Rounds a vector of `bytes` is processed in on p ranks (>= 1).
int ma_rounds(std::size_t bytes, int p) noexcept {
    const std::size_t want = (bytes + knobs::kMaBlockBytes - 1) / knobs::kMaBlockBytes;
    const std::size_t cap = std::max<std::size_t>(1, knobs::kMaxFlagSteps / static_cast<unsigned>(p));
    return static_cast<int>(std::clamp<std::size_t>(want, 1, cap));
}

// The working set YHCCL Algorithm 1 compares with the cache: every rank's
// input and output.
std::size_t ma_working_set(std::size_t bytes, int p) noexcept { return 2 * static_cast<std::size_t>(p) * bytes; }

// The copy-out's per-line cost factor for the store kind it will use.
double nt_factor(const CostQuery& q, std::size_t ws) noexcept {
    const bool nt = q.spills(ws);  // store_kind_for's choice
    if (!nt || q.params.copy_bandwidth <= 0 || q.params.nt_copy_bandwidth <= 0) return 1.0;
    return q.params.copy_bandwidth / q.params.nt_copy_bandwidth;
}

// The members of this rank's cache domain (all ranks when the domain level
// does not split them).
struct Domain {
    const std::vector<int>* members = nullptr;  // null: ranks 0..size-1
    int size = 0;
    int rank_at(int i) const noexcept { return members ? (*members)[static_cast<std::size_t>(i)] : i; }
};

Domain domain_of(const CommTopology& topo, int level, int rank, int p) noexcept {
    if (level < 0 || static_cast<std::size_t>(level) >= topo.levels.size()) return {nullptr, p};
    const TopoLevel& l = topo.levels[static_cast<std::size_t>(level)];
    const auto& g = l.groups[static_cast<std::size_t>(l.group_of[static_cast<std::size_t>(rank)])].members;
    return {&g, static_cast<int>(g.size())};
}

}  // namespace

bool commutative_only(const CollCtx& ctx, const char** why) {
    if (!intra_only(ctx, why)) return false;
    if (ctx.call().op && !ctx.call().op->commutative) {
        if (why) *why = "the op is not commutative (the fold does not follow rank order)";
        return false;
    }
    if (ctx.size() > static_cast<int>(knobs::kMaxFlagSteps)) {
        if (why) *why = "more ranks than flag steps (255)";
        return false;
    }
    return true;
}

CollTask allreduce_movement_avoiding(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), rank = ctx.rank(), next = (rank + 1) % p, prev = (rank + p - 1) % p;
    const std::int64_t count = me.sendcount;
    const Datatype& type = *me.recvtype;
    const std::size_t bytes = data_bytes(count, type);
    const int rounds = ma_rounds(bytes, p);
    const StoreKind out_kind = store_kind_for(ma_working_set(bytes, p), ctx.topology(), false);
    const Operand mine = input_of(me);
    int rc = MPI_SUCCESS;
    CO_WAIT_UNTIL(ctx.all_reached(0, 1));
    for (int b = 0; b < rounds; ++b) {
        const std::int64_t b_lo = slice_begin(count, b, rounds), b_n = slice_begin(count, b + 1, rounds) - b_lo;
        const unsigned base = static_cast<unsigned>(b * p);
        for (int t = 0; t < p; ++t) {
            const int j = (rank + t) % p;
            // Rank r + 1 visited slice j in the step before.
            if (t > 0) CO_WAIT_UNTIL(ctx.reached(next, 1, base + static_cast<unsigned>(t)));
            const std::int64_t lo = b_lo + slice_begin(b_n, j, p), n = b_lo + slice_begin(b_n, j + 1, p) - lo;
            if (n > 0) {
                const CollCall& home = ctx.args_of(j);
                void* result = element_at(home.recvbuf, lo, *home.recvtype);
                const void* in = element_at(mine.buf, lo, *mine.type);
                if (t == 0) {
                    if (!me.in_place) copy_data(in, n, *mine.type, result, n, *home.recvtype);
                } else {
                    reduce_data(*me.op, in, result, n, type);
                }
            }
            // The last step of a round is awaited by everyone (copy-out);
            // the others only by the rank behind.
            const unsigned step = base + static_cast<unsigned>(t) + 1;
            if (t == p - 1) ctx.publish(1, step);
            else ctx.publish_to(1, step, prev);
        }
        // Copy the round's finished slices out, starting with the next rank's.
        for (int i = 1; i < p; ++i) {
            const int k = (rank + i) % p;
            CO_WAIT_UNTIL(ctx.reached((k + 1) % p, 1, base + static_cast<unsigned>(p)));
            const std::int64_t lo = b_lo + slice_begin(b_n, k, p), n = b_lo + slice_begin(b_n, k + 1, p) - lo;
            if (n <= 0) continue;
            const CollCall& from = ctx.args_of(k);
            if (int e = copy_data(element_at(from.recvbuf, lo, *from.recvtype), n, *from.recvtype,
                                  element_at(me.recvbuf, lo, type), n, type, out_kind))
                rc = e;
        }
    }
    ctx.publish(2, 1);
    CO_WAIT_UNTIL(ctx.all_reached(2, 1));
    co_return rc;
}

CollTask allreduce_movement_avoiding_socket(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), rank = ctx.rank();
    const std::int64_t count = me.sendcount;
    const Datatype& type = *me.recvtype;
    const std::size_t bytes = data_bytes(count, type);
    const StoreKind out_kind = store_kind_for(ma_working_set(bytes, p), ctx.topology(), false);
    const CommTopology& topo = ctx.topology();
    const int level = topo.domain_level;
    const TopoLevel* lvl = level < 0 ? nullptr : &topo.levels[static_cast<std::size_t>(level)];
    const Domain dom = domain_of(topo, level, rank, p);
    const int g = dom.size;
    int me_in_dom = 0;
    while (dom.rank_at(me_in_dom) != rank) ++me_in_dom;
    const Operand mine = input_of(me);
    int rc = MPI_SUCCESS;
    CO_WAIT_UNTIL(ctx.all_reached(0, 1));

    // Stage 1: staggered reduce-scatter within the domain; domain slice i
    // accumulates in member i's receive buffer.
    const int next = dom.rank_at((me_in_dom + 1) % g), prev = dom.rank_at((me_in_dom + g - 1) % g);
    for (int t = 0; t < g; ++t) {
        const int i = (me_in_dom + t) % g;
        if (t > 0) CO_WAIT_UNTIL(ctx.reached(next, 1, static_cast<unsigned>(t)));
        const std::int64_t lo = slice_begin(count, i, g), n = slice_begin(count, i + 1, g) - lo;
        if (n > 0) {
            const CollCall& home = ctx.args_of(dom.rank_at(i));
            void* result = element_at(home.recvbuf, lo, *home.recvtype);
            const void* in = element_at(mine.buf, lo, *mine.type);
            if (t == 0) {
                if (!me.in_place) copy_data(in, n, *mine.type, result, n, *home.recvtype);
            } else {
                reduce_data(*me.op, in, result, n, type);
            }
        }
        if (t == g - 1) ctx.publish(1, static_cast<unsigned>(g));
        else ctx.publish_to(1, static_cast<unsigned>(t) + 1, prev);
    }

    // Stage 2: global slice `rank` folded from every domain's partials.
    const std::int64_t lo = slice_begin(count, rank, p), n = slice_begin(count, rank + 1, p) - lo;
    TypedScratch result;
    if (n > 0) result = TypedScratch(n, type);
    ctx.publish_scratch(result.data());
    const std::size_t domains = lvl ? lvl->groups.size() : 1;
    bool first = true;
    for (std::size_t d0 = 0; d0 < domains && n > 0; ++d0) {
        // Start with this rank's own domain (its partials are the nearest).
        const std::size_t mine_d = lvl ? static_cast<std::size_t>(lvl->group_of[static_cast<std::size_t>(rank)]) : 0;
        const std::size_t d = (mine_d + d0) % domains;
        const Domain other = lvl ? Domain{&lvl->groups[d].members, static_cast<int>(lvl->groups[d].members.size())}
                                 : Domain{nullptr, p};
        const int og = other.size;
        for (int i = 0; i < og; ++i) CO_WAIT_UNTIL(ctx.reached(other.rank_at(i), 1, static_cast<unsigned>(og)));
        // Domain slices of `other` that overlap [lo, lo + n).
        for (int i = 0; i < og; ++i) {
            const std::int64_t a = std::max(lo, slice_begin(count, i, og));
            const std::int64_t z = std::min(lo + n, slice_begin(count, i + 1, og));
            if (z <= a) continue;
            const CollCall& home = ctx.args_of(other.rank_at(i));
            const void* partial = element_at(home.recvbuf, a, *home.recvtype);
            void* dst = element_at(result.data(), a - lo, type);
            if (first) copy_data(partial, z - a, *home.recvtype, dst, z - a, type);
            else reduce_data(*me.op, partial, dst, z - a, type);
        }
        first = false;
    }
    ctx.publish(2, 1);

    // Stage 3: copy-out, once nobody reads the partials in the receive buffers.
    CO_WAIT_UNTIL(ctx.all_reached(2, 1));
    for (int i = 0; i < p; ++i) {
        const int k = (rank + i) % p;
        const std::int64_t klo = slice_begin(count, k, p), kn = slice_begin(count, k + 1, p) - klo;
        if (kn <= 0) continue;
        if (int e = copy_data(ctx.scratch_of(k), kn, type, element_at(me.recvbuf, klo, type), kn, type, out_kind))
            rc = e;
    }
    ctx.publish(3, 1);
    CO_WAIT_UNTIL(ctx.all_reached(3, 1));
    co_return rc;
}

double allreduce_movement_avoiding_cost(const CostQuery& q) {
    if (!q.commutative) return std::numeric_limits<double>::infinity();  // commutative ops only
    const int p = q.p();
    if (p > static_cast<int>(knobs::kMaxFlagSteps)) return std::numeric_limits<double>::infinity();
    if (p <= 1) return q.params.alpha.a + copy_line_cost(q, q.params.alpha, q.bytes) * q.m();
    const std::size_t ws = ma_working_set(q.bytes, p);
    const LinkCost &al = q.params.alpha, &be = q.params.beta;
    const int rounds = ma_rounds(q.bytes, p);
    // Each rank's (p - 1) m / p moved lines, folds and copies alike: those of
    // the q - 1 slices homed in its cache domain over alpha, its domain's
    // link shared by its q ranks, the p - q others over beta, the link
    // between two domains shared by both sides' ranks (exchange_link_threads),
    // never faster per line than one thread alone. One domain: max(b, B p)
    // (p - 1) m / p and max(c, C p) (p - 1) m / p.
    const int qq = q.s() > 1 ? q.q() : p;
    const double near = static_cast<double>(qq - 1) * q.m() / p;
    const double far = static_cast<double>(p - qq) * q.m() / p;
    const int across = exchange_link_threads(p, qq);
    const double fold = shared_line_cost(q, al, qq, ws) * near + shared_line_cost(q, be, across, ws) * far;
    const double copy = shared_copy_line_cost(q, al, qq, ws) * near + shared_copy_line_cost(q, be, across, ws) * far;
    // The first visit: each rank copies its own slice of its input into the
    // result (m / p lines within its own cache), a step of every chain.
    const double first = copy_line_cost(q, al, ws) * q.m() / p;
    // A rank reaches every other rank's arguments (the slices' homes) once.
    return rounds * p * busy_a(q, al, p) + first + fold + al.a + copy * nt_factor(q, ws) + peer_args_cost(q, p - 1) +
           peer_data_cost(q, p - 1);
}

double allreduce_movement_avoiding_socket_cost(const CostQuery& q) {
    if (!q.commutative) return std::numeric_limits<double>::infinity();  // commutative ops only
    const int p = q.p(), s = q.s(), qq = q.q();
    if (s <= 1 || p > static_cast<int>(knobs::kMaxFlagSteps)) return std::numeric_limits<double>::infinity();
    const std::size_t ws = ma_working_set(q.bytes, p);
    const LinkCost &al = q.params.alpha, &be = q.params.beta;
    const double m = q.m(), Ba = congested_line_cost(q, al, ws), Bb = congested_line_cost(q, be, ws);
    const double Ca = congested_copy_line_cost(q, al, ws), Cb = congested_copy_line_cost(q, be, ws);
    return qq * busy_a(q, al, p) + Ba * qq * m + be.a + Bb * s * m + al.a +
           ((qq - 1) * Ca + (p - qq) * Cb) * m * nt_factor(q, ws) + peer_args_sweep_cost(q, p - 1) +
           peer_data_sweep_cost(q, p - 1);
}

}  // namespace hmpi::coll
