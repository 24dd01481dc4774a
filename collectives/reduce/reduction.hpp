// What the reducing collectives share (reduce, allreduce, reduce_scatter,
// scan: collectives/{reduce,allreduce,reduce_scatter,scan}/*.cpp): a rank's
// input vector, the element slices a vector is cut into, and folding
// several ranks' inputs in rank order.
//
// Rank order matters because user operations may be non-commutative: MPI
// 3.1, 5.9.1 fixes the result as x_0 op x_1 op ... op x_{p-1}, with any
// association but never reordered. reduce_data(op, in, inout) computes
// inout = in op inout, so a fold keeps the lower-ranked operand as `in` and
// runs from the highest rank down: x_f op (x_{f+1} op (... op x_{l-1})).
// The innermost step, x_{l-2} op x_{l-1}, writes straight into a dst that
// is no operand (reduce_data3: out = in op in2) instead of copying x_{l-1}
// there first.
//
// Every rank passes the same count and (MPI 3.1, 5.9.1) the same datatype,
// so all ranks' type objects share one type map: an operand of another rank
// is addressed with that rank's type object and the op is applied with the
// caller's (the handle a user function receives is the caller's own).
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>

#include "collectives/framework/call.hpp"
#include "collectives/framework/data.hpp"
#include "collectives/framework/operand_sweep.hpp"
#include "base/cacheline.hpp"

