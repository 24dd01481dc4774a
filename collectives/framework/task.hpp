// CollTask: a collective algorithm written once as a C++20 coroutine, run to
// completion by a blocking call or step by step by progress() for the
// nonblocking form.
//
// An algorithm suspends wherever it would wait (a flag not yet reached, a
// message not yet arrived) with CO_WAIT_UNTIL(condition); the driver
// resumes it, and the condition is evaluated again. The blocking driver
// resumes it from wait_until (spin, yield, park: core/p2p.hpp); the
// nonblocking one from the request's AsyncOp. Neither ever blocks inside
// the algorithm, so one rank can have several collectives in flight.
//
// Two frameless forms serve the sides of tiny collectives whose cost is
// mostly the call itself: finished() (a side that never waits) and
// polling() (a side that waits once); the driver runs all three alike.
#pragma once
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <utility>

namespace hmpi::coll {

// Coroutine frames come from a per-thread cache of blocks: every call makes
// two frames (the driver's and the algorithm's), and for a tiny collective
// malloc and free would be a good part of its cost. A frame freed on another
// thread than it was made on joins that thread's cache. (task.cpp)
void* alloc_task_frame(std::size_t bytes);
void free_task_frame(void* p, std::size_t bytes) noexcept;

class [[nodiscard]] CollTask {
public:
    struct promise_type {
        static void* operator new(std::size_t bytes) { return alloc_task_frame(bytes); }
        static void operator delete(void* p, std::size_t bytes) noexcept { free_task_frame(p, bytes); }
        // Declared so that the promise is no aggregate: the coroutine's
        // parameters would otherwise initialize its members (C++20 builds a
        // promise from the parameters where it can: parenthesized aggregate
        // initialization qualifies).
        promise_type() noexcept = default;
        int result = 0;
        // Waits this task got past after suspending at them, its sub-tasks'
        // included (CO_WAIT_UNTIL, CO_RUN): the blocking driver restarts its
        // spin, yield and park clock whenever this grows (run_collective).
        std::uint32_t advanced = 0;
        CollTask get_return_object() { return CollTask(std::coroutine_handle<promise_type>::from_promise(*this)); }
        std::suspend_always initial_suspend() noexcept { return {}; }
        std::suspend_always final_suspend() noexcept { return {}; }
        void return_value(int v) noexcept { result = v; }
        void unhandled_exception() noexcept { std::terminate(); }
    };

    CollTask() = default;
    // A task that has already finished with result `rc`, without a
    // coroutine frame: what an algorithm returns for a rank whose part
    // never waits (the root of an inline broadcast publishes and leaves),
    // written as a plain function that hands the ranks that do wait to
    // polling() or a coroutine. Such a rank skips the frame's allocation,
    // its start and its destruction, a good share of a tiny call's
    // instructions.
    static CollTask finished(int rc) noexcept {
        CollTask t;
        t.rc_ = rc;
        return t;
    }
    // What Poll returns while the task must wait (MPI error classes are >= 0).
    static constexpr int kPending = -1;
    // A task whose one wait is `Poll(arg)`, without a coroutine frame: each
    // step calls it, kPending means not yet, anything else is the result.
    // For an algorithm (or a rank's side of one) that waits once and then
    // finishes: an inline broadcast's reader, a flat barrier. Like
    // CO_WAIT_UNTIL, a wait that had to suspend counts as got past once
    // the task finishes. `arg` must outlive the task.
    template <auto Poll, class Arg>
    static CollTask polling(Arg& arg) noexcept {
        CollTask t;
        t.poll_ = [](void* a) { return Poll(*static_cast<Arg*>(a)); };
        t.arg_ = &arg;
        return t;
    }

    CollTask(CollTask&& o) noexcept
        : h_(std::exchange(o.h_, {})), poll_(std::exchange(o.poll_, nullptr)), arg_(o.arg_), rc_(o.rc_),
          suspended_(o.suspended_) {}
    CollTask& operator=(CollTask&& o) noexcept {
        if (this != &o) {
            if (h_) h_.destroy();
            h_ = std::exchange(o.h_, {});
            poll_ = std::exchange(o.poll_, nullptr);
            arg_ = o.arg_;
            rc_ = o.rc_;
            suspended_ = o.suspended_;
        }
        return *this;
    }
    CollTask(const CollTask&) = delete;
    CollTask& operator=(const CollTask&) = delete;
    ~CollTask() {
        if (h_) h_.destroy();
    }

    // Runs to the next suspension; true once finished.
    bool step() {
        if (h_) {
            if (!h_.done()) h_.resume();
            return h_.done();
        }
        if (!poll_) return true;
        const int rc = poll_(arg_);
        if (rc == kPending) {
            suspended_ = true;
            return false;
        }
        poll_ = nullptr;
        rc_ = rc;
        return true;
    }
    bool done() const noexcept { return h_ ? h_.done() : !poll_; }
    // The algorithm's result (MPI_SUCCESS or an error class), once finished.
    int result() const noexcept { return h_ ? h_.promise().result : rc_; }
    // How many waits it has got past so far (promise_type::advanced).
    // A polling task's one wait counts once it is over, if it had to suspend.
    std::uint32_t advanced() const noexcept { return h_ ? h_.promise().advanced : !poll_ && suspended_ ? 1 : 0; }

private:
    explicit CollTask(std::coroutine_handle<promise_type> h) noexcept : h_(h) {}
    // A coroutine, or else (frameless) a poll still to finish, or else a
    // finished result.
    std::coroutine_handle<promise_type> h_;
    int (*poll_)(void*) = nullptr;
    void* arg_ = nullptr;
    int rc_ = 0;
    bool suspended_ = false;  // a poll has returned kPending
};

// co_await NoteAdvance{} counts one wait got past in the awaiting task's
// promise and goes on without suspending.
struct NoteAdvance {
    bool await_ready() const noexcept { return false; }
    template <class Promise>
    bool await_suspend(std::coroutine_handle<Promise> h) const noexcept {
        ++h.promise().advanced;
        return false;
    }
    void await_resume() const noexcept {}
};

}  // namespace hmpi::coll

// Inside a CollTask: suspends until `cond` holds (re-evaluated at each resumption).
// A wait that had to suspend counts as got past once `cond` holds.
#define CO_WAIT_UNTIL(cond)                                      \
    do {                                                         \
        if (!(cond)) {                                           \
            do co_await std::suspend_always{};                   \
            while (!(cond));                                     \
            co_await ::hmpi::coll::NoteAdvance{};                \
        }                                                        \
    } while (0)

// Inside a CollTask: runs sub-task `expr` (another CollTask) to completion
// and stores its result in the int lvalue `rc`.
// The sub-task's waits got past count as this task's.
#define CO_RUN(rc, expr)                                                  \
    do {                                                                  \
        ::hmpi::coll::CollTask co_run_sub_ = (expr);                      \
        std::uint32_t co_run_seen_ = 0;                                   \
        for (;;) {                                                        \
            const bool co_run_done_ = co_run_sub_.step();                 \
            if (co_run_sub_.advanced() != co_run_seen_) {                 \
                co_run_seen_ = co_run_sub_.advanced();                    \
                co_await ::hmpi::coll::NoteAdvance{};                     \
            }                                                             \
            if (co_run_done_) break;                                      \
            co_await std::suspend_always{};                               \
        }                                                                 \
        (rc) = co_run_sub_.result();                                      \
    } while (0)
