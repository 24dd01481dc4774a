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
        int result = 0;
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

private:
    explicit CollTask(std::coroutine_handle<promise_type> h) noexcept : h_(h) {}
    std::coroutine_handle<promise_type> h_;
};

}  // namespace hmpi::coll

// Inside a CollTask: suspends until `cond` holds (re-evaluated at each resumption).
#define CO_WAIT_UNTIL(cond)                               \
    do {                                                  \
        while (!(cond)) co_await std::suspend_always{};   \
    } while (0)

// Inside a CollTask: runs sub-task `expr` (another CollTask) to completion
// and stores its result in the int lvalue `rc`.
#define CO_RUN(rc, expr)                                       \
    do {                                                       \
        ::hmpi::coll::CollTask co_run_sub_ = (expr);           \
        while (!co_run_sub_.step()) co_await std::suspend_always{}; \
        (rc) = co_run_sub_.result();                           \
    } while (0)
