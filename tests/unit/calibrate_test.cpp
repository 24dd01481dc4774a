// hmpi-calibrate's rules that do not need a machine to measure
// (tools/hmpi-calibrate/measure.hpp).
#include <doctest/doctest.h>

#include "tools/hmpi-calibrate/measure.hpp"

using hmpi::calibrate::speed_changed;

TEST_CASE("the speed check flags a handoff that more than doubled or halved") {
    // The 2-core guest's two states (docs/performance-collectives.md, stop 30).
    CHECK(speed_changed(60, 300));
    CHECK(speed_changed(300, 60));
    CHECK(speed_changed(100, 201));
    // A noisy but steady machine.
    CHECK_FALSE(speed_changed(100, 200));
    CHECK_FALSE(speed_changed(250, 140));
    CHECK_FALSE(speed_changed(55, 55));
    // Nothing measured (one core): no verdict.
    CHECK_FALSE(speed_changed(0, 300));
    CHECK_FALSE(speed_changed(300, 0));
}
