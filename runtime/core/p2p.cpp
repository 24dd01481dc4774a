#include "core/p2p.hpp"

#include <sched.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "base/log.hpp"

namespace hmpi {

namespace {

bool matches(const Request& r, const Envelope& env) noexcept {
    return r.context == env.context && (r.peer == MPI_ANY_SOURCE || r.peer == env.source) &&
           (r.tag == MPI_ANY_TAG || r.tag == env.tag);
}

bool matches(std::uint32_t context, int source, int tag, const Envelope& env) noexcept {
    return context == env.context && (source == MPI_ANY_SOURCE || source == env.source) &&
           (tag == MPI_ANY_TAG || tag == env.tag);
}

// Completes a sender's request from the receiving side. The request may be
// freed by its owner as soon as the store is visible: touch nothing after it.
void complete_remote_send(Request* s) noexcept {
    Rank* owner = s->owner;
    s->state.store(Request::kComplete, std::memory_order_release);
    owner->doorbell.ring();
}

void complete_local(Rank& self, Request& r) noexcept {
    r.state.store(Request::kComplete, std::memory_order_release);
    // Another thread of this rank may be parked waiting for r.
    if (self.multithreaded) self.doorbell.ring();
}

// Fills in the receive's outcome and returns how many bytes to deliver.
std::size_t accept(Request& r, const Envelope& env) noexcept {
    const std::int64_t capacity = r.count * static_cast<std::int64_t>(r.type->size);
    const std::int64_t n = std::min(env.bytes, capacity);
    r.status_source = env.source;
    r.status_tag = env.tag;
    r.status_bytes = n;
    r.status_error = env.bytes > capacity ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    return static_cast<std::size_t>(n);
}

void finish_protocol(const Envelope& env) noexcept {
    if (env.kind == EnvelopeKind::eager_sync || env.kind == EnvelopeKind::rendezvous) complete_remote_send(env.sender);
}

void deliver_rendezvous(Request& r, const Envelope& env, std::size_t n) noexcept {
    // The single copy: sender's buffer -> receiver's buffer.
    Request& s = *env.sender;
    const Job& j = job();
    if (n < j.split_copy_min || !s.type->contiguous || !r.type->contiguous) {
        copy_typed(s.send_buf, *s.type, r.recv_buf, *r.type, n);
        return;
    }
    // Large and contiguous: share the copy with the sender, which is idle in
    // its wait anyway (see SplitCopy).
    SplitCopy& sc = s.split;
    sc.src = static_cast<const unsigned char*>(s.send_buf);
    sc.dst = static_cast<unsigned char*>(r.recv_buf);
    sc.bytes = n;
    // About eight chunks per message, so both ranks stay busy to the end,
    // between 16 KiB (smaller chunks cost more in coordination than they
    // save) and HMPI_SPLIT_COPY_CHUNK (measured, docs/point-to-point.md).
    sc.chunk = std::clamp<std::size_t>(n / 8, std::size_t(16) << 10, std::max(j.split_copy_chunk, std::size_t(16) << 10));
    sc.next.store(0, std::memory_order_relaxed);
    sc.copied.store(0, std::memory_order_relaxed);
    sc.ready.store(1, std::memory_order_release);
    s.owner->doorbell.ring();
    sc.help();
    Backoff backoff(j.spin_ns, j.yield_ns);
    while (sc.copied.load(std::memory_order_acquire) < n) {
        // The sender is finishing a chunk it took; it cannot be parked mid-chunk.
        if (backoff.next() == Backoff::Step::spin) cpu_relax();
        else sched_yield();
    }
}

void deliver_from_ring(Rank& self, Request& r, const Envelope& env, const PayloadView& data) {
    std::size_t n = accept(r, env);
    if (env.kind == EnvelopeKind::rendezvous) {
        deliver_rendezvous(r, env, n);
    } else if (r.type->contiguous) {
        data.copy_to(r.recv_buf, n);
    } else {
        // Straight from the ring (one or two pieces) into the typed buffer.
        TypedStream out(r.recv_buf, *r.type, r.count);
        const std::size_t first = std::min(n, data.n1);
        out.unpack(data.p1, first);
        if (n > first) out.unpack(data.p2, n - first);
    }
    finish_protocol(env);
    complete_local(self, r);
}

void deliver_from_message(Rank& self, Request& r, Message* m) {
    std::size_t n = accept(r, m->env);
    if (m->env.kind == EnvelopeKind::rendezvous) deliver_rendezvous(r, m->env, n);
    else unpack_bytes(m->data(), n, r.recv_buf, *r.type);
    finish_protocol(m->env);
    Message::destroy(m);
    complete_local(self, r);
}

Request* take_posted(Rank& self, const Envelope& env) noexcept {
    for (Request* r = self.posted.head; r; r = r->next) {
        if (matches(*r, env)) {
            self.posted.remove(r);
            return r;
        }
    }
    return nullptr;
}

Channel* channel_to(Rank& self, Rank& dst) {
    std::atomic<Channel*>& slot = dst.incoming[static_cast<std::size_t>(self.world_rank)];
    Channel* ch = slot.load(std::memory_order_acquire);
    if (ch) return ch;
    auto* fresh = new Channel(self.world_rank, dst.world_rank, job().ring_cells);
    if (slot.compare_exchange_strong(ch, fresh, std::memory_order_acq_rel)) {
        dst.incoming_installed.fetch_add(1, std::memory_order_release);
        dst.doorbell.ring();
        return fresh;
    }
    delete fresh;  // another thread of this rank installed it first
    return ch;
}

void refresh_polled(Rank& self) {
    std::uint32_t installed = self.incoming_installed.load(std::memory_order_acquire);
    if (installed == self.polled_installed) return;
    self.polled.clear();
    for (int i = 0; i < job().nranks; ++i)
        if (Channel* ch = self.incoming[static_cast<std::size_t>(i)].load(std::memory_order_acquire)) self.polled.push_back(ch);
    self.polled_installed = installed;
}

// Cancels a posted receive. Caller holds the rank's lock (if multithreaded)
// and knows r is still in the posted queue (active).
void cancel_posted(Rank& self, Request& r) noexcept {
    self.posted.remove(&r);
    r.status_cancelled = true;
    r.status_source = MPI_ANY_SOURCE;
    r.status_tag = MPI_ANY_TAG;
    r.status_bytes = 0;
    r.status_error = MPI_SUCCESS;
    complete_local(self, r);
}

// Advances the rank's async operations; one thread at a time (another
// thread of a multithreaded rank already doing it is enough).
void advance_async(Rank& self) {
    if (self.multithreaded) {
        if (!self.async_lock.try_lock()) return;
    }
    auto& ops = self.async_active;
    bool advanced = false;
    for (std::size_t i = 0; i < ops.size();) {
        Request* r = ops[i];
        const std::uint32_t before = r->async->advances();
        const bool done = r->async->advance(self);
        if (done || r->async->advances() != before) advanced = true;
        if (done) {
            ops[i] = ops.back();
            ops.pop_back();
            self.async_count.fetch_sub(1, std::memory_order_relaxed);
            r->status_error = r->async->error;
            complete_local(self, *r);
        } else {
            ++i;
        }
    }
    // One writer at a time (async_lock): no read-modify-write needed.
    if (advanced)
        self.async_advances.store(self.async_advances.load(std::memory_order_relaxed) + 1,
                                  std::memory_order_relaxed);
    if (self.multithreaded) self.async_lock.unlock();
}

void reap_detached(Rank& self) {
    auto& d = self.detached;
    for (std::size_t i = 0; i < d.size();) {
        Request* r = d[i];
        if (r->complete()) {
            if (r->bsend_block) self.bsend.release(r);
            free_request(r);
            d[i] = d.back();
            d.pop_back();
        } else {
            ++i;
        }
    }
}

}  // namespace

void start_send(Rank& self, Request& s) {
    s.owner = &self;
    if (s.peer == MPI_PROC_NULL) {
        s.status_source = MPI_PROC_NULL;
        s.status_tag = MPI_ANY_TAG;
        s.status_bytes = 0;
        s.state.store(Request::kComplete, std::memory_order_release);
        return;
    }
    const Job& j = job();
    const std::size_t bytes = static_cast<std::size_t>(s.count) * s.type->size;
    Rank& dst = *j.ranks[static_cast<std::size_t>(s.comm->world_rank(s.peer))];
    Channel* ch = channel_to(self, dst);

    Envelope env;
    env.context = s.context;
    env.tag = s.tag;
    env.source = s.comm->rank;
    env.bytes = static_cast<std::int64_t>(bytes);
    env.sender = &s;
    const bool inline_copy = bytes <= j.inline_max;
    env.kind = !inline_copy ? EnvelopeKind::rendezvous
                            : (s.mode == SendMode::sync ? EnvelopeKind::eager_sync : EnvelopeKind::eager);
    s.status_error = MPI_SUCCESS;
    // A persistent request keeps the previous round's split copy; the
    // sender must not help with it again (published by the ring's release store).
    s.split.ready.store(0, std::memory_order_relaxed);
    s.state.store(Request::kActive, std::memory_order_relaxed);

    // Inline data goes straight from the user's buffer into the ring, packed
    // on the way if the type has gaps (the ring asks for consecutive pieces).
    const unsigned char* src = static_cast<const unsigned char*>(s.send_buf);
    const bool gapped = inline_copy && !s.type->contiguous && bytes;
    {
        MaybeLock guard(ch->send_lock, self.multithreaded);
        if (gapped) {
            TypedStream in(s.send_buf, *s.type, s.count);
            ch->send(env, bytes, [&in](unsigned char* dst_bytes, std::size_t, std::size_t n) { in.pack(dst_bytes, n); });
        } else {
            ch->send(env, inline_copy ? bytes : 0,
                     [src](unsigned char* dst_bytes, std::size_t off, std::size_t n) { std::memcpy(dst_bytes, src + off, n); });
        }
        // An eager send is complete once its data is in the ring. Mark it
        // before releasing the channel so that, for sync and rendezvous, the
        // receiver's completion store is the last write to the request.
        if (env.kind == EnvelopeKind::eager) s.state.store(Request::kComplete, std::memory_order_release);
    }
    dst.doorbell.ring();
}

void start_recv(Rank& self, Request& r) {
    r.owner = &self;
    if (r.peer == MPI_PROC_NULL) {
        r.status_source = MPI_PROC_NULL;
        r.status_tag = MPI_ANY_TAG;
        r.status_bytes = 0;
        r.status_error = MPI_SUCCESS;
        r.state.store(Request::kComplete, std::memory_order_release);
        return;
    }
    r.status_cancelled = false;
    r.state.store(Request::kActive, std::memory_order_relaxed);
    MaybeLock guard(self.lock, self.multithreaded);
    for (Message* m = self.unexpected.head; m; m = m->next) {
        if (matches(r, m->env)) {
            self.unexpected.remove(m);
            deliver_from_message(self, r, m);
            return;
        }
    }
    self.posted.push_back(&r);
}

void start_mrecv(Rank& self, Request& r, Message* m) {
    r.owner = &self;
    r.status_cancelled = false;
    if (!m) {
        r.status_source = MPI_PROC_NULL;
        r.status_tag = MPI_ANY_TAG;
        r.status_bytes = 0;
        r.status_error = MPI_SUCCESS;
        r.state.store(Request::kComplete, std::memory_order_release);
        return;
    }
    r.state.store(Request::kActive, std::memory_order_relaxed);
    deliver_from_message(self, r, m);
}

int start_bsend(Rank& self, Request& args, std::size_t* need, std::size_t* avail) {
    const std::size_t bytes = static_cast<std::size_t>(args.count) * args.type->size;
    auto complete_user_request = [&] {
        args.owner = &self;
        args.status_source = MPI_ANY_SOURCE;
        args.status_tag = MPI_ANY_TAG;
        args.status_bytes = 0;
        args.state.store(Request::kComplete, std::memory_order_release);
    };
    if (args.peer == MPI_PROC_NULL) {
        complete_user_request();
        return MPI_SUCCESS;
    }
    auto* r = new Request;
    r->internal = true;
    r->detached = true;
    r->kind = RequestKind::send;
    r->mode = SendMode::standard;
    r->peer = args.peer;
    r->tag = args.tag;
    r->comm = args.comm;
    r->context = args.context;
    r->type = datatype_from_handle(MPI_BYTE);
    request_hold_objects(*r);
    r->count = static_cast<std::int64_t>(bytes);
    {
        MaybeLock guard(self.lock, self.multithreaded);
        void* block = self.bsend.allocate(bytes, r);
        if (!block) {
            *need = bytes;
            std::size_t used = 0;
            for (auto& b : self.bsend.blocks) used += b.length;
            *avail = self.bsend.size - used;
            free_request(r);
            return MPI_ERR_BUFFER;
        }
        pack_bytes(args.send_buf, *args.type, bytes, block);
        r->bsend_block = block;
        r->send_buf = block;
        self.detached.push_back(r);
    }
    start_send(self, *r);
    complete_user_request();
    return MPI_SUCCESS;
}

void idle_poll(const Rank&) noexcept {
    if (job().oversubscribed) sched_yield();
}

bool progress(Rank& self) {
    if (self.multithreaded && !self.lock.try_lock()) return false;
    refresh_polled(self);
    for (Channel* ch : self.polled) {
        ch->drain(
            [&](const Envelope& env, const PayloadView& data) {
                if (Request* r = take_posted(self, env)) {
                    deliver_from_ring(self, *r, env, data);
                    return;
                }
                // Unexpected: keep a copy (rendezvous keeps only the envelope).
                std::size_t keep = env.kind == EnvelopeKind::rendezvous ? 0 : data.size();
                Message* m = Message::create(env, keep);
                data.copy_to(m->data(), keep);
                self.unexpected.push_back(m);
            },
            [&](Message* m) {
                if (Request* r = take_posted(self, m->env)) deliver_from_message(self, *r, m);
                else self.unexpected.push_back(m);
            });
    }
    if (!self.detached.empty()) reap_detached(self);
    if (self.multithreaded) self.lock.unlock();
    if (self.async_count.load(std::memory_order_relaxed)) advance_async(self);
    return true;
}

void start_async(Rank& self, Request& req, std::unique_ptr<AsyncOp> op) {
    req.kind = RequestKind::async;
    req.owner = &self;
    req.async = std::move(op);
    req.state.store(Request::kActive, std::memory_order_relaxed);
    if (req.async->advance(self)) {
        req.status_error = req.async->error;
        complete_local(self, req);
        return;
    }
    MaybeLock guard(self.async_lock, self.multithreaded);
    self.async_active.push_back(&req);
    self.async_count.fetch_add(1, std::memory_order_relaxed);
}

void request_hold_objects(Request& r) noexcept {
    if (r.holds_objects) return;
    if (r.comm) comm_retain(r.comm);
    if (r.type) datatype_retain(r.type);
    r.holds_objects = true;
}

void free_request(Request* r) noexcept {
    if (r->holds_objects) {
        if (r->comm) comm_release(r->comm);
        if (r->type) datatype_release(r->type);
    }
    delete r;
}

bool probe(Rank& self, std::uint32_t context, int source, int tag, MPI_Status* st, Message** take) {
    progress(self);
    MaybeLock guard(self.lock, self.multithreaded);
    for (Message* m = self.unexpected.head; m; m = m->next) {
        if (!matches(context, source, tag, m->env)) continue;
        if (st) status_set(st, m->env.source, m->env.tag, MPI_SUCCESS, m->env.bytes, false);
        if (take) {
            self.unexpected.remove(m);
            *take = m;
        }
        return true;
    }
    return false;
}

bool cancel_recv(Rank& self, Request& r) {
    MaybeLock guard(self.lock, self.multithreaded);
    if (r.state.load(std::memory_order_acquire) != Request::kActive) return false;
    for (Request* p = self.posted.head; p; p = p->next) {
        if (p == &r) {
            cancel_posted(self, r);
            return true;
        }
    }
    return false;
}

bool bsend_idle(Rank& self) {
    MaybeLock guard(self.lock, self.multithreaded);
    return self.bsend.blocks.empty();
}

bool detached_sends_idle(Rank& self) {
    MaybeLock guard(self.lock, self.multithreaded);
    for (Request* r : self.detached) {
        if (r->kind == RequestKind::recv && r->state.load(std::memory_order_acquire) == Request::kActive)
            cancel_posted(self, *r);
    }
    reap_detached(self);
    return self.detached.empty();
}

void SplitCopy::help() noexcept {
    const std::size_t chunks = (bytes + chunk - 1) / chunk;
    for (;;) {
        std::size_t c = next.fetch_add(1, std::memory_order_relaxed);
        if (c >= chunks) return;
        std::size_t off = c * chunk;
        std::size_t len = std::min(chunk, bytes - off);
        std::memcpy(dst + off, src + off, len);
        copied.fetch_add(len, std::memory_order_acq_rel);
    }
}

// ---- Queues and buffers.

void RequestQueue::push_back(Request* r) noexcept {
    r->next = nullptr;
    r->prev = tail;
    if (tail) tail->next = r;
    else head = r;
    tail = r;
}

void RequestQueue::remove(Request* r) noexcept {
    if (r->prev) r->prev->next = r->next;
    else head = r->next;
    if (r->next) r->next->prev = r->prev;
    else tail = r->prev;
    r->next = r->prev = nullptr;
}

void MessageQueue::push_back(Message* m) noexcept {
    m->next = nullptr;
    m->prev = tail;
    if (tail) tail->next = m;
    else head = m;
    tail = m;
}

void MessageQueue::remove(Message* m) noexcept {
    if (m->prev) m->prev->next = m->next;
    else head = m->next;
    if (m->next) m->next->prev = m->prev;
    else tail = m->prev;
    m->next = m->prev = nullptr;
}

void* BsendBuffer::allocate(std::size_t bytes, Request* owner) {
    // Blocks are 64-byte aligned; each costs its rounded size, well within
    // MPI_BSEND_OVERHEAD, so buffers sized by the standard formula suffice.
    const std::size_t len = (bytes + 63) & ~std::size_t(63);
    const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(base);
    const std::size_t skew = ((addr + 63) & ~std::uintptr_t(63)) - addr;
    std::size_t cursor = skew;
    for (std::size_t i = 0; i <= blocks.size(); ++i) {
        std::size_t limit = i < blocks.size() ? blocks[i].offset : size;
        if (limit >= cursor && limit - cursor >= len) {
            blocks.insert(blocks.begin() + static_cast<std::ptrdiff_t>(i), Block{cursor, len, owner});
            return base + cursor;
        }
        if (i < blocks.size()) cursor = blocks[i].offset + blocks[i].length;
    }
    return nullptr;
}

void BsendBuffer::release(Request* owner) noexcept {
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        if (blocks[i].request == owner) {
            blocks.erase(blocks.begin() + static_cast<std::ptrdiff_t>(i));
            return;
        }
    }
}

