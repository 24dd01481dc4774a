// MPI_Bcast's algorithms, in order of preference (registry.hpp); the model
// runs the cheapest applicable one.
#include "collectives/bcast/bcast.hpp"
#include "collectives/framework/tables.hpp"

namespace hmpi::coll {

namespace {
const CollAlgorithm kBcast[] = {
    {"one_stage", "every rank copies from the root's buffer (Li-Hoefler 2.2 Eq. 4, one-stage)", intra_only,
     bcast_one_stage, bcast_one_stage_cost},
    {"inline", "the root leaves the message in its flag payload (up to 48 bytes) or inline area (up to 4 KiB) and "
               "returns; readers copy it out, no acknowledgement (copy-in/copy-out, Li-Hoefler 2.2 one-stage)",
     bcast_inline_applies, bcast_inline, bcast_inline_cost, Arrival::ignored},
    {"two_stage", "domain leaders copy from the root, members from their leader (Li-Hoefler 2.2 Eq. 4, two-stage)",
     intra_only, bcast_two_stage, bcast_two_stage_cost},
    {"split", "every rank, the root too, claims chunks of the P - 1 copies and copies them from the root's buffer "
              "(one-stage with the root's share; large messages)",
     intra_only, bcast_split, bcast_split_cost},
    {"binomial", "binomial tree of direct copies (Li-Hoefler 2.2, tree)", intra_only, bcast_binomial,
     bcast_binomial_cost},
    {"pipelined", "XHC tree over the topology levels, chunks of 16 KiB counted in single-writer flags (XHC IV-B)",
     intra_only, bcast_pipelined, bcast_pipelined_cost},
};
}  // namespace

std::span<const CollAlgorithm> bcast_algorithms() { return kBcast; }

}  // namespace hmpi::coll
