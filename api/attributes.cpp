// Attribute caching (MPI 3.1, 6.7): keyvals for communicators, datatypes
// and windows, attributes on communicators and datatypes, the deprecated
// MPI-1 forms (Keyval_create/free, Attr_put/get/delete), and the predefined
// attributes of 8.1.2 (MPI_TAG_UB ... MPI_LASTUSEDCODE), readable on any
// communicator as in Open MPI and MPICH.
//
// Windows are out of scope: their keyvals can be created and freed, but
// there are no windows to attach them to.
#include "api/api.hpp"
#include "core/attributes.hpp"

using namespace hmpi;
using namespace hmpi::api;

namespace {

const char* kind_name(AttrObject k) noexcept {
    switch (k) {
        case AttrObject::comm: return "communicator";
        case AttrObject::datatype: return "datatype";
        case AttrObject::win: return "window";
    }
    return "object";
}

int create_keyval(const Call& c, AttrObject kind, AttrCallback copy_fn, AttrCallback delete_fn, int* keyval,
                  void* extra_state, bool deprecated) {
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "keyval", keyval)) return e;
    if (int rc = keyval_create(kind, copy_fn, delete_fn, extra_state, deprecated, keyval))
        return c.fail(nullptr, rc, "the keyval table is full");
    return MPI_SUCCESS;
}

// The live keyval `id` for objects of `kind`, or the raised MPI_ERR_KEYVAL.
// `predefined_ok`: the predefined attribute keys are accepted (reads) and
// leave *out null.
int lookup_keyval(const Call& c, const Comm* err_comm, int id, AttrObject kind, bool predefined_ok, Keyval** out) {
    *out = nullptr;
    if (is_predefined_keyval(id)) {
        if (predefined_ok && kind == AttrObject::comm) return MPI_SUCCESS;
        return c.fail(err_comm, MPI_ERR_KEYVAL, "argument keyval = %d is a predefined attribute key, which %s", id,
                      kind == AttrObject::comm ? "cannot be set, deleted or freed" : "belongs to communicators");
    }
    Keyval* k = keyval_from_id(id);
    if (!k) {
        if (id == MPI_KEYVAL_INVALID) return c.fail(err_comm, MPI_ERR_KEYVAL, "argument keyval is MPI_KEYVAL_INVALID");
        return c.fail(err_comm, MPI_ERR_KEYVAL, "argument keyval = %d is not a valid keyval (never created, or freed)", id);
    }
    if (keyval_kind(k) != kind)
        return c.fail(err_comm, MPI_ERR_KEYVAL, "argument keyval = %d is a %s keyval, not a %s keyval", id,
                      kind_name(keyval_kind(k)), kind_name(kind));
    *out = k;
    return MPI_SUCCESS;
}

int free_keyval(const Call& c, AttrObject kind, int* keyval) {
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "keyval", keyval)) return e;
    Keyval* k;
    if (int e = lookup_keyval(c, nullptr, *keyval, kind, false, &k)) return e;
    keyval_free(k);
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

int callback_failed(const Call& c, const Comm* comm, int rc, const char* which, int id) {
    return c.fail(comm, rc, "the %s callback of keyval %d returned error code %d", which, id, rc);
}

// ---- Communicators.

int comm_set_attr(const Call& c, MPI_Comm comm, int keyval, void* value) {
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    if (int e = c.comm(comm, &cm)) return e;
    Keyval* k;
    if (int e = lookup_keyval(c, cm, keyval, AttrObject::comm, false, &k)) return e;
    if (int rc = cm->attrs.set(k, value, static_cast<void*>(cm->handle))) return callback_failed(c, cm, rc, "delete", keyval);
    return MPI_SUCCESS;
}

