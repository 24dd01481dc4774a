// CollPlan: a choice an algorithm makes from the model while it runs
// (Eq. 4's one- or two-stage broadcast, Eq. 1's survivors, whether a copy
// hides a wait), made once per communicator, collective, op commutativity
// and size range, as the choice of the algorithm itself is
// (registry.hpp): at the range's representative size, so every rank makes
// the same one whichever call of the range comes first.
//
// HMPI_EXPLAIN=1 prints each choice when it is made, after the decision's
// line for the range.
//
// Evaluated on every call, the cost formulas were most of a small call's
// algorithm: li_bcast alone ran 265 instructions of a tree Allreduce of
// 8 bytes at 2 ranks (callgrind, stop 61).
#pragma once
#include <cstdint>
#include <string>

namespace hmpi::coll {

struct CostQuery;

// Plans a process can have (CollShared's cache holds one entry per plan).
inline constexpr int kMaxPlans = 8;

class CollPlan {
public:
    // The choice for a query, below 2^24.
    using Make = std::uint32_t (*)(const CostQuery&);
    // A choice in words, for HMPI_EXPLAIN ("tree: one-stage broadcast, ...").
    using Describe = std::string (*)(std::uint32_t);
    // Define plans at namespace scope: the constructor takes the next of
    // kMaxPlans ids (and dies past them).
    CollPlan(Make make, Describe describe) noexcept;

    Make make() const noexcept { return make_; }
    Describe describe() const noexcept { return describe_; }
    int id() const noexcept { return id_; }

private:
    Make make_;
    Describe describe_;
    int id_;
};

inline constexpr std::uint32_t kPlanValueBits = 24;

}  // namespace hmpi::coll
