// Flat barrier: every rank waits for every other's arrival flag.
//
// The arrival flag is the one the driver publishes when a rank enters the
// collective (context.hpp), so the barrier adds no write of its own.
// Cost (our formula, Li-Hoefler parameters at m = 0): one synchronized step
// in which each rank reads the other P - 1 flags' lines (all ranks at once,
// on different lines): the first is the step's handoff a (across domains
// when there are several), each further one a line, q - 1 in the domain and
// p - q across:
//   T = a_a + (q-2) b_a              (one domain)
//   T = a_b + (q-1) b_a + (p-q-1) b_b  (several)
// Where the profile measures poll_line (params.hpp: the slope over P of
// this very barrier), each further flag costs that instead of a line:
//   T = a + step_overhead + poll_line (P - 2)   (a = a_b with several domains)
// and step_overhead is added to the forms above otherwise (all_poll_excess,
// cost.hpp). On one domain this is flat_wait_cost (cost.hpp), the wait other
// formulas charge for all members' flags.
// The answer for small P; the tree and dissemination forms win as P grows.
#include "collectives/barrier/barrier.hpp"

namespace hmpi::coll {

namespace {
int everybody_arrived(CollCtx& ctx) { return ctx.all_reached(0, 1) ? MPI_SUCCESS : CollTask::kPending; }
}  // namespace

// One wait: a frameless task (CollTask::polling).
CollTask barrier_flat(CollCtx& ctx) { return CollTask::polling<everybody_arrived>(ctx); }

double barrier_flat_cost(const CostQuery& q) {
    if (q.p() <= 1) return 0;
    const bool several = q.s() > 1;
    if (!several) return flat_wait_cost(q, q.p());
    // With poll_line the further flags are in all_poll_excess (measured on
    // this very step); without, a line each.
    // Several domains: the first flag over beta, the others a line each.
    const double flags = q.params.poll_line > 0
                             ? 0.0
                             : (q.q() - 1) * q.params.alpha.b + (q.p() - q.q() - 1) * q.params.beta.b;
    return q.params.beta.a + flags + all_poll_excess(q, q.p());
}

}  // namespace hmpi::coll
