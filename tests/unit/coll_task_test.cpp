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
