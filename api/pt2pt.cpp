// Point-to-point: sends in four modes, receives, probes, buffered-send buffers.
#include <vector>

#include "api/api.hpp"

using namespace hmpi;
using namespace hmpi::api;

namespace {

struct Checked {
    Comm* comm = nullptr;
    const Datatype* type = nullptr;
};

int check_send(const Call& c, const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, Checked* out) {
    if (int e = c.require_initialized()) return e;
    if (int e = c.comm(comm, &out->comm)) return e;
    if (int e = c.count(out->comm, "count", count)) return e;
    if (int e = c.type(out->comm, "datatype", dt, &out->type)) return e;
    if (int e = c.buffer(out->comm, "buf", buf, count, out->type)) return e;
    if (int e = c.dest(out->comm, dest)) return e;
    return c.send_tag(out->comm, tag);
}

int check_recv(const Call& c, const void* buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm, Checked* out) {
    if (int e = c.require_initialized()) return e;
    if (int e = c.comm(comm, &out->comm)) return e;
    if (int e = c.count(out->comm, "count", count)) return e;
    if (int e = c.type(out->comm, "datatype", dt, &out->type)) return e;
    if (int e = c.buffer(out->comm, "buf", buf, count, out->type)) return e;
    if (int e = c.source(out->comm, source)) return e;
    return c.recv_tag(out->comm, tag);
}

void fill_send(Request& r, SendMode mode, const void* buf, int count, const Checked& a, int dest, int tag) {
    r.kind = RequestKind::send;
    r.mode = mode;
    r.send_buf = buf;
    r.count = count;
    r.type = a.type;
    r.peer = dest;
    r.tag = tag;
    r.comm = a.comm;
    r.context = a.comm->shared->context_id;
}

void fill_recv(Request& r, void* buf, int count, const Checked& a, int source, int tag) {
    r.kind = RequestKind::recv;
    r.recv_buf = buf;
    r.count = count;
    r.type = a.type;
    r.peer = source;
    r.tag = tag;
    r.comm = a.comm;
    r.context = a.comm->shared->context_id;
}

int blocking_send(const char* name, SendMode mode, const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm) {
    Call c(name);
    Checked a;
    if (int e = check_send(c, buf, count, datatype, dest, tag, comm, &a)) return e;
    Rank& self = *c.rank();
    Request r;
    fill_send(r, mode, buf, count, a, dest, tag);
    if (mode == SendMode::buffered) {
        std::size_t need = 0, avail = 0;
        if (start_bsend(self, r, &need, &avail) != MPI_SUCCESS) return raise_bsend_space(c, a.comm, need, avail);
        return MPI_SUCCESS;
    }
    start_send(self, r);
    if (!r.complete()) {
        c.waiting_for(dest, tag);
        wait_request(self, r);
    }
    return MPI_SUCCESS;
}

int nonblocking_send(const char* name, SendMode mode, const void* buf, int count, MPI_Datatype datatype, int dest,
                     int tag, MPI_Comm comm, MPI_Request* request) {
    Call c(name);
    Checked a;
    if (int e = check_send(c, buf, count, datatype, dest, tag, comm, &a)) return e;
    if (int e = c.not_null(a.comm, "request", request)) return e;
    Rank& self = *c.rank();
    auto* r = new Request;
    fill_send(*r, mode, buf, count, a, dest, tag);
    request_hold_objects(*r);
    r->owner = &self;
    if (mode == SendMode::buffered) {
        std::size_t need = 0, avail = 0;
        if (start_bsend(self, *r, &need, &avail) != MPI_SUCCESS) {
            free_request(r);
            return raise_bsend_space(c, a.comm, need, avail);
        }
    } else {
        start_send(self, *r);
    }
    *request = to_handle(r);
    return MPI_SUCCESS;
}

int persistent_send(const char* name, SendMode mode, const void* buf, int count, MPI_Datatype datatype, int dest,
                    int tag, MPI_Comm comm, MPI_Request* request) {
    Call c(name);
    Checked a;
    if (int e = check_send(c, buf, count, datatype, dest, tag, comm, &a)) return e;
    if (int e = c.not_null(a.comm, "request", request)) return e;
    auto* r = new Request;
    fill_send(*r, mode, buf, count, a, dest, tag);
    request_hold_objects(*r);
    r->owner = c.rank();
    r->persistent = true;
    *request = to_handle(r);
    return MPI_SUCCESS;
}

int truncated(const Call& c, const Request& r) {
    return c.fail(r.comm, MPI_ERR_TRUNCATE,
                  "the message from rank %d (tag %d) is larger than the receive buffer of %lld bytes", r.status_source,
                  r.status_tag, static_cast<long long>(r.count * static_cast<std::int64_t>(r.type->size)));
}

}  // namespace

