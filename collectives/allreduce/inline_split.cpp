// Inline split allreduce: a reduce-scatter and an allgather of inline
// parts, each part travelling in a block whose first line holds a stamp
// and the part's first 48 bytes (as a flag's payload carries tiny data).
// Owner j folds elements [j e, (j+1) e) of the vector, e = max(ceil(n/p),
// 48 bytes' worth), o = ceil(n/e) owners. Every rank copies its elements of
// each other owner's part into its mailbox block for that owner, in its
// stamped area (CollCtx::stamped_area), stamping each last; owner j waits
// for the p - 1 mailboxes of its part, folds the p inputs in rank order
// into its result block, stamped last; every rank then waits for the other
// owners' result blocks and copies them out.
//
// Why: inline (inline.cpp) has every rank read all p - 1 vectors, each line
// of them by p - 1 readers at once, and, above 48 bytes, behind a flag;
// at 16 ranks on a 16-core Xeon it takes 1.8 us at 64 B and 3.1-3.5 us at
// 512 B against 1.0 us at 32 B (docs/results/collectives-np16, stop 48).
// Here an owner reads L lines from each of the p - 1 others, each read by
// it alone, and every rank L lines from each owner, the first of them the
// line whose stamp it polls: two synchronized steps, and up to 48 bytes a
// part no line behind a flag. At 2 ranks the extra step makes it slower
// than inline (docs/model.md, "inline_split: data in the stamp's line").
//
// Source: Li, Hoefler, Hu, Snir (2014), Section 2.4, tiled-reduce-broadcast
// (Fig. 9) with line-sized tiles, the broadcast pulled by every rank; the
// data in the flag's line as ../shared/design/collectives-techniques.md
// describes for tiny messages ("Tiny messages inline").
//
// Cost (our formula, Li-Hoefler parameters; allreduce_inline_split_cost):
//   T = rewrite(L (o - o/p)) + [a + Y(p) + R1 + (p-1) L max(b, B o)]
//     + rewrite(L - 1) + [a + Y(o + 1) + R1 + (o-1) L max(c, C p)]
// (L lines a block, head included; Y(w) = all_poll_excess(w), cost.hpp: a
// wait for w ranks' lines at once; rewrite(n) = rewrite_cost: a writer's
// stores into n lines that the slot's previous call read, one reader a
// mailbox line; the result block's head line is the step's handoff, as a
// flag's payload is; R1 = inline_read_first where L > 1: the lines behind
// the head's come one round trip after it.)
//
// Any op: each part is folded once, by its owner, in rank order, so every
// rank gets the same bits and non-commutative ops keep MPI's order.
// MPI_IN_PLACE: a rank's input is its receive buffer, copied into its
// mailboxes before anything is written there, and read by its own fold
// before the results are copied in. Contiguous types; a share must fit one
// of the area's p + 1 blocks (inline_split_applies).
//
// Lifetime: a rank returns once it has read every owner's result, and an
// owner publishes its result only after reading every mailbox of its part,
// so nobody reads a rank's mailboxes after it returns; its result block is
// read until the members release the slot, as the inline algorithms' data
// is (framework/inline.hpp).
#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>

#include "collectives/allreduce/allreduce.hpp"
#include "collectives/framework/data.hpp"
#include "collectives/framework/inline.hpp"
#include "collectives/reduce/reduction.hpp"

namespace hmpi::coll {

namespace {

// The head of a block: the stamp, stored last (release), and the writer's
// whole vector in bytes (a reader's check that the ranks agree); the data
// follows it, so up to 48 bytes share the stamp's line.
struct BlockHead {
    std::uint64_t stamp;
    std::uint64_t vector_bytes;
};
constexpr std::size_t kHeadBytes = sizeof(BlockHead);

// The steps whose stamps the blocks carry.
constexpr unsigned kMailboxStep = 1, kResultStep = 2;

// How the vector is dealt out; every rank computes it alike from the count,
// the element size, p and the area's size. The area holds p + 1 blocks of
// equal size, mailbox j for owner j and then the result block: the heads
// stay where they are for every call on the communicator, so a stamp is
// only ever read where stamps are written (a head moved with the vector's
// size would find an earlier call's data there). Owner j folds elements
// [j e, min(n, (j+1) e)), o = ceil(n / e) owners.
struct SplitGeometry {
    std::int64_t count = 0;      // n
    std::int64_t per_owner = 0;  // e
    int owners = 0;              // o
    std::size_t block_bytes = 0;
    std::size_t used_lines = 0;  // lines of a block the data reaches (head included)

