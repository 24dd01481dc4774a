// Dissemination barrier (Hensgen, Finkel and Manber 1988; the pattern of
// Li, Hoefler et al., Section 2.3): in round k = 0 .. ceil(log2 P) - 1, rank r
// signals rank (r + 2^k) mod P and waits for rank (r - 2^k) mod P. After the
// last round every rank has heard, directly or not, from every other.
//
// Signals are single-writer flags: rank r's flag 1 at step k + 1 says "r has
// finished round k"; its reader is (r + 2^k) mod P. Steps only grow, so a
// rank that is rounds ahead never confuses a slower reader.
// Cost: Li-Hoefler Eq. 6 at m = 0 (a_a per step within a domain, a_b per
// step across), with the ceil(log2 p) rounds this code takes for any p
// (no Eq. 7 pre/post step): the first floor(log2 q) rounds count as
// within a domain, the rest across:
//   T = a_a min(R, floor(log2 q)) + a_b (R - min(R, floor(log2 q))),  R = ceil(log2 p)
// (all a_a with one domain). Every rank steps in every round, so each a is
// busy_a(p) = a + step_overhead + busy_step (p - 2) (params.hpp).
#include <algorithm>

#include "collectives/barrier/barrier.hpp"

namespace hmpi::coll {

CollTask barrier_dissemination(CollCtx& ctx) {
    const int p = ctx.size(), r = ctx.rank();
    unsigned round = 0;
    for (int dist = 1; dist < p; dist <<= 1, ++round) {
        ctx.publish_to(1, round + 1, (r + dist) % p);
        const int from = (r - dist + p) % p;
        CO_WAIT_UNTIL(ctx.reached(from, 1, round + 1));
    }
    co_return MPI_SUCCESS;
}

double barrier_dissemination_cost(const CostQuery& q) {
    const int rounds = ceil_log2(q.p());
    const double a_in = busy_a(q, q.params.alpha, q.p());
    if (q.s() <= 1) return a_in * rounds;
    const int inner = std::min(rounds, floor_log2(q.q()));
    return a_in * inner + busy_a(q, q.params.beta, q.p()) * (rounds - inner);
}

}  // namespace hmpi::coll