HMPI_API(int, Send, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)) {
    return blocking_send("MPI_Send", SendMode::standard, buf, count, datatype, dest, tag, comm);
}
HMPI_API(int, Ssend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)) {
    return blocking_send("MPI_Ssend", SendMode::sync, buf, count, datatype, dest, tag, comm);
}
HMPI_API(int, Rsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)) {
    return blocking_send("MPI_Rsend", SendMode::ready, buf, count, datatype, dest, tag, comm);
}
HMPI_API(int, Bsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)) {
    return blocking_send("MPI_Bsend", SendMode::buffered, buf, count, datatype, dest, tag, comm);
}
HMPI_API(int, Isend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request)) {
    return nonblocking_send("MPI_Isend", SendMode::standard, buf, count, datatype, dest, tag, comm, request);
}
HMPI_API(int, Issend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request)) {
    return nonblocking_send("MPI_Issend", SendMode::sync, buf, count, datatype, dest, tag, comm, request);
}
HMPI_API(int, Irsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request)) {
    return nonblocking_send("MPI_Irsend", SendMode::ready, buf, count, datatype, dest, tag, comm, request);
}
HMPI_API(int, Ibsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request)) {
    return nonblocking_send("MPI_Ibsend", SendMode::buffered, buf, count, datatype, dest, tag, comm, request);
}
HMPI_API(int, Send_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request)) {
    return persistent_send("MPI_Send_init", SendMode::standard, buf, count, datatype, dest, tag, comm, request);
}
HMPI_API(int, Ssend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request)) {
    return persistent_send("MPI_Ssend_init", SendMode::sync, buf, count, datatype, dest, tag, comm, request);
}
HMPI_API(int, Rsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request)) {
    return persistent_send("MPI_Rsend_init", SendMode::ready, buf, count, datatype, dest, tag, comm, request);
}
HMPI_API(int, Bsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request)) {
    return persistent_send("MPI_Bsend_init", SendMode::buffered, buf, count, datatype, dest, tag, comm, request);
}

HMPI_API(int, Recv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status)) {
    Call c("MPI_Recv");
    Checked a;
    if (int e = check_recv(c, buf, count, datatype, source, tag, comm, &a)) return e;
    Rank& self = *c.rank();
    Request r;
    fill_recv(r, buf, count, a, source, tag);
    start_recv(self, r);
    c.waiting_for(source, tag);
    wait_request(self, r);
    if (status) status_from_request(r, status);
    if (r.status_error == MPI_ERR_TRUNCATE) return truncated(c, r);
    return MPI_SUCCESS;
}

HMPI_API(int, Irecv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request)) {
    Call c("MPI_Irecv");
    Checked a;
    if (int e = check_recv(c, buf, count, datatype, source, tag, comm, &a)) return e;
    if (int e = c.not_null(a.comm, "request", request)) return e;
    auto* r = new Request;
    fill_recv(*r, buf, count, a, source, tag);
    request_hold_objects(*r);
    start_recv(*c.rank(), *r);
    *request = to_handle(r);
    return MPI_SUCCESS;
}

HMPI_API(int, Recv_init, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request)) {
    Call c("MPI_Recv_init");
    Checked a;
    if (int e = check_recv(c, buf, count, datatype, source, tag, comm, &a)) return e;
    if (int e = c.not_null(a.comm, "request", request)) return e;
    auto* r = new Request;
    fill_recv(*r, buf, count, a, source, tag);
    request_hold_objects(*r);
    r->owner = c.rank();
    r->persistent = true;
    *request = to_handle(r);
    return MPI_SUCCESS;
}

HMPI_API(int, Sendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                         int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status)) {
    Call c("MPI_Sendrecv");
    Checked s, r;
    if (int e = check_send(c, sendbuf, sendcount, sendtype, dest, sendtag, comm, &s)) return e;
    if (int e = check_recv(c, recvbuf, recvcount, recvtype, source, recvtag, comm, &r)) return e;
    Rank& self = *c.rank();
    Request rr, sr;
    fill_recv(rr, recvbuf, recvcount, r, source, recvtag);
    fill_send(sr, SendMode::standard, sendbuf, sendcount, s, dest, sendtag);
    start_recv(self, rr);
    start_send(self, sr);
    c.waiting_for(source, recvtag);
    wait_until(self, [&] { return rr.complete() && sr.complete(); });
    if (status) status_from_request(rr, status);
    if (rr.status_error == MPI_ERR_TRUNCATE) return truncated(c, rr);
    return MPI_SUCCESS;
}

