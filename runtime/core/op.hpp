// Reduction operations (MPI 3.1, 5.9): the predefined ones (MPI_SUM ...
// MPI_MAXLOC, and MPI_REPLACE / MPI_NO_OP of RMA) and user operations
// (MPI_Op_create), and applying one to two buffers of a datatype.
//
// Predefined operations are a fixed table indexed by their ABI handle value
// (0x21..0x3d in mpi.h); user operations are heap objects whose address is
// the handle, kept alive by a reference count while pending operations use
// them after MPI_Op_free. Applying a predefined operation to a predefined
// datatype is one table lookup to a kernel of runtime/primitives, chosen
// once for the CPU (AVX-512, AVX2 or portable loops).
#pragma once
#include <mpi.h>

#include <cstdint>

#include "base/refcount.hpp"
#include "core/datatype.hpp"

namespace hmpi {

enum class OpKind : std::uint8_t {
    sum, prod, min, max, band, bor, bxor, land, lor, lxor, minloc, maxloc,  // as prim::ReduceOp
    replace,  // inout = in
    no_op,    // inout unchanged
    user,     // MPI_Op_create
};

struct Op {
    static constexpr std::uint32_t kMagic = 0x4f504552;  // "OPER"
    std::uint32_t magic = kMagic;
    OpKind kind = OpKind::user;
    bool predefined = false;
    bool commutative = true;
    const char* name = "";                   // "MPI_SUM"; "user operation" for user ones
    MPI_Op handle = MPI_OP_NULL;             // the constant, or this object's address
    MPI_User_function* user_fn = nullptr;    // user operations only
    // The user's handle plus one per pending operation using it.
    mutable RefCount refs;
};

namespace op_detail {
inline constexpr std::uintptr_t kFirstPredefined = 0x20;  // MPI_OP_NULL
inline constexpr std::uintptr_t kPredefinedSlots = 0x20;
// Slot i describes handle 0x20 + i, or is null (MPI_OP_NULL and unused values).
extern const Op* const* predefined;
}  // namespace op_detail

// The operation behind a handle, or nullptr if it is not a valid operation
// (MPI_OP_NULL included). A user operation's handle is checked by its magic.
inline const Op* op_from_handle(MPI_Op h) noexcept {
    auto v = reinterpret_cast<std::uintptr_t>(h);
    if (v - op_detail::kFirstPredefined < op_detail::kPredefinedSlots) return op_detail::predefined[v - op_detail::kFirstPredefined];
    if (v < 0x1000 || v % alignof(Op)) return nullptr;
    const auto* op = reinterpret_cast<const Op*>(h);
    return op->magic == Op::kMagic ? op : nullptr;
}

// A new user operation with one reference (the user's handle).
const Op* op_create(MPI_User_function* fn, bool commutative);

// Reference counting of user operations (no-ops for predefined ones): a
// pending operation retains the op it uses and releases it when done;
// MPI_Op_free releases the user's reference.
void op_retain(const Op* op) noexcept;
void op_release(const Op* op) noexcept;

// Whether MPI defines `op` on `type`: MPI_SUCCESS, or MPI_ERR_OP when a
// predefined operation is not defined on the type's basic datatype (MPI 3.1,
// 5.9.2), or the type is derived from more than one basic datatype. User
// operations accept every type.
int op_check(const Op& op, const Datatype& type) noexcept;

// inout[i] = in[i] (op) inout[i] for `count` elements of `type`, both
// buffers laid out by the type. `op_check(op, type)` must have succeeded.
// A user function is called with the type's user handle, in pieces of at
// most INT_MAX elements.
void op_apply(const Op& op, const void* in, void* inout, std::int64_t count, const Datatype& type);

// out[i] = in[i] (op) in2[i] for `count` elements of `type`, all three
// buffers laid out by the type: op_apply with the result written to a third
// buffer, `in` the left operand as in op_apply (in2 plays inout). `out`
// overlaps neither input, or is `in2` exactly (then this is op_apply).
// `op_check(op, type)` must have succeeded. A predefined operation with a
// kernel reads both inputs and writes `out` in one pass (the three-operand
// kernels of runtime/primitives); user functions (which only have the
// two-operand MPI_User_function form), MPI_REPLACE and MPI_NO_OP copy in2
// into out (copy_typed) and then apply the operation as op_apply does.
void op_apply3(const Op& op, const void* in, const void* in2, void* out, std::int64_t count, const Datatype& type);

// op_apply3 with one result stored into `nouts` buffers at once, each laid
// out by `type`, past the caches where the kernel can (the streaming
// three-operand kernels of runtime/primitives), then a store fence, so a
// flag may be published right after. Only for a predefined operation with
// a kernel on a predefined type: returns false, having done nothing,
// otherwise (the caller reduces and copies instead). The outputs overlap
// neither input nor each other.
bool op_apply3_stream(const Op& op, const void* in, const void* in2, void* const* outs, int nouts,
                      std::int64_t count, const Datatype& type);

// op_check and op_apply in one: MPI_SUCCESS after applying the operation,
// or MPI_ERR_OP (buffers untouched) where op_check would refuse. For
// MPI_Reduce_local; the cheapest path for a predefined op and type.
int op_reduce(const Op& op, const void* in, void* inout, std::int64_t count, const Datatype& type);

// The predefined datatype a predefined operation works on for `type`: the
// type itself if predefined, else the one basic datatype a derived type is
// made of, or nullptr if it mixes several.
const Datatype* op_basic_type(const Datatype& type) noexcept;

}  // namespace hmpi