namespace hmpi::coll {

// A few elements kept in a CollTask's own frame (a vector small enough to
// travel in flag payloads, folded locally). The reduction kernels load the
// elements as their C type, so the bytes must be aligned for any element
// type. An `alignas` on a coroutine's local array does not do it: GCC 12
// lays such locals out in the coroutine frame without the variable's
// alignment (only the type's counts), so `alignas(64) unsigned char b[64]`
// can land on any byte (UBSan: "load of misaligned address" in
// reduce_kernels.hpp). This type carries its alignment: that of
// std::max_align_t, which is what the frame's allocator guarantees
// (::operator new, framework/task.cpp) and the most any MPI element type
// needs; a larger one would exceed the frame's own.
template <std::size_t N>
struct alignas(std::max_align_t) FrameBytes {
    unsigned char bytes[N];
};

// One operand of a reduction: a buffer and the type object that lays it out.
struct Operand {
    const void* buf;
    const Datatype* type;
};

// A rank's input vector: its send buffer, or its receive buffer under
// MPI_IN_PLACE (the API layer sets sendtype and recvtype alike).
inline Operand input_of(const CollCall& a) noexcept {
    return a.in_place ? Operand{a.recvbuf, a.recvtype} : Operand{a.sendbuf, a.sendtype};
}

// The operand `index` elements on.
inline Operand at(Operand o, std::int64_t index) noexcept { return {element_at(o.buf, index, *o.type), o.type}; }

// First element of slice k of `count` elements cut into p nearly equal
// slices (slice k is [slice_begin(k), slice_begin(k + 1))).
inline std::int64_t slice_begin(std::int64_t count, int k, int p) noexcept { return count * k / p; }

// dst = x(first) op x(first + 1) op ... op x(last - 1) over n elements
// (last > first; nothing to do for n == 0), in rank order. x(i) returns the
// Operand of index i, already offset to the slice. The op is applied with
// `type` (the caller's; dst is laid out by dst_type, of the same type map).
// `alias` is the index whose operand is dst itself (MPI_IN_PLACE), or -1.
// Returns MPI_SUCCESS (the copies are between equal counts and types).
template <class Inputs>
int reduce_in_order(const Op& op, const Datatype& type, std::int64_t n, int first, int last, Inputs x, void* dst,
                    const Datatype& dst_type, int alias) {
    if (n <= 0 || last <= first) return MPI_SUCCESS;
    if (alias < first || alias >= last) alias = -1;
    auto fold_into_dst = [&](int from, int down_to, int skip) {
        for (int i = from; i >= down_to; --i)
            if (i != skip) {
                const Operand o = x(i);
                reduce_data(op, o.buf, dst, n, type);
            }
    };
    if (alias < 0 && last - first >= 2) {
        // dst is no operand: it starts as x(last-2) op x(last-1), formed in
        // one pass (no copy of x(last-1) first), and takes the others in from
        // the left.
        const Operand lo = x(last - 2), hi = x(last - 1);
        reduce_data3(op, lo.buf, hi.buf, dst, n, type);
        fold_into_dst(last - 3, first, -1);
    } else if (alias < 0 || alias == last - 1) {
        // dst starts as the last operand and takes the others in from the left.
        if (alias < 0) {
            const Operand o = x(last - 1);
            copy_data(o.buf, n, *o.type, dst, n, dst_type);
        }
        fold_into_dst(last - 2, first, -1);
    } else if (op.commutative) {
        // dst holds x(alias); a commutative op may take the others in any order.
        fold_into_dst(last - 1, first, alias);
    } else {
        // dst holds x(alias) from the middle of the range: fold the operands
        // right of it into a scratch, apply x(alias) from the left, and put
        // the result back before folding in the ones left of it.
        TypedScratch right(n, type);
        const Operand o = x(last - 1);
        copy_data(o.buf, n, *o.type, right.data(), n, type);
        for (int i = last - 2; i > alias; --i) {
            const Operand oi = x(i);
            reduce_data(op, oi.buf, right.data(), n, type);
        }
        reduce_data(op, dst, right.data(), n, type);
        copy_data(right.data(), n, type, dst, n, dst_type);
        fold_into_dst(alias - 1, first, -1);
    }
    return MPI_SUCCESS;
}

// The same result for a commutative op, folded from operand `start` on:
// start, start + 1, ..., last - 1, first, ..., start - 1 (a non-commutative
// op keeps rank order: reduce_in_order). Ranks that fold slices of the
// same inputs at once each start at their own index, so at any moment each
// source core serves about one reader; in rank order all of them would pull
// from one core at a time (docs/model.md, "Busy sources"). Floating-point
// bits depend on the order, so use it where one rank computes each result
// element (a reduce-scatter's blocks, a tiled reduction's tiles).
template <class Inputs>
int reduce_staggered(const Op& op, const Datatype& type, std::int64_t n, int first, int last, Inputs x, void* dst,
                     const Datatype& dst_type, int alias, int start) {
    if (!op.commutative) return reduce_in_order(op, type, n, first, last, x, dst, dst_type, alias);
    if (n <= 0 || last <= first) return MPI_SUCCESS;
    if (alias < first || alias >= last) alias = -1;
    const int len = last - first;
    const int offset = ((start - first) % len + len) % len;
    auto nth = [&](int k) { return first + (offset + k) % len; };
    int k = 0;
    if (alias < 0) {
        if (len == 1) {
            const Operand o = x(first);
            copy_data(o.buf, n, *o.type, dst, n, dst_type);
            return MPI_SUCCESS;
        }
        const Operand a = x(nth(0)), b = x(nth(1));
        reduce_data3(op, a.buf, b.buf, dst, n, type);
        k = 2;
    }
    for (; k < len; ++k) {
        const int i = nth(k);
        if (i == alias) continue;
        const Operand o = x(i);
        reduce_data(op, o.buf, dst, n, type);
    }
    return MPI_SUCCESS;
}

// The operands x(first) .. x(last - 1) (but `skip`) of a fold, resolved in
// one loop before it, in the fold's order (`order(k)`, k = 0 .. len - 1),
// each operand's first lines asked for on the way. A peer's operand is
// reached through its arguments (its CollCall, behind a pointer in its
// member record: two misses before the data's). Resolved one at a time as
// the fold takes them, each chase waits behind the previous operand's
// fold; in one loop whose turns do not depend on each other the misses of
// all the peers are in flight at once, and so are the first lines of their
// data (docs/model.md, "Reaching the peers' operands in one sweep").
inline constexpr std::size_t kSweptPrefetchLines = 2;
class SweptOperands {
public:
    template <class Inputs, class Order>
    SweptOperands(Inputs& x, int first, int last, int skip, std::size_t bytes, Order order) noexcept
        : first_(first) {
        for (int k = 0; k < last - first; ++k) {
            const int i = order(k);
            if (i == skip) continue;
            const Operand o = x(i);
            ops_[i - first] = o;
            prefetch_lines(static_cast<const unsigned char*>(o.buf) + o.type->true_lb, bytes, kSweptPrefetchLines);
        }
    }
    Operand operator()(int i) const noexcept { return ops_[i - first_]; }

private:
    int first_;
    Operand ops_[kSweptOperands];
};

// reduce_in_order and reduce_staggered for the folds whose operands are
// peers' buffers reached through their arguments (the tiled and direct
// reductions, linear Reduce and Scan): the operands swept first
// (SweptOperands) where there are 3 to kSweptOperands of them. A fold of
// two (every fold at 2 ranks) has one peer's chase and nothing to overlap
// it with, and beyond kSweptOperands the operands are resolved as folded:
// both take the plain functions. Out of line, so that the plain path's
// frame does not hold the operands' array. The inline algorithms, whose
// operands sit at fixed places, call the plain functions.
template <class Inputs>
[[gnu::noinline]] int reduce_in_order_swept_out_of_line(const Op& op, const Datatype& type, std::int64_t n, int first,
                                                         int last, Inputs x, void* dst, const Datatype& dst_type,
                                                         int alias) {
    const int skip = alias >= first && alias < last ? alias : -1;
    // The fold takes the operands from the right (last - 2, last - 1, then leftwards).
    const SweptOperands ops(x, first, last, skip, data_bytes(n, type), [&](int k) { return last - 1 - k; });
    return reduce_in_order(op, type, n, first, last, std::cref(ops), dst, dst_type, alias);
}
template <class Inputs>
[[gnu::noinline]] int reduce_staggered_swept_out_of_line(const Op& op, const Datatype& type, std::int64_t n,
                                                          int first, int last, Inputs x, void* dst,
                                                          const Datatype& dst_type, int alias, int start) {
    const int len = last - first;
    const int offset = ((start - first) % len + len) % len;
    const int skip = alias >= first && alias < last ? alias : -1;
    const SweptOperands ops(x, first, last, skip, data_bytes(n, type),
                            [&](int k) { return first + (offset + k) % len; });
    return reduce_staggered(op, type, n, first, last, std::cref(ops), dst, dst_type, alias, start);
}
inline bool sweeps_operands(std::int64_t n, int first, int last) noexcept {
    return n > 0 && sweeps_operand_count(last - first);
}
template <class Inputs>
int reduce_in_order_swept(const Op& op, const Datatype& type, std::int64_t n, int first, int last, Inputs x,
                          void* dst, const Datatype& dst_type, int alias) {
    if (sweeps_operands(n, first, last))
        return reduce_in_order_swept_out_of_line(op, type, n, first, last, x, dst, dst_type, alias);
    return reduce_in_order(op, type, n, first, last, x, dst, dst_type, alias);
}
template <class Inputs>
int reduce_staggered_swept(const Op& op, const Datatype& type, std::int64_t n, int first, int last, Inputs x,
                           void* dst, const Datatype& dst_type, int alias, int start) {
    if (!op.commutative) return reduce_in_order_swept(op, type, n, first, last, x, dst, dst_type, alias);
    if (sweeps_operands(n, first, last))
        return reduce_staggered_swept_out_of_line(op, type, n, first, last, x, dst, dst_type, alias, start);
    return reduce_staggered(op, type, n, first, last, x, dst, dst_type, alias, start);
}

}  // namespace hmpi::coll
