// Where a rank sits in the Li-Hoefler reduction tree (Section 2.2, Fig. 4),
// shared by the tree algorithms (Barrier, Reduce, Allreduce;
// allreduce/tree_shape.hpp has the rest of what they share).
//
// The tree is mapped onto the communicator's topology levels
// (framework/levels.hpp): tier 0 is the cache-domain level (every rank when
// there is one domain), each level above it a tier whose members are the
// leaders of the groups below. A rank climbs the tiers until it gets a
// parent, so inter-domain steps happen only at the top of the tree.
//
// Within a tier-0 group of k ranks, Eq. 1's congestion-aware first phase
// runs first: the k members are cut into d contiguous runs (d = the
// survivors, Eq. 1) and each run's first rank folds the rest of its run in
// one synchronized step, so k - d reductions happen at once (d >= k/2: k - d
// simultaneous pairwise reductions). Then an n-ary (n = radix) k-nomial
// tree over the d survivors, and one over each higher tier's leaders: in
// round j (j = 1, n, n^2, ...) position u with u % (n*j) == 0 takes
// u + j, u + 2j, ..., u + (n-1)j.
//
// Every subtree covers a contiguous range of its list, and children come in
// list order; when the lists are in rank order (groups that are contiguous
// rank ranges, or the flat tree used otherwise for non-commutative ops) a
// node folding x_v op P(c1) op P(c2) ... keeps MPI's rank order.
#pragma once
#include <vector>

#include "collectives/framework/levels.hpp"

namespace hmpi::coll {

// A list of ranks kept inline up to N entries (the small path allocates nothing).
template <int N>
class RankList {
public:
    void push_back(int r) {
        if (size_ < N) inline_[size_] = r;
        else more_.push_back(r);
        ++size_;
    }
    int operator[](int i) const noexcept { return i < N ? inline_[i] : more_[static_cast<std::size_t>(i - N)]; }
    int& operator[](int i) noexcept { return i < N ? inline_[i] : more_[static_cast<std::size_t>(i - N)]; }
    int size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }

private:
    int inline_[N];
    std::vector<int> more_;
    int size_ = 0;
};

struct TreeOptions {
    int radix = 2;          // n of the n-ary tree (knobs.hpp)
    int survivors = 0;      // Eq. 1's d for tier-0 groups; 0 or >= group size: no first phase
    bool rank_order = true; // the result must follow rank order (non-commutative op)
    int lead = -1;          // a rank to put at the top of every list holding it (commutative rooted reduce), or -1

    bool operator==(const TreeOptions&) const = default;
};

struct TreePlace {
    int parent = -1;         // -1: this rank is the top of the tree
    RankList<32> children;   // in fold order (ascending ranks when rank_order)
    int top = 0;             // the tree's root
};

// Where `rank` sits in the tree over `topo` (pure: unit-testable).
TreePlace tree_place(const CommTopology& topo, int rank, const TreeOptions& o);

// A member's recent tree places, so that a loop of tree collectives does
// not rebuild its tree every call (2 ranks, an 8-byte tree Reduce: the
// non-root spent about 0.07 us more than in the inline one, most of it
// building its place and asking the model for Eq. 1's survivors;
// docs/performance-collectives.md, stop 54). Direct-mapped on the options
// (a rooted Reduce's tree differs per root); a miss builds the place.
// Owner-only: a member's algorithms start one after another (the driver's
// `started` order, driver.cpp), and they ask for their tree before their
// first wait.
class TreePlaceCache {
public:
    TreePlace get(const CommTopology& topo, int rank, const TreeOptions& o);

private:
    static constexpr int kEntries = 8;
    struct Entry {
        bool valid = false;
        TreeOptions key;
        TreePlace place;
    };
    Entry entries_[kEntries];
};

}  // namespace hmpi::coll
