#include <doctest/doctest.h>

#include <atomic>
#include <thread>
#include <vector>

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

TEST_CASE("anyone_parked says whether a waiter is parking on any doorbell") {
    CHECK_FALSE(Doorbell::anyone_parked());
    Doorbell bell;
    std::atomic<bool> ready{false}, parked_seen{false};
    std::thread waiter([&] {
        while (!ready.load(std::memory_order_acquire)) bell.park([&] { return ready.load(std::memory_order_acquire); });
    });
    // The waiter parks (its condition stays false until anyone_parked says so).
    for (long i = 0; i < 2'000'000'000 && !parked_seen.load(); ++i)
        if (Doorbell::anyone_parked()) parked_seen.store(true);
    CHECK(parked_seen.load());
    ready.store(true, std::memory_order_release);
    bell.ring();
    waiter.join();
    CHECK_FALSE(Doorbell::anyone_parked());
}

// Polls until `b` says `want` (or a generous bound runs out); the steps seen.
static std::vector<Backoff::Step> steps_until(Backoff& b, Backoff::Step want) {
    std::vector<Backoff::Step> seen;
    for (long i = 0; i < 100'000'000; ++i) {
        const Backoff::Step s = b.next();
        if (seen.empty() || seen.back() != s) seen.push_back(s);
        if (s == want) break;
    }
    return seen;
}

TEST_CASE("backoff moves from spinning to yielding to parking") {
    // Only the order is certain: a thread preempted for longer than a phase
    // (a loaded machine) skips it.
    Backoff b(20'000, 20'000);  // 20 us each
    const std::vector<Backoff::Step> seen = steps_until(b, Backoff::Step::park);
    REQUIRE(!seen.empty());
    CHECK(seen.front() == Backoff::Step::spin);
    CHECK(seen.back() == Backoff::Step::park);
    for (std::size_t i = 1; i < seen.size(); ++i) CHECK(static_cast<int>(seen[i - 1]) < static_cast<int>(seen[i]));
}

TEST_CASE("a restarted backoff spins again, then parks again") {
    Backoff b(20'000, 0);
    REQUIRE(steps_until(b, Backoff::Step::park).back() == Backoff::Step::park);
    b.restart();
    CHECK(b.next() == Backoff::Step::spin);
    CHECK(steps_until(b, Backoff::Step::park).back() == Backoff::Step::park);
}

TEST_CASE("with no polling time a wait yields at its first empty poll, and parks with no yielding time") {
    // HMPI_SPIN_US=0: not one poll is spent spinning.
    Backoff yielding(0, 1'000'000'000);
    CHECK(yielding.next() == Backoff::Step::yield);
    yielding.restart();
    CHECK(yielding.next() == Backoff::Step::yield);
    Backoff parking(0, 0);
    CHECK(parking.next() == Backoff::Step::park);
}
