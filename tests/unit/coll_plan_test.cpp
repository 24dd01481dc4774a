// Plans (collectives/framework/plan.hpp): an algorithm's choices from the
// model are made once per collective, op commutativity and size range, at
// the range's representative size, so every call of a range (and every
// rank) gets the same; another collective asking for the same plan gets
// its own; and the tree's choices survive their packing.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "collectives/allreduce/tree_shape.hpp"
#include "collectives/framework/context.hpp"
#include "collectives/framework/registry.hpp"
#include "collectives/model/params.hpp"

using namespace hmpi::coll;

namespace {

struct Asked {
    CollKind kind;
    std::size_t bytes;
    bool commutative;
};
std::vector<Asked> asked;

// A choice that shows what it was made from.
std::uint32_t record(const CostQuery& q) {
    asked.push_back({q.kind, q.bytes, q.commutative});
    return static_cast<std::uint32_t>(q.bytes % 1000 + (q.commutative ? 5000 : 0) + 10000 * static_cast<int>(q.kind));
}

std::string in_words(std::uint32_t v) { return std::to_string(v); }
const CollPlan recording_plan(record, in_words);
const CollPlan other_plan([](const CostQuery&) -> std::uint32_t { return 7; }, in_words);

const ModelParams& made_up_params() {
    static const ModelParams p;
    return p;
}

CommTopology two_cores() {
    std::vector<RankPlace> places(2);
    for (int r = 0; r < 2; ++r) places[static_cast<std::size_t>(r)].core = places[static_cast<std::size_t>(r)].l2 = r;
    return build_comm_topology(places, 1u << 20, 32u << 20, false);
}

}  // namespace

TEST_CASE("a plan is made once per size range, at its representative size") {
    auto cache = std::make_unique<DecisionCache>();
    const ModelParams& params = made_up_params();
    const CommTopology topo = two_cores();
    asked.clear();
    auto choose = [&](CollKind k, bool commutative, std::size_t bytes) {
        return plan_choice(*cache, recording_plan, &made_up_params, topo, k, commutative, size_range_of(bytes));
    };
    // 1000 and 1100 share a range ([1024 / sqrt 2, 1024) starts at 725).
    const std::size_t rep = size_range_representative(size_range_of(1000));
    REQUIRE(size_range_of(1100) != size_range_of(1000));
    REQUIRE(size_range_of(800) == size_range_of(1000));
    const std::uint32_t first = choose(CollKind::allreduce, true, 1000);
    CHECK(first == record(CostQuery{params, topo, CollKind::allreduce, rep, true}));
    asked.pop_back();
    REQUIRE(asked.size() == 1);
    CHECK(asked[0].bytes == rep);
    // Another size of the range: the cached choice, nothing made.
    CHECK(choose(CollKind::allreduce, true, 800) == first);
    CHECK(asked.size() == 1);
    // Another range, the other commutativity: made anew.
    choose(CollKind::allreduce, true, 1100);
    CHECK(asked.size() == 2);
    CHECK(choose(CollKind::allreduce, false, 1000) != first);
    CHECK(asked.size() == 3);
    CHECK_FALSE(asked[2].commutative);
    // Another collective asking for the same plan in the same range makes
    // its own, and then the first makes its own again (tags, not a mix-up).
    const std::uint32_t as_reduce = choose(CollKind::reduce, true, 1000);
    CHECK(as_reduce != first);
    CHECK(asked.back().kind == CollKind::reduce);
    CHECK(choose(CollKind::allreduce, true, 1000) == first);
    CHECK(asked.back().kind == CollKind::allreduce);
    // Of callers that race, the one that stores the choice says so.
    bool stored = true;
    plan_choice(*cache, recording_plan, &made_up_params, topo, CollKind::allreduce, true, size_range_of(1000), &stored);
    CHECK_FALSE(stored);
    plan_choice(*cache, recording_plan, &made_up_params, topo, CollKind::allreduce, true, size_range_of(5000), &stored);
    CHECK(stored);
    // Another plan has entries of its own.
    CHECK(plan_choice(*cache, other_plan, &made_up_params, topo, CollKind::allreduce, true, size_range_of(1000)) == 7);
    CHECK(choose(CollKind::allreduce, true, 1000) == first);
}

TEST_CASE("plans have distinct ids below kMaxPlans") {
    CHECK(recording_plan.id() != other_plan.id());
    CHECK(recording_plan.id() < kMaxPlans);
    CHECK(other_plan.id() < kMaxPlans);
}

TEST_CASE("the tree's choices survive their packing") {
    for (int survivors : {1, 2, 7, 64, 4096})
        for (bool two_stage : {false, true})
            for (bool copy_first : {false, true}) {
                const TreeChoices c{survivors, two_stage, copy_first};
                const std::uint32_t v = c.pack();
                CHECK(v < (std::uint32_t{1} << kPlanValueBits));
                const TreeChoices back = TreeChoices::unpack(v);
                CHECK(back.survivors == survivors);
                CHECK(back.two_stage == two_stage);
                CHECK(back.copy_first == copy_first);
                const std::string words = TreeChoices::describe(v, true);
                CHECK(words.find("keeps " + std::to_string(survivors) + " ") != std::string::npos);
                CHECK(words.find(two_stage ? "two-stage" : "one-stage") != std::string::npos);
                CHECK(TreeChoices::describe(v, false).find("broadcast") == std::string::npos);
            }
}
