// The shape of the Li-Hoefler reduction tree (Section 2.2, Fig. 4) and the
// pieces the tree algorithms share: where a rank sits in the tree, the
// one-stage / two-stage broadcast of a result (Eq. 4), and the small-vector
// test for flag payloads.
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
#include <cstddef>
#include <cstdint>
#include <vector>

#include "collectives/framework/context.hpp"
#include "collectives/framework/levels.hpp"
#include "collectives/framework/task.hpp"
#include "collectives/model/cost.hpp"

namespace hmpi {
struct Datatype;
}

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
};

struct TreePlace {
    int parent = -1;         // -1: this rank is the top of the tree
    RankList<32> children;   // in fold order (ascending ranks when rank_order)
    int top = 0;             // the tree's root
};

// Where `rank` sits in the tree over `topo` (pure: unit-testable).
TreePlace tree_place(const CommTopology& topo, int rank, const TreeOptions& o);

// Eq. 1: the survivors d of the first phase for a group of q ranks moving
// m lines with working set ws under the model's alpha costs.
int eq1_survivors(const CostQuery& c, int q, std::size_t ws);

// The n-ary generalization of Eq. 1 + intra (n == 2: li_intra_tree_reduce)
// and of Eq. 2: (n - 1) * (a + b*m) * ceil(log_n x) for the k-nomial part.
int ceil_log(int x, int n) noexcept;
double nary_intra_tree_reduce(const CostQuery& c, int q, double m, std::size_t ws, int n);
double nary_inter_tree_reduce(const CostQuery& c, int s, double m, std::size_t ws, int n);
// Whether the tree's partials and result travel in flag payloads (vectors
// up to small_bytes; the model assumes a contiguous type): then no rank
// reaches another's arguments or buffers.
bool payload_sized(const CostQuery& c) noexcept;
// What the tree's root path pays to reach its children's arguments
// (peer_args_cost): n - 1 children per level, over the levels within a
// domain and across domains; nothing where the partials are payload_sized.
double tree_reduce_peer_args(const CostQuery& c, int n);

// The first fold of a node with children: its input and the first child's
// partial go into dst in one pass, a third-buffer reduction (r, R), unless
// copy_hides_wait: then the input is copied to dst while the child is
// awaited, and the child folded in (b) as the paper's step has it.
// copy_hides_wait: copying the vector takes no longer than the flag
// handoff a node waits for its first child (c m <= a).
// tree_first_fold_excess: what that costs the tree's root path beyond
// Eq. 1-3's b (or B) for the fold: (r - b) m once, or in a congested first
// phase (R - B) m for each survivor's first fold, min(d, q - d) of them;
// with one rank per domain, the first inter-domain fold (beta's r - b).
bool copy_hides_wait(const CostQuery& c);
double tree_first_fold_excess(const CostQuery& c, int q, int s, double m, std::size_t ws);

// A query for the current call (what every rank agrees on), to let an
// algorithm ask the model (e.g. li_bcast's two_stage) at run time.
CostQuery query_of(const CollCtx& ctx);

// Whether a reduction's vector travels in flag payloads: a contiguous type
// whose `count` elements fit the payload (knobs.hpp small_bytes).
bool fits_payload(std::int64_t count, const Datatype& t) noexcept;

// Eq. 4 broadcast of a result from `root` (which must lead its cache
// domain: allreduce's top, rank 0): one-stage, every rank copies from the
// root; two-stage, domain leaders copy from the root, then the members of
// each domain from their leader. The result is in the source's receive
// buffer, or (small) in its flag-2 payload as `count` packed elements of the
// call's type. The root publishes flag 2 step 1 itself (its result must be
// in place before the call); each copier publishes flag 2 step 1 once its
// own copy is readable and acknowledges its source with flag 3 step 1;
// every source waits for its readers' acknowledgements (the lifetime rule).
// A small result needs none: its payload's slot is not reused before every
// member has released the call (driver.cpp, may_enter), so its sources
// return once they have published it.
CollTask result_bcast(CollCtx& ctx, int root, bool two_stage, bool small);

// The reduction phase (Section 2.2; tree.cpp): every node folds x_v op
// P(c1) op ... op P(cK) of its children's partials (in order; commutative
// ops fold each child as soon as it is ready, others once all are). A
// node with children folds into `dst` (laid out by dst_type; it may be
// the node's own receive buffer, which then holds its input under
// MPI_IN_PLACE); a leaf's partial is its input, read in place. Each
// non-top node announces its partial to its parent with flag 1 step 1
// (its address through publish_scratch, or, when `small`, the packed
// elements in the flag's payload). The top ends with the result in `dst`
// (large; a top without children copies its input there), or in
// `small_result` (small; 64 bytes, aligned). Children's partials are read
// until the parent has folded them: callers keep them alive (allreduce: the
// broadcast of the result; reduce: the parent's flag).
CollTask tree_reduce_phase(CollCtx& ctx, const TreePlace& tp, void* dst, const Datatype* dst_type, bool small,
                           unsigned char* small_result);

}  // namespace hmpi::coll
