// CollTask counts the waits it gets past (promise_type::advanced): the
// blocking driver restarts its spin/yield/park clock whenever the count
// grows, so a long collective whose waits each end quickly never parks.
#include <doctest/doctest.h>

#include "collectives/framework/task.hpp"

using namespace hmpi::coll;

namespace {

CollTask wait_twice(const bool& first, const bool& second) {
    CO_WAIT_UNTIL(first);
    CO_WAIT_UNTIL(second);
    co_return 7;
}

CollTask outer(const bool& first, const bool& second, const bool& last) {
    int rc = 0;
    CO_RUN(rc, wait_twice(first, second));
    CO_WAIT_UNTIL(last);
    co_return rc + 1;
}

// The shape of an algorithm whose one side never waits: a plain function
// that finishes that side at once and hands the other to a coroutine.
CollTask split(bool waits, const bool& ready) {
    if (!waits) return CollTask::finished(5);
    return wait_twice(ready, ready);
}

// A wait for a flag as a frameless task.
struct Flagged {
    const bool& ready;
    int polls = 0;
};
int poll_flagged(Flagged& f) {
    ++f.polls;
    return f.ready ? 3 : CollTask::kPending;
}

CollTask run_polling(Flagged& f) {
    int rc = 0;
    CO_RUN(rc, CollTask::polling<poll_flagged>(f));
    co_return rc + 1;
}

CollTask run_split(bool waits, const bool& ready) {
    int rc = 0;
    CO_RUN(rc, split(waits, ready));
    co_return rc * 10;
}

}  // namespace

TEST_CASE("a wait that suspended counts once it is got past; one that never suspended does not") {
    bool first = false, second = true;
    CollTask t = wait_twice(first, second);
    CHECK_FALSE(t.step());  // suspended at the first wait
    CHECK(t.advanced() == 0);
    CHECK_FALSE(t.step());  // still not there: no progress
    CHECK(t.advanced() == 0);
    first = true;
    CHECK(t.step());  // the second wait was already satisfied
    CHECK(t.advanced() == 1);
    CHECK(t.result() == 7);
}

TEST_CASE("a sub-task's waits got past count as its parent's") {
    bool first = false, second = false, last = false;
    CollTask t = outer(first, second, last);
    CHECK_FALSE(t.step());
    CHECK(t.advanced() == 0);
    first = true;
    CHECK_FALSE(t.step());  // the sub-task got past its first wait, now at its second
    CHECK(t.advanced() == 1);
    second = true;
    CHECK_FALSE(t.step());  // the sub-task finished; the parent waits for `last`
    CHECK(t.advanced() == 2);
    last = true;
    CHECK(t.step());
    CHECK(t.advanced() == 3);
    CHECK(t.result() == 8);
}

TEST_CASE("a task made finished has run: its result, no waits, movable, runnable as a sub-task") {
    bool ready = false;
    CollTask t = split(false, ready);
    CHECK(t.done());
    CHECK(t.step());
    CHECK(t.step());  // stepping a finished task again changes nothing
    CHECK(t.result() == 5);
    CHECK(t.advanced() == 0);
    CollTask moved = std::move(t);
    CHECK(moved.done());
    CHECK(moved.result() == 5);
    CollTask assigned = split(true, ready);  // a coroutine, replaced by a finished task below
    CHECK_FALSE(assigned.step());
    assigned = split(false, ready);
    CHECK(assigned.step());
    CHECK(assigned.result() == 5);

    CollTask parent = run_split(false, ready);
    CHECK(parent.step());  // the finished sub-task never suspends its parent
    CHECK(parent.result() == 50);
    CHECK(parent.advanced() == 0);

    CollTask waiting = run_split(true, ready);
    CHECK_FALSE(waiting.step());
    ready = true;
    CHECK(waiting.step());
    CHECK(waiting.result() == 70);
    CHECK(waiting.advanced() == 1);
}

TEST_CASE("a polling task polls at each step until done; a wait that suspended counts once") {
    bool ready = true;
    Flagged at_once{ready};
    CollTask now = CollTask::polling<poll_flagged>(at_once);
    CHECK_FALSE(now.done());  // nothing runs before the first step
    CHECK(at_once.polls == 0);
    CHECK(now.step());
    CHECK(now.result() == 3);
    CHECK(now.advanced() == 0);  // never suspended
    CHECK(now.step());
    CHECK(at_once.polls == 1);  // finished: no more polls

    ready = false;
    Flagged later{ready};
    CollTask t = CollTask::polling<poll_flagged>(later);
    CHECK_FALSE(t.step());
    CHECK_FALSE(t.step());
    CHECK(t.advanced() == 0);
    CollTask moved = std::move(t);
    CHECK(t.done());  // a moved-from task holds nothing
    CHECK_FALSE(moved.step());
    CHECK(later.polls == 3);
    ready = true;
    CHECK(moved.step());
    CHECK(moved.result() == 3);
    CHECK(moved.advanced() == 1);

    ready = false;
    Flagged sub{ready};
    CollTask parent = run_polling(sub);
    CHECK_FALSE(parent.step());
    ready = true;
    CHECK(parent.step());
    CHECK(parent.result() == 4);
    CHECK(parent.advanced() == 1);  // the sub-task's wait counts as the parent's
}
