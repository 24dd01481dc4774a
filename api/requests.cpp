// Completing requests: Wait/Test and their any/some/all forms, persistent
// requests, freeing, cancelling, and reading statuses.
#include <vector>

#include "api/api.hpp"

using namespace hmpi;
using namespace hmpi::api;

namespace {

bool is_active(const Request* r) noexcept {
    return r && r->state.load(std::memory_order_acquire) != Request::kInactive;
}

// Valid handle or MPI_REQUEST_NULL; anything else is MPI_ERR_REQUEST.
int check_request(const Call& c, MPI_Request h, const char* arg, Request** out) {
    *out = request_from_handle(h);
    if (*out || h == MPI_REQUEST_NULL) return MPI_SUCCESS;
    return c.fail(nullptr, MPI_ERR_REQUEST, "argument %s = %p is not a valid request", arg, static_cast<void*>(h));
}

int check_requests(const Call& c, int count, MPI_Request reqs[], std::vector<Request*>& out) {
    if (int e = c.count(nullptr, "count", count)) return e;
    if (count > 0 && !reqs) return c.fail(nullptr, MPI_ERR_ARG, "argument array_of_requests is NULL but count = %d", count);
    out.resize(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i)
        if (int e = check_request(c, reqs[i], "array_of_requests[i]", &out[static_cast<std::size_t>(i)])) return e;
    return MPI_SUCCESS;
}

// Consumes a completed request: fills the status, then frees it (or, if
// persistent, makes it inactive). Returns the operation's error code.
int finish(Request* r, MPI_Request* handle, MPI_Status* st, bool set_error) {
    bool generalized = r->kind == RequestKind::generalized;
    if (generalized) generalized_query(*r);
    if (st) status_from_request(*r, st, set_error);
    int err = r->status_error;
    if (r->persistent) {
        r->state.store(Request::kInactive, std::memory_order_relaxed);
    } else {
        if (generalized) {
            int free_err = generalized_free(*r);
            if (err == MPI_SUCCESS) err = free_err;
        }
        free_request(r);
        *handle = MPI_REQUEST_NULL;
    }
    return err;
}

void empty_status(MPI_Status* st, bool set_error) {
    if (!st) return;
    int err = set_error ? MPI_SUCCESS : st->MPI_ERROR;
    status_set(st, MPI_ANY_SOURCE, MPI_ANY_TAG, err, 0, false);
}

// Raises a completed operation's error through its communicator's handler
// (`comm` is read before the request is freed).
int operation_error(const Call& c, const Comm* comm, int err) {
    if (err == MPI_SUCCESS) return MPI_SUCCESS;
    return c.fail(comm, err, "a request completed with %s", error_class_name(err));
}

MPI_Status* status_at(MPI_Status* arr, int i) { return arr ? &arr[i] : nullptr; }

int start_one(const Call& c, Request* r) {
    if (!r || !r->persistent)
        return c.fail(nullptr, MPI_ERR_REQUEST, "the request is not a persistent request made by an MPI_*_init call");
    if (r->state.load(std::memory_order_acquire) != Request::kInactive)
        return c.fail(r->comm, MPI_ERR_REQUEST, "the persistent request is already active (complete it before restarting)");
    Rank& self = *c.rank();
    r->status_error = MPI_SUCCESS;
    r->status_cancelled = false;
    if (r->kind == RequestKind::recv) {
        start_recv(self, *r);
    } else if (r->mode == SendMode::buffered) {
        std::size_t need = 0, avail = 0;
        if (start_bsend(self, *r, &need, &avail) != MPI_SUCCESS) return raise_bsend_space(c, r->comm, need, avail);
    } else {
        start_send(self, *r);
    }
    return MPI_SUCCESS;
}

}  // namespace

HMPI_API(int, Wait, (MPI_Request *request, MPI_Status *status)) {
    Call c("MPI_Wait");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "request", request)) return e;
    Request* r;
    if (int e = check_request(c, *request, "request", &r)) return e;
    if (!is_active(r)) return empty_status(status, false), MPI_SUCCESS;
    wait_request(*c.rank(), *r);
    const Comm* comm = r->comm;
    return operation_error(c, comm, finish(r, request, status, false));
}

