// Argument checking shared by every API function.
#include <cstdarg>
#include <cstdio>

#include "api/api.hpp"

namespace hmpi::api {

int Call::fail(const Comm* comm, int cls, const char* fmt, ...) const {
    char detail[600];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    return raise(rank_, comm, name_, cls, "%s", detail);
}

int Call::reject_uninitialized() const {
    if (!rank_) return raise(nullptr, nullptr, name_, MPI_ERR_OTHER, "MPI is called from a thread that was not started by an MPI rank");
    RankPhase p = rank_->phase.load(std::memory_order_relaxed);
    return fail(nullptr, MPI_ERR_OTHER, p == RankPhase::finalized ? "called after MPI_Finalize" : "called before MPI_Init");
}

int Call::reject_comm(MPI_Comm h) const {
    if (h == MPI_COMM_NULL) return fail(nullptr, MPI_ERR_COMM, "argument comm is MPI_COMM_NULL");
    return fail(nullptr, MPI_ERR_COMM, "argument comm = %p is not a valid communicator", static_cast<void*>(h));
}

int Call::reject_count(const Comm* c, const char* arg, std::int64_t v) const {
    if (v >= 0)
        return fail(c, MPI_ERR_COUNT, "argument %s = %lld: the data's size in bytes does not fit in 64 bits", arg,
                    static_cast<long long>(v));
    return fail(c, MPI_ERR_COUNT, "argument %s = %lld is negative", arg, static_cast<long long>(v));
}

int Call::reject_type(const Comm* c, const char* arg, MPI_Datatype h) const {
    if (const Datatype* t = datatype_from_handle(h))
        return fail(c, MPI_ERR_TYPE, "argument %s = %p%s%s%s is not committed (call MPI_Type_commit first)", arg,
                    static_cast<void*>(h), t->name[0] ? " (" : "", t->name, t->name[0] ? ")" : "");
    switch (classify_bad_datatype(h)) {
        case BadDatatype::null: return fail(c, MPI_ERR_TYPE, "argument %s is MPI_DATATYPE_NULL", arg);
        case BadDatatype::freed:
            return fail(c, MPI_ERR_TYPE, "argument %s = %p is a datatype that was freed (MPI_Type_free)", arg,
                        static_cast<void*>(h));
        case BadDatatype::not_a_datatype: break;
    }
    return fail(c, MPI_ERR_TYPE, "argument %s = %p is not a valid datatype", arg, static_cast<void*>(h));
}

int Call::reject_buffer(const Comm* c, const char* arg, std::int64_t n, const Datatype* t) const {
    return fail(c, MPI_ERR_BUFFER, "argument %s is NULL but count = %lld of %s", arg, static_cast<long long>(n), t->name);
}

int Call::reject_rank(const Comm* c, const char* arg, int v) const {
    if (c->is_inter())
        return fail(c, MPI_ERR_RANK, "argument %s = %d, but the remote group of %s has %d ranks", arg, v, comm_name(c),
                    c->peer_count());
    return fail(c, MPI_ERR_RANK, "argument %s = %d, but %s has %d ranks", arg, v, comm_name(c), c->size());
}

int Call::reject_send_tag(const Comm* c, int v) const {
    if (v == MPI_ANY_TAG) return fail(c, MPI_ERR_TAG, "argument tag = MPI_ANY_TAG is not allowed in a send");
    return fail(c, MPI_ERR_TAG, "argument tag = %d is negative", v);
}

int Call::reject_recv_tag(const Comm* c, int v) const {
    return fail(c, MPI_ERR_TAG, "argument tag = %d is negative and not MPI_ANY_TAG", v);
}

int Call::reject_null(const Comm* c, const char* arg) const {
    return fail(c, MPI_ERR_ARG, "argument %s is NULL", arg);
}

int raise_bsend_space(const Call& c, const Comm* comm, std::size_t need, std::size_t avail) {
    return c.fail(comm, MPI_ERR_BUFFER,
                  "the attached buffer has %zu bytes free, but this message needs %zu (attach a larger buffer with "
                  "MPI_Buffer_attach)",
                  avail, need);
}

Request* request_from_handle(MPI_Request h) noexcept {
    if (h == MPI_REQUEST_NULL || reinterpret_cast<std::uintptr_t>(h) < 0x1000) return nullptr;
    auto* r = reinterpret_cast<Request*>(h);
    return r->magic == Request::kMagic ? r : nullptr;
}

}  // namespace hmpi::api
