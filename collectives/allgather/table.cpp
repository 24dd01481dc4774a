// MPI_Allgather's and MPI_Allgatherv's algorithms, in order of preference
// (registry.hpp). All but inline serve both forms.
#include "collectives/allgather/allgather.hpp"
#include "collectives/framework/tables.hpp"

namespace hmpi::coll {

namespace {

bool ring_applies(const CollCtx& ctx, const char** why) {
    if (!intra_only(ctx, why)) return false;
    if (ctx.size() <= kAllgatherRingMaxRanks) return true;
    *why = "the ring needs one flag step per rank (at most 255 ranks)";
    return false;
}

bool power_of_two_applies(const CollCtx& ctx, const char** why) {
    if (!intra_only(ctx, why)) return false;
    if ((ctx.size() & (ctx.size() - 1)) == 0) return true;
    *why = "recursive doubling needs a power-of-two number of ranks";
    return false;
}

// Push and direct first: one round, every core copying at once; the ring
// and recursive doubling bound the readers per buffer (1) at the price of
// P - 1 or log2(P) dependent rounds. Push before direct: where the model
// prices them alike (past the cache, or past the L2 without
// push_line_beyond: both C per line, stop 35), the one
// whose copies read the writer's own cache and write lines it wrote last
// (2 ranks, 1-16 MiB: push 20-30% faster than direct).
const CollAlgorithm kDirect = {"direct", "every rank copies every contribution, staggered (one-stage)", intra_only,
                               allgather_direct, allgather_direct_cost};
const CollAlgorithm kPush = {"push", "every rank copies its own contribution into every receive buffer, staggered "
                             "(the write-side dual of direct)",
                             intra_only, allgather_push, allgather_push_cost};
const CollAlgorithm kRing = {"ring", "P - 1 rounds, each copying one block from the left neighbour (Thakur et al. 2005)",
                             ring_applies, allgather_ring, allgather_ring_cost};
const CollAlgorithm kRecursiveDoubling = {
    "recursive_doubling", "log2 P rounds of pairwise block exchange, P a power of two (Thakur et al. 2005)",
    power_of_two_applies, allgather_recursive_doubling, allgather_recursive_doubling_cost};
const CollAlgorithm kAllgather[] = {
    kPush, kDirect, kRing, kRecursiveDoubling,
    {"inline", "every rank leaves its block in its inline area, then copies every other block out; no "
               "acknowledgement (copy-in/copy-out, blocks up to 4 KiB)",
     allgather_inline_applies, allgather_inline, allgather_inline_cost, Arrival::ignored},
};
// The v form: blocks differ per rank, so no inline form.
const CollAlgorithm kAllgatherv[] = {kPush, kDirect, kRing, kRecursiveDoubling};

}  // namespace

std::span<const CollAlgorithm> allgather_algorithms() { return kAllgather; }
std::span<const CollAlgorithm> allgatherv_algorithms() { return kAllgatherv; }

}  // namespace hmpi::coll