HMPI_API(int, Sendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                                 int recvtag, MPI_Comm comm, MPI_Status *status)) {
    Call c("MPI_Sendrecv_replace");
    Checked s;
    if (int e = check_send(c, buf, count, datatype, dest, sendtag, comm, &s)) return e;
    if (int e = c.source(s.comm, source)) return e;
    if (int e = c.recv_tag(s.comm, recvtag)) return e;
    Rank& self = *c.rank();
    // The outgoing data must survive the incoming: send from a packed copy.
    const std::size_t bytes = static_cast<std::size_t>(count) * s.type->size;
    std::vector<unsigned char> copy(bytes);
    pack_bytes(buf, *s.type, bytes, copy.data());
    Checked as_bytes{s.comm, datatype_from_handle(MPI_BYTE)};
    Request rr, sr;
    fill_recv(rr, buf, count, s, source, recvtag);
    fill_send(sr, SendMode::standard, copy.data(), static_cast<int>(bytes), as_bytes, dest, sendtag);
    start_recv(self, rr);
    start_send(self, sr);
    wait_until(self, [&] { return rr.complete() && sr.complete(); });
    if (status) status_from_request(rr, status);
    if (rr.status_error == MPI_ERR_TRUNCATE) return truncated(c, rr);
    return MPI_SUCCESS;
}

// ---- Probes.

namespace {

int check_probe(const Call& c, int source, int tag, MPI_Comm comm, Comm** cm) {
    if (int e = c.require_initialized()) return e;
    if (int e = c.comm(comm, cm)) return e;
    if (int e = c.source(*cm, source)) return e;
    return c.recv_tag(*cm, tag);
}

void proc_null_status(MPI_Status* st) {
    if (st) status_set(st, MPI_PROC_NULL, MPI_ANY_TAG, st->MPI_ERROR, 0, false);
}

}  // namespace

HMPI_API(int, Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status)) {
    Call c("MPI_Probe");
    Comm* cm;
    if (int e = check_probe(c, source, tag, comm, &cm)) return e;
    if (source == MPI_PROC_NULL) return proc_null_status(status), MPI_SUCCESS;
    Rank& self = *c.rank();
    MPI_Status st;
    c.waiting_for(source, tag);
    wait_until(self, [&] { return probe(self, cm->shared->context_id, source, tag, &st, nullptr); });
    if (status) status_set(status, st.MPI_SOURCE, st.MPI_TAG, status->MPI_ERROR, status_bytes(&st), false);
    return MPI_SUCCESS;
}

HMPI_API(int, Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)) {
    Call c("MPI_Iprobe");
    Comm* cm;
    if (int e = check_probe(c, source, tag, comm, &cm)) return e;
    if (int e = c.not_null(cm, "flag", flag)) return e;
    if (source == MPI_PROC_NULL) return *flag = 1, proc_null_status(status), MPI_SUCCESS;
    MPI_Status st;
    *flag = probe(*c.rank(), cm->shared->context_id, source, tag, &st, nullptr);
    if (*flag && status) status_set(status, st.MPI_SOURCE, st.MPI_TAG, status->MPI_ERROR, status_bytes(&st), false);
    if (!*flag) idle_poll(*c.rank());
    return MPI_SUCCESS;
}

HMPI_API(int, Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)) {
    Call c("MPI_Mprobe");
    Comm* cm;
    if (int e = check_probe(c, source, tag, comm, &cm)) return e;
    if (int e = c.not_null(cm, "message", message)) return e;
    if (source == MPI_PROC_NULL) return *message = MPI_MESSAGE_NO_PROC, proc_null_status(status), MPI_SUCCESS;
    Rank& self = *c.rank();
    MPI_Status st;
    Message* m = nullptr;
    c.waiting_for(source, tag);
    wait_until(self, [&] { return probe(self, cm->shared->context_id, source, tag, &st, &m); });
    *message = reinterpret_cast<MPI_Message>(m);
    if (status) status_set(status, st.MPI_SOURCE, st.MPI_TAG, status->MPI_ERROR, status_bytes(&st), false);
    return MPI_SUCCESS;
}

HMPI_API(int, Improbe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status)) {
    Call c("MPI_Improbe");
    Comm* cm;
    if (int e = check_probe(c, source, tag, comm, &cm)) return e;
    if (int e = c.not_null(cm, "flag", flag)) return e;
    if (int e = c.not_null(cm, "message", message)) return e;
    if (source == MPI_PROC_NULL) return *flag = 1, *message = MPI_MESSAGE_NO_PROC, proc_null_status(status), MPI_SUCCESS;
    MPI_Status st;
    Message* m = nullptr;
    *flag = probe(*c.rank(), cm->shared->context_id, source, tag, &st, &m);
    if (*flag) {
        *message = reinterpret_cast<MPI_Message>(m);
        if (status) status_set(status, st.MPI_SOURCE, st.MPI_TAG, status->MPI_ERROR, status_bytes(&st), false);
    } else {
        idle_poll(*c.rank());
    }
    return MPI_SUCCESS;
}

