// Reduction operations: MPI_Op_create, MPI_Op_free, MPI_Op_commutative and
// MPI_Reduce_local (MPI 3.1, 5.9.5-5.9.7). Errors not tied to a
// communicator are raised on MPI_COMM_WORLD's error handler.
#include "api/api.hpp"
#include "core/op.hpp"

using namespace hmpi;
using namespace hmpi::api;

namespace {

[[gnu::noinline]] int reject_op(const Call& c, const char* arg, MPI_Op h) {
    if (h == MPI_OP_NULL) return c.fail(nullptr, MPI_ERR_OP, "argument %s is MPI_OP_NULL", arg);
    return c.fail(nullptr, MPI_ERR_OP, "argument %s = %p is not a valid operation", arg, static_cast<void*>(h));
}

inline int check_op(const Call& c, const char* arg, MPI_Op h, const Op** out) {
    *out = op_from_handle(h);
    return *out ? MPI_SUCCESS : reject_op(c, arg, h);
}

}  // namespace

HMPI_API(int, Op_create, (MPI_User_function * user_fn, int commute, MPI_Op* op)) {
    Call c("MPI_Op_create");
    if (int e = c.require_initialized()) return e;
    if (!user_fn) return c.fail(nullptr, MPI_ERR_ARG, "argument user_fn is NULL");
    if (int e = c.not_null(nullptr, "op", op)) return e;
    *op = op_create(user_fn, commute != 0)->handle;
    return MPI_SUCCESS;
}

HMPI_API(int, Op_free, (MPI_Op * op)) {
    Call c("MPI_Op_free");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "op", op)) return e;
    const Op* o = nullptr;
    if (int e = check_op(c, "*op", *op, &o)) return e;
    if (o->predefined) return c.fail(nullptr, MPI_ERR_OP, "argument *op = %s is predefined and cannot be freed", o->name);
    *op = MPI_OP_NULL;
    // Operations still pending with it keep it alive until they complete.
    op_release(o);
    return MPI_SUCCESS;
}

HMPI_API(int, Op_commutative, (MPI_Op op, int* commute)) {
    Call c("MPI_Op_commutative");
    if (int e = c.require_initialized()) return e;
    const Op* o = nullptr;
    if (int e = check_op(c, "op", op, &o)) return e;
    if (int e = c.not_null(nullptr, "commute", commute)) return e;
    *commute = o->commutative ? 1 : 0;
    return MPI_SUCCESS;
}

HMPI_API(int, Reduce_local, (const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype, MPI_Op op)) {
    Call c("MPI_Reduce_local");
    if (int e = c.require_initialized()) return e;
    if (int e = c.count(nullptr, "count", count)) return e;
    const Datatype* type = nullptr;
    if (int e = c.type(nullptr, "datatype", datatype, &type)) return e;
    const Op* o = nullptr;
    if (int e = check_op(c, "op", op, &o)) return e;
    if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE)
        return c.fail(nullptr, MPI_ERR_BUFFER, "argument %s is MPI_IN_PLACE, which MPI_Reduce_local does not accept",
                      inbuf == MPI_IN_PLACE ? "inbuf" : "inoutbuf");
    if (int e = c.buffer(nullptr, "inbuf", inbuf, count, type)) return e;
    if (int e = c.buffer(nullptr, "inoutbuf", inoutbuf, count, type)) return e;
    if (op_reduce(*o, inbuf, inoutbuf, count, *type) != MPI_SUCCESS) {
        const Datatype* basic = op_basic_type(*type);
        if (!basic)
            return c.fail(nullptr, MPI_ERR_OP,
                          "%s needs a datatype made of one basic datatype, but argument datatype mixes several", o->name);
        return c.fail(nullptr, MPI_ERR_OP, "%s is not defined for %s%s", o->name, basic->name,
                      basic == type ? "" : " (the basic datatype of argument datatype)");
    }
    return MPI_SUCCESS;
}