    std::int64_t first(int owner) const noexcept { return owner * per_owner; }
    std::int64_t elements(int owner) const noexcept { return std::min(count, first(owner) + per_owner) - first(owner); }
    bool fits() const noexcept { return owners > 0; }
};

SplitGeometry split_geometry(std::int64_t count, std::size_t element_bytes, int p, std::size_t area_bytes) noexcept {
    SplitGeometry g;
    if (count <= 0 || element_bytes == 0 || p <= 0) return g;
    g.block_bytes = area_bytes / kCacheLine / (static_cast<std::size_t>(p) + 1) * kCacheLine;
    g.count = count;
    // An even share of the p ranks, but at least the head line's 48 bytes:
    // an owner's fold costs its p - 1 lines whatever they hold, and every
    // owner more is a block more for every rank to write and to read.
    const auto head_line = static_cast<std::int64_t>((kCacheLine - kHeadBytes) / element_bytes);
    g.per_owner = std::max<std::int64_t>({(count + p - 1) / p, head_line, 1});
    const std::size_t data = static_cast<std::size_t>(g.per_owner) * element_bytes;
    if (g.block_bytes < kHeadBytes || data > g.block_bytes - kHeadBytes) return g;  // o = 0: does not fit
    g.owners = static_cast<int>((count + g.per_owner - 1) / g.per_owner);
    g.used_lines = (kHeadBytes + data + kCacheLine - 1) / kCacheLine;
    return g;
}

unsigned char* block_at(unsigned char* area, const SplitGeometry& g, int index) noexcept {
    return area + static_cast<std::size_t>(index) * g.block_bytes;
}
const unsigned char* block_at(const unsigned char* area, const SplitGeometry& g, int index) noexcept {
    return area + static_cast<std::size_t>(index) * g.block_bytes;
}
BlockHead* head_of(unsigned char* block) noexcept { return reinterpret_cast<BlockHead*>(block); }
const BlockHead* head_of(const unsigned char* block) noexcept { return reinterpret_cast<const BlockHead*>(block); }
unsigned char* data_of(unsigned char* block) noexcept { return block + kHeadBytes; }
const unsigned char* data_of(const unsigned char* block) noexcept { return block + kHeadBytes; }
void stamp_block(unsigned char* block, std::uint64_t vector_bytes, std::uint64_t value) noexcept {
    head_of(block)->vector_bytes = vector_bytes;
    std::atomic_ref<std::uint64_t>(head_of(block)->stamp).store(value, std::memory_order_release);
}

// Whether member `r`'s block `index` carries `value`: its head's stamp,
// acquired, covers the block's data, stored before it. A member that has
// not made its area yet has written nothing.
bool block_stamped(const CollCtx& ctx, const SplitGeometry& g, int r, int index, std::uint64_t value) noexcept {
    const unsigned char* area = ctx.stamped_area_of(r);
    if (!area) return false;
    auto& stamp = const_cast<std::uint64_t&>(head_of(block_at(area, g, index))->stamp);
    return std::atomic_ref<std::uint64_t>(stamp).load(std::memory_order_acquire) >= value;
}

// Whether block `index` of every member in [first, last) but this rank
// carries `value`; every block polled (as all_reached_in polls every flag:
// one poll pulls every changed line at once).
bool blocks_stamped(const CollCtx& ctx, const SplitGeometry& g, int first, int last, int index,
                    std::uint64_t value) noexcept {
    int missing = 0;
    for (int r = first; r < last; ++r)
        if (r != ctx.rank()) missing += !block_stamped(ctx, g, r, index, value);
    return missing == 0;
}

}  // namespace

bool inline_split_applies(const CollCtx& ctx, const char** why) {
    if (!inline_reduction_applies(ctx, why)) return false;
    const CollCall& me = ctx.call();
    const SplitGeometry g = split_geometry(me.sendcount, me.sendtype->size, ctx.size(), ctx.inline_bytes());
    if (!g.fits()) {
        *why = "a rank's share of the vector does not fit a block of the inline area";
        return false;
    }
    return true;
}

CollTask allreduce_inline_split(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const int p = ctx.size(), rank = ctx.rank();
    const Datatype& type = *me.sendtype;
    const std::uint64_t vector_bytes = data_bytes(me.sendcount, type);
    const SplitGeometry g = split_geometry(me.sendcount, type.size, p, ctx.inline_bytes());
    const std::uint64_t mailbox_stamp = stamp(ctx.seq(), kMailboxStep);
    const std::uint64_t result_stamp = stamp(ctx.seq(), kResultStep);
    const Operand input = input_of(me);
    unsigned char* area = ctx.stamped_area();
    const int result_block = p;  // after the p mailboxes

    // Step 1: this rank's part of every other owner's elements.
    for (int j = 0; j < g.owners; ++j) {
        if (j == rank) continue;
        unsigned char* block = block_at(area, g, j);
        std::memcpy(data_of(block), element_at(input.buf, g.first(j), type), data_bytes(g.elements(j), type));
        stamp_block(block, vector_bytes, mailbox_stamp);
    }
    ctx.wake_others();

    int rc = MPI_SUCCESS;
    // Step 2 (owners): the p inputs of this rank's elements folded in rank
    // order into its result block.
    if (rank < g.owners) {
        CO_WAIT_UNTIL(blocks_stamped(ctx, g, 0, p, rank, mailbox_stamp));
        auto x = [&](int r) -> Operand {
            if (r == rank) return at(input, g.first(rank));
            const unsigned char* block = block_at(ctx.stamped_area_of(r), g, rank);
            if (head_of(block)->vector_bytes != vector_bytes) rc = MPI_ERR_TRUNCATE;
            return Operand{data_of(block), &type};
        };
        unsigned char* out = block_at(area, g, result_block);
        if (int e = reduce_in_order(*me.op, type, g.elements(rank), 0, p, x, data_of(out), type, -1)) rc = e;
        stamp_block(out, vector_bytes, result_stamp);
        ctx.wake_others();
    }

    // Step 3: every owner's part into the receive buffer.
    CO_WAIT_UNTIL(blocks_stamped(ctx, g, 0, g.owners, result_block, result_stamp));
    for (int j = 0; j < g.owners; ++j) {
        const unsigned char* block = block_at(j == rank ? area : ctx.stamped_area_of(j), g, result_block);
        if (head_of(block)->vector_bytes != vector_bytes) rc = MPI_ERR_TRUNCATE;
        const std::int64_t k = g.elements(j);
        void* to = element_at(me.recvbuf, g.first(j), *me.recvtype);
        if (int e = copy_data(data_of(block), k, type, to, k, *me.recvtype)) rc = e;
    }
    co_return rc;
}

// T = copy-in + owner step + result block + copy-out (header). The mean
// over ranks: every rank waits for the owners' step.
double allreduce_inline_split_cost(const CostQuery& q) {
    const int p = q.p();
    if (p <= 1 || q.bytes == 0) return std::numeric_limits<double>::infinity();
    // The model knows the agreed bytes, not the type: 8-byte elements.
    const SplitGeometry g = split_geometry(static_cast<std::int64_t>((q.bytes + 7) / 8), 8, p, inline_capacity(p));
    if (!g.fits()) return std::numeric_limits<double>::infinity();
    const int o = g.owners;
    const double L = static_cast<double>(g.used_lines);
    const double a = q.s() > 1 ? q.params.beta.a : q.params.alpha.a;
    const std::size_t ws = static_cast<std::size_t>(p) * (static_cast<std::size_t>(o) + 1) * g.used_lines * kCacheLine;
    // A block's lines after its head's come after the stamp is seen: one
    // more round trip (inline_read_first), the lines in parallel.
    const double behind = L > 1 ? q.params.inline_read_first : 0.0;
    // Each rank stores L lines for each of the o - 1 other owners (o for a
    // non-owner), each read by its owner alone in the slot's previous call.
    const double copy_in = rewrite_cost(q, L * (o - static_cast<double>(o) / p));
    // An owner folds L lines from each of the p - 1 others (q - 1 near,
    // p - q far), o owners at once.
    const double near = (q.q() - 1) * L, far = (p - q.q()) * L;
    const double fold = a + all_poll_excess(q, p) + behind + near * shared_line_cost(q, q.params.alpha, o, ws) +
                        far * shared_line_cost(q, q.params.beta, o, ws);
    // The result block's lines but the head's (a flag's handoff, in a).
    const double result = rewrite_cost(q, L - 1);
    // Every rank copies the other owners' blocks, p readers at once.
    const double wait_results = o > 1 ? all_poll_excess(q, o + 1) : busy_excess(q, p);
    const LinkCost& link = q.s() > 1 ? q.params.beta : q.params.alpha;
    const double copy_out = a + wait_results + behind + (o - 1) * L * shared_copy_line_cost(q, link, p, ws);
    return copy_in + fold + result + copy_out;
}

}  // namespace hmpi::coll
