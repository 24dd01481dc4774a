// Collectives on a communicator of one rank (MPI_COMM_SELF, a world of
// one, a split that leaves a rank alone).
//
// With one member every collective is at most the local copy the standard
// defines for that rank (MPI 3.1, 5.2.2: the root's own block, the own
// contribution of a reduction), so the blocking form runs it directly:
// no sequence number, slot, flag or algorithm choice. That is what
// separates a call of a few nanoseconds from one of tens: programs and
// libraries that work on MPI_COMM_SELF call collectives there in their
// inner loops, and a one-rank run does everywhere.
#pragma once
#include "collectives/framework/call.hpp"

namespace hmpi::coll {

// Whether `kind` has a one-member form here (the neighborhood collectives
// do not: a process topology may give the one rank edges to itself).
bool has_one_member_form(CollKind kind) noexcept;

// Runs `call` as the only member of an intracommunicator; returns its MPI
// error code (MPI_ERR_TRUNCATE where the receive side is too small).
int run_one_member(const CollCall& call) noexcept;

}  // namespace hmpi::coll