int comm_get_attr(const Call& c, MPI_Comm comm, int keyval, void* value, int* flag) {
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    if (int e = c.comm(comm, &cm)) return e;
    Keyval* k;
    if (int e = lookup_keyval(c, cm, keyval, AttrObject::comm, true, &k)) return e;
    if (int e = c.not_null(cm, "attribute_val", value)) return e;
    if (int e = c.not_null(cm, "flag", flag)) return e;
    void* v = nullptr;
    if (!k) {
        // A predefined attribute: the value is a pointer to the int.
        v = predefined_attribute_value(keyval, c.rank()->world_rank);
        *flag = 1;
    } else {
        *flag = cm->attrs.get(k, &v) ? 1 : 0;
    }
    if (*flag) *static_cast<void**>(value) = v;
    return MPI_SUCCESS;
}

int comm_delete_attr(const Call& c, MPI_Comm comm, int keyval) {
    if (int e = c.require_initialized()) return e;
    Comm* cm;
    if (int e = c.comm(comm, &cm)) return e;
    Keyval* k;
    if (int e = lookup_keyval(c, cm, keyval, AttrObject::comm, false, &k)) return e;
    if (int rc = cm->attrs.remove(k, static_cast<void*>(cm->handle))) return callback_failed(c, cm, rc, "delete", keyval);
    return MPI_SUCCESS;
}

// ---- Datatypes.

int type_set_attr(const Call& c, MPI_Datatype datatype, int keyval, void* value) {
    if (int e = c.require_initialized()) return e;
    const Datatype* t;
    if (int e = c.type(nullptr, "datatype", datatype, &t, false)) return e;  // committed or not
    Keyval* k;
    if (int e = lookup_keyval(c, nullptr, keyval, AttrObject::datatype, false, &k)) return e;
    AttributeSet& attrs = datatype_attributes(c.rank()->world_rank, *t);
    if (int rc = attrs.set(k, value, static_cast<void*>(t->handle))) return callback_failed(c, nullptr, rc, "delete", keyval);
    return MPI_SUCCESS;
}

int type_get_attr(const Call& c, MPI_Datatype datatype, int keyval, void* value, int* flag) {
    if (int e = c.require_initialized()) return e;
    const Datatype* t;
    if (int e = c.type(nullptr, "datatype", datatype, &t, false)) return e;  // committed or not
    Keyval* k;
    if (int e = lookup_keyval(c, nullptr, keyval, AttrObject::datatype, false, &k)) return e;
    if (int e = c.not_null(nullptr, "attribute_val", value)) return e;
    if (int e = c.not_null(nullptr, "flag", flag)) return e;
    void* v = nullptr;
    *flag = datatype_attributes(c.rank()->world_rank, *t).get(k, &v) ? 1 : 0;
    if (*flag) *static_cast<void**>(value) = v;
    return MPI_SUCCESS;
}

int type_delete_attr(const Call& c, MPI_Datatype datatype, int keyval) {
    if (int e = c.require_initialized()) return e;
    const Datatype* t;
    if (int e = c.type(nullptr, "datatype", datatype, &t, false)) return e;  // committed or not
    Keyval* k;
    if (int e = lookup_keyval(c, nullptr, keyval, AttrObject::datatype, false, &k)) return e;
    AttributeSet& attrs = datatype_attributes(c.rank()->world_rank, *t);
    if (int rc = attrs.remove(k, static_cast<void*>(t->handle))) return callback_failed(c, nullptr, rc, "delete", keyval);
    return MPI_SUCCESS;
}

}  // namespace

// ---- Keyvals.

HMPI_API(int, Comm_create_keyval,
         (MPI_Comm_copy_attr_function *comm_copy_attr_fn, MPI_Comm_delete_attr_function *comm_delete_attr_fn,
          int *comm_keyval, void *extra_state)) {
    Call c("MPI_Comm_create_keyval");
    return create_keyval(c, AttrObject::comm, reinterpret_cast<AttrCallback>(comm_copy_attr_fn),
                         reinterpret_cast<AttrCallback>(comm_delete_attr_fn), comm_keyval, extra_state, false);
}

