#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "base/park.hpp"

using namespace hmpi;

TEST_CASE("a parked waiter is woken by ring after the condition is published") {
    // Repeated many times to give lost-wakeup races a chance to show up as a hang.
    int woken = 0;
    for (int round = 0; round < 2000; ++round) {
        Doorbell bell;
        std::atomic<bool> ready{false};
        std::thread waiter([&] {
            while (!ready.load(std::memory_order_acquire)) bell.park([&] { return ready.load(std::memory_order_acquire); });
        });
        if (round % 2) std::this_thread::yield();
        ready.store(true, std::memory_order_release);
        bell.ring();
        waiter.join();
        ++woken;
    }
    CHECK(woken == 2000);
}

TEST_CASE("backoff moves from spinning to yielding to parking") {
    Backoff b(0, 0);
    Backoff::Step s = Backoff::Step::spin;
    for (int i = 0; i < 200 && s != Backoff::Step::park; ++i) s = b.next();
    CHECK(s == Backoff::Step::park);
}

TEST_CASE("a restarted backoff spins again, then parks again") {
    Backoff b(0, 0);
    Backoff::Step s = Backoff::Step::spin;
    for (int i = 0; i < 200 && s != Backoff::Step::park; ++i) s = b.next();
    REQUIRE(s == Backoff::Step::park);
    b.restart();
    CHECK(b.next() == Backoff::Step::spin);
    for (int i = 0; i < 200 && s != Backoff::Step::park; ++i) s = b.next();
    CHECK(s == Backoff::Step::park);
}
