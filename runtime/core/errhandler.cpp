// User error handler objects and the table of user error classes, codes and
// strings (MPI 3.1, 8.3 and 8.5).
#include "core/errhandler.hpp"

#include <cstring>
#include <mutex>
#include <unordered_map>

namespace hmpi {

namespace {

constexpr int kLastPredefinedClass = MPI_ERR_ERRHANDLER;

bool predefined_handle(MPI_Errhandler h) noexcept {
    return h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_RETURN || h == MPI_ERRORS_ABORT;
}

}  // namespace

bool errhandler_is_predefined(MPI_Errhandler h) noexcept { return predefined_handle(h); }

Errhandler* errhandler_from_handle(MPI_Errhandler h) noexcept {
    if (h == MPI_ERRHANDLER_NULL || reinterpret_cast<std::uintptr_t>(h) < 0x1000) return nullptr;
    auto* e = reinterpret_cast<Errhandler*>(h);
    return e->magic == Errhandler::kMagic ? e : nullptr;
}

bool errhandler_valid_for_comm(MPI_Errhandler h) noexcept {
    if (predefined_handle(h)) return true;
    Errhandler* e = errhandler_from_handle(h);
    return e && e->kind == ErrhandlerKind::comm;
}

MPI_Errhandler errhandler_create_comm(MPI_Comm_errhandler_function* fn) {
    auto* e = new Errhandler;
    e->kind = ErrhandlerKind::comm;
    e->comm_fn = fn;
    return reinterpret_cast<MPI_Errhandler>(e);
}

void errhandler_retain(MPI_Errhandler h) noexcept {
    if (Errhandler* e = errhandler_from_handle(h)) e->refs.retain();
}

void errhandler_release(MPI_Errhandler h) noexcept {
    if (Errhandler* e = errhandler_from_handle(h); e && e->refs.release()) {
        e->magic = 0;
        delete e;
    }
}

// ---- User error classes and codes.

namespace {

struct UserError {
    int cls;           // its own value for a class
    std::string text;  // MPI_Add_error_string ("" until then)
};

struct ErrorTable {
    std::mutex mutex;
    std::unordered_map<int, UserError> entries;
    // The MPI_LASTUSEDCODE value; written under `mutex`, read by anyone
    // through the attribute pointer (hence the atomic stores).
    int last_used = MPI_ERR_LASTCODE;
};

ErrorTable& errors() {
    static ErrorTable t;
    return t;
}

// Under the table's mutex.
int allocate(ErrorTable& t, int* value) noexcept {
    int last = t.last_used;
    if (last == INT32_MAX) return MPI_ERR_OTHER;
    *value = last + 1;
    __atomic_store_n(&t.last_used, last + 1, __ATOMIC_RELEASE);
    return MPI_SUCCESS;
}

}  // namespace

int error_add_class(int* cls) noexcept {
    ErrorTable& t = errors();
    std::lock_guard<std::mutex> hold(t.mutex);
    int v;
    if (int rc = allocate(t, &v)) return rc;
    t.entries.emplace(v, UserError{v, {}});
    *cls = v;
    return MPI_SUCCESS;
}

int error_add_code(int cls, int* code) noexcept {
    ErrorTable& t = errors();
    std::lock_guard<std::mutex> hold(t.mutex);
    if (cls < 0) return MPI_ERR_ARG;
    if (cls > kLastPredefinedClass) {
        auto it = t.entries.find(cls);
        if (it == t.entries.end() || it->second.cls != cls) return MPI_ERR_ARG;  // unknown, or a code but not a class
    }
    int v;
    if (int rc = allocate(t, &v)) return rc;
    t.entries.emplace(v, UserError{cls, {}});
    *code = v;
    return MPI_SUCCESS;
}

int error_add_string(int code, const char* text) {
    ErrorTable& t = errors();
    std::lock_guard<std::mutex> hold(t.mutex);
    auto it = t.entries.find(code);
    if (it == t.entries.end()) return MPI_ERR_ARG;
    it->second.text = text;
    return MPI_SUCCESS;
}

bool error_class_of(int code, int* cls) noexcept {
    if (code >= 0 && code <= kLastPredefinedClass) {
        *cls = code;
        return true;
    }
    ErrorTable& t = errors();
    std::lock_guard<std::mutex> hold(t.mutex);
    auto it = t.entries.find(code);
    if (it == t.entries.end()) return false;
    *cls = it->second.cls;
    return true;
}

bool error_user_string(int code, std::string* text) {
    ErrorTable& t = errors();
    std::lock_guard<std::mutex> hold(t.mutex);
    auto it = t.entries.find(code);
    if (it == t.entries.end()) return false;
    *text = it->second.text;
    return true;
}

int* error_last_used_code() noexcept { return &errors().last_used; }

}  // namespace hmpi