HMPI_API(int, Test, (MPI_Request *request, int *flag, MPI_Status *status)) {
    Call c("MPI_Test");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "request", request)) return e;
    if (int e = c.not_null(nullptr, "flag", flag)) return e;
    Request* r;
    if (int e = check_request(c, *request, "request", &r)) return e;
    if (!is_active(r)) return *flag = 1, empty_status(status, false), MPI_SUCCESS;
    if (!r->complete()) progress(*c.rank());
    *flag = r->complete();
    if (!*flag) {
        idle_poll(*c.rank());
        return MPI_SUCCESS;
    }
    const Comm* comm = r->comm;
    return operation_error(c, comm, finish(r, request, status, false));
}

HMPI_API(int, Waitall, (int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])) {
    Call c("MPI_Waitall");
    if (int e = c.require_initialized()) return e;
    std::vector<Request*> rs;
    if (int e = check_requests(c, count, array_of_requests, rs)) return e;
    Rank& self = *c.rank();
    wait_until(self, [&] {
        for (Request* r : rs)
            if (is_active(r) && !r->complete()) return false;
        return true;
    });
    bool any_error = false;
    for (int i = 0; i < count; ++i) {
        Request* r = rs[static_cast<std::size_t>(i)];
        if (!is_active(r)) {
            empty_status(status_at(array_of_statuses, i), true);
            continue;
        }
        any_error |= finish(r, &array_of_requests[i], status_at(array_of_statuses, i), true) != MPI_SUCCESS;
    }
    if (any_error) return c.fail(nullptr, MPI_ERR_IN_STATUS, "one or more requests failed; see the statuses' MPI_ERROR");
    return MPI_SUCCESS;
}

HMPI_API(int, Testall, (int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[])) {
    Call c("MPI_Testall");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "flag", flag)) return e;
    std::vector<Request*> rs;
    if (int e = check_requests(c, count, array_of_requests, rs)) return e;
    progress(*c.rank());
    for (Request* r : rs) {
        if (is_active(r) && !r->complete()) {
            idle_poll(*c.rank());
            return *flag = 0, MPI_SUCCESS;
        }
    }
    *flag = 1;
    bool any_error = false;
    for (int i = 0; i < count; ++i) {
        Request* r = rs[static_cast<std::size_t>(i)];
        if (!is_active(r)) {
            empty_status(status_at(array_of_statuses, i), true);
            continue;
        }
        any_error |= finish(r, &array_of_requests[i], status_at(array_of_statuses, i), true) != MPI_SUCCESS;
    }
    if (any_error) return c.fail(nullptr, MPI_ERR_IN_STATUS, "one or more requests failed; see the statuses' MPI_ERROR");
    return MPI_SUCCESS;
}

HMPI_API(int, Waitany, (int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)) {
    Call c("MPI_Waitany");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "index", index)) return e;
    std::vector<Request*> rs;
    if (int e = check_requests(c, count, array_of_requests, rs)) return e;
    bool any_active = false;
    for (Request* r : rs) any_active |= is_active(r);
    if (!any_active) return *index = MPI_UNDEFINED, empty_status(status, false), MPI_SUCCESS;
    int found = -1;
    wait_until(*c.rank(), [&] {
        for (int i = 0; i < count; ++i) {
            Request* r = rs[static_cast<std::size_t>(i)];
            if (is_active(r) && r->complete()) return found = i, true;
        }
        return false;
    });
    *index = found;
    Request* r = rs[static_cast<std::size_t>(found)];
    const Comm* comm = r->comm;
    return operation_error(c, comm, finish(r, &array_of_requests[found], status, false));
}

HMPI_API(int, Testany, (int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status)) {
    Call c("MPI_Testany");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "index", index)) return e;
    if (int e = c.not_null(nullptr, "flag", flag)) return e;
    std::vector<Request*> rs;
    if (int e = check_requests(c, count, array_of_requests, rs)) return e;
    progress(*c.rank());
    bool any_active = false;
    for (int i = 0; i < count; ++i) {
        Request* r = rs[static_cast<std::size_t>(i)];
        if (!is_active(r)) continue;
        any_active = true;
        if (r->complete()) {
            *flag = 1;
            *index = i;
            const Comm* comm = r->comm;
            return operation_error(c, comm, finish(r, &array_of_requests[i], status, false));
        }
    }
    *index = MPI_UNDEFINED;
    *flag = !any_active;
    if (!any_active) empty_status(status, false);
    else idle_poll(*c.rank());
    return MPI_SUCCESS;
}