namespace {

// Validates a matched-probe message handle; *m is nullptr for MPI_MESSAGE_NO_PROC.
int check_message(const Call& c, MPI_Message* message, Message** m) {
    if (int e = c.not_null(nullptr, "message", message)) return e;
    if (*message == MPI_MESSAGE_NO_PROC) {
        *m = nullptr;
        return MPI_SUCCESS;
    }
    auto* p = reinterpret_cast<Message*>(*message);
    if (*message == MPI_MESSAGE_NULL || reinterpret_cast<std::uintptr_t>(p) < 0x1000 || p->magic != Message::kMagic)
        return c.fail(nullptr, MPI_ERR_REQUEST, "argument message is not a message returned by MPI_Mprobe or MPI_Improbe");
    *m = p;
    return MPI_SUCCESS;
}

int check_mrecv_buffer(const Call& c, void* buf, int count, MPI_Datatype datatype, const Datatype** t) {
    if (int e = c.require_initialized()) return e;
    if (int e = c.count(nullptr, "count", count)) return e;
    if (int e = c.type(nullptr, "datatype", datatype, t)) return e;
    return c.buffer(nullptr, "buf", buf, count, *t);
}

}  // namespace

HMPI_API(int, Mrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status)) {
    Call c("MPI_Mrecv");
    const Datatype* t;
    Message* m;
    if (int e = check_mrecv_buffer(c, buf, count, datatype, &t)) return e;
    if (int e = check_message(c, message, &m)) return e;
    Rank& self = *c.rank();
    Request r;
    r.kind = RequestKind::recv;
    r.recv_buf = buf;
    r.count = count;
    r.type = t;
    r.comm = &self.world;
    start_mrecv(self, r, m);
    *message = MPI_MESSAGE_NULL;
    if (status) status_from_request(r, status);
    if (r.status_error == MPI_ERR_TRUNCATE) return truncated(c, r);
    return MPI_SUCCESS;
}

HMPI_API(int, Imrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request)) {
    Call c("MPI_Imrecv");
    const Datatype* t;
    Message* m;
    if (int e = check_mrecv_buffer(c, buf, count, datatype, &t)) return e;
    if (int e = check_message(c, message, &m)) return e;
    if (int e = c.not_null(nullptr, "request", request)) return e;
    Rank& self = *c.rank();
    auto* r = new Request;
    r->kind = RequestKind::recv;
    r->recv_buf = buf;
    r->count = count;
    r->type = t;
    r->comm = &self.world;
    request_hold_objects(*r);
    start_mrecv(self, *r, m);
    *message = MPI_MESSAGE_NULL;
    *request = to_handle(r);
    return MPI_SUCCESS;
}

// ---- Buffered-send buffer.

HMPI_API(int, Buffer_attach, (void *buffer, int size)) {
    Call c("MPI_Buffer_attach");
    if (int e = c.require_initialized()) return e;
    if (size < 0) return c.fail(nullptr, MPI_ERR_ARG, "argument size = %d is negative", size);
    if (size > 0 && !buffer) return c.fail(nullptr, MPI_ERR_BUFFER, "argument buffer is NULL but size = %d", size);
    Rank& self = *c.rank();
    bool attached_already;
    {
        MaybeLock guard(self.lock, self.multithreaded);
        attached_already = self.bsend.base != nullptr;
        if (!attached_already) {
            self.bsend.base = static_cast<unsigned char*>(buffer);
            self.bsend.size = static_cast<std::size_t>(size);
        }
    }
    // Raised outside the lock: a user error handler may call MPI.
    if (attached_already) return c.fail(nullptr, MPI_ERR_BUFFER, "a buffer is already attached (detach it first)");
    return MPI_SUCCESS;
}

HMPI_API(int, Buffer_detach, (void *buffer_addr, int *size)) {
    Call c("MPI_Buffer_detach");
    if (int e = c.require_initialized()) return e;
    if (int e = c.not_null(nullptr, "buffer_addr", buffer_addr)) return e;
    if (int e = c.not_null(nullptr, "size", size)) return e;
    Rank& self = *c.rank();
    // Detaching waits until every buffered message has been delivered.
    wait_until(self, [&] { return bsend_idle(self); });
    MaybeLock guard(self.lock, self.multithreaded);
    *static_cast<void**>(buffer_addr) = self.bsend.base;
    *size = static_cast<int>(self.bsend.size);
    self.bsend.base = nullptr;
    self.bsend.size = 0;
    return MPI_SUCCESS;
}
