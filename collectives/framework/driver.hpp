// Running a collective: the API layer's entry points.
//
// The driver takes the communicator's next sequence number and slot, waits
// (progressing) while the slot's previous collective is still running on
// this rank, publishes the caller's arguments, selects the algorithm
// (registry.hpp) and runs it: to completion for the blocking call, or from
// progress() for the nonblocking one.
#pragma once
#include "collectives/framework/call.hpp"
#include "collectives/framework/task.hpp"

namespace hmpi {
struct Rank;
struct Comm;
struct Request;
}  // namespace hmpi

namespace hmpi::coll {

// Blocking collective. Returns MPI_SUCCESS or an error class.
int run_collective(Rank& self, Comm& comm, const CollCall& call);

// Nonblocking collective: `req` (a new request the caller owns, with
// req.comm set and held) completes through the ordinary request functions.
// The call's datatypes and op are retained until it completes.
void start_collective(Rank& self, Comm& comm, CollCall call, Request& req);

// A collective run from inside another's algorithm (an intercommunicator
// algorithm's step on its local group, Comm::local). Its sequence number on
// `comm` is taken now, so call this where every member does so in the same
// order: before the outer algorithm's first suspension (create all the
// nested tasks up front), then CO_RUN(rc, std::move(task)) each in turn.
// `call` must outlive the task.
CollTask nested_collective(Rank& self, Comm& comm, const CollCall& call);

}  // namespace hmpi::coll
