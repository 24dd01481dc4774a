// Every parameter the runtime reads is documented in docs/environment.md.
#include <doctest/doctest.h>

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
