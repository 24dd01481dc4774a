// Dissemination allreduce: Li, Hoefler, Hu, Snir (2014), Section 2.3
// (after Hensgen, Finkel, Manber's dissemination barrier): in step i every
// rank combines the partial of the rank 2^i before it with its own, so
// after log2 p steps each holds the reduction of all. Fewer steps than the
// tree, more data moved; it needs a commutative op (applicable() refuses
// others).
//
// Layout (Fig. 7): when p is a power of two and the cache domains are equal
// (q and s powers of two), the first log2 q steps stay within a domain
// (distance 2^i among its members) and the last log2 s steps go across
// (the same member of the domain 2^i away), so inter-domain traffic happens
// only in the last log2 s steps. Otherwise the ranks, ordered domain by
// domain, run the flat form; for p not a power of two (Eq. 7) the first
// 2(p - p^) of them pair up (2i, 2i+1): the odd one hands its input to the
// even one before the p^ = 2^floor(log2 p) survivors disseminate, and
// copies the result back after.
//
// Cost: Eq. 6 (p a power of two) (a_a + B_a q m) log2 q + (a_b + B_b q m)
// log2 s; Eq. 7 otherwise, (a_a + B_a q m)(ceil(log2 q) + 2) +
// (a_b + B_b q m)(ceil(log2 p) - floor(log2 q) - 1) (li_dissemination);
// plus a_a for the closing wait for the last version's reader (the
// lifetime rule), which the paper's count leaves out. A step across has
// the ranks of both domains on the link between them, so its B_b is
// taken at 2q threads (min p; exchange_link_threads, cost.hpp), as
// hmpi-calibrate measures it, where the paper writes B_b q.
//
// Buffers: version v_i (after step i) of a rank alternates between its
// receive buffer and one scratch so the last lands in the receive buffer
// (an in-place rank with an odd step count copies it there at the end);
// v_-1 is the input (or the pre-step's fold). Before a rank overwrites the
// buffer holding v_{i-2} it waits until that version's reader (step i-1)
// has finished step i-1. Vectors up to 56 bytes of a contiguous type keep
// v_i in flag payloads instead (no scratch).
//
// Flags: v_-1 ready = flag 2 step 1; v_i ready (and "I finished step i") =
// flag 1 + (i odd) at step i + 2; flag 3 step 1 = "my receive buffer holds
// the result" (survivor to its extra), and the extra acknowledges with
// flag 1 step 1. Every rank waits for all its versions' readers before
// returning (the lifetime rule).
#include <cstring>
#include <limits>

#include "collectives/allreduce/allreduce.hpp"
#include "collectives/allreduce/tree_shape.hpp"
#include "collectives/framework/data.hpp"
#include "collectives/reduce/reduction.hpp"
#include "core/op.hpp"

namespace hmpi::coll {

namespace {

enum class Store : unsigned char { input, recv, scratch };

// Where a rank keeps v_i (i = -1: before the first step), given k steps.
Store store_of(int i, bool in_place, bool has_pre, int k) {
    if (i == -1) {
        if (in_place) return Store::recv;
        if (!has_pre) return Store::input;
        return k % 2 == 0 ? Store::recv : Store::scratch;
    }
    if (in_place) return i % 2 == 0 ? Store::scratch : Store::recv;
    return (k - 1 - i) % 2 == 0 ? Store::recv : Store::scratch;
}

unsigned flag_of(int i) { return i >= 0 && i % 2 == 0 ? 1u : 2u; }
unsigned step_of(int i) { return static_cast<unsigned>(i + 2); }

// The ranks in domain order and the dissemination's shape.
struct Layout {
    const CommTopology& topo;
    int p = 1, hat = 1, extra = 0, k = 0;
    int q = 1, inner_steps = 0;  // 2D layout: domain size and steps within a domain
    bool two_d = false;

