// The point-to-point engine.
//
// Protocols (thresholds in base/config.cpp, measured in docs/point-to-point.md):
//  - inline: messages up to HMPI_INLINE_MAX bytes are copied into the
//    receiver's ring by the sender; the send completes at once (synchronous
//    sends carry their request and complete when matched).
//  - single copy: larger messages send an envelope with a pointer to the
//    sender's request; the receiver, once matched, copies straight from the
//    sender's buffer into its own and completes the sender's request.
//
// Matching is done by the receiver, in its own progress: senders never touch
// a receiver's queues, only its rings. Rank-local queues are locked only for
// ranks that asked for MPI_THREAD_MULTIPLE.
#pragma once
#include <sched.h>

#include "base/park.hpp"
#include "core/rank.hpp"

namespace hmpi {

// Start operations described by a filled-in request (owner, kind, mode,
// buffer, count, type, peer, tag, comm, context). They never block.
void start_send(Rank& self, Request& req);
void start_recv(Rank& self, Request& req);
// Receives a message taken by a matched probe (nullptr: MPI_MESSAGE_NO_PROC).
void start_mrecv(Rank& self, Request& req, Message* msg);
// A buffered send: copies into the attached buffer, sends from there with an
// internal request, and completes `req` (the data is safe). Returns
// MPI_SUCCESS or MPI_ERR_BUFFER (not enough space: *need and *avail set).
int start_bsend(Rank& self, Request& req, std::size_t* need, std::size_t* avail);

// Starts an operation that progress() advances until it is done, then
// completes req (an async request, owned by self).
void start_async(Rank& self, Request& req, std::unique_ptr<AsyncOp> op);

// Drains this rank's channels and matches what arrived. Returns false if
// another thread of the rank was already progressing (nothing was done).
bool progress(Rank& self);

// A nonblocking poll of the application's (MPI_Test and its forms,
// MPI_Request_get_status, MPI_Iprobe, MPI_Improbe) found nothing ready.
// When ranks outnumber CPUs the rank it waits for may be queued on this
// core behind this one, and a polling loop would hold the core for a whole
// time slice: the core goes to another thread (sched_yield), as a blocking
// wait's does after its short spin. Otherwise nothing. (`self`: the rank
// that polled, which a fiber mode would switch away from.)
void idle_poll(const Rank& self) noexcept;

// Looks for a matching arrived message; fills *st (unless null). With `take`,
// removes it from the queue and returns it (MPI_Mprobe).
bool probe(Rank& self, std::uint32_t context, int source, int tag, MPI_Status* st, Message** take);

// Cancels a pending receive. Returns true if it was cancelled.
bool cancel_recv(Rank& self, Request& req);

// Whether every buffered send has been delivered (Buffer_detach, Finalize).
bool bsend_idle(Rank& self);
// Finalize: cancels receives the user freed while pending (nothing will
// ever read them) and reports whether freed sends are all delivered.
bool detached_sends_idle(Rank& self);

// Waits until done() holds, progressing meanwhile: polls, then yields, then
// parks on the rank's doorbell (see base/park.hpp).
//
// done() may act when it succeeds (MPI_Mprobe's takes the message it found),
// so wait_until returns as soon as done() has returned true once, never
// calling it again.
//
// `advanced()` (optional) says whether the work done() drives has got
// further since the last call: the spin, yield and park clock then starts
// over, so it measures how long nothing happened rather than how long the
// call has run. (A 4 MiB Allreduce on 16 ranks passes hundreds of quick
// flag waits in ~1 ms; timed from its start, it parked after HMPI_SPIN_US
// at every later wait and took 3-5x longer: docs/performance-collectives.md,
// stop 25.) The rank's async operations (nonblocking collectives waited on
// with MPI_Wait, or pending while the rank waits for anything else) restart
// it the same way, through Rank::async_advances.
template <class Done, class Advanced>
void wait_until(Rank& self, Done&& done, Advanced&& advanced) {
    if (done()) return;
    const Job& j = job();
    Backoff backoff(j.spin_ns, j.yield_ns);
    std::uint32_t async_seen = self.async_advances.load(std::memory_order_relaxed);
    for (;;) {
        bool progressed = progress(self);
        if (done()) return;
        const std::uint32_t async_now = self.async_advances.load(std::memory_order_relaxed);
        if (advanced() || async_now != async_seen) backoff.restart();
        async_seen = async_now;
        switch (backoff.next()) {
            case Backoff::Step::spin:
                if (backoff.polls() > 256) cpu_relax();
                break;
            case Backoff::Step::yield: sched_yield(); break;
            case Backoff::Step::park:
                // Never sleep while another thread of this rank holds the
                // progress lock: it may already have passed the channel that
                // will hold our message, and nobody would ring for it.
                if (!progressed && self.multithreaded) {
                    sched_yield();
                    break;
                }
                bool finished = false;
                self.doorbell.park([&] {
                    if (!progress(self)) return true;  // another thread is progressing: do not sleep
                    finished = done();
                    return finished;
                });
                if (finished) return;
                break;
        }
    }
}

template <class Done>
void wait_until(Rank& self, Done&& done) {
    wait_until(self, std::forward<Done>(done), [] { return false; });
}

inline void wait_request(Rank& self, Request& req) {
    wait_until(self, [&] {
        if (req.complete()) return true;
        // A large send the receiver has started copying: take a share.
        if (req.kind == RequestKind::send && req.split.ready.load(std::memory_order_acquire)) req.split.help();
        return req.complete();
    });
}

}  // namespace hmpi