namespace {

int complete_some(const Call& c, int incount, MPI_Request reqs[], const std::vector<Request*>& rs, int* outcount,
                  int indices[], MPI_Status statuses[]) {
    int n = 0;
    bool any_error = false;
    for (int i = 0; i < incount; ++i) {
        Request* r = rs[static_cast<std::size_t>(i)];
        if (!is_active(r) || !r->complete()) continue;
        indices[n] = i;
        any_error |= finish(r, &reqs[i], status_at(statuses, n), true) != MPI_SUCCESS;
        ++n;
    }
    *outcount = n;
    if (any_error) return c.fail(nullptr, MPI_ERR_IN_STATUS, "one or more requests failed; see the statuses' MPI_ERROR");
    return MPI_SUCCESS;
}

int some(const Call& c, bool wait, int incount, MPI_Request reqs[], int* outcount, int indices[], MPI_Status statuses[]) {
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "outcount", outcount)) return e;
    std::vector<Request*> rs;
    if (int e = check_requests(c, incount, reqs, rs)) return e;
    if (incount > 0 && !indices) return c.fail(nullptr, MPI_ERR_ARG, "argument array_of_indices is NULL");
    bool any_active = false;
    for (Request* r : rs) any_active |= is_active(r);
    if (!any_active) return *outcount = MPI_UNDEFINED, MPI_SUCCESS;
    auto ready = [&] {
        for (Request* r : rs)
            if (is_active(r) && r->complete()) return true;
        return false;
    };
    if (wait) wait_until(*c.rank(), ready);
    else progress(*c.rank());
    const int rc = complete_some(c, incount, reqs, rs, outcount, indices, statuses);
    if (!wait && *outcount == 0) idle_poll(*c.rank());
    return rc;
}

}  // namespace

HMPI_API(int, Waitsome, (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[])) {
    Call c("MPI_Waitsome");
    return some(c, true, incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
}

HMPI_API(int, Testsome, (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[])) {
    Call c("MPI_Testsome");
    return some(c, false, incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
}

HMPI_API(int, Start, (MPI_Request *request)) {
    Call c("MPI_Start");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "request", request)) return e;
    Request* r;
    if (int e = check_request(c, *request, "request", &r)) return e;
    return start_one(c, r);
}

HMPI_API(int, Startall, (int count, MPI_Request array_of_requests[])) {
    Call c("MPI_Startall");
    if (int e = c.require_initialized()) return e;
    std::vector<Request*> rs;
    if (int e = check_requests(c, count, array_of_requests, rs)) return e;
    for (Request* r : rs)
        if (int e = start_one(c, r)) return e;
    return MPI_SUCCESS;
}

HMPI_API(int, Request_free, (MPI_Request *request)) {
    Call c("MPI_Request_free");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "request", request)) return e;
    Request* r;
    if (int e = check_request(c, *request, "request", &r)) return e;
    if (!r) return c.fail(nullptr, MPI_ERR_REQUEST, "argument request is MPI_REQUEST_NULL");
    Rank& self = *c.rank();
    if (r->kind == RequestKind::generalized) {
        // Complete already: the free callback runs now; otherwise
        // MPI_Grequest_complete runs it (MPI 3.1, 12.2).
        *request = MPI_REQUEST_NULL;
        if (r->generalized->release_votes.fetch_add(1, std::memory_order_acq_rel) != 1) return MPI_SUCCESS;
        int err = generalized_free(*r);
        free_request(r);
        return err == MPI_SUCCESS ? MPI_SUCCESS : c.fail(nullptr, err, "the generalized request's free callback failed");
    }
    if (r->state.load(std::memory_order_acquire) == Request::kActive) {
        // Still in flight: the operation goes on and progress frees it later.
        MaybeLock guard(self.lock, self.multithreaded);
        r->detached = true;
        self.detached.push_back(r);
    } else {
        free_request(r);
    }
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}