HMPI_API(int, Comm_free_keyval, (int *comm_keyval)) {
    Call c("MPI_Comm_free_keyval");
    return free_keyval(c, AttrObject::comm, comm_keyval);
}

HMPI_API(int, Type_create_keyval,
         (MPI_Type_copy_attr_function *type_copy_attr_fn, MPI_Type_delete_attr_function *type_delete_attr_fn,
          int *type_keyval, void *extra_state)) {
    Call c("MPI_Type_create_keyval");
    return create_keyval(c, AttrObject::datatype, reinterpret_cast<AttrCallback>(type_copy_attr_fn),
                         reinterpret_cast<AttrCallback>(type_delete_attr_fn), type_keyval, extra_state, false);
}

HMPI_API(int, Type_free_keyval, (int *type_keyval)) {
    Call c("MPI_Type_free_keyval");
    return free_keyval(c, AttrObject::datatype, type_keyval);
}

HMPI_API(int, Win_create_keyval,
         (MPI_Win_copy_attr_function *win_copy_attr_fn, MPI_Win_delete_attr_function *win_delete_attr_fn,
          int *win_keyval, void *extra_state)) {
    Call c("MPI_Win_create_keyval");
    return create_keyval(c, AttrObject::win, reinterpret_cast<AttrCallback>(win_copy_attr_fn),
                         reinterpret_cast<AttrCallback>(win_delete_attr_fn), win_keyval, extra_state, false);
}

HMPI_API(int, Win_free_keyval, (int *win_keyval)) {
    Call c("MPI_Win_free_keyval");
    return free_keyval(c, AttrObject::win, win_keyval);
}

// Deprecated MPI-1 forms: communicator keyvals and attributes.
HMPI_API(int, Keyval_create, (MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval, void *extra_state)) {
    Call c("MPI_Keyval_create");
    return create_keyval(c, AttrObject::comm, reinterpret_cast<AttrCallback>(copy_fn),
                         reinterpret_cast<AttrCallback>(delete_fn), keyval, extra_state, true);
}

HMPI_API(int, Keyval_free, (int *keyval)) {
    Call c("MPI_Keyval_free");
    return free_keyval(c, AttrObject::comm, keyval);
}

// ---- Attributes on communicators.

HMPI_API(int, Comm_set_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val)) {
    Call c("MPI_Comm_set_attr");
    return comm_set_attr(c, comm, comm_keyval, attribute_val);
}

HMPI_API(int, Comm_get_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)) {
    Call c("MPI_Comm_get_attr");
    return comm_get_attr(c, comm, comm_keyval, attribute_val, flag);
}

HMPI_API(int, Comm_delete_attr, (MPI_Comm comm, int comm_keyval)) {
    Call c("MPI_Comm_delete_attr");
    return comm_delete_attr(c, comm, comm_keyval);
}

HMPI_API(int, Attr_put, (MPI_Comm comm, int keyval, void *attribute_val)) {
    Call c("MPI_Attr_put");
    return comm_set_attr(c, comm, keyval, attribute_val);
}

HMPI_API(int, Attr_get, (MPI_Comm comm, int keyval, void *attribute_val, int *flag)) {
    Call c("MPI_Attr_get");
    return comm_get_attr(c, comm, keyval, attribute_val, flag);
}

HMPI_API(int, Attr_delete, (MPI_Comm comm, int keyval)) {
    Call c("MPI_Attr_delete");
    return comm_delete_attr(c, comm, keyval);
}

// ---- Attributes on datatypes.

HMPI_API(int, Type_set_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val)) {
    Call c("MPI_Type_set_attr");
    return type_set_attr(c, datatype, type_keyval, attribute_val);
}

HMPI_API(int, Type_get_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)) {
    Call c("MPI_Type_get_attr");
    return type_get_attr(c, datatype, type_keyval, attribute_val, flag);
}

HMPI_API(int, Type_delete_attr, (MPI_Datatype datatype, int type_keyval)) {
    Call c("MPI_Type_delete_attr");
    return type_delete_attr(c, datatype, type_keyval);
}
