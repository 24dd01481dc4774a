// wait_until must return the first time done() succeeds and never call it
// again: MPI_Mprobe's done() takes the message it finds, so a second call
// would wait for a message that may never come (a hang seen under load).
#include <doctest/doctest.h>

#include <memory>

#include "core/p2p.hpp"

using namespace hmpi;

namespace {

// A one-rank job that parks as soon as possible (no spinning, no yielding).
// Nobody rings its doorbell in this test, so parked waits end by the 50 ms
// safety re-check, which reports "a parked rank missed a wakeup" once: here
// that line is expected.
struct OneRankJob {
    Job job;
    OneRankJob() {
        job.nranks = 1;
        job.spin_ns = 0;
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
