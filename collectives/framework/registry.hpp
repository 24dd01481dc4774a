// Algorithm registries: per collective, the named algorithms that can run
// it, in order of preference.
//
// Every rank of a communicator must pick the same algorithm for a call, so
// applicable() may look only at what all ranks pass alike: the
// communicator (size, inter or intra, topology), the op, the root, and the
// data size where the standard makes it equal on all ranks (not, e.g., the
// counts of a vector form, which differ per rank, nor MPI_IN_PLACE).
//
// HMPI_<COLLECTIVE>_ALGORITHM=name (read by runtime config) forces one; if it
// cannot run a call, the first applicable one runs instead and HMPI says so
// once per collective.
#pragma once
#include <span>

#include "collectives/framework/context.hpp"
#include "collectives/framework/kinds.hpp"
#include "collectives/framework/task.hpp"

namespace hmpi::coll {

struct CollAlgorithm {
    const char* name;         // as in HMPI_<COLL>_ALGORITHM and hmpi-info
    const char* description;  // one line, with the source it follows
    // Whether it can run this call; if not, *why says why (for the notice).
    bool (*applicable)(const CollCtx& ctx, const char** why);
    CollTask (*run)(CollCtx& ctx);
};

// The algorithms of a collective, in order of preference.
std::span<const CollAlgorithm> algorithms_of(CollKind k) noexcept;

// The algorithm to run for this call: the forced one if it applies, else the
// first applicable one. Never null (every registry ends with a general one).
const CollAlgorithm& select_algorithm(CollKind k, const CollCtx& ctx);

// Helpers for tables.
bool always_applicable(const CollCtx&, const char**);
bool intra_only(const CollCtx& ctx, const char** why);  // refuses intercommunicators
bool inter_only(const CollCtx& ctx, const char** why);  // refuses intracommunicators

}  // namespace hmpi::coll
