// Reduction operations: the predefined table, user operations, which
// (operation, datatype) pairs MPI defines, and applying an operation.
#include "core/op.hpp"

#include <array>
#include <atomic>
#include <climits>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "primitives/copy.hpp"
#include "primitives/reduce.hpp"

namespace hmpi {

namespace {

using prim::Elem;
using prim::Reduce3Kernel;
using prim::ReduceKernel;

// The operations with kernels are numbered as the primitives number them.
static_assert(static_cast<int>(OpKind::sum) == static_cast<int>(prim::ReduceOp::sum));
static_assert(static_cast<int>(OpKind::maxloc) == static_cast<int>(prim::ReduceOp::maxloc));
static_assert(static_cast<std::size_t>(OpKind::replace) == prim::kReduceOps);

// ---- predefined operations ----

struct OpTable {
    std::array<Op, op_detail::kPredefinedSlots> ops{};
    std::array<const Op*, op_detail::kPredefinedSlots> slots{};
    void add(MPI_Op h, OpKind kind, const char* name) {
        auto i = reinterpret_cast<std::uintptr_t>(h) - op_detail::kFirstPredefined;
        ops[i].kind = kind;
        ops[i].predefined = true;
        ops[i].commutative = true;
        ops[i].name = name;
        ops[i].handle = h;
        slots[i] = &ops[i];
    }
    OpTable() {
        add(MPI_SUM, OpKind::sum, "MPI_SUM");
        add(MPI_PROD, OpKind::prod, "MPI_PROD");
        add(MPI_MIN, OpKind::min, "MPI_MIN");
        add(MPI_MAX, OpKind::max, "MPI_MAX");
        add(MPI_BAND, OpKind::band, "MPI_BAND");
        add(MPI_BOR, OpKind::bor, "MPI_BOR");
        add(MPI_BXOR, OpKind::bxor, "MPI_BXOR");
        add(MPI_LAND, OpKind::land, "MPI_LAND");
        add(MPI_LOR, OpKind::lor, "MPI_LOR");
        add(MPI_LXOR, OpKind::lxor, "MPI_LXOR");
        add(MPI_MINLOC, OpKind::minloc, "MPI_MINLOC");
        add(MPI_MAXLOC, OpKind::maxloc, "MPI_MAXLOC");
        // "All predefined operations are assumed to be associative and
        // commutative" (MPI 3.1, 5.9.2): MPI_Op_commutative says so for
        // MPI_REPLACE and MPI_NO_OP too, as Open MPI and MPICH do, although
        // replace(a, b) = a is not. They are not allowed in collectives,
        // where commutativity picks the algorithm.
        add(MPI_REPLACE, OpKind::replace, "MPI_REPLACE");
        add(MPI_NO_OP, OpKind::no_op, "MPI_NO_OP");
    }
};

// Built during libhmpi's static initialization, before any rank runs.
const OpTable g_ops;

// ---- which datatypes the predefined operations apply to ----

// The groups of basic datatypes of MPI 3.1, 5.9.2; each operation is
// defined on a union of groups.
enum Group : std::uint8_t {
    c_integer = 1,
    fortran_integer = 2,
    floating_point = 4,
    logical = 8,
    complex = 16,
    byte = 32,
    pair = 64,  // the MINLOC/MAXLOC (value, index) types
};

std::uint8_t groups_defined_for(OpKind k) {
    switch (k) {
        case OpKind::sum:
        case OpKind::prod: return c_integer | fortran_integer | floating_point | complex;
        case OpKind::min:
        case OpKind::max: return c_integer | fortran_integer | floating_point;
        case OpKind::band:
        case OpKind::bor:
        case OpKind::bxor: return c_integer | fortran_integer | byte;
        case OpKind::land:
        case OpKind::lor:
        case OpKind::lxor: return c_integer | logical;
        case OpKind::minloc:
        case OpKind::maxloc: return pair;
        default: return 0;
    }
}

// The element kind of a C integer type.
template <class T>
constexpr Elem integer_elem() {
    constexpr bool s = std::is_signed_v<T>;
    if constexpr (sizeof(T) == 1) return s ? Elem::i8 : Elem::u8;
    else if constexpr (sizeof(T) == 2) return s ? Elem::i16 : Elem::u16;
    else if constexpr (sizeof(T) == 4) return s ? Elem::i32 : Elem::u32;
    else {
        static_assert(sizeof(T) == 8, "integer types are 1, 2, 4 or 8 bytes");
        return s ? Elem::i64 : Elem::u64;
    }
}

struct BasicInfo {
    Elem elem = Elem::u8;
    std::uint8_t groups = 0;  // 0: no operation but MPI_REPLACE / MPI_NO_OP
};

struct BasicTable {
    std::array<BasicInfo, datatype_detail::kPredefinedSlots> info{};
    void add(MPI_Datatype h, Elem e, std::uint8_t g) {
        info[reinterpret_cast<std::uintptr_t>(h) - datatype_detail::kFirstPredefined] = {e, g};
    }
    BasicTable() {
        // C integer
        add(MPI_SHORT, integer_elem<short>(), c_integer);
        add(MPI_INT, integer_elem<int>(), c_integer);
        add(MPI_LONG, integer_elem<long>(), c_integer);
        add(MPI_LONG_LONG, integer_elem<long long>(), c_integer);
        add(MPI_UNSIGNED_SHORT, integer_elem<unsigned short>(), c_integer);
        add(MPI_UNSIGNED, integer_elem<unsigned>(), c_integer);
        add(MPI_UNSIGNED_LONG, integer_elem<unsigned long>(), c_integer);
        add(MPI_UNSIGNED_LONG_LONG, integer_elem<unsigned long long>(), c_integer);
        add(MPI_SIGNED_CHAR, Elem::i8, c_integer);
        add(MPI_UNSIGNED_CHAR, Elem::u8, c_integer);
        add(MPI_INT8_T, Elem::i8, c_integer);
        add(MPI_UINT8_T, Elem::u8, c_integer);
        add(MPI_INT16_T, Elem::i16, c_integer);
        add(MPI_UINT16_T, Elem::u16, c_integer);
        add(MPI_INT32_T, Elem::i32, c_integer);
        add(MPI_UINT32_T, Elem::u32, c_integer);
        add(MPI_INT64_T, Elem::i64, c_integer);
        add(MPI_UINT64_T, Elem::u64, c_integer);
        // Fortran integer (MPI_AINT, MPI_OFFSET and MPI_COUNT belong here)
        add(MPI_INTEGER, Elem::i32, fortran_integer);
        add(MPI_AINT, integer_elem<MPI_Aint>(), fortran_integer);
        add(MPI_OFFSET, integer_elem<MPI_Offset>(), fortran_integer);
        add(MPI_COUNT, integer_elem<MPI_Count>(), fortran_integer);
        add(MPI_INTEGER1, Elem::i8, fortran_integer);
        add(MPI_INTEGER2, Elem::i16, fortran_integer);
        add(MPI_INTEGER4, Elem::i32, fortran_integer);
        add(MPI_INTEGER8, Elem::i64, fortran_integer);
        add(MPI_INTEGER16, Elem::i128, fortran_integer);
        // Floating point
        add(MPI_FLOAT, Elem::f32, floating_point);
        add(MPI_DOUBLE, Elem::f64, floating_point);
        add(MPI_LONG_DOUBLE, Elem::f80, floating_point);
        add(MPI_REAL, Elem::f32, floating_point);
        add(MPI_DOUBLE_PRECISION, Elem::f64, floating_point);
        add(MPI_REAL2, Elem::f16, floating_point);
        add(MPI_REAL4, Elem::f32, floating_point);
        add(MPI_REAL8, Elem::f64, floating_point);
        add(MPI_REAL16, Elem::f128, floating_point);
        // Logical: Fortran LOGICAL kinds are integers (any non-zero is
        // true, results are 1 or 0, as gfortran's .TRUE.); C/C++ bool.
        add(MPI_LOGICAL, Elem::u32, logical);
        add(MPI_LOGICAL1, Elem::u8, logical);
        add(MPI_LOGICAL2, Elem::u16, logical);
        add(MPI_LOGICAL4, Elem::u32, logical);
        add(MPI_LOGICAL8, Elem::u64, logical);
        add(MPI_LOGICAL16, Elem::i128, logical);
        static_assert(sizeof(bool) == 1, "MPI_C_BOOL is one byte");
        add(MPI_C_BOOL, Elem::u8, logical);
        add(MPI_CXX_BOOL, Elem::u8, logical);
        // Complex
        add(MPI_C_FLOAT_COMPLEX, Elem::c32, complex);
        add(MPI_CXX_FLOAT_COMPLEX, Elem::c32, complex);
        add(MPI_C_DOUBLE_COMPLEX, Elem::c64, complex);
        add(MPI_CXX_DOUBLE_COMPLEX, Elem::c64, complex);
        add(MPI_C_LONG_DOUBLE_COMPLEX, Elem::c80, complex);
        add(MPI_CXX_LONG_DOUBLE_COMPLEX, Elem::c80, complex);
        add(MPI_COMPLEX, Elem::c32, complex);
        add(MPI_DOUBLE_COMPLEX, Elem::c64, complex);
        add(MPI_COMPLEX4, Elem::c16, complex);
        add(MPI_COMPLEX8, Elem::c32, complex);
        add(MPI_COMPLEX16, Elem::c64, complex);
        add(MPI_COMPLEX32, Elem::c128, complex);
        // Byte
        add(MPI_BYTE, Elem::u8, byte);
        // MINLOC/MAXLOC pairs
        add(MPI_FLOAT_INT, Elem::float_int, pair);
        add(MPI_DOUBLE_INT, Elem::double_int, pair);
        add(MPI_LONG_INT, Elem::long_int, pair);
        add(MPI_2INT, Elem::int_int, pair);
        add(MPI_SHORT_INT, Elem::short_int, pair);
        add(MPI_LONG_DOUBLE_INT, Elem::long_double_int, pair);
        add(MPI_2REAL, Elem::float_float, pair);
        add(MPI_2DOUBLE_PRECISION, Elem::double_double, pair);
        add(MPI_2INTEGER, Elem::int_int, pair);
        // MPI_CHAR, MPI_WCHAR, MPI_CHARACTER, MPI_PACKED: characters and
        // packed bytes, no arithmetic; only MPI_REPLACE and MPI_NO_OP.
    }
};

const BasicTable g_basic;

// For each (predefined operation with a kernel, predefined datatype): the
// kernel, or null where MPI does not define the operation on the type.
// Built at first use, because the kernels depend on the CPU and on
// HMPI_REDUCE_ISA, which is read with the rest of the configuration.
struct KernelIndex {
    ReduceKernel fn[prim::kReduceOps][datatype_detail::kPredefinedSlots]{};
    Reduce3Kernel fn3[prim::kReduceOps][datatype_detail::kPredefinedSlots]{};
    prim::Reduce3StreamKernel fn3s[prim::kReduceOps][datatype_detail::kPredefinedSlots]{};
    KernelIndex() {
        const prim::KernelTable& k = prim::active_kernels();
        for (std::size_t op = 0; op < prim::kReduceOps; ++op) {
            std::uint8_t allowed = groups_defined_for(static_cast<OpKind>(op));
            for (std::size_t t = 0; t < datatype_detail::kPredefinedSlots; ++t) {
                const BasicInfo& b = g_basic.info[t];
                if (datatype_detail::predefined[t] && (b.groups & allowed)) {
                    fn[op][t] = k.fn[op][static_cast<std::size_t>(b.elem)];
                    fn3[op][t] = k.fn3[op][static_cast<std::size_t>(b.elem)];
                    fn3s[op][t] = k.fn3s[op][static_cast<std::size_t>(b.elem)];
                }
            }
        }
    }
};

// Published once built; every later lookup is one load and a test.
std::atomic<const KernelIndex*> g_kernel_index{nullptr};

[[gnu::noinline]] const KernelIndex& build_kernel_index() {
    static const KernelIndex index;  // thread-safe construction
    g_kernel_index.store(&index, std::memory_order_release);
    return index;
}

inline const KernelIndex& kernel_index() {
    const KernelIndex* p = g_kernel_index.load(std::memory_order_acquire);
    return p ? *p : build_kernel_index();
}

std::size_t predefined_slot(const Datatype& t) noexcept {
    return reinterpret_cast<std::uintptr_t>(t.handle) - datatype_detail::kFirstPredefined;
}

// The kernel of a predefined operation with a kernel on a predefined type.
ReduceKernel kernel_of(const Op& op, const Datatype& type) noexcept {
    return kernel_index().fn[static_cast<std::size_t>(op.kind)][predefined_slot(type)];
}

// Its three-operand form (non-null wherever kernel_of is).
Reduce3Kernel kernel3_of(const Op& op, const Datatype& type) noexcept {
    return kernel_index().fn3[static_cast<std::size_t>(op.kind)][predefined_slot(type)];
}

// Its streaming form (null where there is none).
prim::Reduce3StreamKernel kernel3_stream_of(const Op& op, const Datatype& type) noexcept {
    return kernel_index().fn3s[static_cast<std::size_t>(op.kind)][predefined_slot(type)];
}

void apply_user(const Op& op, const void* in, void* inout, std::int64_t count, const Datatype& type) {
    MPI_Datatype handle = type.handle;
    auto* src = static_cast<char*>(const_cast<void*>(in));
    auto* dst = static_cast<char*>(inout);
    // MPI_User_function takes an int count: larger counts go in pieces.
    while (count > 0) {
        int len = count > INT_MAX ? INT_MAX : static_cast<int>(count);
        std::ptrdiff_t bytes = static_cast<std::ptrdiff_t>(len) * type.extent;
        op.user_fn(src, dst, &len, &handle);
        src += bytes;
        dst += bytes;
        count -= INT_MAX;
    }
}

// The natural alignment of a basic type: the largest power of two dividing
// its size, at most max_align_t's.
std::size_t natural_alignment(std::size_t elem) noexcept {
    const std::size_t align = elem & (~elem + 1);
    return align > alignof(std::max_align_t) ? alignof(std::max_align_t) : align;
}

// A three-operand kernel, out = in (op) in2, over n elements of `elem`
// bytes that need not be aligned for the element type (a derived datatype
// may place doubles at odd offsets): misaligned runs go through aligned
// bounce buffers, the result formed in the second and copied to out.
void apply_unaligned(Reduce3Kernel k, std::size_t elem, const char* in, const char* in2, char* out,
                     std::size_t n) {
    const std::size_t align = natural_alignment(elem);
    auto misaligned = [&](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % align != 0; };
    if (!misaligned(in) && !misaligned(in2) && !misaligned(out)) return k(in, in2, out, n);
    alignas(std::max_align_t) char a[4096];
    alignas(std::max_align_t) char b[4096];
    const std::size_t per = sizeof a / elem;
    for (std::size_t done = 0; done < n;) {
        std::size_t m = n - done < per ? n - done : per;
        std::memcpy(a, in + done * elem, m * elem);
        std::memcpy(b, in2 + done * elem, m * elem);
        k(a, b, b, m);
        std::memcpy(out + done * elem, b, m * elem);
        done += m;
    }
}

// A predefined operation on a derived datatype whose basic elements are all
// of the predefined type `basic`, out = in (op) in2: the datatype layer
// hands out runs of basic elements laid out as C arrays (padded
// MINLOC/MAXLOC pairs included), and the three buffers share the type's
// layout, so the same runs are taken from each. op_apply's in-place form is
// out = in2 (the kernels allow that alias).
void apply_derived(const Op& op, const void* in, const void* in2, void* out, std::int64_t count,
                   const Datatype& type, const Datatype& basic) {
    Reduce3Kernel k = kernel3_of(op, basic);
    const auto* a = static_cast<const char*>(in);
    const auto* b = static_cast<const char*>(in2);
    auto* dst = static_cast<char*>(out);
    const auto stride = static_cast<std::size_t>(basic.extent);
    for_each_block(type, count, [&](std::ptrdiff_t off, std::size_t n) {
        apply_unaligned(k, stride, a + off, b + off, dst + off, n);
    });
}

}  // namespace

namespace op_detail {
const Op* const* predefined = g_ops.slots.data();
}  // namespace op_detail

const Op* op_create(MPI_User_function* fn, bool commutative) {
    auto* op = new Op;
    op->kind = OpKind::user;
    op->commutative = commutative;
    op->name = "user operation";
    op->user_fn = fn;
    op->handle = reinterpret_cast<MPI_Op>(op);
    return op;
}

void op_retain(const Op* op) noexcept {
    if (!op->predefined) op->refs.retain();
}

void op_release(const Op* op) noexcept {
    if (!op->predefined && op->refs.release()) {
        // A stale handle used after the last release then fails the magic
        // check instead of calling a freed function (as long as the memory
        // is not reused). Volatile: a plain store right before delete is a
        // dead store the compiler may drop.
        *const_cast<volatile std::uint32_t*>(&op->magic) = 0;
        delete op;
    }
}

const Datatype* op_basic_type(const Datatype& type) noexcept {
    if (type.predefined) return &type;
    return datatype_from_handle(type.uniform_basic);
}

int op_check(const Op& op, const Datatype& type) noexcept {
    if (op.kind == OpKind::user) return MPI_SUCCESS;
    // A predefined operation on a derived datatype works element by element
    // on its basic datatype, which must be one and the same throughout.
    const Datatype* basic = op_basic_type(type);
    if (!basic) return MPI_ERR_OP;
    if (op.kind == OpKind::replace || op.kind == OpKind::no_op) return MPI_SUCCESS;
    return kernel_of(op, *basic) ? MPI_SUCCESS : MPI_ERR_OP;
}

int op_reduce(const Op& op, const void* in, void* inout, std::int64_t count, const Datatype& type) {
    if (op.kind < OpKind::replace && type.predefined) {
        // The common case: one lookup answers both "is it defined" and
        // "which kernel".
        ReduceKernel k = kernel_of(op, type);
        if (!k) return MPI_ERR_OP;
        if (count > 0) k(in, inout, static_cast<std::size_t>(count));
        return MPI_SUCCESS;
    }
    if (int e = op_check(op, type)) return e;
    op_apply(op, in, inout, count, type);
    return MPI_SUCCESS;
}

void op_apply(const Op& op, const void* in, void* inout, std::int64_t count, const Datatype& type) {
    if (count <= 0) return;
    switch (op.kind) {
        case OpKind::user: return apply_user(op, in, inout, count, type);
        case OpKind::no_op: return;
        case OpKind::replace:
            if (in != inout) copy_typed(in, type, inout, type, static_cast<std::size_t>(count) * type.size);
            return;
        default: break;
    }
    if (type.predefined) {
        // Predefined types are laid out as C arrays of their element kind:
        // the common case is one lookup and one call.
        kernel_of(op, type)(in, inout, static_cast<std::size_t>(count));
        return;
    }
    apply_derived(op, in, inout, inout, count, type, *op_basic_type(type));
}

void op_apply3(const Op& op, const void* in, const void* in2, void* out, std::int64_t count, const Datatype& type) {
    if (count <= 0) return;
    const auto bytes = static_cast<std::size_t>(count) * type.size;
    switch (op.kind) {
        case OpKind::replace:
            // replace(in, in2) = in.
            if (in != out) copy_typed(in, type, out, type, bytes);
            return;
        case OpKind::no_op:
            if (in2 != out) copy_typed(in2, type, out, type, bytes);
            return;
        case OpKind::user:
            // MPI_User_function has only the two-operand form.
            if (in2 != out) copy_typed(in2, type, out, type, bytes);
            return apply_user(op, in, out, count, type);
        default: break;
    }
    if (type.predefined) {
        kernel3_of(op, type)(in, in2, out, static_cast<std::size_t>(count));
        return;
    }
    apply_derived(op, in, in2, out, count, type, *op_basic_type(type));
}

bool op_apply3_stream(const Op& op, const void* in, const void* in2, void* const* outs, int nouts,
                      std::int64_t count, const Datatype& type) {
    switch (op.kind) {
        case OpKind::replace:
        case OpKind::no_op:
        case OpKind::user: return false;
        default: break;
    }
    if (!type.predefined) return false;
    prim::Reduce3StreamKernel k = kernel3_stream_of(op, type);
    if (k == nullptr) return false;
    if (count > 0) k(in, in2, outs, nouts, static_cast<std::size_t>(count));
    store_fence();
    return true;
}

}  // namespace hmpi
