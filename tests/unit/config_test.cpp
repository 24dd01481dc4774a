// Every parameter the runtime reads is documented in docs/environment.md.
#include <doctest/doctest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "base/config.hpp"

TEST_CASE("every runtime parameter is documented") {
    std::ifstream f(std::string(HMPI_SOURCE_DIR) + "/docs/environment.md");
    REQUIRE(f.good());
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string doc = ss.str();
    for (const auto& p : hmpi::parameter_table()) {
        INFO("parameter ", p.name);
        CHECK(doc.find(std::string("`") + p.name + "`") != std::string::npos);
        CHECK(std::string(p.meaning).size() > 10);
        CHECK(std::string(p.unit).size() > 0);
    }
}

TEST_CASE("waiters poll long when every rank has a CPU and briefly, then yield long, when oversubscribed") {
    const hmpi::WaitSchedule own = hmpi::default_wait_schedule(16, 16);
    CHECK(own.spin_us == 50.0);
    CHECK(own.yield_us == 200.0);
    const hmpi::WaitSchedule over = hmpi::default_wait_schedule(17, 16);
    CHECK(over.spin_us == 1.0);
    CHECK(over.yield_us == 1000.0);
    CHECK(hmpi::default_wait_schedule(3, 2).yield_us == 1000.0);
    // An unknown CPU count is no reason to give up polling.
    CHECK(hmpi::default_wait_schedule(64, 0).spin_us == 50.0);
    CHECK(hmpi::ranks_outnumber_cpus(3, 2));
    CHECK(!hmpi::ranks_outnumber_cpus(2, 2));
    CHECK(!hmpi::ranks_outnumber_cpus(64, 0));
    // The collectives' model charges CPU switches for the busiest CPU's ranks.
    CHECK(hmpi::ranks_per_cpu(16, 2) == 8);
    CHECK(hmpi::ranks_per_cpu(5, 2) == 3);
    CHECK(hmpi::ranks_per_cpu(2, 2) == 1);
    CHECK(hmpi::ranks_per_cpu(1, 16) == 1);
    CHECK(hmpi::ranks_per_cpu(64, 0) == 1);
}

TEST_CASE("the usable CPUs are the affinity mask's, at most those online") {
    for (const hmpi::BindPolicy bind : {hmpi::BindPolicy::core, hmpi::BindPolicy::none}) {
        const long n = hmpi::usable_cpus(bind);
        CHECK(n >= 1);
        CHECK(n <= sysconf(_SC_NPROCESSORS_ONLN));
    }
}
