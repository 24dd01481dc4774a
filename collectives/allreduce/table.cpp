// MPI_Allreduce's algorithms, in order of preference (registry.hpp).
#include "collectives/allreduce/allreduce.hpp"
#include "collectives/allreduce/yhccl.hpp"
#include "collectives/framework/inline.hpp"
#include "collectives/framework/tables.hpp"

namespace hmpi::coll {

namespace {
// tree, tiled, tiled_push, inline and reduce_bcast take any op, commutative or not, and any type the op is defined on.
const CollAlgorithm kAllreduce[] = {
    {"tree", "n-ary reduction tree over the topology with Eq. 1's first phase, then a one- or two-stage "
             "broadcast; tiny vectors in flag payloads (Li-Hoefler 2.2, Eq. 5)",
     intra_only, allreduce_tree, allreduce_tree_cost},
    {"tiled", "cache-line tiles reduced in parallel within each cache domain, strip-mined, a tree across "
              "domains, then a one- or two-stage broadcast (Li-Hoefler 2.4, Eq. 11)",
     intra_only, allreduce_tiled, allreduce_tiled_cost},
    {"tiled_push", "each rank folds one cache-line-aligned slice of every input, strip by strip, and stores each "
                   "strip into every receive buffer: every byte read and written once (Li-Hoefler 2.4, the "
                   "broadcast pushed by the reducer)",
     intra_only, allreduce_tiled_push, allreduce_tiled_push_cost},
    {"dissemination", "log2 p steps, each rank combining the partial 2^i ranks before it, domains first "
                      "(Li-Hoefler 2.3, Eq. 6/7; commutative ops)",
     commutative_only, allreduce_dissemination, allreduce_dissemination_cost},
    {"reduce_bcast", "linear reduction to rank 0, then every rank copies the result (flat reduce + one-stage "
                     "broadcast)",
     intra_only, allreduce_reduce_bcast, allreduce_reduce_bcast_cost},
    {"inline", "every rank leaves its vector in its inline area, then folds all of them in rank order; no "
               "acknowledgement (copy-in/copy-out, up to 4 KiB of a contiguous type)",
     inline_reduction_applies, allreduce_inline, allreduce_inline_cost, Arrival::ignored},
    {"inline_split", "the vector cut into up to p parts of at least 48 bytes, each folded by one owner from every "
                     "rank's block of it and published in a block every rank copies; a block's first line holds "
                     "its stamp and 48 bytes (inline reduce-scatter + allgather, Li-Hoefler 2.4)",
     inline_split_applies, allreduce_inline_split, allreduce_inline_split_cost},
    {"movement_avoiding", "staggered reduce-scatter of each rank's own input into shared slices, then copy-out "
                          "with non-temporal stores past the cache (YHCCL 3.3, Alg. 1; commutative ops)",
     commutative_only, allreduce_movement_avoiding, allreduce_movement_avoiding_cost},
    {"movement_avoiding_socket", "movement_avoiding within each cache domain, then across domains, then copy-out "
                                 "(YHCCL 3.4; commutative ops)",
     commutative_only, allreduce_movement_avoiding_socket, allreduce_movement_avoiding_socket_cost},
    {"hierarchical", "pipelined reduce up and broadcast down the topology levels' tree, 16 KiB chunks counted in "
                     "single-writer flags, tiny vectors in flag payloads (XHC IV-B; commutative ops)",
     commutative_only, allreduce_hierarchical, allreduce_hierarchical_cost},
};
}  // namespace

std::span<const CollAlgorithm> allreduce_algorithms() { return kAllreduce; }

}  // namespace hmpi::coll
