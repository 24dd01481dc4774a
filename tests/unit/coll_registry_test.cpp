// The collectives' registries: every collective has algorithms for both
// kinds of communicator, with unique names, and the stamps flags carry
// order collectives and steps as the framework relies on.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "collectives/framework/kinds.hpp"
#include "collectives/framework/registry.hpp"
#include "collectives/framework/shared.hpp"

using namespace hmpi::coll;

namespace {
bool defined_on_intercomms(CollKind k) {
    switch (k) {
        case CollKind::scan:
        case CollKind::exscan:
        case CollKind::neighbor_allgather:
        case CollKind::neighbor_allgatherv:
        case CollKind::neighbor_alltoall:
        case CollKind::neighbor_alltoallv:
        case CollKind::neighbor_alltoallw: return false;
        default: return true;
    }
}
}  // namespace

TEST_CASE("every collective has named algorithms") {
    for (int i = 0; i < kCollKinds; ++i) {
        const auto k = static_cast<CollKind>(i);
        INFO("collective ", coll_name(k));
        CollKind back;
        REQUIRE(coll_kind_from_name(coll_name(k), &back));
        CHECK(back == k);
        std::set<std::string> names;
        int intra = 0, inter = 0;
        for (const CollAlgorithm& a : algorithms_of(k)) {
            CHECK(names.insert(a.name).second);
            CHECK(std::string(a.description).size() > 10);
            CHECK(static_cast<bool>(a.run));
            CHECK(static_cast<bool>(a.applicable));
            if (a.applicable == &inter_only) ++inter;
            else ++intra;
        }
        CHECK(intra >= 1);
        if (defined_on_intercomms(k)) CHECK(inter >= 1);
        else CHECK(inter == 0);
    }
}

TEST_CASE("stamps grow with the sequence number before the step") {
    CHECK(stamp(kFirstSeq, 255) < stamp(kFirstSeq + 1, 1));
    CHECK(stamp(kFirstSeq + kSlots, 1) > stamp(kFirstSeq, 200));
    CHECK(stamp(9, 1) > stamp(9, 0));
    // The released bit keeps a value below the next step's stamp and at or
    // above its own, and the sequence number readable.
    CHECK((stamp(9, 1) | kReleasedBit) >= stamp(9, 1));
    CHECK((stamp(9, 1) | kReleasedBit) < stamp(9, 2));
    CHECK((stamp(9, 255) | kReleasedBit) < stamp(10, 1));
    CHECK(stamp_seq(stamp(kFirstSeq + 5, 255) | kReleasedBit) == kFirstSeq + 5);
}
