// MPI_Scan's and MPI_Exscan's algorithms, in order of preference (registry.hpp).
#include "collectives/framework/inline.hpp"
#include "collectives/framework/tables.hpp"
#include "collectives/scan/scan.hpp"

namespace hmpi::coll {

namespace {
// All take any op, commutative or not, and any type the op is defined on (inline: contiguous ones).
const CollAlgorithm kScan[] = {
    {"linear", "rank r folds x_0 .. x_r in rank order, reading the inputs in place", intra_only, scan_linear,
     scan_linear_cost},
    {"chained", "the prefix travels rank to rank, one reduction each (linear chain, Blelloch 1990)",
     intra_only, scan_chained, scan_chained_cost},
    {"inline", "every rank leaves its vector in its inline area; rank r folds x_0 .. x_r from those copies "
               "(copy-in/copy-out, up to 4 KiB of a contiguous type)",
     inline_reduction_applies, scan_inline, scan_inline_cost, Arrival::ignored},
};
const CollAlgorithm kExscan[] = {
    {"linear", "rank r folds x_0 .. x_{r-1} in rank order, reading the inputs in place", intra_only, exscan_linear,
     exscan_linear_cost},
    {"chained", "each rank pushes its inclusive prefix into the next rank's buffer (linear chain, Blelloch 1990)",
     intra_only, exscan_chained, exscan_chained_cost},
    {"inline", "every rank leaves its vector in its inline area; rank r folds x_0 .. x_{r-1} from those copies "
               "(copy-in/copy-out, up to 4 KiB of a contiguous type)",
     inline_reduction_applies, exscan_inline, exscan_inline_cost, Arrival::ignored},
};
}  // namespace

std::span<const CollAlgorithm> scan_algorithms() { return kScan; }
std::span<const CollAlgorithm> exscan_algorithms() { return kExscan; }

}  // namespace hmpi::coll
