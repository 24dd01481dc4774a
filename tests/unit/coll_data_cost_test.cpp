// Cost formulas of the data-movement collectives (bcast, gather, scatter,
// allgather, alltoall and their v/w forms, neighbourhood): every algorithm
// has one, finite where its shape allows it, +infinity where it does not,
// on made-up topologies (one and several cache domains).
#include <cmath>
#include <cstring>
#include <string>

#include "collectives/framework/inline.hpp"
#include "collectives/framework/registry.hpp"
#include "collectives/model/cost.hpp"
#include "collectives/model/params.hpp"
#include <doctest/doctest.h>

using namespace hmpi::coll;

namespace {

CommTopology shape(int p, int s) {
    CommTopology t;
    t.p = p;
    t.s = s;
    t.q = (p + s - 1) / s;
    t.cache_bytes = std::size_t(64) << 20;
    return t;
}

double cost_of(CollKind k, const CostQuery& q, const char* name) {
    for (const Prediction& pr : predict(k, q))
        if (std::strcmp(pr.algorithm->name, name) == 0) return pr.ns;
    FAIL("no algorithm " << name << " for " << coll_name(k));
    return 0;
}

const CollKind kDataKinds[] = {CollKind::bcast,     CollKind::gather,     CollKind::gatherv,
                               CollKind::scatter,   CollKind::scatterv,   CollKind::allgather,
                               CollKind::allgatherv, CollKind::alltoall,  CollKind::alltoallv,
                               CollKind::alltoallw, CollKind::neighbor_allgather, CollKind::neighbor_alltoallw};

bool shape_rules_out(const char* name, int p, int s) {
    const std::string n = name;
    if (n == "two_stage") return s <= 1;
    if (n == "recursive_doubling") return (p & (p - 1)) != 0;
    return false;
}

}  // namespace

TEST_CASE("data-movement algorithms all have cost formulas") {
    ModelParams params = default_model_params();
    for (int s : {1, 2, 4}) {
        for (int p : {2, 6, 8, 16}) {
            if (p < s) continue;
            const CommTopology topo = shape(p, s);
            for (CollKind k : kDataKinds) {
                for (std::size_t bytes : {std::size_t(0), std::size_t(8), std::size_t(4096), std::size_t(8192), std::size_t(16384),
                                          std::size_t(1) << 20}) {
                    CostQuery q{params, topo, k, bytes, true};
                    for (const Prediction& pr : predict(k, q)) {
                        const std::string coll = coll_name(k), algorithm = pr.algorithm->name;
                        CAPTURE(coll);
                        CAPTURE(algorithm);
                        CAPTURE(p);
                        CAPTURE(s);
                        CAPTURE(bytes);
                        const bool has_cost = pr.algorithm->cost != nullptr;
                        REQUIRE(has_cost);
                        // Inline data per rank, at most the communicator's inline area
                        // (16 KiB at 2 ranks down to 4 KiB from 8 on): one block (bcast,
                        // gather, allgather), one per rank (alltoall), or one per other
                        // rank (scatter: the root stages the p - 1 blocks it sends).
                        const std::size_t blocks = k == CollKind::alltoall  ? std::size_t(p)
                                                   : k == CollKind::scatter ? std::size_t(p - 1)
                                                                             : 1;
                        const bool inline_too_big =
                            std::strcmp(pr.algorithm->name, "inline") == 0 && bytes * blocks > inline_capacity(p);
                        if (shape_rules_out(pr.algorithm->name, p, s) || inline_too_big)
                            CHECK(std::isinf(pr.ns));
                        else
                            CHECK((std::isfinite(pr.ns) && pr.ns >= 0));
                    }
                }
            }
        }
    }
}

TEST_CASE("bcast: the tiny inline form is cheapest for 8 bytes; costs grow with size") {
    ModelParams params = default_model_params();
    const CommTopology topo = shape(2, 1);
    CostQuery tiny{params, topo, CollKind::bcast, 8, true};
    CHECK(cost_of(CollKind::bcast, tiny, "inline") < cost_of(CollKind::bcast, tiny, "one_stage"));
    CostQuery big{params, topo, CollKind::bcast, std::size_t(1) << 20, true};
    CHECK(cost_of(CollKind::bcast, big, "one_stage") > cost_of(CollKind::bcast, tiny, "one_stage"));
    // Several domains: the two-stage form has a finite prediction and beats the
    // one-stage one once q ranks per domain would all cross to the root's.
    const CommTopology wide = shape(16, 4);
    CostQuery large{params, wide, CollKind::bcast, std::size_t(1) << 20, true};
    CHECK(std::isfinite(cost_of(CollKind::bcast, large, "two_stage")));
}

TEST_CASE("inline readers prefetch small reads only, shared out over the writers") {
    using namespace hmpi::coll;
    CHECK(lines_spanned(0, 0) == 0);
    CHECK(lines_spanned(0, 1) == 1);
    CHECK(lines_spanned(0, 64) == 1);
    CHECK(lines_spanned(0, 65) == 2);
    CHECK(lines_spanned(63, 2) == 2);   // straddles a line boundary
    CHECK(lines_spanned(32, 64) == 2);  // the second half of one line and the first of the next
    CHECK(lines_spanned(64, 64) == 1);
    CHECK(inline_prefetch_share(1) == kInlinePrefetchLines);
    CHECK(inline_prefetch_share(2) == kInlinePrefetchLines / 2);
    CHECK(inline_prefetch_share(static_cast<int>(kInlinePrefetchLines)) == 1);
    // More writers than lines: nothing is prefetched (a read spans >= 1 line).
    CHECK(inline_prefetch_share(static_cast<int>(kInlinePrefetchLines) + 1) == 0);
}
