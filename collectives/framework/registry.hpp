// Algorithm registries: per collective, the named algorithms that can run
// it, in order of preference.
//
// Every rank of a communicator must pick the same algorithm for a call, so
// applicable() may look only at what all ranks pass alike: the
// communicator (size, inter or intra, topology), the op, the root, and the
// data size where the standard makes it equal on all ranks (not, e.g., the
// counts of a vector form, which differ per rank, nor MPI_IN_PLACE).
//
// Among the applicable algorithms the one with the lowest predicted time
// runs (cost(), the Li-Hoefler model: collectives/model/); the ranking is
// cached per communicator, collective and size range. HMPI_<COLLECTIVE>_
// ALGORITHM=name (read by runtime config) forces one; if it cannot run a
// call, the model's choice runs instead and HMPI says so once per collective.
#pragma once
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "collectives/framework/context.hpp"
#include "collectives/framework/kinds.hpp"
#include "collectives/framework/task.hpp"
#include "collectives/model/cost.hpp"

namespace hmpi::coll {

// CollAlgorithm::arrival.
enum class Arrival : bool { ignored, read };

struct CollAlgorithm {
    const char* name;         // as in HMPI_<COLL>_ALGORITHM and hmpi-info
    const char* description;  // one line, with the source it follows
    // Whether it can run this call; if not, *why says why (for the notice).
    bool (*applicable)(const CollCtx& ctx, const char** why);
    CollTask (*run)(CollCtx& ctx);
    // Predicted time in ns of a call (collectives/model/cost.hpp). May use
    // only the query (what all ranks agree on), never per-rank arguments.
    double (*cost)(const CostQuery& q);
    // Whether it reads the members' arrival (CollCtx::arrived, flag 0) or
    // their arguments (args_of). The driver publishes both only for the
    // algorithms that do: the others (the inline ones, whose data comes
    // with a flag of their own) save a flag's store and a doorbell check
    // on every rank, a few percent of a tiny call.
    Arrival arrival = Arrival::read;
};

// The algorithms of a collective, in order of preference.
std::span<const CollAlgorithm> algorithms_of(CollKind k) noexcept;

// The algorithm to run for this call: the forced one if it applies, else the
// applicable one with the lowest predicted time.
const CollAlgorithm& select_algorithm(CollKind k, const CollCtx& ctx);

// Every algorithm of a collective with its predicted time for the query,
// cheapest first (ties, within kTieRelative, keep the table's order; an algorithm without a cost
// or ruled out by the shape has +infinity). Shape only: applicability to a
// particular call is not checked.
struct Prediction {
    const CollAlgorithm* algorithm;
    double ns;
};
// Predictions closer than this, relative, are a tie (rounding, not the
// model): predict() ranks them in their table's order.
inline constexpr double kTieRelative = 1e-9;
std::vector<Prediction> predict(CollKind k, const CostQuery& q);

// The ranking the runtime decides by: predict()'s where the profile
// describes one machine state. Where it has other states
// (ModelParams::other_states), each algorithm's worst ratio over the states
// of its prediction to that state's cheapest, lowest first (minimax
// regret: an algorithm that is 2% behind in one state and 5x ahead in the
// other beats the reverse); ratios within kTieRelative keep predict()'s
// order in the first state. The times returned are the first state's.
std::vector<Prediction> rank_over_states(CollKind k, const CostQuery& q);

// Whether an algorithm runs only on intercommunicators (its table is
// collectives/inter's): left out of intracommunicator explanations.
bool is_intercomm_algorithm(CollKind k, const CollAlgorithm& a) noexcept;

// The algorithm the model picks for a call of this shape (the first finite
// entry of rank_over_states at the size range's representative size, as
// the runtime decides), among intracommunicator algorithms; null if none.
const CollAlgorithm* model_choice(CollKind k, const ModelParams& params, const CommTopology& topo, std::size_t bytes,
                                  bool commutative);

// Size ranges of the decision cache: range 0 holds 0 bytes; then two ranges
// per power of two ([2^k, 2^k*sqrt2), [2^k*sqrt2, 2^(k+1))). A range's
// decision is made at its representative size, so it is the same whichever
// call of the range comes first: its first size, so that the decision is
// exact at the powers of two programs and benchmarks use most, and an
// algorithm that applies up to a power of two (the inline ones, 4 KiB) is
// considered at that size.
// (size_range_of: shared.hpp, beside the cache.)
std::size_t size_range_low(int range) noexcept;            // first byte count in the range
std::size_t size_range_representative(int range) noexcept;
// HMPI_EXPLAIN's line about this call's collective and size range
// ("explain: context 0 allreduce [8 B, 12 B): <what>"), after the
// communicator's lines the first time anything is said about it.
void explain_range(const CollCtx& ctx, const std::string& what);

// Helpers for tables.
bool always_applicable(const CollCtx&, const char**);
bool intra_only(const CollCtx& ctx, const char** why);  // refuses intercommunicators
bool inter_only(const CollCtx& ctx, const char** why);  // refuses intracommunicators

}  // namespace hmpi::coll
