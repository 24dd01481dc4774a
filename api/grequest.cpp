// Generalized requests (MPI 3.1, section 12.2): operations the application
// completes itself, waited on and tested like any other request.
//
// The runtime never advances them: MPI_Grequest_complete marks them done
// (from any thread, also one that is not a rank) and rings the owner's
// doorbell in case it is parked in a wait. The user's query callback fills
// the status when a wait or test returns the request; the free callback runs
// when the request is freed.
#include "api/api.hpp"

using namespace hmpi;
using namespace hmpi::api;

namespace hmpi::api {

int generalized_query(Request& r) {
    MPI_Status st;
    status_set(&st, MPI_UNDEFINED, MPI_UNDEFINED, MPI_SUCCESS, 0, false);
    GeneralizedHooks& g = *r.generalized;
    int err = g.query ? g.query(g.extra_state, &st) : MPI_SUCCESS;
    r.status_source = st.MPI_SOURCE;
    r.status_tag = st.MPI_TAG;
    r.status_bytes = status_bytes(&st);
    r.status_cancelled = status_cancelled(&st);
    r.status_error = err != MPI_SUCCESS ? err : st.MPI_ERROR;
    return err;
}

int generalized_free(Request& r) {
    GeneralizedHooks& g = *r.generalized;
    return g.free ? g.free(g.extra_state) : MPI_SUCCESS;
}

int generalized_cancel(Request& r) {
    GeneralizedHooks& g = *r.generalized;
    return g.cancel ? g.cancel(g.extra_state, r.complete() ? 1 : 0) : MPI_SUCCESS;
}

}  // namespace hmpi::api

HMPI_API(int, Grequest_start, (MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                               MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request)) {
    Call c("MPI_Grequest_start");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "request", request)) return e;
    auto* r = new Request;
    r->kind = RequestKind::generalized;
    r->owner = c.rank();
    r->generalized = std::make_unique<GeneralizedHooks>();
    r->generalized->query = query_fn;
    r->generalized->free = free_fn;
    r->generalized->cancel = cancel_fn;
    r->generalized->extra_state = extra_state;
    r->state.store(Request::kActive, std::memory_order_release);
    *request = to_handle(r);
    return MPI_SUCCESS;
}

HMPI_API(int, Grequest_complete, (MPI_Request request)) {
    // Any thread may complete a generalized request, also one that is not an
    // MPI rank (an I/O thread the application started).
    Call c("MPI_Grequest_complete");
    Request* r = request_from_handle(request);
    if (!r || r->kind != RequestKind::generalized)
        return c.fail(nullptr, MPI_ERR_REQUEST, "argument request = %p is not a generalized request",
                      static_cast<void*>(request));
    if (r->complete()) return c.fail(nullptr, MPI_ERR_REQUEST, "the generalized request is already complete");
    Rank* owner = r->owner;
    if (r->generalized->release_votes.fetch_add(1, std::memory_order_acq_rel) == 1) {
        // Freed by the application before completion: the free callback runs now.
        int err = generalized_free(*r);
        free_request(r);
        return err == MPI_SUCCESS ? MPI_SUCCESS : c.fail(nullptr, err, "the generalized request's free callback failed");
    }
    // The owner may free the request as soon as it sees it complete.
    r->state.store(Request::kComplete, std::memory_order_release);
    owner->doorbell.ring();
    return MPI_SUCCESS;
}
