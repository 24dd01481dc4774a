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
    CollTask(CollTask&& o) noexcept : h_(std::exchange(o.h_, {})) {}
    CollTask& operator=(CollTask&& o) noexcept {
        if (this != &o) {
            if (h_) h_.destroy();
            h_ = std::exchange(o.h_, {});
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
        if (!h_.done()) h_.resume();
        return h_.done();
    }
    bool done() const noexcept { return h_.done(); }
    // The algorithm's result (MPI_SUCCESS or an error class), once finished.
    int result() const noexcept { return h_.promise().result; }
    // How many waits it has got past so far (promise_type::advanced).
    std::uint32_t advanced() const noexcept { return h_.promise().advanced; }

private:
    explicit CollTask(std::coroutine_handle<promise_type> h) noexcept : h_(h) {}
    std::coroutine_handle<promise_type> h_;
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
