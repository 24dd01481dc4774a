// Cost formulas: what one call of an algorithm is predicted to take.
//
// Every CollAlgorithm has a cost function (registry.hpp) that returns the
// predicted time in ns of the call described by a CostQuery. They are built
// from the Li-Hoefler equations below (Section 2, Eq. 1-11) and, for what
// the paper does not cover, documented formulas of our own in each
// algorithm's file (docs/model.md lists them).
//
// The formulas use the communicator's shape (p ranks, s cache domains, q
// ranks in the largest) from its topology, and m = the call's message in
// cache lines. Whether in-L1, in-L2, in-cache or memory per-line costs
// apply is decided by the algorithm's working set against the L1s, the L2s
// and the cache (LinkCost, params.hpp; l1_resident, l2_resident and
// CostQuery::spills below).
#pragma once
#include <cmath>
#include <cstddef>

#include "collectives/framework/kinds.hpp"
#include "collectives/framework/levels.hpp"
#include "collectives/model/params.hpp"

namespace hmpi::coll {

class CollCtx;
struct CollCall;

inline constexpr std::size_t kCacheLine = 64;

struct CostQuery {
    const ModelParams& params;
    const CommTopology& topo;
    CollKind kind = CollKind::barrier;
    // The message every rank agrees on (message_bytes below): the whole
    // vector for reductions and Bcast, one rank's block for the gathers,
    // scatters and alltoalls, 0 where ranks do not agree (v and w forms).
    std::size_t bytes = 0;
    bool commutative = true;

