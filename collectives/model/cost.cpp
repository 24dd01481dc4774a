// Cost building blocks (cost.hpp): the Li-Hoefler equations, Section 2.
#include "collectives/model/cost.hpp"

#include <algorithm>

#include "collectives/framework/context.hpp"
#include "collectives/framework/operand_sweep.hpp"
#include "core/datatype.hpp"

namespace hmpi::coll {

namespace {
std::size_t bytes_of(std::int64_t count, const Datatype* t) noexcept {
    return t && count > 0 ? static_cast<std::size_t>(count) * t->size : 0;
}
}  // namespace

// Only the side that counts is computed (once a call: the driver's, for
// CollCtx).
std::size_t message_bytes(const CollCall& call, int rank, int size) noexcept {
    (void)size;
    switch (call.kind) {
        case CollKind::bcast: return bytes_of(call.recvcount, call.recvtype);
        // Reductions: the whole input vector (the API layer's sendcount).
        case CollKind::reduce:
        case CollKind::allreduce:
        case CollKind::reduce_scatter:
        case CollKind::reduce_scatter_block:
        case CollKind::scan:
        case CollKind::exscan: return bytes_of(call.sendcount, call.sendtype);
        case CollKind::gather:
        case CollKind::allgather:
        case CollKind::alltoall:
            return call.in_place ? bytes_of(call.recvcount, call.recvtype) : bytes_of(call.sendcount, call.sendtype);
        case CollKind::scatter:
            return rank == call.root ? bytes_of(call.sendcount, call.sendtype) : bytes_of(call.recvcount, call.recvtype);
        default: return 0;  // barrier; v, w and neighborhood forms
    }
}


double busy_excess(const CostQuery& c, int t) noexcept {
    return (t >= 2 ? c.params.step_overhead : 0.0) + (t > 2 ? c.params.busy_step * (t - 2) : 0.0);
}

ModelParams oversubscribed_params(const ModelParams& p, int ranks_per_cpu) {
    ModelParams o = p;
    if (ranks_per_cpu <= 1) return o;
    // A CPU's ranks share its caches, so a line others read is held by the
    // other CPUs' caches alone, and only as many ranks as CPUs store at
    // once: rewrite_all_line's storm of invalidations (one rank a core)
    // does not happen; rewrite_line's rule holds. Charged, the 2-core
    // guest's slow-state value (15.5) moved 4 of the 138 oversubscribed
    // points of docs/results/oversubscribed to choices 1.4-2.3x slower.
    o.rewrite_all_line = 0;
    if (p.switch_handoff <= 0) return o;
    const double switches = (ranks_per_cpu - 1) * p.switch_handoff;
    o.alpha.a += switches;
    o.beta.a += switches;
    for (LevelCost& l : o.levels) l.cost.a += switches;
    return o;
}

double all_wait_switches(const CostQuery& c) noexcept {
    const int k = c.topo.ranks_per_cpu;
    return k > 1 ? (k - 1) * c.params.switch_handoff : 0.0;
}

double peer_args_cost(const CostQuery& c, double peers) noexcept { return c.params.peer_args * peers; }

double peer_args_sweep_cost(const CostQuery& c, double peers) noexcept {
    if (peers <= 1 || c.params.poll_line <= 0 || c.params.peer_args <= 0) return peer_args_cost(c, peers);
    return c.params.peer_args + c.params.poll_line * (peers - 1);
}

double peer_data_cost(const CostQuery& c, double peers) noexcept { return peer_args_cost(c, peers); }
double peer_data_sweep_cost(const CostQuery& c, int peers) noexcept {
    // A fold that sweeps its operands (framework/operand_sweep.hpp) asks for
    // its peers' first lines in the loop that reaches their arguments
    // (SweptOperands): those misses overlap the sweep's, already charged
    // (peer_args_sweep_cost).
    if (sweeps_operand_count(peers + 1)) return 0.0;
    return peer_args_sweep_cost(c, peers);
}

double all_poll_excess(const CostQuery& c, int t) noexcept {
    return t >= 2 ? c.params.step_overhead + c.params.poll_line * (t - 2) : 0.0;
}

namespace {
// Whether a rank's share of working set ws (ws / p) takes at most `share`
// of a cache of `bytes` (0: unknown, never).
bool rank_share_within(const CostQuery& c, std::size_t ws, std::size_t bytes, double share) noexcept {
    return bytes > 0 && static_cast<double>(ws / static_cast<std::size_t>(std::max(c.p(), 1))) <=
                            share * static_cast<double>(bytes);
}
}  // namespace
bool l1_resident(const CostQuery& c, std::size_t ws) noexcept {
    return rank_share_within(c, ws, c.topo.l1_bytes, 0.5);
}
bool l2_resident(const CostQuery& c, std::size_t ws) noexcept {
    return rank_share_within(c, ws, c.topo.l2_bytes, 0.5);
}
bool slice_fold_l1_resident(const CostQuery& c, std::size_t ws) noexcept {
    return rank_share_within(c, ws, c.topo.l1_bytes, kSliceFoldL1Share);
}
bool slice_fold_l2_resident(const CostQuery& c, std::size_t ws) noexcept {
    return rank_share_within(c, ws, c.topo.l2_bytes, kSliceFoldL2Share);
}
double near_excess(const CostQuery& c, double m) noexcept {
    return c.params.near_line * std::min(m, c.params.near_lines);
}
double slice_near_excess(const CostQuery& c, double m) noexcept {
    return c.params.slice_near_line * std::min(m, c.params.slice_near_lines);
}
namespace {
// A link's one-thread cost in cache: its in-L1 one (format 22) while the
// step's data stay in the L1s, its in-L2 one (format 18) while they stay in
// the L2s, else the one past them.
double in_cache(const CostQuery& c, double l2_cost, double cost, std::size_t ws, double l1_cost = 0) noexcept {
    if (l1_cost > 0 && l1_resident(c, ws)) return l1_cost;
    return l2_cost > 0 && l2_resident(c, ws) ? l2_cost : cost;
}
// The same for a slice fold, whose rank's share stays in a cache longer
// (slice_fold_l1_resident, slice_fold_l2_resident).
double in_slice_cache(const CostQuery& c, double l1_cost, double l2_cost, double cost, std::size_t ws) noexcept {
    if (l1_cost > 0 && slice_fold_l1_resident(c, ws)) return l1_cost;
    return l2_cost > 0 && slice_fold_l2_resident(c, ws) ? l2_cost : cost;
}
}  // namespace
double line_cost(const CostQuery& c, const LinkCost& l, std::size_t ws) noexcept {
    return c.spills(ws) && l.b_mem > 0 ? l.b_mem : in_cache(c, l.b_l2, l.b, ws, l.b_l1);
}
double congested_line_cost(const CostQuery& c, const LinkCost& l, std::size_t ws) noexcept {
    return c.spills(ws) && l.B_mem > 0 ? l.B_mem : l.B;
}
double copy_line_cost(const CostQuery& c, const LinkCost& l, std::size_t ws) noexcept {
    return c.spills(ws) && l.c_mem > 0 ? l.c_mem : in_cache(c, l.c_l2, l.c, ws);
}
double congested_copy_line_cost(const CostQuery& c, const LinkCost& l, std::size_t ws) noexcept {
    return c.spills(ws) && l.C_mem > 0 ? l.C_mem : l.C;
}
// A profile before format 8 has no third-buffer costs (all four 0): such
// steps are charged as the accumulating reduction, as they were measured.
double reduce3_line_cost(const CostQuery& c, const LinkCost& l, std::size_t ws) noexcept {
    if (l.r <= 0) return line_cost(c, l, ws);
    return c.spills(ws) && l.r_mem > 0 ? l.r_mem : in_cache(c, l.r_l2, l.r, ws, l.r_l1);
}
double congested_reduce3_line_cost(const CostQuery& c, const LinkCost& l, std::size_t ws) noexcept {
    if (l.R <= 0) return congested_line_cost(c, l, ws);
    return c.spills(ws) && l.R_mem > 0 ? l.R_mem : l.R;
}
double shared_reduce3_line_cost(const CostQuery& c, const LinkCost& l, int t, std::size_t ws) noexcept {
    return std::max(reduce3_line_cost(c, l, ws), congested_reduce3_line_cost(c, l, ws) * t);
}
// A profile before format 10 has no R_slices: R's (measured with shared
// lines, the dearer pattern) stand in.
double congested_slice_reduce3_line_cost(const CostQuery& c, const LinkCost& l, std::size_t ws) noexcept {
    if (l.R_slices <= 0) return congested_reduce3_line_cost(c, l, ws);
    if (c.spills(ws)) return l.R_slices_mem > 0 ? l.R_slices_mem : l.R_slices;
    return in_slice_cache(c, l.R_slices_l1, l.R_slices_l2, l.R_slices, ws);
}
double shared_slice_reduce3_line_cost(const CostQuery& c, const LinkCost& l, int t, std::size_t ws) noexcept {
    // A slice fold's lines stay in the L1s and L2s longer than a one-reader
    // step's: its one-thread cost is r_l1, r_l2 up to there.
    const double past = reduce3_line_cost(c, l, ws);
    const double one = c.spills(ws) ? past : in_slice_cache(c, l.r_l1, l.r_l2, past, ws);
    return std::max(one, congested_slice_reduce3_line_cost(c, l, ws) * t);
}
double congested_reduce3_step_cost(const CostQuery& c, const LinkCost& l, double m, int t, std::size_t ws) noexcept {
    return l.a + shared_reduce3_line_cost(c, l, t, ws) * m;
}
double shared_line_cost(const CostQuery& c, const LinkCost& l, int t, std::size_t ws) noexcept {
    return std::max(line_cost(c, l, ws), congested_line_cost(c, l, ws) * t);
}
double domain_fold_chain_line_cost(const CostQuery& c, int t, std::size_t ws) noexcept {
    const int p = c.p(), q = c.q();
    if (p < 2) return 0.0;
    const LinkCost &al = c.params.alpha, &be = c.params.beta;
    const LinkCost& first = q >= 2 ? al : be;
    return shared_slice_reduce3_line_cost(c, first, t, ws) + std::max(0, q - 2) * shared_line_cost(c, al, t, ws) +
           (p - q - (q >= 2 ? 0 : 1)) * shared_line_cost(c, be, t, ws);
}
double shared_copy_line_cost(const CostQuery& c, const LinkCost& l, int t, std::size_t ws) noexcept {
    return std::max(copy_line_cost(c, l, ws), congested_copy_line_cost(c, l, ws) * t);
}
double copy_step_cost(const CostQuery& c, const LinkCost& l, double m, std::size_t ws) noexcept {
    return l.a + copy_line_cost(c, l, ws) * m;
}
double waited_step_cost(const CostQuery& c, const LinkCost& l, double m, std::size_t ws) noexcept {
    return step_cost(c, l, m, ws) + near_excess(c, m);
}
double waited_copy_step_cost(const CostQuery& c, const LinkCost& l, double m, std::size_t ws) noexcept {
    return copy_step_cost(c, l, m, ws) + near_excess(c, m);
}
double congested_copy_step_cost(const CostQuery& c, const LinkCost& l, double m, int t, std::size_t ws) noexcept {
    return l.a + shared_copy_line_cost(c, l, t, ws) * m;
}
double congested_push_step_cost(const CostQuery& c, const LinkCost& l, double m, int t, std::size_t own_bytes,
                                 std::size_t ws) noexcept {
    // push_line was measured on alpha's ring (params.hpp): another link's
    // pushes cost as much more as its pulls do.
    const bool in_l2 = c.topo.l2_bytes == 0 || own_bytes <= c.topo.l2_bytes;
    const bool measured = c.params.push_line > 0 && c.params.alpha.C > 0 && in_l2 && !c.spills(ws);
    const double line = measured ? c.params.push_line * l.C / c.params.alpha.C : congested_copy_line_cost(c, l, ws);
    return l.a + line * t * m;
}
double all_push_step_cost(const CostQuery& c, const LinkCost& l, double m, int t, std::size_t own_bytes,
                          std::size_t ws) noexcept {
    const bool in_l2 = c.topo.l2_bytes == 0 || own_bytes <= c.topo.l2_bytes;
    if (in_l2 || c.params.push_line_beyond <= 0 || c.params.alpha.C <= 0 || c.spills(ws))
        return congested_push_step_cost(c, l, m, t, own_bytes, ws);
    return l.a + c.params.push_line_beyond * l.C / c.params.alpha.C * t * m;
}
double result_copy_scale(const CostQuery& c, std::size_t runtime_ws) noexcept {
    return c.params.nt_copy_ratio > 0 && c.params.nt_copy_applies(runtime_ws, c.p()) ? c.params.nt_copy_ratio : 1.0;
}
double own_block_copy_cost(const CostQuery& c, std::size_t ws) noexcept {
    return l2_resident(c, ws) ? 0.0 : copy_line_cost(c, c.params.alpha, ws) * c.m();
}
double all_push_exchange_cost(const CostQuery& q, double line_share) noexcept {
    if (q.p() <= 1) return 0;
    const LinkCost& link = q.s() > 1 ? q.params.beta : q.params.alpha;
    const std::size_t ws = q.bytes * static_cast<std::size_t>(q.p()) * static_cast<std::size_t>(q.p());
    const std::size_t own = 2 * q.bytes * static_cast<std::size_t>(q.p());
    // The closing wait for every rank is bare (all_poll_excess).
    return all_push_step_cost(q, link, q.m() * (q.p() - 1) * line_share, q.p(), own, ws) +
           own_block_copy_cost(q, ws) * line_share + q.params.alpha.a + all_poll_excess(q, q.p()) +
           peer_args_sweep_cost(q, q.p() - 1);
}
double step_cost(const CostQuery& c, const LinkCost& l, double m, std::size_t ws) noexcept {
    return l.a + line_cost(c, l, ws) * m;
}
double congested_step_cost(const CostQuery& c, const LinkCost& l, double m, int t, std::size_t ws) noexcept {
    return l.a + shared_line_cost(c, l, t, ws) * m;
}

double rewrite_cost(const CostQuery& c, double lines) noexcept {
    const ModelParams& p = c.params;
    if (p.rewrite_knee <= 0 || p.rewrite_line_beyond <= 0 || lines <= p.rewrite_knee) return p.rewrite_line * lines;
    return p.rewrite_line * p.rewrite_knee + p.rewrite_line_beyond * (lines - p.rewrite_knee);
}
namespace {
bool reread_buffer_cached(const CostQuery& c, std::size_t buffer_bytes) noexcept {
    return c.topo.l2_bytes == 0 || 2 * buffer_bytes <= c.topo.l2_bytes;
}
// Whether the profile measured copies of `copy_bytes` into lines others
// read as dearer (copy_rewrite_line, an excess over the same copy).
bool copy_rewrite_measured(const ModelParams& p, std::size_t copy_bytes) noexcept {
    return p.copy_rewrite_bytes > 0 && p.copy_rewrite_line > 0 &&
           static_cast<double>(copy_bytes) >= p.copy_rewrite_bytes;
}
}  // namespace
double reread_buffer_rewrite_cost(const CostQuery& c, double lines, std::size_t buffer_bytes) noexcept {
    return reread_buffer_cached(c, buffer_bytes) ? rewrite_cost(c, lines) : 0.0;
}
double copy_rewrite_cost(const CostQuery& c, double lines, std::size_t copy_bytes, std::size_t buffer_bytes) noexcept {
    if (copy_rewrite_measured(c.params, copy_bytes)) return c.params.copy_rewrite_line * lines;
    return reread_buffer_rewrite_cost(c, lines, buffer_bytes);
}
double copy_rewrite_excess(const CostQuery& c, double lines, std::size_t copy_bytes, std::size_t buffer_bytes,
                           std::size_t ws) noexcept {
    if (copy_rewrite_measured(c.params, copy_bytes)) return c.params.copy_rewrite_line * lines;
    const double local_copy = copy_line_cost(c, c.params.alpha, ws) * lines;
    return std::max(0.0, reread_buffer_rewrite_cost(c, lines, buffer_bytes) - local_copy);
}
double rewrite_first_cost(const CostQuery& c, const LinkCost& l) noexcept {
    return c.params.rewrite_first > 0 ? c.params.rewrite_first : l.a;
}
double fold_rewrite_cost(const CostQuery& c, double lines) noexcept {
    const ModelParams& p = c.params;
    if (p.fold_rewrite_line <= 0) return reread_buffer_rewrite_cost(c, lines, 2 * c.bytes);
    if (p.fold_rewrite_knee > 0 && p.fold_rewrite_line_beyond > 0 && c.m() > p.fold_rewrite_knee)
        return p.fold_rewrite_line_beyond * lines;
    return p.fold_rewrite_line * lines;
}
double result_source_rewrite_cost(const CostQuery& c) noexcept {
    return c.p() > 1 ? fold_rewrite_cost(c, c.m()) : 0.0;
}
double pipelined_result_source_rewrite_cost(const CostQuery& c) noexcept {
    return c.p() > 1 && reread_buffer_cached(c, 2 * c.bytes) ? c.params.rewrite_line * c.m() : 0.0;
}

double busy_source_excess(const CostQuery& c, const LinkCost& l, int t, int per_source, std::size_t source_bytes,
                          std::size_t ws) noexcept {
    if (c.topo.l2_bytes != 0 && source_bytes >= c.topo.l2_bytes) return 0.0;
    return std::max(0.0, c.params.source_line * per_source - congested_line_cost(c, l, ws) * t);
}

double fold_sweep_excess(const CostQuery& c, int t, int per_source, std::size_t ws) noexcept {
    return c.commutative ? 0.0 : busy_source_excess(c, c.params.alpha, t, per_source, c.bytes, ws);
}

double slice_fold_wait_cost(const CostQuery& c) noexcept {
    const double a = c.s() > 1 ? c.params.beta.a : c.params.alpha.a;
    return a + all_poll_excess(c, c.p()) + all_wait_switches(c);
}

double slice_fold_cost(const CostQuery& c, bool strip_mined) noexcept {
    const int p = c.p();
    if (p <= 1) return 0.0;
    const double mb = std::ceil(c.m() / p);
    const std::size_t ws = (static_cast<std::size_t>(p) + 1) * c.bytes;  // the inputs and the results
    const double streamed =
        !strip_mined && c.spills(ws) ? std::max(0, p - 2) * shared_copy_line_cost(c, c.params.alpha, p, ws) : 0.0;
    // Both waits are every rank's for every rank (arrivals; slices folded).
    return 2 * slice_fold_wait_cost(c) + (domain_fold_chain_line_cost(c, p, ws) + streamed) * mb +
           slice_near_excess(c, mb) +
           fold_sweep_excess(c, p, p - 1, ws) * (p - 1) * mb + peer_args_sweep_cost(c, p - 1) +
           peer_data_sweep_cost(c, p - 1);
}

double li_intra_tree_reduce(const CostQuery& c, int q, double m, std::size_t ws) noexcept {
    if (q <= 1) return 0;
    const LinkCost& al = c.params.alpha;
    const double b = line_cost(c, al, ws), B = congested_line_cost(c, al, ws);
    // Eq. 1: c = floor(b/B) threads can share the cache without congestion.
    const int cc = std::max(1, static_cast<int>(B > 0 ? b / B : q));
    const int d = std::min(q, (2 << ceil_log2(cc)) + cc);
    // Every rank of the communicator is in the tree's steps at once, as
    // reader or as poller (busy_a).
    const double a = busy_a(c, al, c.p());
    const double first = d < q ? a + (q - d) * B * m : 0.0;
    return first + (a + b * m + near_excess(c, m)) * ceil_log2(d);
}

double li_inter_tree_reduce(const CostQuery& c, int s, double m, std::size_t ws) noexcept {
    return s <= 1 ? 0.0
                  : (waited_step_cost(c, c.params.beta, m, ws) + busy_excess(c, c.p())) * ceil_log2(s);
}

// A broadcast's readers copy the lines (c, C: HMPI's copy costs, params.hpp).
// A single reader copies from a root that waits (near_excess); several
// readers at once are the congested fit's.
double li_one_stage_bcast(const CostQuery& c, int q, int s, double m, std::size_t ws) noexcept {
    if (s <= 1)
        return q <= 1 ? 0.0
                      : congested_copy_step_cost(c, c.params.alpha, m, q - 1, ws) + (q == 2 ? near_excess(c, m) : 0.0);
    return congested_copy_step_cost(c, c.params.beta, m, q, ws) + (q == 1 ? near_excess(c, m) : 0.0);
}

double li_two_stage_bcast(const CostQuery& c, int q, int s, double m, std::size_t ws) noexcept {
    // With one rank per domain every leader reads the root directly: the
    // one-stage broadcast, whatever the name.
    if (s <= 1 || q <= 1) return li_one_stage_bcast(c, q, s, m, ws);
    return congested_copy_step_cost(c, c.params.alpha, m, q - 1, ws) + copy_step_cost(c, c.params.beta, m, ws);
}

double li_bcast(const CostQuery& c, int q, int s, double m, std::size_t ws, bool* two_stage) noexcept {
    const double one = li_one_stage_bcast(c, q, s, m, ws), two = li_two_stage_bcast(c, q, s, m, ws);
    if (two_stage) *two_stage = s > 1 && two < one;
    return std::min(one, two);
}

DisseminationSteps li_dissemination_steps(int p, int q, int s) noexcept {
    if (p <= 1) return {0, 0};
    if ((p & (p - 1)) == 0) return {floor_log2(q), floor_log2(s)};  // Eq. 6
    // Eq. 7 (with one domain, every step is within it).
    if (s <= 1) return {ceil_log2(p) + 1, 0};
    return {ceil_log2(q) + 2, std::max(0, ceil_log2(p) - floor_log2(q) - 1)};
}

double li_dissemination(const CostQuery& c, int p, int q, int s, double m, std::size_t ws) noexcept {
    if (p <= 1) return 0;
    // All p ranks step in every round (busy_a).
    const double busy = busy_excess(c, p);
    // Every step reduces into a third buffer (the next version, reduce_data3).
    const double in = congested_reduce3_step_cost(c, c.params.alpha, m, q, ws) + busy;
    const double across =
        s > 1 ? congested_reduce3_step_cost(c, c.params.beta, m, exchange_link_threads(p, q), ws) + busy : 0.0;
    const DisseminationSteps steps = li_dissemination_steps(p, q, s);
    return in * steps.within + across * steps.across;
}

double flat_wait_cost(const CostQuery& c, int t) noexcept {
    if (t <= 1) return 0.0;
    const double flags = c.params.poll_line > 0 ? 0.0 : (t - 2) * c.params.alpha.b;
    return c.params.alpha.a + flags + all_poll_excess(c, t) + all_wait_switches(c);
}

double li_tiled_reduce(const CostQuery& c, int q, int s, double m, std::size_t ws) noexcept {
    const LinkCost& al = c.params.alpha;
    // Eq. 8, with the (q-1)/q of each thread's m lines that come from other
    // threads' inputs: its tile of its own input is in its own cache. Of a
    // tile's q - 1 folds the first reduces two inputs into the result, a
    // third buffer (reduce_staggered): R for it (R_slices: each tile of an
    // input has one reader), B for the others.
    // Eq. 8's a q, one handoff per tile read one after another, is two waits
    // for all q members' flags here (arrivals; the tiles folded, before the
    // broadcast), each a flat barrier's (all_poll_excess): a member's reads of
    // its q - 1 sources overlap (docs/model.md, "Tiled Allreduce's waits").
    // A domain of one member copies its input into its receive buffer (the
    // domain's partial, which the tree across domains folds and the
    // broadcast reads), every such rank at once, each in its own domain.
    // A member's tile's first lines pay the slice folds' excess
    // (slice_near_excess: every member folds at once).
    // Each member folds its m / q lines at once with the others, no faster
    // a line than one thread alone (Eq. 1; slice_fold_cost's rule, the same
    // fold): past the L2s one thread's r is dearer than q R_slices (2 ranks,
    // 4-16 MiB: tiled Allreduce 0.77-0.82 of its measured time without it).
    const double tile_line =
        shared_slice_reduce3_line_cost(c, al, q, ws) + (q - 2) * shared_line_cost(c, al, q, ws);
    const double intra = q > 1 ? 2 * flat_wait_cost(c, q) + tile_line * m / q + slice_near_excess(c, m / q)
                               : copy_line_cost(c, al, ws) * m;
    // Across (Eq. 9): the q members of a child domain each move their tile,
    // m / q lines, at once, no faster per line than one thread alone (Eq. 1;
    // B m alone charged less than one thread's b m where q = 1). Each level
    // is a step of HMPI's own like the tree's levels across domains
    // (li_inter_tree_reduce): a wait for the child domain's flag, then the
    // fold, with every rank in a step at once (busy_excess).
    const double inter =
        s > 1 ? (congested_step_cost(c, c.params.beta, m / q, q, ws) + busy_excess(c, c.p())) * ceil_log2(s) : 0.0;
    return intra + inter;  // Eq. 10
}

}  // namespace hmpi::coll