    explicit Layout(const CommTopology& t, int size) : topo(t), p(size) {
        while (hat * 2 <= p) hat *= 2;
        extra = p - hat;
        k = floor_log2(hat);
        const TopoLevel* dom = domains();
        if (extra == 0 && dom && dom->groups.size() > 1) {
            const int gq = static_cast<int>(dom->groups[0].members.size());
            bool equal = true;
            for (const LevelGroup& g : dom->groups) equal = equal && static_cast<int>(g.members.size()) == gq;
            if (equal && (gq & (gq - 1)) == 0) {
                two_d = true;
                q = gq;
                inner_steps = floor_log2(gq);
            }
        }
    }
    const TopoLevel* domains() const {
        if (topo.domain_level < 0 || topo.domain_level >= static_cast<int>(topo.levels.size())) return nullptr;
        return &topo.levels[static_cast<std::size_t>(topo.domain_level)];
    }
    // Rank at virtual position v (domain by domain) and back.
    int rank_at(int v) const {
        const TopoLevel* dom = domains();
        if (!dom) return v;
        for (const LevelGroup& g : dom->groups) {
            if (v < static_cast<int>(g.members.size())) return g.members[static_cast<std::size_t>(v)];
            v -= static_cast<int>(g.members.size());
        }
        return -1;
    }
    int position_of(int r) const {
        const TopoLevel* dom = domains();
        if (!dom) return r;
        int v = 0;
        for (const LevelGroup& g : dom->groups) {
            for (std::size_t i = 0; i < g.members.size(); ++i)
                if (g.members[i] == r) return v + static_cast<int>(i);
            v += static_cast<int>(g.members.size());
        }
        return -1;
    }
    // Survivor index w <-> virtual position.
    int survivor_position(int w) const { return w < extra ? 2 * w : w + extra; }
    int survivor_rank(int w) const { return rank_at(survivor_position(w)); }
    // Whom survivor w reads in step i, and who reads w.
    int from(int i, int w) const { return at_distance(i, w, -1); }
    int reader(int i, int w) const { return at_distance(i, w, +1); }
    int at_distance(int i, int w, int sign) const {
        if (!two_d) return (w + sign * (1 << i) + hat) % hat;
        const int s = hat / q, dom = w / q, pos = w % q;
        if (i < inner_steps) return dom * q + (pos + sign * (1 << i) + q) % q;
        return ((dom + sign * (1 << (i - inner_steps)) + s) % s) * q + pos;
    }
};

}  // namespace

CollTask allreduce_dissemination(CollCtx& ctx) {
    const CollCall& me = ctx.call();
    const Op& op = *me.op;
    const std::int64_t n = me.sendcount;
    const Datatype& type = *me.sendtype;
    const Layout lay(ctx.topology(), ctx.size());
    const int k = lay.k;
    const int v = lay.position_of(ctx.rank());
    const bool is_extra = v < 2 * lay.extra && v % 2 == 1;
    const bool small = fits_payload(n, type);
    const std::size_t bytes = data_bytes(n, type);
    const Operand mine = input_of(me);
    int rc = MPI_SUCCESS;

    if (is_extra) {
        const int partner = lay.rank_at(v - 1);
        if (small) {
            std::memcpy(ctx.payload(2), mine.buf, bytes);
            ctx.publish_to(2, 1, partner);
        }
        CO_WAIT_UNTIL(ctx.reached(partner, 3, 1));
        if (small)
            rc = copy_data(ctx.payload_of(partner, flag_of(k - 1)), n, type, me.recvbuf, n, *me.recvtype);
        else
            rc = copy_data(ctx.args_of(partner).recvbuf, n, *ctx.args_of(partner).recvtype, me.recvbuf, n,
                           *me.recvtype);
        ctx.publish_to(1, 1, partner);
        co_return rc;
    }

    const int w = v < 2 * lay.extra ? v / 2 : v - lay.extra;
    const bool has_pre = w < lay.extra;
    const int extra_rank = has_pre ? lay.rank_at(v + 1) : -1;

    // ---- Small vectors: every version in a flag payload.
    if (small) {
        FrameBytes<64> acc_bytes, tmp_bytes;  // not alignas on the arrays: see FrameBytes
        unsigned char* const acc = acc_bytes.bytes;
        unsigned char* const tmp = tmp_bytes.bytes;
        std::memcpy(acc, mine.buf, bytes);
        if (has_pre) {
            CO_WAIT_UNTIL(ctx.reached(extra_rank, 2, 1));
            std::memcpy(tmp, ctx.payload_of(extra_rank, 2), bytes);
            reduce_data(op, tmp, acc, n, type);
        }
        std::memcpy(ctx.payload(2), acc, bytes);
        ctx.publish(2, 1);
        for (int i = 0; i < k; ++i) {
            const int src = lay.survivor_rank(lay.from(i, w));
            CO_WAIT_UNTIL(ctx.reached(src, flag_of(i - 1), step_of(i - 1)));
            std::memcpy(tmp, ctx.payload_of(src, flag_of(i - 1)), bytes);
            reduce_data(op, tmp, acc, n, type);
            if (i >= 1) {  // the payload holds v_{i-2}: its reader must be done
                const int rd = lay.survivor_rank(lay.reader(i - 1, w));
                CO_WAIT_UNTIL(ctx.reached(rd, flag_of(i - 1), step_of(i - 1)));
            }
            std::memcpy(ctx.payload(flag_of(i)), acc, bytes);
            ctx.publish(flag_of(i), step_of(i));
        }
        rc = copy_data(acc, n, type, me.recvbuf, n, *me.recvtype);
    } else {
        // ---- Buffers: v_i alternates between the receive buffer and a scratch.
        bool need_scratch = false;
        for (int i = -1; i < k; ++i) need_scratch = need_scratch || store_of(i, me.in_place, has_pre, k) == Store::scratch;
        TypedScratch scratch;
        if (need_scratch) scratch = TypedScratch(n, type);
        auto where = [&](const CollCall& a, const void* s, int i, bool pre) -> void* {
            switch (store_of(i, a.in_place, pre, k)) {
                case Store::input: return const_cast<void*>(input_of(a).buf);
                case Store::recv: return a.recvbuf;
                case Store::scratch: return const_cast<void*>(s);
            }
            return nullptr;
        };
        void* const my_scratch = scratch.data();
        auto mine_at = [&](int i) { return where(me, my_scratch, i, has_pre); };
        if (has_pre) {
            CO_WAIT_UNTIL(ctx.arrived(extra_rank));
            void* d = mine_at(-1);
            if (!me.in_place) copy_data(mine.buf, n, *mine.type, d, n, type);
            reduce_data(op, input_of(ctx.args_of(extra_rank)).buf, d, n, type);
        }
        ctx.publish_scratch(my_scratch);
        ctx.publish(2, 1);
        for (int i = 0; i < k; ++i) {
            const int sw = lay.from(i, w);
            const int src = lay.survivor_rank(sw);
            CO_WAIT_UNTIL(ctx.reached(src, flag_of(i - 1), step_of(i - 1)));
            void* d = mine_at(i);
            if (i >= 1 && store_of(i - 2, me.in_place, has_pre, k) == store_of(i, me.in_place, has_pre, k)) {
                const int rd = lay.survivor_rank(lay.reader(i - 1, w));
                CO_WAIT_UNTIL(ctx.reached(rd, flag_of(i - 1), step_of(i - 1)));
            }
            const void* theirs = where(ctx.args_of(src), ctx.scratch_of(src), i - 1, sw < lay.extra);
            // d = v_{i-1} op theirs in one pass (v_{i-1} lives in the other buffer).
            reduce_data3(op, mine_at(i - 1), theirs, d, n, type);
            ctx.publish(flag_of(i), step_of(i));
        }
        if (k == 0 && !me.in_place && !has_pre) rc = copy_data(mine.buf, n, *mine.type, me.recvbuf, n, *me.recvtype);
        void* last = mine_at(k - 1);
        if (k >= 1 && last != me.recvbuf) {
            const int rd = lay.survivor_rank(lay.reader(k - 1, w));
            CO_WAIT_UNTIL(ctx.reached(rd, flag_of(k - 1), step_of(k - 1)));
            rc = copy_data(last, n, type, me.recvbuf, n, *me.recvtype);
        }
        // Every reader of this rank's versions is done before the scratch goes.
        for (int i = 0; i < k; ++i) {
            const int rd = lay.survivor_rank(lay.reader(i, w));
            CO_WAIT_UNTIL(ctx.reached(rd, flag_of(i), step_of(i)));
        }
        if (has_pre) {
            ctx.publish_to(3, 1, extra_rank);
            CO_WAIT_UNTIL(ctx.reached(extra_rank, 1, 1));
        }
        co_return rc;
    }
    for (int i = 0; i < k; ++i) {
        const int rd = lay.survivor_rank(lay.reader(i, w));
        CO_WAIT_UNTIL(ctx.reached(rd, flag_of(i), step_of(i)));
    }
    if (has_pre) {
        ctx.publish_to(3, 1, extra_rank);
        CO_WAIT_UNTIL(ctx.reached(extra_rank, 1, 1));
    }
    co_return rc;
}

double allreduce_dissemination_cost(const CostQuery& q) {
    if (!q.commutative) return std::numeric_limits<double>::infinity();
    const std::size_t ws = 2 * static_cast<std::size_t>(q.p()) * q.bytes;
    if (q.p() <= 1) return 0;
    // Every round reads a new partner's arguments.
    const DisseminationSteps rounds = li_dissemination_steps(q.p(), q.q(), q.s());
    return li_dissemination(q, q.p(), q.q(), q.s(), q.m(), ws) + peer_args_cost(q, rounds.within + rounds.across) +
           peer_data_cost(q, rounds.within + rounds.across) +
           q.params.alpha.a;
}

}  // namespace hmpi::coll
