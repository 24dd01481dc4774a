// hmpi-calibrate's measurements: the machine's cores and caches as hwloc
// reports them, and the timed kernels behind the Li-Hoefler parameters
// (docs/model.md, "How the parameters are measured").
//
// Every timed kernel moves lines that another core has just written (the
// MODIFIED state of Li-Hoefler Section 3.4) after waiting for the writer's
// single-writer flag, the way a reduction step does (the reader reads the
// remote lines and its own, and writes its own: the runtime's sum kernel on
// doubles) or a copy step does (the reader reads the remote lines and writes
// its own: memcpy). Threads are bound to cores with hwloc.
#pragma once
#include <sched.h>

#include <cstddef>
#include <string>
#include <vector>

#include "collectives/framework/levels.hpp"

namespace hmpi::calibrate {

// One core (hwloc logical index, the index bind_current_thread_to_core
// takes) and the hwloc logical indices of the objects above it (-1: none).
struct Core {
    int index = 0;
    int l2 = -1, l3 = -1, numa = -1, package = -1;
};

struct Machine {
    std::vector<Core> cores;
    std::size_t l1_bytes = 0;   // one core's L1 data cache (0 unknown)
    std::size_t l2_bytes = 0;   // one L2 (0 unknown)
    std::size_t llc_bytes = 0;  // one last-level cache (L3, else L2)
    // Bytes all caches of the machine hold together (every LLC plus, where
    // the LLC is not known to include them, every L2): a working set above
    // this cannot stay in cache anywhere.
    std::size_t all_cache_bytes = 0;
    // all_cache_bytes = caches_with(llc_bytes) (before the fallback for a
    // machine reporting none).
    std::size_t llc_count = 0, l2_count = 0;
    bool llc_inclusive = false;  // as hwloc reports it (unreported: not inclusive)
    // llc_count LLCs of `llc` bytes each plus l2_count L2s.
    std::size_t caches_with(std::size_t llc) const noexcept { return llc_count * llc + l2_count * l2_bytes; }
    std::size_t memory_bytes = 0;  // physical memory (0 unknown)
    std::size_t domain_count = 1;  // cache domains (L3s, else packages)
};

Machine discover_machine();

// The innermost level two cores share (l2, l3, numa, socket, node).
coll::LevelKind common_level(const Core& x, const Core& y);

// Whether two cores are in the same cache domain (same L3, else package).
bool same_domain(const Machine& m, const Core& x, const Core& y);

// Cost of one now() call, ns (subtracted from timings that include one).
double clock_overhead_ns();

// CPU time, in clock ticks: the busy and stolen time (/proc/stat: user,
// nice, system, irq, softirq, steal) of the CPUs this process was allowed
// when it started (its affinity then: on a node shared with other jobs,
// its own CPUs) and this process's own (its
// threads' and its waited-for children's, /proc/self/stat), with the wall
// time they were read at. A measurement that shares its cores with other
// work (another program, or the hypervisor running something else on them)
// is slower than the machine; the difference of two samples says how much
// other work ran between them. busy < 0: /proc could not be read.
struct CpuTicks {
    double busy = -1, self = 0, wall_s = 0;
};
CpuTicks cpu_ticks_now();
// The busy and stolen ticks in /proc/stat's text of the CPUs in `allowed`
// (every CPU where it is empty); *cpus: how many lines counted.
double busy_ticks(const char* proc_stat, const cpu_set_t& allowed, int* cpus);
// Other work between two samples: the busy ticks not this process's, as
// CPU seconds and as cores on average over the wall time between them
// (ticks_per_s ticks a second). Both 0 where a sample is unreadable or no
// time passed.
struct OtherWork {
    double cpu_s = 0, cores = 0;
};
OtherWork other_work(const CpuTicks& before, const CpuTicks& after, double ticks_per_s);

// What the reader does with the lines it waited for.
enum class Kernel {
    reduce,  // acc[i] += src[i] on doubles (read remote, read local, write local): b, B
    // out[i] = mine[i] + src[i] on doubles, into a third buffer (read remote,
    // read one local buffer, write another): r, R. The reader's `mine` is a
    // buffer of its own; in ring_steps it is the lines the thread wrote for
    // its neighbour, which the neighbour reads at the same time (a
    // dissemination step's reduce_data3 on the rank's own partial).
    reduce3,
    // ring_steps only: reduce3 with a `mine` that nobody else reads (each
    // line of a thread's own buffer has one reader, its neighbour), as in
    // the slice folds, where rank k alone reads slice k of every input, its
    // own too (reduce-scatter, tiled Reduce and Allreduce): R_slices.
    reduce3_slices,
    copy,    // memcpy(acc, src) (read remote, write local): c, C
    // ring_steps only: memcpy(neighbour's inbox, own lines) (read local,
    // write remote lines that their owner read the round before, so each
    // store first takes the line from it): push_line.
    push,
    // ring_steps only: reduce3_slices a strip (the reductions' strip_bytes)
    // at a time, each strip's result then copied (StoreKind::rewrite) into
    // lines of the thread's that it stored the round before and nobody reads
    // (held in its cache), as tiled_push Allreduce pushes each finished
    // strip into the other receive buffers: the pushes' cost overlapped
    // with the fold (push_held_line, against reduce3_slices).
    reduce3_slices_push,
};

// A size's rounds: at most `rounds`, but once `budget_ns` of wall time has
// passed, no more than the `min_rounds` done by then (a machine shared with
// other work can make each round cost a time slice).
struct Rounds {
    std::vector<int> rounds;
    int min_rounds = 5;
    double budget_ns = 1e9;
    // Report the fastest round instead of the median: for rounds that last
    // many scheduler time slices (beyond-cache sizes), where anything else
    // running only makes a round slower.
    bool fastest = false;
};

// One writer, one reader: per size (lines, 0 allowed), the median over
// the size's rounds of the time from the writer's publish of freshly
// written lines to its seeing the reader's acknowledgement (one handoff
// there, the reader's `kernel` on the lines, one handoff back), ns.
std::vector<double> pair_round_trips(int writer_core, int reader_core, const std::vector<std::size_t>& lines,
                                     const Rounds& rounds, Kernel kernel);

// The least-squares line through the last three of (x, y): its slope, and
// the means it passes through; rising: a positive slope was found.
struct TopLine {
    bool rising = false;
    double slope = 0, mean_x = 0, mean_y = 0;
};
TopLine fit_top_three(const std::vector<double>& x, const std::vector<double>& y);

// A sweep's sizes (x lines, y ns) against an L2 of `l2_bytes`: those whose
// data, `line_bytes` bytes a line, take at most `within` bytes go to (ix,
// iy), each step less `minus`; true where some size's data take a whole L2
// or more (the sweep reaches past the L2, so a split there means something).
// The split at the L1 passes the L1's size.
bool sizes_in_l2(const std::vector<double>& x, const std::vector<double>& y, double line_bytes, double within,
                 std::size_t l2_bytes, double minus, std::vector<double>& ix, std::vector<double>& iy);

// Where a one-reader sweep's lines are (docs/model.md, "Where a step's
// lines are"): sizes whose data take at most half an L2 per core (the
// pair's `buffers` buffers over its two cores) are in the L2s; from a
// whole L2 per core on, past them. Over the in-L2 sizes the step less a is
// near_line min(m, near_lines) + l2 m: its largest three sizes (all past
// near_lines) give l2 and near_line near_lines as a line's slope and
// intercept, and sizes of 32-256 lines (all within near_lines) near_line as
// the median of (step - a)/m - l2. Needs six sizes in the L2s and one past.
struct L2Split {
    bool found = false;
    double l2 = 0, excess = 0, near_line = 0;
};
L2Split split_at_l2(const std::vector<double>& x, const std::vector<double>& y, double a, int buffers,
                    std::size_t l2_bytes);

// A sweep's slope while its data stay in the L1s (docs/model.md, "Folds in
// the L1s"): over the sizes of 16 lines or more whose data, `line_bytes`
// bytes a line, take at most `within` bytes, each step less its near excess
// (near_line min(m, near_lines), the model's charge besides the lines), the
// least-squares slope of the largest three. Found where there are three,
// the sweep also reaches a whole L1 (`l1_bytes`) past them, they rise, and
// the slope is below `above` (the in-L2 slope: an L1 cost that saves
// nothing is not written). The one-reader sweeps take line_bytes = buffers
// x 64 / 2 and within = half an L1 (as the L2 split: l1_resident, cost.hpp);
// the slices ring buffers x 64 and kSliceFoldL1Share of one.
struct L1Split {
    bool found = false;
    double slope = 0;
};
L1Split split_at_l1(const std::vector<double>& x, const std::vector<double>& y, double line_bytes, double within,
                    std::size_t l1_bytes, double near_line, double near_lines, double above);

// Of a one-reader sweep's sizes (x lines, y ns a step), those whose rounds
// were all interrupted: the step less `a`, per line, more than 3 times the
// median of that over the sizes of 32 lines or more. The split at the L2
// leaves out only these, not every size a straight fit misses by half: the
// sweep's three slopes (docs/model.md, "Where a step's lines are") leave
// sizes in the L2s about half off one line, where an interrupted size is
// 20-40 times its neighbours.
std::vector<double> interrupted_sizes(const std::vector<double>& x, const std::vector<double>& y, double a);

// The slices ring split at the L2 (docs/model.md, "Slice folds in the
// L2s"), over its sizes x (lines a thread) and steps y (ns): sizes whose
// `buffers` buffers take at most `share` of an L2 a thread are in the L2s.
// Their largest three give the per-thread slope there (R_slices_l2 t); the
// step less the first size's intercept a0, over the slope's lines, is the
// excess: per line the median over 32-256 lines (slice_near_line), in all
// the median over 256-1024 lines, divided by it the lines it covers
// (slice_near_lines). Needs six sizes in the L2s and one a whole L2 a
// thread past them; no excess where either median is not positive.
struct SliceSplit {
    bool found = false;
    double slope = 0, near_line = 0, near_lines = 0;
};
SliceSplit split_slices_at_l2(const std::vector<double>& x, const std::vector<double>& y, int buffers,
                              std::size_t l2_bytes, double share);

// Whether two measurements of the same flag handoff, at the start and at
// the end of a calibration, say the machine changed speed in between: one
// is more than twice the other (a noisy but steady machine stays well
// within that; the 2-core guest of docs/performance-collectives.md moves
// between about 60 and 300 ns).
inline bool speed_changed(double start_ns, double end_ns) noexcept {
    if (!(start_ns > 0) || !(end_ns > 0)) return false;
    return start_ns > 2 * end_ns || end_ns > 2 * start_ns;
}

// t threads on `cores` at once, each reducing (or copying) its ring
// neighbour's freshly written lines into its own buffer once all have
// published (Kernel::push: each copying its own freshly written lines
// into its neighbour's inbox, which the neighbour reads before the next
// round, as a program reads what an alltoall delivered): per size, the
// median over rounds of (last finish - first start), ns.
std::vector<double> ring_steps(const std::vector<int>& cores, const std::vector<std::size_t>& lines,
                               const Rounds& rounds, Kernel kernel);

// One writer, `reader_cores` readers: each round the readers copy the
// writer's lines, and then the writer stores to those lines again (each
// store first invalidates the readers' copies, as an inline algorithm's
// copy-in does every call). Per size, the median over rounds of the
// writer's time to store the lines and drain its stores (a full fence: the
// flag published after them is seen only then), ns.
std::vector<double> rewrite_times(int writer_core, const std::vector<int>& reader_cores,
                                  const std::vector<std::size_t>& lines, const Rounds& rounds);

// rewrite_times' rounds with one reader, timing the reader instead: per
// size, the median over rounds of its copy of the round's area, from the
// moment it has seen the writer's flag to its copy's end, ns (the inline
// algorithms' read of data their wait did not prefetch: inline_read_first,
// params.hpp, is the intercept).
std::vector<double> inline_read_times(int writer_core, int reader_core, const std::vector<std::size_t>& lines,
                                      const Rounds& rounds);

// One writer, `reader_cores` readers: each round the writer folds a buffer
// of its own and one the first reader rewrites each round (a reduction
// root's own input and its child's) with the reduction kernel into
// `lines` of a third buffer (reduce_data3's vector stores), drains its
// stores, and the readers copy the lines the writer folds into when
// `shared`; otherwise the writer folds into lines of its own that nobody
// reads (the readers copy other, unchanging lines, so the rounds are
// alike). Per size, the median over rounds of the writer's fold and drain,
// ns: the difference of the two is fold_rewrite_line (params.hpp).
std::vector<double> fold_rewrite_times(int writer_core, const std::vector<int>& reader_cores,
                                       const std::vector<std::size_t>& lines, const Rounds& rounds, bool shared);

// The same with the writer copying a buffer of its own into the lines
// (one call per round, of the size's bytes) as the runtime copies a result
// or a block into a receive buffer others read (StoreKind::rewrite):
// copy_rewrite_bytes and copy_rewrite_line (params.hpp).
std::vector<double> copy_rewrite_times(int writer_core, const std::vector<int>& reader_cores,
                                       const std::vector<std::size_t>& lines, const Rounds& rounds, bool shared);

// One source, `reader_cores` readers: each round the source writes fresh
// lines, and then every reader copies its own `lines` of them, all at once
// (readers that sweep the sources in rank order meet at one source like
// this). Per size, the median over rounds of (last finish - first start), ns.
std::vector<double> fan_out_steps(int source_core, const std::vector<int>& reader_cores,
                                  const std::vector<std::size_t>& lines, const Rounds& rounds);

// t threads on `cores`, each round every one copying `lines` lines into an
// area of its own (from a private buffer, with the runtime's copy-in
// stores, over coll::kSlots areas in turn as rewrite_times' writer) and
// draining its stores, all at once, and then copying the round's lines of
// every other one (staggered, thread i from i+1 on): each store invalidates
// the copies of t - 1 sharers while all t threads store, as the inline
// algorithms' copy-ins in which every rank writes. Per size, the mean over
// threads of each one's median store-and-drain time, ns (rewrite_all_line,
// params.hpp, is that per line and sharer).
std::vector<double> all_rewrite_times(const std::vector<int>& cores, const std::vector<std::size_t>& lines,
                                      const Rounds& rounds);

// t threads on `cores`, each round all taking `claims` work items from one
// shared counter at once (an atomic increment each, until the counter
// passes `claims`; t increments find it spent), as split Bcast's ranks
// claim chunks: the median over `rounds` of (last end - first start) /
// (claims + t), ns per increment (claim_line, params.hpp).
double claim_time(const std::vector<int>& cores, std::size_t claims, int rounds);

// One writer, one reader, as pair_round_trips with Kernel::copy; each round
// the writer also writes a record (the stand-in of a CollCall) holding the
// lines' address and stores a pointer to it in a slot. With `chase` the
// reader reaches the lines through the slot and the record, as a rank
// reaches a peer's buffer through its CollCall (CollCtx::args_of); without,
// directly. Per size, the median round trip, ns: the difference of the two
// is peer_args (params.hpp).
std::vector<double> args_chase_round_trips(int writer_core, int reader_core, const std::vector<std::size_t>& lines,
                                           const Rounds& rounds, bool chase);

// Two threads bound to the one `core` pass a flag back and forth `rounds`
// times, each waiting by polling the flag once and yielding the CPU until
// the flag is its turn (as a rank waits while ranks outnumber CPUs,
// base/park.hpp): the median over `passes` of the time per handoff, ns
// (switch_handoff, params.hpp).
double switch_handoff_ns(int core, int rounds, int passes);

// One thread on `core` copying `bytes` (median of `reps`), bytes per ns,
// with memcpy and with non-temporal stores (copy_bytes).
void copy_bandwidths(int core, std::size_t bytes, int reps, double* temporal, double* non_temporal);

// One thread on `core` copying one half of a `working_set`-byte buffer
// into the other, again and again (at least 3 times, then until
// `budget_ns` of copying has passed): the median time per line copied, ns.
// Over growing working sets it shows where the caches one core reaches end
// (core_cache_bytes, params.hpp).
double copy_line_time(int core, std::size_t working_set, double budget_ns);

// One thread per core of `cores`, each copying its own source of `lines`
// lines into its own result buffer at once, with temporal stores (memcpy's)
// or non-temporal ones (and the fence the runtime puts after them): every
// round each thread first rewrites its source (as the application that
// produced it) and, after the copy, reads its result (as the application
// that asked for it). Returns the median over `rounds` (the first left
// out) of the span from the first thread's start to the last one's end, per
// line of one thread's copy, ns. Every result checked; a wrong one aborts.
double all_copy_line_time(const std::vector<int>& cores, std::size_t lines, int rounds, bool non_temporal);

// Non-temporal stores must save this much to be chosen (5%: two
// calibrations of one machine differ by about that).
inline constexpr double kNtWinRatio = 0.95;

// nt_copy_from (params.hpp) from all_copy_line_time over growing working
// sets a core (`working_sets`, ascending, bytes of source and result): the
// smallest from which the non-temporal copy is cheaper than kNtWinRatio of
// the temporal one at every measured size; 0 where it is not at the largest.
std::size_t nt_copy_from_bytes(const std::vector<std::size_t>& working_sets, const std::vector<double>& temporal_ns,
                               const std::vector<double>& non_temporal_ns);

// One thread per core of `cores` (t of them), each with an input and a
// result buffer of `lines` lines: every round each thread rewrites its
// whole input (as an application that produced it), all meet, and thread k
// folds line range k of t of every input (sum of doubles, strip by strip,
// the folds before the last into a cached scratch) and streams the result
// into range k of every result buffer at once (the runtime's streaming
// kernel, tiled_push's fold_and_stream). Returns the median over `rounds`
// of the time from the first thread's start to the last one's end, ns
// (fold_stream_line, params.hpp, is that over `lines`). Every result line
// checked after the last round; a wrong one aborts.
double fold_stream_time(const std::vector<int>& cores, std::size_t lines, int rounds);

// The median of `v`; 0 when it is empty.
double median(std::vector<double> v);

// The inline copy-in's rewrite cost from its sweep (x lines, y ns a
// copy-in; docs/model.md, "The copy-in's knee" and "The copy-in past its
// knee"): for each knee with at least three sizes up to it and two past
// it, a fit on either side; the knee whose two fits leave the smaller
// error is kept if the slope past it is at least twice the one before,
// else one fit over all sizes gives `line` (its slope: the first store's
// round trip, the intercept, is left out, as the flag's handoff hides it).
// With a knee, `line` is the knee's whole copy-in per line (the model
// charges no intercept) and `beyond` the slope past it. `first` is the
// smallest size's time less its lines at the slope below the knee (or the
// one slope). Both slopes at least 0.1 ns, `first` at least 1 ns.
struct RewriteFit {
    double line = 0, beyond = 0, first = 0, err = 0;
    double below = 0;  // the slope up to the knee (or the one slope), for the log
    double knee = 0;  // lines; 0: no knee
};
RewriteFit fit_rewrite(const std::vector<double>& x, const std::vector<double>& y);

// Least squares fit of y = a + b x minimizing relative errors (weights
// 1/y^2), so that one fit serves 1 line and megabytes alike. Returns the
// largest relative residual.
double fit_line(const std::vector<double>& x, const std::vector<double>& y, double* a, double* b);

// fit_line, then again without the sizes the first fit misses by more than
// half (a size whose every round was interrupted on a loaded machine, or
// one a straight line cannot follow: the split at the L2 takes
// interrupted_sizes instead); `dropped` gets their lines. Keeps at least
// three sizes.
double robust_fit(std::vector<double> x, std::vector<double> y, double* a, double* b, std::vector<double>* dropped);

}  // namespace hmpi::calibrate
