// wait_until must return the first time done() succeeds and never call it
// again: MPI_Mprobe's done() takes the message it finds, so a second call
// would wait for a message that may never come (a hang seen under load).
#include <doctest/doctest.h>

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>

#include "core/p2p.hpp"

using namespace hmpi;

namespace {

// A one-rank job that parks as soon as a wait has polled 64 times (1 ns of
// spinning, which the clock sees only at the 64th poll; no yielding).
// Nobody rings its doorbell in this test, so parked waits end by the 50 ms
// safety re-check, which reports "a parked rank missed a wakeup" once: here
// that line is expected.
struct OneRankJob {
    Job job;
    OneRankJob() {
        job.nranks = 1;
        job.spin_ns = 1;
        job.yield_ns = 0;
        auto r = std::make_unique<Rank>();
        r->incoming = std::make_unique<std::atomic<Channel*>[]>(1);
        r->incoming[0].store(nullptr);
        job.ranks.push_back(std::move(r));
        install_job(&job);
    }
    ~OneRankJob() { install_job(nullptr); }
    Rank& rank() { return *job.ranks[0]; }
};

}  // namespace

TEST_CASE("wait_until never calls done() again after it succeeded, whichever phase it succeeds in") {
    OneRankJob j;
    // Succeed on the k-th call, for k across the spin phase and into the
    // park phase (where done() runs inside the doorbell's readiness check).
    for (int k = 1; k <= 80; ++k) {
        int calls = 0;
        int calls_after_success = 0;
        bool succeeded = false;
        wait_until(j.rank(), [&] {
            if (succeeded) {
                ++calls_after_success;
                return calls_after_success > 3;  // let a broken wait_until out instead of hanging
            }
            if (++calls == k) succeeded = true;
            return succeeded;
        });
        INFO("success on call ", k);
        CHECK(succeeded);
        CHECK(calls_after_success == 0);
    }
}

namespace {

// An async operation that gets past one of its internal waits every time it
// is advanced and completes after `steps` of them, like a long nonblocking
// collective whose every flag wait is short.
struct SteppingOp final : AsyncOp {
    explicit SteppingOp(std::uint32_t steps) : steps_(steps) {}
    bool advance(Rank&) override { return ++passed_ >= steps_; }
    std::uint32_t advances() const noexcept override { return passed_; }
    std::uint32_t steps_, passed_ = 0;
};

long voluntary_switches() {
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return u.ru_nvcsw;
}

}  // namespace

TEST_CASE("a wait on an async operation that keeps advancing never parks") {
    // The job parks as soon as a wait has polled 64 times (OneRankJob): only
    // the restart on Rank::async_advances keeps this wait
    // spinning. A parked wait here sleeps until the 50 ms re-check (nobody
    // rings), a voluntary context switch each time; without the restart it
    // would park at about every second step after the 64th.
    OneRankJob j;
    Request req;
    const long before = voluntary_switches();
    start_async(j.rank(), req, std::make_unique<SteppingOp>(200));
    wait_request(j.rank(), req);
    const long switches = voluntary_switches() - before;
    CHECK(req.complete());
    CHECK(switches < 5);
}

namespace {

// Pins the calling thread to `cpu` until destroyed, then restores its mask.
class PinnedTo {
public:
    explicit PinnedTo(int cpu) {
        pthread_getaffinity_np(pthread_self(), sizeof before_, &before_);
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        ok_ = pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
    }
    ~PinnedTo() { pthread_setaffinity_np(pthread_self(), sizeof before_, &before_); }
    bool ok() const { return ok_; }

private:
    cpu_set_t before_;
    bool ok_ = false;
};

// How many idle polls the calling thread (pinned to `cpu`) makes before a
// thread queued on the same CPU gets to run. The neighbour pins itself and
// spins there first, so it is runnable on that CPU before the count starts:
// neither its creation nor its migration is counted, only how the poller
// shares the CPU.
long polls_until_neighbour_runs(const Rank& self, int cpu) {
    std::atomic<bool> pinned{false}, go{false}, ran{false};
    std::thread neighbour([&] {
        PinnedTo pin(cpu);
        pinned.store(true, std::memory_order_release);
        while (!go.load(std::memory_order_acquire)) {
        }
        ran.store(true, std::memory_order_release);
    });
    while (!pinned.load(std::memory_order_acquire)) sched_yield();
    go.store(true, std::memory_order_release);
    long polls = 0;
    while (!ran.load(std::memory_order_acquire)) {
        idle_poll(self);
        ++polls;
    }
    neighbour.join();
    return polls;
}

}  // namespace

TEST_CASE("oversubscribed, an application's empty poll gives its core to a queued thread") {
    // MPI_Test in a loop, ranks outnumbering CPUs: the rank it waits for may
    // be queued on the same CPU. Without the yield the poller keeps the CPU
    // until its time slice ends (milliseconds: hundreds of thousands of
    // polls); with it the neighbour runs at the first poll or soon after.
    OneRankJob j;
    j.job.oversubscribed = true;
    const int cpu = std::max(0, sched_getcpu());
    PinnedTo pin(cpu);
    REQUIRE(pin.ok());
    long worst = 0;
    for (int i = 0; i < 20; ++i) worst = std::max(worst, polls_until_neighbour_runs(j.rank(), cpu));
    CHECK(worst < 1000);
}