HMPI_API(int, Request_get_status, (MPI_Request request, int *flag, MPI_Status *status)) {
    Call c("MPI_Request_get_status");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "flag", flag)) return e;
    Request* r;
    if (int e = check_request(c, request, "request", &r)) return e;
    if (!is_active(r)) return *flag = 1, empty_status(status, false), MPI_SUCCESS;
    if (!r->complete()) progress(*c.rank());
    *flag = r->complete();
    if (!*flag) idle_poll(*c.rank());
    if (*flag && r->kind == RequestKind::generalized) generalized_query(*r);
    if (*flag && status) status_from_request(*r, status);
    return MPI_SUCCESS;
}

HMPI_API(int, Cancel, (MPI_Request *request)) {
    Call c("MPI_Cancel");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "request", request)) return e;
    Request* r;
    if (int e = check_request(c, *request, "request", &r)) return e;
    if (!r) return c.fail(nullptr, MPI_ERR_REQUEST, "argument request is MPI_REQUEST_NULL");
    // Receives still waiting for a match are cancelled. A send may already be
    // matched or copied: it is left to complete, and MPI_Test_cancelled says false.
    if (r->kind == RequestKind::recv) cancel_recv(*c.rank(), *r);
    if (r->kind == RequestKind::generalized) {
        if (int err = generalized_cancel(*r)) return c.fail(nullptr, err, "the generalized request's cancel callback failed");
    }
    return MPI_SUCCESS;
}

HMPI_API(int, Test_cancelled, (const MPI_Status *status, int *flag)) {
    Call c("MPI_Test_cancelled");
    if (int e = c.not_null(nullptr, "status", status)) return e;
    if (int e = c.not_null(nullptr, "flag", flag)) return e;
    *flag = status_cancelled(status);
    return MPI_SUCCESS;
}

// Element counts (MPI 3.1, 3.2.5 and 4.1.11): whole elements of the
// datatype, or basic elements (MPI_Get_elements); MPI_UNDEFINED when the
// received bytes end inside one, or the count does not fit an int.
HMPI_API(int, Get_count, (const MPI_Status *status, MPI_Datatype datatype, int *count)) {
    Call c("MPI_Get_count");
    if (int e = c.not_null(nullptr, "status", status)) return e;
    if (int e = c.not_null(nullptr, "count", count)) return e;
    const Datatype* t;
    if (int e = c.type(nullptr, "datatype", datatype, &t, false)) return e;
    std::int64_t bytes = status_bytes(status);
    if (t->size == 0) *count = 0;
    else if (bytes % static_cast<std::int64_t>(t->size)) *count = MPI_UNDEFINED;
    else if (bytes / static_cast<std::int64_t>(t->size) > INT_MAX) *count = MPI_UNDEFINED;
    else *count = static_cast<int>(bytes / static_cast<std::int64_t>(t->size));
    return MPI_SUCCESS;
}

HMPI_API(int, Get_elements, (const MPI_Status *status, MPI_Datatype datatype, int *count)) {
    Call c("MPI_Get_elements");
    if (int e = c.not_null(nullptr, "status", status)) return e;
    if (int e = c.not_null(nullptr, "count", count)) return e;
    const Datatype* t;
    if (int e = c.type(nullptr, "datatype", datatype, &t, false)) return e;
    const std::int64_t n = datatype_elements(*t, status_bytes(status));
    *count = (n < 0 || n > INT_MAX) ? MPI_UNDEFINED : static_cast<int>(n);
    return MPI_SUCCESS;
}

HMPI_API(int, Get_elements_x, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)) {
    Call c("MPI_Get_elements_x");
    if (int e = c.not_null(nullptr, "status", status)) return e;
    if (int e = c.not_null(nullptr, "count", count)) return e;
    const Datatype* t;
    if (int e = c.type(nullptr, "datatype", datatype, &t, false)) return e;
    const std::int64_t n = datatype_elements(*t, status_bytes(status));
    *count = n < 0 ? MPI_Count{MPI_UNDEFINED} : n;
    return MPI_SUCCESS;
}
