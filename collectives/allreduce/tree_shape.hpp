// What the Li-Hoefler tree algorithms (Section 2.2, Fig. 4) share beyond
// the tree's shape: Eq. 1's survivors, the n-ary cost forms, the one-stage /
// two-stage broadcast of a result (Eq. 4), and the small-vector test for
// flag payloads.
//
// Where a rank sits in the tree: framework/tree_place.hpp.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "collectives/framework/context.hpp"
#include "collectives/framework/levels.hpp"
#include "collectives/framework/tree_place.hpp"
#include "collectives/framework/task.hpp"
#include "collectives/model/cost.hpp"

namespace hmpi {
struct Datatype;
}

namespace hmpi::coll {

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

// What a tree reduction decides from the model while it runs: Eq. 1's
// survivors (TreeOptions::survivors), Eq. 4's one or two stages for the
// result's broadcast (li_bcast), and copy_hides_wait for the first fold.
// Packed into a plan's value (framework/plan.hpp), so the formulas are
// evaluated once per size range, not on every call.
struct TreeChoices {
    int survivors = 1;
    bool two_stage = false;
    bool copy_first = false;  // copy_hides_wait

    std::uint32_t pack() const noexcept;
    static TreeChoices unpack(std::uint32_t v) noexcept;
    // In words, for HMPI_EXPLAIN: "tree: Eq. 1 keeps 2 of each domain's
    // ranks, ..." (the broadcast only where there is one).
    static std::string describe(std::uint32_t v, bool broadcast);
};

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
// `copy_first`: the plan's copy_hides_wait (TreeChoices).
CollTask tree_reduce_phase(CollCtx& ctx, const TreePlace& tp, void* dst, const Datatype* dst_type, bool small,
                           bool copy_first, unsigned char* small_result);

}  // namespace hmpi::coll