    int p() const noexcept { return topo.p; }
    int q() const noexcept { return topo.q; }
    int s() const noexcept { return topo.s; }
    // The message in cache lines (at least 1 once there is data).
    double m() const noexcept { return lines(bytes); }
    static double lines(std::size_t b) noexcept {
        return static_cast<double>((b + kCacheLine - 1) / kCacheLine);
    }
    // Whether an algorithm touching `working_set` bytes runs out of cache
    // (the caches as measured where the profile has core_cache_bytes).
    bool spills(std::size_t working_set) const noexcept {
        const std::size_t c = topo.cache_bytes_with(params.core_cache_bytes);
        return c != 0 && working_set > c;
    }
};

// The message size all ranks of a call agree on (CostQuery::bytes); a
// running call's, computed once by the driver: message_bytes(ctx),
// context.hpp.
std::size_t message_bytes(const CollCall& call, int rank, int size) noexcept;

// ---- Building blocks, in ns. `ws` is the algorithm's working set in bytes.
inline int ceil_log2(int x) noexcept {
    int k = 0;
    while ((1 << k) < x) ++k;
    return k;
}
inline int floor_log2(int x) noexcept {
    int k = 0;
    while ((2 << k) <= x) ++k;
    return k;
}
// Whether an algorithm touching `ws` bytes keeps its data in the cores'
// L2s: at most half an L2 per rank (hmpi-calibrate's split, docs/model.md,
// "Where a step's lines are"); the one-thread costs are then b_l2, c_l2,
// r_l2 where the profile has them.
bool l2_resident(const CostQuery& c, std::size_t ws) noexcept;
// The same for the slice folds (every rank folding its own slice of all
// inputs into a third buffer, ws = (p + 1) m): their share of ws a rank
// stays at the in-L2 rate up to kSliceFoldL2Share (params.hpp) of an L2
// (docs/model.md, "Slice folds in the L2s"): r_l2 for one thread,
// R_slices_l2 for t.
bool slice_fold_l2_resident(const CostQuery& c, std::size_t ws) noexcept;
// The same for the L1s (b_l1, r_l1, R_slices_l1 where the profile has
// them): at most half an L1d per rank; a slice fold's share of ws a rank
// up to kSliceFoldL1Share (params.hpp) of one (docs/model.md, "Folds in
// the L1s").
bool l1_resident(const CostQuery& c, std::size_t ws) noexcept;
bool slice_fold_l1_resident(const CostQuery& c, std::size_t ws) noexcept;
// What a step's first lines cost more when one reader pulls m lines that
// a waiting core has just written: near_line for each of the first
// near_lines (params.hpp; 0 where the profile has none). Only steps whose
// source waits while it is read pay it (waited_step_cost below, the tree
// levels of li_intra_tree_reduce, binomial and linear Reduce, chained
// Scan); step_cost does not (direct Scatter's root copies meanwhile).
double near_excess(const CostQuery& c, double m) noexcept;
// The same for a slice fold, every rank folding its slice of m lines at
// once: slice_near_line for each of the first slice_near_lines (params.hpp;
// 0 where the profile has none), charged once per fold (slice_fold_cost).
double slice_near_excess(const CostQuery& c, double m) noexcept;
// Per-line costs in or out of cache, of a reduction step (b, B) and of a
// copy step (c, C).
double line_cost(const CostQuery& c, const LinkCost& l, std::size_t ws) noexcept;       // b or b_mem
double congested_line_cost(const CostQuery& c, const LinkCost& l, std::size_t ws) noexcept;  // B or B_mem
double copy_line_cost(const CostQuery& c, const LinkCost& l, std::size_t ws) noexcept;       // c or c_mem
double congested_copy_line_cost(const CostQuery& c, const LinkCost& l, std::size_t ws) noexcept;  // C or C_mem
// The same for a reduction into a third buffer (out = in op in2, reduce_data3:
// every dissemination step, the first fold of a chain into a result): r or
// r_mem, R or R_mem, and max(r, R*t); b's where the profile has none.
double reduce3_line_cost(const CostQuery& c, const LinkCost& l, std::size_t ws) noexcept;
double congested_reduce3_line_cost(const CostQuery& c, const LinkCost& l, std::size_t ws) noexcept;
double shared_reduce3_line_cost(const CostQuery& c, const LinkCost& l, int t, std::size_t ws) noexcept;
// The same where each thread's own input is read by that thread alone (the
// slice folds: reduce-scatter, tiled Reduce and Allreduce, the tree's first
// fold): R_slices or R_slices_mem (params.hpp), R's where the profile has
// none. R's ring has every line read by its owner and its neighbour at
// once, as a dissemination step does.
double congested_slice_reduce3_line_cost(const CostQuery& c, const LinkCost& l, std::size_t ws) noexcept;
double shared_slice_reduce3_line_cost(const CostQuery& c, const LinkCost& l, int t, std::size_t ws) noexcept;
// Per result line, a chain that folds all p ranks' inputs into a result
// that holds none of them yet, folded by a rank of the largest cache
// domain, t threads doing so at once: the first fold reduces into a third
// buffer (max(r, R t)), each further one accumulates (max(b, B t)); q - 1
// folds of lines from its domain (alpha), p - q from others (beta), the
// first over alpha where the domain has another rank. 0 for one rank. b
// and r are Li-Hoefler's cost of one folded line (reading it and updating
// the result line), so a chain is charged per fold, not per line it touches.
double domain_fold_chain_line_cost(const CostQuery& c, int t, std::size_t ws) noexcept;
// Per line, each of t threads moving lines at once over a link: one
// thread's cost (b, c) until the link carries more threads than it serves
// at full speed (Eq. 1's b/B), then B*t (C*t): max(b, B*t), max(c, C*t).
double shared_line_cost(const CostQuery& c, const LinkCost& l, int t, std::size_t ws) noexcept;
double shared_copy_line_cost(const CostQuery& c, const LinkCost& l, int t, std::size_t ws) noexcept;
// Threads on a link between two cache domains when every rank of both, q
// each, reads from the other domain at once (an exchange step across):
// 2 q, at most p. hmpi-calibrate's beta ring takes its cores alternately
// from both sides, so beta's B, R and C are per thread with that many
// crossing; charging q (one side's) priced a line across below one
// thread's b where q = 1 (2 ranks of the 2-core EPYC: dissemination's
// exchange measured 2.8 ns a line against r = 1.48 and R t = 2.77).
inline int exchange_link_threads(int p, int q) noexcept { return 2 * q < p ? 2 * q : p; }
// a + b*m: one step of one thread.
double step_cost(const CostQuery& c, const LinkCost& l, double m, std::size_t ws) noexcept;
// a + max(b, B*t)*m: one step of t threads at once, never cheaper per line
// than one thread alone (Eq. 1: b/B threads share the link at full speed).
double congested_step_cost(const CostQuery& c, const LinkCost& l, double m, int t, std::size_t ws) noexcept;
// The same for steps that reduce into a third buffer: a + max(r, R*t)*m.
double congested_reduce3_step_cost(const CostQuery& c, const LinkCost& l, double m, int t, std::size_t ws) noexcept;
// The same for copy steps: a + c*m, and a + max(c, C*t)*m.
double copy_step_cost(const CostQuery& c, const LinkCost& l, double m, std::size_t ws) noexcept;
// One reader's step from a source that waits meanwhile (a tree level, a
// binomial step, one-stage Bcast's single reader): step_cost or
// copy_step_cost + near_excess(m).
double waited_step_cost(const CostQuery& c, const LinkCost& l, double m, std::size_t ws) noexcept;
double waited_copy_step_cost(const CostQuery& c, const LinkCost& l, double m, std::size_t ws) noexcept;
double congested_copy_step_cost(const CostQuery& c, const LinkCost& l, double m, int t, std::size_t ws) noexcept;
// a + P*t*m: t threads at once each storing m of its own lines into another
// core's buffer, P = push_line (params.hpp; scaled by l.C / alpha.C for
// another link) while each thread's own data (`own_bytes`: what it reads
// and what is written into its buffers) fits its L2, as in the
// measurement; beyond, and where the profile has none, C or C_mem, the
// pull's cost.
double congested_push_step_cost(const CostQuery& c, const LinkCost& l, double m, int t, std::size_t own_bytes,
                                 std::size_t ws) noexcept;
// The same with every one of the t threads pushing at once, as in the
// measurement's ring: past the L2, within the cache, push_line_beyond
// (format 16) where the profile has it. A step with fewer pushers (the
// chained Scan's one, Gather's p - 1 into one root) keeps C there: at 2
// ranks on the 2-core EPYC guest, 1-4 MiB, Exscan took 26-110 us and Gather
// 22-113 against 19-74 charged with C and 15-57 with push_line_beyond (stop
// 45). (The ring had copied with memcpy up to stop 44: its vector stores
// into lines the reader holds cost 4.9 ns a line at 2 MiB a buffer there;
// the runtime's string move, which the ring now uses too, 0.86.)
double all_push_step_cost(const CostQuery& c, const LinkCost& l, double m, int t, std::size_t own_bytes,
                          std::size_t ws) noexcept;
// Every rank at once storing m lines of its own into each of the p - 1
// others' receive buffers, then waiting for every rank (push Alltoall, push
// Allgather): all_push_step_cost over (p - 1) m lines, a rank's own
// data its 2 p m bytes (send and receive buffers), working set p^2 m; then
// a_alpha + Y for the closing wait and the p - 1 peers' arguments swept,
// and its own block's copy (own_block_copy_cost, below).
// `line_share`: result_copy_scale of the caller's copies (1: memcpy's cost).
double all_push_exchange_cost(const CostQuery& q, double line_share = 1.0) noexcept;
// A rank's copy of its own block from its send buffer into its receive
// buffer where it comes before the rank's other copies, serially (every
// rank's in Allgather and Alltoall, the root's in direct Gather and push
// Scatter): c_alpha (or c_mem) a line of the block once the working set `ws`
// leaves the L2s; within them nothing (a copy within one core's caches,
// not measured). docs/model.md, "The own block's copy".
double own_block_copy_cost(const CostQuery& c, std::size_t ws) noexcept;
// The share of their memcpy cost that the lines of a copy cost where
// result_store_kind_for (data.hpp) stores them non-temporally: nt_copy_ratio
// once `runtime_ws` (the working set the algorithm passes it) per rank
// reaches nt_copy_from, 1 otherwise or where the profile has neither
// (params.hpp; docs/model.md, "Non-temporal stores inside the cache").
double result_copy_scale(const CostQuery& c, std::size_t runtime_ws) noexcept;

// Sharers and sources (HMPI's extension, docs/model.md; 0 where the profile
// has no measurement). A writer storing `lines` that other cores hold:
// rewrite_line per line up to rewrite_knee lines, rewrite_line_beyond past it.
double rewrite_cost(const CostQuery& c, double lines) noexcept;
// The same for `lines` of a buffer of `buffer_bytes` that peers read in the
// previous call (an allgather whose ranks forward blocks out of their
// receive buffers): charged while twice the buffer fits the L2 (a reader
// holds the lines it read and the copy it wrote of them), where the
// readers' copies of it are still cached; beyond, they have been evicted
// by the time the writer comes back. Stop 28's 2-rank run on the EPYC guest
// (1 MiB L2): with rewrite_line_beyond, tree and reduce_bcast Allreduce at
// 512 KiB (2 m = 1 MiB) were predicted 1.7-1.9x their measured time, and
// +2..+22% at 16-128 KiB (rewrite_line alone had left them 25-38% short).
double reread_buffer_rewrite_cost(const CostQuery& c, double lines, std::size_t buffer_bytes) noexcept;
// A broadcast source's rewrite: the m lines of the receive buffer a
// reduction's root folds into and its readers then copy out (tree,
// hierarchical and reduce_bcast Allreduce). Each reader held the source's
// lines and wrote its own copy of them, 2 m lines through its L2, so the
// root's next fold rewrites lines the readers still hold while 2 m fits
// the L2 (reread_buffer_rewrite_cost). 2 ranks on the EPYC guest (stop
// 28): stores into 64-256 KiB that the other core had just copied took
// 7-9.5 ns a line, memcpy or a vector loop, with or without prefetchw.
// Where the profile has fold_rewrite_line (format 11), that is the cost of
// the fold's stores, per line, at every size: measured as a fold's, it
// covers what memcpy's rewrite_line does not, and on the EPYC guest (stop
// 32) it stays 7-9 ns a line past the L2 (the readers' L3 keeps the lines),
// where the rule above charged nothing and the tree's predictions at
// 1-4 MiB were a third of the measured times. Stop 41's runs saw 3-4.5 ns
// there against 7-9 below: fold_rewrite_cost's knee.
double result_source_rewrite_cost(const CostQuery& c) noexcept;
// A temporal copy's stores into `lines` of a buffer of `buffer_bytes`
// that others read in the previous call, in memcpy calls of `copy_bytes`:
// copy_rewrite_line per line where the calls are at least
// copy_rewrite_bytes (params.hpp: memcpy's stores then take every line
// back, at every buffer size), else reread_buffer_rewrite_cost.
double copy_rewrite_cost(const CostQuery& c, double lines, std::size_t copy_bytes, std::size_t buffer_bytes) noexcept;
// What such a copy costs beyond the copy itself, for a formula that has
// charged the copy already (c or C a line): copy_rewrite_line where it
// applies (measured as that excess), else what rewrite_line (the whole of
// a local copy into lines others read, as measured) adds to a local copy,
// c_a a line in the working set `ws`, at least nothing.
double copy_rewrite_excess(const CostQuery& c, double lines, std::size_t copy_bytes, std::size_t buffer_bytes,
                           std::size_t ws) noexcept;
// The first store of a step into lines another core holds, waiting for
// the invalidation's round trip whatever the size: rewrite_first (format
// 13), else the link's a (a flag handoff is one such round trip and more).
double rewrite_first_cost(const CostQuery& c, const LinkCost& l) noexcept;
// A fold's stores into `lines` of a rank's receive buffer (of the call's
// m lines) that others read in the previous call: fold_rewrite_line per
// line where the profile has it, else reread_buffer_rewrite_cost over 2 m.
// Past fold_rewrite_knee (format 13: m lines whose readers' copies no
// longer fit their L2, 3 m lines a call) fold_rewrite_line_beyond per line
// instead, for the whole vector: the readers lost the lines before the
// fold comes back to them. 2 ranks on the EPYC guest (stop 41), tree
// Allreduce against profiles calibrated in the same machine state: slow
// state 512 KiB-16 MiB 44-104% high with 7-10 ns a line at every size;
// fast state 4-128 KiB 17-21% short with format 12's single fit (0.07 ns).
double fold_rewrite_cost(const CostQuery& c, double lines) noexcept;
// The same for the hierarchical pipelined Allreduce, at rewrite_line per
// line throughout (no knee): its root folds one chunk at a time between
// flag waits. Stop 28's 2-rank run replayed: charged rewrite_line_beyond
// its predictions at 16-128 KiB were 1.42-1.44x the fastest measured
// round, with rewrite_line -2..-22%. Why its stores stall less is not
// measured.
double pipelined_result_source_rewrite_cost(const CostQuery& c) noexcept;
// What a line pulled from a busy source costs beyond the link's congested
// cost, in a step where t readers pull lines at once and `per_source` of
// them pull distinct lines from the same core at the same time (readers
// that sweep the sources in rank order): max(0, source_line * per_source -
// B*t), with B_mem beyond the cache. Readers in staggered order (one
// reader per source at a time) pay nothing more. Only while the data each
// source serves (`source_bytes`) fits its L2: larger data has gone out to
// the shared L3 or memory, whose slices serve the readers in parallel.
double busy_source_excess(const CostQuery& c, const LinkCost& l, int t, int per_source, std::size_t source_bytes,
                          std::size_t ws) noexcept;
// The same for the folds of reduce_staggered (collectives/reduce/
// reduction.hpp), t ranks at once over inputs of c.bytes within a cache
// domain: nothing for a commutative op (its folds are staggered); for any
// other, whose folds keep rank order, per_source readers meet at a source.
double fold_sweep_excess(const CostQuery& c, int t, int per_source, std::size_t ws) noexcept;

// What reaching peers' arguments costs a rank that reads `peers` distinct
// peers' CollCalls one after another on the call's critical path:
// peer_args each (params.hpp; 0 where the profile has none). Every
// algorithm that reads a peer's buffer pays it before its first line
// (docs/model.md, "Reaching a peer's arguments", lists each one's count);
// the inline algorithms, which read flag payloads and inline areas at fixed
// places, do not.
double peer_args_cost(const CostQuery& c, double peers) noexcept;
// The same for `peers` distinct peers reached in one loop, none waiting on
// another (a rank sweeping every other rank's buffer): where the profile
// also has poll_line, the first costs peer_args and each further one
// poll_line, their misses overlapping as a flat barrier's flag lines do
// (docs/model.md, "Many peers in one loop"); peer_args each otherwise.
double peer_args_sweep_cost(const CostQuery& c, double peers) noexcept;
// The first line of a peer's data that a zero-copy fold reads: its address
// comes from the peer's arguments, so its miss cannot start before theirs
// ends, one more round trip to the peer's core of the kind peer_args
// measures (docs/model.md, "A fold's first line of each peer"). For
// `peers` read one after another (peer_args each), and for `peers` a fold
// reaches in one loop: nothing more where it sweeps them (3 to
// kSweptOperands operands, framework/operand_sweep.hpp: their first lines
// are asked for in the arguments' sweep), peer_args_sweep_cost where it
// does not (a fold of two, or one past the limit). Copies are not charged it.
double peer_data_cost(const CostQuery& c, double peers) noexcept;
double peer_data_sweep_cost(const CostQuery& c, int peers) noexcept;

// What a synchronized step of HMPI's costs beyond its link's a when t >= 2
// ranks take steps at the same time: step_overhead + busy_step (t - 2)
// (params.hpp; each 0 where the profile has none, busy_step also for
// t <= 2). busy_a is that step's a.
double busy_excess(const CostQuery& c, int t) noexcept;
// What a wait for all t ranks' flags (every rank polling every flag, the
// flat barrier's step) costs beyond its link's a: step_overhead +
// poll_line (t - 2) (params.hpp; 0 where the profile has neither).
double all_poll_excess(const CostQuery& c, int t) noexcept;
inline double busy_a(const CostQuery& c, const LinkCost& l, int t) noexcept { return l.a + busy_excess(c, t); }
// One wait of every one of t ranks of a cache domain for all the others'
// flags: the flat barrier's cost on one domain (barrier/flat.cpp), a_alpha +
// all_poll_excess(t), or a line per further flag where the profile has no
// poll_line.
double flat_wait_cost(const CostQuery& c, int t) noexcept;
// A reduction's last wait: every rank but the root waits one more handoff
// for the rank that reads its input to say it is done ("folded"), charged
// as the mean over ranks, (p-1)/p a_alpha (tree, binomial and linear
// Reduce; docs/model.md, "Reduce's waits at two ranks").
inline double input_released_wait_cost(const CostQuery& c) noexcept {
    return c.p() > 1 ? c.params.alpha.a * (c.p() - 1) / c.p() : 0.0;
}

// Every rank folds its slice (ceil(m/p) lines, m = c.m()) of all p ranks'
// inputs, read where they are, into a result: the reduce-scatter stage of
// Li, Hoefler et al., Section 2.4, as reduce_scatter/direct.cpp and
// tiled.cpp and reduce/tiled.cpp run it. Two waits of every rank (all
// arrived; all done reading), a fold chain per result line
// (domain_fold_chain_line_cost, p ranks folding at once), for a
// non-commutative op fold_sweep_excess on the (p - 1) lines read from
// others, the sweep over p - 1 peers' arguments and their data's first
// lines, and the excess of a slice's first lines (slice_near_excess):
//   2 (a + Y(p)) + (F + S) m_b + X (p - 1) m_b + peer_args_sweep(p - 1)
//     + peer_data_sweep(p - 1) + N_s(m_b)
// S: beyond the cache, a result folded straight (not strip-mined) goes out
// and comes back between folds, (p - 2) max(c_mem, C_mem p) more per line
// (0 at 2 ranks).
double slice_fold_cost(const CostQuery& c, bool strip_mined) noexcept;
// One of slice_fold_cost's two waits, every rank's for every rank's flag:
// a (beta's across domains) + all_poll_excess(p) + all_wait_switches.
double slice_fold_wait_cost(const CostQuery& c) noexcept;

// Li-Hoefler Eq. 1 and the intra-domain reduction time after it:
// a_alpha + (q-d)*B_alpha*m + (a_alpha + b_alpha*m)*ceil(log2 d).
double li_intra_tree_reduce(const CostQuery& c, int q, double m, std::size_t ws) noexcept;
// Eq. 2: (a_beta + b_beta*m)*ceil(log2 s).
double li_inter_tree_reduce(const CostQuery& c, int s, double m, std::size_t ws) noexcept;
// Eq. 4: the cheaper of a two-stage broadcast (a_alpha + C_alpha(q-1)m +
// a_beta + c_beta m) and a one-stage one (a_beta + C_beta q m); with one
// cache domain (s == 1) a one-stage broadcast within it, a_alpha +
// C_alpha(q-1)m. The paper's b/B become our copy costs c/C (a broadcast
// copies lines, params.hpp). *two_stage (if given) says which is cheaper.
double li_bcast(const CostQuery& c, int q, int s, double m, std::size_t ws, bool* two_stage = nullptr) noexcept;
double li_one_stage_bcast(const CostQuery& c, int q, int s, double m, std::size_t ws) noexcept;
double li_two_stage_bcast(const CostQuery& c, int q, int s, double m, std::size_t ws) noexcept;
// Eq. 6 (p a power of two) and Eq. 7 (otherwise): dissemination, and its
// steps within and across cache domains.
struct DisseminationSteps {
    int within, across;
};
DisseminationSteps li_dissemination_steps(int p, int q, int s) noexcept;
double li_dissemination(const CostQuery& c, int p, int q, int s, double m, std::size_t ws) noexcept;
// Eq. 10: tiled reduction within domains, tree across; Eq. 8's per-thread
// lines are counted (q-1)/q, those of other threads' inputs (a thread's own
// tile of its own input is in its own cache), the first of each tile's
// q - 1 folds at R (into a third buffer, the result), the others at B;
// Eq. 8's a q as two flat waits of the domain (flat_wait_cost); each
// level across pays busy_excess, as li_inter_tree_reduce's do.
// busy_source_excess is the caller's to add (allreduce/tiled.cpp).
double li_tiled_reduce(const CostQuery& c, int q, int s, double m, std::size_t ws) noexcept;


// The parameters of a communicator whose job has more ranks than CPUs, k =
// topo.ranks_per_cpu > 1 of them on the busiest (HMPI's extension,
// docs/model.md, "More ranks than CPUs"). A waiting rank runs only once
// the ranks queued ahead of it on its CPU have yielded, so every
// synchronized step's a (alpha, beta, each level) grows by (k - 1)
// switch_handoff; the per-line costs stay (a CPU's ranks take turns, and
// the congested costs already charge t threads' lines on the cores there
// are), and every rank's copy-in at once costs what one writer's does
// (rewrite_all_line is 0). `p` itself where k <= 1.
ModelParams oversubscribed_params(const ModelParams& p, int ranks_per_cpu);
// What a wait of every rank for every rank's flag (flat_wait_cost, the
// slice folds' two waits in slice_fold_cost) costs beyond its a where k =
// topo.ranks_per_cpu > 1: the a above covers the last arrival's handoff,
// and then each rank needs its CPU once more to see it, (k - 1)
// switch_handoff again. 0 where k <= 1. A tree step's waiter waits for its
// children alone, and inline's readers for one rank. Measured (2-core
// guest, stop 37): without it, tiled Reduce at 8 and 16 ranks, 32 and
// 256 KiB was chosen over the tree and took 1.3-2.1x as long.
double all_wait_switches(const CostQuery& c) noexcept;

}  // namespace hmpi::coll