// ---- Status helpers.

void status_set(MPI_Status* st, int source, int tag, int error, std::int64_t bytes, bool cancelled) noexcept {
    st->MPI_SOURCE = source;
    st->MPI_TAG = tag;
    st->MPI_ERROR = error;
    std::uint64_t b = static_cast<std::uint64_t>(bytes);
    st->MPI_internal[0] = static_cast<int>(b & 0xffffffffu);
    st->MPI_internal[1] = static_cast<int>(b >> 32);
    st->MPI_internal[2] = cancelled ? 1 : 0;
}

std::int64_t status_bytes(const MPI_Status* st) noexcept {
    std::uint64_t lo = static_cast<std::uint32_t>(st->MPI_internal[0]);
    std::uint64_t hi = static_cast<std::uint32_t>(st->MPI_internal[1]);
    return static_cast<std::int64_t>(lo | (hi << 32));
}

bool status_cancelled(const MPI_Status* st) noexcept { return st->MPI_internal[2] != 0; }

void status_from_request(const Request& r, MPI_Status* st, bool set_error) noexcept {
    int error = set_error ? r.status_error : st->MPI_ERROR;
    status_set(st, r.status_source, r.status_tag, error, r.status_bytes, r.status_cancelled);
}

void status_empty(MPI_Status* st) noexcept { status_set(st, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0, false); }

}  // namespace hmpi
