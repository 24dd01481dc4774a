// The parameters of the Li-Hoefler performance model, as measured on this
// machine by hmpi-calibrate (or a built-in conservative default).
//
// Li, Hoefler, Hu, Snir (2014), Section 2: moving m cache lines (in modified
// state) in one synchronized step costs a + b*m when one thread does it and
// a + B*t*m when t threads do so at once and share the link; alpha within a
// cache domain (the cores under one L3 / socket), beta across domains.
// HMPI's extension, documented in docs/model.md: the per-line costs differ
// once the algorithm's working set no longer fits in the cache (the paper's
// Section 3.1 observes it above 768 KB), so each link has in-cache costs
// (b, B) and memory costs (b_mem, B_mem). `a` includes HMPI's own cost of
// a synchronized step (a flag handoff), since that is what a step costs.
//
// Units: nanoseconds; m counts 64-byte cache lines.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collectives/framework/levels.hpp"

namespace hmpi::coll {

// Per-line costs come in three kinds: b/B for a reduction step (read the
// peer's line and one's own, write one's own: what Li-Hoefler's b measures
// for reductions), r/R for a reduction into a third buffer (read the peer's
// line and one's own input, write a line of a buffer that is neither: a
// dissemination step's reduce_data3, the first fold of a chain into a
// result), and c/C for a copy step (read the peer's line, write one's own:
// what broadcasts, gathers and copy-outs do), which moves a line for less.
// HMPI's extension of the paper's model, measured by hmpi-calibrate. On the
// 2-core EPYC guest a reduction into a third buffer cost 1.4-1.9x the
// accumulating one at 256 KiB-16 MiB (a standalone kernel); on the 2-core
// Xeon hmpi-calibrate gave R/B 1.44-1.61, r_mem/b_mem 1.39-1.48 and r/b
// 1.0-1.21 (docs/model.md, "Reducing into a third buffer").
struct LinkCost {
    double a = 0;      // ns per synchronized step
    double b = 0;      // ns per line reduced, one thread alone
    double B = 0;      // ns per line reduced per thread, t threads at once
    double b_mem = 0;  // the same once the working set exceeds the cache
    double B_mem = 0;
    double c = 0;      // ns per line copied, one thread alone
    double C = 0;      // ns per line copied per thread, t threads at once
    double c_mem = 0;  // the same once the working set exceeds the cache
    double C_mem = 0;
    double r = 0;      // ns per line reduced into a third buffer, one thread alone
    double R = 0;      // the same per thread, t threads at once
    double r_mem = 0;  // the same once the working set exceeds the cache
    double R_mem = 0;  // (all four 0: not measured, a profile before format 8: b's)
    // R and R_mem when each thread's own input is read by that thread alone
    // (the slice folds: reduce-scatter, tiled Reduce and Allreduce, the
    // tree's first fold); R's ring has every own line read by its owner and
    // its neighbour at once, as a dissemination step does. Both 0: not
    // measured (a profile before format 10), R's apply.
    double R_slices = 0;
    double R_slices_mem = 0;
    // b, c and r while a step's data stay in the cores' L2s (a working set
    // of at most half an L2 per core: l2_resident, cost.hpp); b, c and r
    // then price the lines past the L2 within the cache. One thread pulls a
    // line another core's L2 holds for less than one the L3 holds: 3.2 ns
    // against 4.8 on the 2-core Xeon guest, 3.6 against 5.4 on the 16-core
    // Xeon, where one fit over every size (format 17's b) gave 4.8 and 5.2
    // for both. hmpi-calibrate splits its one-reader sweeps at the L2
    // (docs/model.md, "Where a step's lines are"). All three 0: not
    // measured (a profile before format 18, no L2 size, no split found):
    // b, c and r at every size in cache.
    double b_l2 = 0;
    double c_l2 = 0;
    double r_l2 = 0;
    // R_slices while a rank's share of a slice fold's working set stays
    // within kSliceFoldL2Share of an L2 (slice_fold_l2_resident, cost.hpp);
    // R_slices then prices the slices past it within the cache. The slices
    // ring of the 2-core Xeon guest: 1.9-2.0 ns a line a thread (t = 2) from
    // 384 KiB to 1.5 MiB a thread, 3.2-3.4 from 3 MiB, where one fit over
    // every size gave 2.47 (docs/model.md, "Slice folds in the L2s"). 0: not
    // measured (a profile before format 19, or no split found): R_slices.
    double R_slices_l2 = 0;
    // b and r while a step's data stay in the L1s (a working set of at most
    // half an L1d per core: l1_resident, cost.hpp), R_slices while a rank's
    // share of a slice fold's stays within kSliceFoldL1Share of one
    // (slice_fold_l1_resident); the _l2 costs then price the lines past the
    // L1 within the L2. A fold that writes a third buffer pays for the
    // L1's misses most: on the 2-core EPYC guest (48 KiB L1d) the one-reader
    // third-buffer sweep took 0.55 ns a line up to 256 lines (48 KiB of
    // three buffers), 1.3-1.8 past it, and a 2-rank tree Reduce of 4-16 KiB
    // 0.6-0.75 ns a line against 1.5-1.7 past 32 KiB, where r_l2 (1.24)
    // priced it 1.21-1.32x (docs/model.md, "Folds in the L1s"). No c_l1:
    // the copy sweep showed no step at the L1. 0: not measured (a profile
    // before format 22, no L1 size, or not cheaper than in the L2s): the
    // _l2 costs (or b, r, R_slices) from the first line.
    double b_l1 = 0;
    double r_l1 = 0;
    double R_slices_l1 = 0;
};

// The share of an L2 a rank's part of a slice fold's working set may take
// and still run at the in-L2 rate (slice_fold_l2_resident, cost.hpp; where
// hmpi-calibrate fits R_slices_l2): the 2-core Xeon guest's slices ring
// held it to 1.5 MiB a thread of a 2 MiB L2 (docs/model.md, "Slice folds
// in the L2s").
inline constexpr double kSliceFoldL2Share = 0.75;
// The same for the L1 (slice_fold_l1_resident; where hmpi-calibrate fits
// R_slices_l1): the half a one-reader step may take (l1_resident). On the
// 2-core EPYC guest a 2-rank tiled Reduce, each rank folding half the
// message from three buffers, kept its L1 rate up to 16 KiB (24 KiB a
// rank) and not at 32 KiB (48 KiB, the whole L1d).
inline constexpr double kSliceFoldL1Share = 0.5;

struct LevelCost {
    LevelKind kind = LevelKind::node;
    LinkCost cost;  // between two ranks whose lowest common level is `kind`
};

struct ModelParams {
    LinkCost alpha;  // within a cache domain
    LinkCost beta;   // across cache domains (equal to alpha on a machine with one)
    // Per level where the machine has more than the two (innermost first);
    // may be empty.
    std::vector<LevelCost> levels;
    // One thread copying a large array memory to memory, bytes per ns (GB/s),
    // with temporal and with non-temporal stores: the bound for large
    // messages (data access volume / bandwidth).
    double copy_bandwidth = 0;
    double nt_copy_bandwidth = 0;
    // ns: the fixed cost of one collective call on a rank, whatever the
    // algorithm (API entry and checks, sequence number and slot, algorithm
    // selection, the algorithm's frame, release), measured as MPI_Barrier
    // on a one-rank communicator. Every prediction includes it once
    // (registry.cpp); the algorithms' formulas add what depends on them.
    double call_overhead = 0;
    // ns per cache line, two costs the per-link ones above do not see
    // (docs/model.md, "Sharers and sources"), measured within one cache
    // domain; 0 (a format 2 profile) leaves their terms out.
    // rewrite_line: a writer storing to lines that other cores read since
    // it last wrote them (each store first invalidates their copies): what
    // the inline algorithms' copy-in costs, every call, since their readers
    // read the same area the call before.
    double rewrite_line = 0;
    // The same beyond a knee: a copy-in of up to rewrite_knee lines costs
    // rewrite_line per line, each line past it rewrite_line_beyond
    // (rewrite_cost, cost.hpp). A writer's stores wait in its store buffer
    // while their lines' invalidations are in flight, so a short copy-in
    // overlaps them; a longer one stalls on each. 2-core EPYC guest (stop
    // 29): 32 lines in 101 ns, 6.4-8 ns a line past them (hmpi-calibrate;
    // an inline Bcast root's copy-in 6.7-9 past 2 KiB). 0 (a format 8 or
    // older profile, or no knee found): rewrite_line throughout.
    double rewrite_knee = 0;
    double rewrite_line_beyond = 0;
    // rewrite_first: what the first store into lines other cores hold costs,
    // in ns, beyond rewrite_line's per line: the invalidation's round trip,
    // which a step that stores such a line and then publishes waits for
    // whatever the size (rewrite_first_cost, cost.hpp). hmpi-calibrate: the
    // smallest rewrite it times (8 lines) less 8 lines at the fitted slope.
    // 2-core EPYC guest (stop 41): 60 ns in its fast state (flag handoff
    // 51-60), 176-205 in its slow one (handoff 186-271). 0 (a profile
    // before format 13): the link's a stands in.
    double rewrite_first = 0;
    // inline_read_first: what a reader of inline data its wait did not
    // prefetch (more than kInlinePrefetchLines lines, framework/inline.hpp)
    // waits after the flag for the data's first line, in ns: one more round
    // trip to the writer's core, which asks for the lines only once it has
    // seen the flag. hmpi-calibrate: the intercept of a reader's copy of
    // 16-256 freshly copied-in lines of a rotating area, timed from the
    // flag on (inline_read_times); its slope, 0.8-1.9 ns a line on the
    // EPYC guest, is the link's c. 2-core EPYC guest (stop 42): 177-197 ns
    // in its slow state, 40-45 in its fast one. 0 (a profile before format
    // 14): nothing charged.
    double inline_read_first = 0;
    // fold_stream_line: ns per line of one rank's vector for an allreduce
    // past the caches whose ranks each fold their slice of every input and
    // store the result into every receive buffer at once, non-temporal
    // (tiled_push's streaming path, reduce_data3_to_all): every input line
    // read once, every result line stored once. Each of p ranks reads m/p
    // lines of each of p inputs and stores as many into each of p outputs,
    // m lines in and m out whatever p, so the call costs m
    // fold_stream_line. Measured with every core of the machine at once on
    // vectors beyond the caches, each input rewritten in full before every
    // round as by the application that produced it (hmpi-calibrate); with
    // fewer ranks than cores an over-estimate (fewer threads share the
    // memory). 2-core EPYC guest (stop 44): 2.6-2.9 ns a line, where the
    // fold and the pushes charged apart made 3.2 (16 MiB measured 701 us,
    // predicted 845 without it). 0 (a profile before format 15, or one
    // core): tiled_push is charged its fold and its pushes.
    double fold_stream_line = 0;
    // fold_rewrite_line: what a reduction kernel's stores cost more per
    // line when their lines were copied by other cores since the writer
    // last wrote them, against the same fold into lines nobody else read:
    // a reduction's top folding into its receive buffer, which the previous
    // call's broadcast readers copied (result_source_rewrite_cost, cost.hpp).
    // rewrite_line does not describe it: that is memcpy's, whose copies
    // below glibc's string-store threshold write whole lines without first
    // reading them, where a fold's vector stores take every line back from
    // its readers one by one. Measured on rewrite_line's cores (hmpi-calibrate:
    // the slope over 256..16384 lines of the difference, or below the knee
    // from format 13 on, next); 2-core EPYC guest
    // (stop 32): 7.6-9.2 ns a line in its slow state, where rewrite_line is
    // 1.8-2.0; in its fast state none (not written).
    // 0 where not measured (one core, a profile before format 11, or no
    // difference): rewrite_line while the buffers fit the L2, as before.
    double fold_rewrite_line = 0;
    // fold_rewrite_knee, fold_rewrite_line_beyond: fold_rewrite_line holds
    // while the readers still have the lines, that is while a vector of m
    // lines has m <= fold_rewrite_knee; past it every line costs
    // fold_rewrite_line_beyond more instead (fold_rewrite_cost, cost.hpp).
    // A reader's L2 takes 3 m lines a call (the source lines it copies, its
    // copy, and its next input, which the application writes between
    // calls), so hmpi-calibrate writes the knee as L2 / (3 x 64 B) and
    // measures beyond it (format 13). 2-core EPYC guest (stop 41): fast
    // state 0.9-1.7 ns a line up to the knee, 0.03-0.09 past it (where
    // format 12's single fit gave 0.07 or nothing for every size); slow
    // state 9.5-10.6 and 6.7-7.4 (the benchmark's tree shows 3-4.5 past it).
    // 0 (both; a profile before format 13): fold_rewrite_line at every size.
    double fold_rewrite_knee = 0;
    double fold_rewrite_line_beyond = 0;
    // copy_rewrite_bytes, copy_rewrite_line: the same for a copy (memcpy,
    // temporal) into lines others read, from the copy size where it costs
    // more than rewrite_line's: a copy of at least copy_rewrite_bytes in one
    // call costs copy_rewrite_line more per line than one into lines nobody
    // reads, at every buffer size. glibc copies with `rep movsb` below a
    // threshold, whose stores write whole lines without reading them, and
    // with a vector loop above it, whose stores take each line back from
    // its readers (the threshold is the L2's size on AMD CPUs). Measured on
    // rewrite_line's cores at copy sizes from 64 KiB to 4 MiB (hmpi-
    // calibrate: the smallest size whose excess per line is at least twice
    // the smallest's and 1 ns more); 2-core EPYC guest (stop 32), slow
    // state: 1 MiB, 7.2-9.2 ns a line, below it 0.5-1.2; fast state: none.
    // 0 where no such size showed (or a profile before format 11):
    // rewrite_line's rule throughout.
    double copy_rewrite_bytes = 0;
    double copy_rewrite_line = 0;
    // source_line: per line and per reader, when several readers pull
    // distinct lines from one core's cache at once (that core serves them
    // one after another): readers that sweep the sources in rank order all
    // meet at the same source, so a line costs them at least
    // source_line * (readers at that source).
    double source_line = 0;
    // busy_step: ns a synchronized step costs more per rank, beyond two,
    // taking steps at the same time: with t ranks stepping at once (every
    // rank in a dissemination round or a movement-avoiding chain, every
    // member in a reduction tree's levels, as reader or as poller) a step
    // costs a + busy_step (t - 2) (busy_a, cost.hpp). Measured as the slope
    // over t of the time per round of HMPI's dissemination MPI_Barrier on
    // t = 2 .. all cores of one cache domain (docs/model.md); 0 where the
    // domain has fewer than three cores (and in a format 3 profile): no
    // term. On the 16-core Xeon the round took 356-440 ns at 2 to 16
    // ranks: 2.9 ns per rank.
    double busy_step = 0;
    // step_overhead: ns a synchronized step of HMPI's own costs beyond the
    // link's a, even between two ranks: the wait loop, the flag's
    // bookkeeping and the next publish, which a raw handoff between two
    // spinning threads (hmpi-calibrate's a) does not have. Measured as the
    // same fit's time per round at t = 2, less call_overhead and alpha.a;
    // added to busy_a (cost.hpp). On the 16-core Xeon a 2-rank round took
    // 336 ns against a = 176. 0 where not measured (one core; a profile
    // before format 5): no term.
    double step_overhead = 0;
    // poll_line: ns each further rank adds to a step in which every one of
    // t ranks waits for the flags of all the others (an all_reached wait:
    // every rank reads t - 1 lines that t writers have just written).
    // Measured as the slope over t of HMPI's flat MPI_Barrier, which is
    // exactly that step (hmpi-calibrate, docs/model.md); on the 16-core
    // Xeon 44 ns per rank. 0 where not measured: no term.
    double poll_line = 0;
    // push_line: ns per line per thread when t threads of one cache domain
    // at once each store lines from their own cache into a neighbour's
    // buffer, which that neighbour read since (each store first takes the
    // line back from it): push alltoall's copies, which pairwise's C does
    // not describe (its readers pull lines another core has just written).
    // Measured in cache like alpha.C (hmpi-calibrate's ring on alpha's
    // cores, pushing instead of pulling; beta's cores where every domain
    // has one core, alpha then being beta's costs); 0 where not measured (one
    // core, a format 3 or 4 profile): push is charged C, as pairwise.
    double push_line = 0;
    // push_line_beyond: push_line's ring with each thread's lines and inbox
    // past its L2 (twice the L2 and more) but within the cache: what push
    // Alltoall and Allgather pay per line once a rank's 2 P m bytes leave
    // its L2. Measured because C, which stood in for it up to format 15,
    // prices a pull, and at 2 ranks on the 2-core EPYC guest push ran
    // 25-35% faster than pairwise from 512 KiB to 2 MiB (stop 43). 0 where
    // not measured (one core, no L2 size, a profile before format 16):
    // push is charged C there.
    double push_line_beyond = 0;
    // push_held_line: ns per pushed line when tiled_push Allreduce's pushes
    // stay in the L2: each finished strip of a rank's slice copied into
    // lines of the other receive buffers that the rank stored the call
    // before and still holds, every rank folding at once. Measured as the
    // slices ring with each strip then copied into held lines, less the
    // slices ring alone (hmpi-calibrate, reduce3_slices_push), because the
    // cost is the pushes' overlap with the fold, which depends on the core:
    // about nothing on the 2-core AMD EPYC guest (stop 35), 1.0-1.9 ns a
    // pushed line on the Intel guest (tiled_push against tiled Reduce, 32-512
    // KiB, s53np2d). 0 where not measured (a profile before format 20, one
    // core, no L2 size) or measured hidden: nothing charged, as up to stop 53.
    double push_held_line = 0;
    // rewrite_all_line: ns per line and per sharer when every core of a
    // cache domain at once stores to lines of its own that the others read
    // since (each store invalidates their copies): the copy-in of the
    // inline algorithms in which every rank writes (Allgather, Allreduce,
    // Scan, ...), charged max(rewrite_line, rewrite_all_line x sharers) a
    // line (inline_copy_in_all_cost). rewrite_line is one writer's, and the
    // copy-ins of all ranks at once queue on the invalidations: 16 writers
    // with 15 sharers a line paid 103-114 ns a line on a 16-core Xeon,
    // rewrite_line 9.4 (bench/pull_patterns, stop 48). 0 where not measured
    // (one core, a profile before format 17): rewrite_line's rule.
    double rewrite_all_line = 0;
    // claim_line: ns per claim when every core of a cache domain at once
    // takes work items from one shared counter (an atomic increment each,
    // the line moving from core to core): split Bcast's chunk claims, which
    // serialize on that line. 16 threads on the same Xeon: a split Bcast of
    // 8 bytes took 4.1 us, its formula without claims 0.86 (stop 48). 0
    // where not measured (one core, a profile before format 17): claims
    // charged nothing.
    double claim_line = 0;
    // peer_args: ns a rank pays to reach a peer's arguments before it can
    // read the peer's buffer: the pointer to the peer's CollCall and then the
    // CollCall, lines the peer wrote as it entered the call, read one after
    // the other (CollCtx::args_of), which neither the handoff `a` nor the
    // per-line costs contain. Charged once per distinct peer a rank reads on
    // the call's critical path (peer_args_cost, cost.hpp; a second read of
    // the same peer's arguments in one call hits the reader's cache).
    // Measured as a pair's round trip that chases a freshly written pointer
    // and record to one freshly written line, less the same round trip that
    // reads the line directly (hmpi-calibrate, on the cores rewrite_line
    // uses); on the 2-core EPYC guest about 90-100 ns against a = 77. 0
    // where not measured (one core, a profile before format 6): no term.
    double peer_args = 0;
    // switch_handoff: ns for a flag handoff between two ranks that share one
    // CPU: the waiter runs only once the writer yields it the CPU (the wait
    // schedule, base/park.hpp, yields while ranks outnumber CPUs). Measured
    // as two threads pinned to one CPU passing a flag back and forth, each
    // yielding while it waits (hmpi-calibrate); 1.9 us on the 2-core EPYC
    // guest against a = 70-300 ns across its cores. Charged where the
    // communicator's ranks outnumber their CPUs (oversubscribed_params,
    // cost.hpp); 0 where not measured (a profile before format 12): no term.
    double switch_handoff = 0;
    // core_cache_bytes: the working set one core keeps at cache speed (its
    // L2 plus what it gets of the last-level cache), measured as the knee
    // of one thread's copy time per line over growing working sets
    // (hmpi-calibrate). hwloc reports what the hardware (or the hypervisor)
    // describes: the 2-core EPYC guest reports a 508 MiB L3 per core, while
    // a copy leaves cache speed between 14 and 20 MiB. Where it is smaller
    // than hwloc's L2 + LLC, the last-level cache the collectives assume is
    // this less the L2 (effective_llc_bytes, levels.hpp): the model's
    // in-cache/beyond-cache switch and YHCCL Algorithm 1's store choice then
    // follow the cache that is there. 0 where not measured (no knee found,
    // a profile before format 7): hwloc's sizes.
    std::size_t core_cache_bytes = 0;
    // nt_copy_from: the working set a core (bytes of source and result)
    // from which copies into receive buffers store non-temporally. YHCCL's
    // Algorithm 1 switches where the working set outgrows the cache; a
    // cache that holds the data but fills it no faster than memory does not
    // pay for memcpy's reads of every destination line before it is
    // written, which non-temporal stores skip. hmpi-calibrate: every core
    // copying its own source into its own result at once, each result read
    // by its core after the copy (as an application reads what it asked
    // for), at 1, 2, 4 and 8 L2s a core; this is the smallest from which the
    // non-temporal copy costs under 95% of memcpy's at every larger size
    // (2-core Xeon guest, stop 57: 4 MiB, two L2s, where non-temporal
    // copies cost 3.9 ns a line against memcpy's 4.7; one L2: 5.2 against
    // 3.3; docs/model.md, "Non-temporal stores inside the cache"). 0 where
    // not measured or never cheaper (a profile before format 21): past the
    // cache only, as store_kind_for (result_store_kind_for, data.hpp).
    std::size_t nt_copy_from = 0;
    // nt_copy_ratio: what such a non-temporal copy costs a line against
    // memcpy's, from the same measurement (the median over the sizes from
    // nt_copy_from on; 0.83-0.84 on the 2-core Xeon guest, stop 57): the model
    // prices the lines of the copies result_store_kind_for makes
    // non-temporal at this share of their memcpy cost (result_copy_scale,
    // cost.hpp). With nt_copy_from, both or neither.
    double nt_copy_ratio = 0;
    // Whether a copy into a result buffer of an algorithm with working set
    // `working_set` over `ranks` ranks stores non-temporally inside the
    // cache (the one rule of result_store_kind_for, data.hpp, and of the
    // model's result_copy_scale, cost.hpp).
    bool nt_copy_applies(std::size_t working_set, int ranks) const noexcept {
        return nt_copy_from > 0 && working_set / static_cast<std::size_t>(ranks > 1 ? ranks : 1) >= nt_copy_from;
    }
    // near_line, near_lines: a reader pulling lines that an idle core has
    // just written pays near_line more for each of the first near_lines of
    // them, in ns (near_excess, cost.hpp): the writer's most recent lines
    // are still in its L1, which serves them more slowly than its L2 serves
    // the older ones. hmpi-calibrate's one-reader reduction sweep: on the
    // 2-core Xeon guest 5.2 ns for the first 640 lines (40 KiB, its L1 is
    // 48 KiB), then 3.2 a line; the 16-core Xeon 5.6 ns for 535. This is
    // why a step of 512 lines cost 8.1-8.7 ns a line there and one of 8192
    // 3.7-4.0. Charged to one-reader steps whose source waits while it is
    // read (tree levels, waited_step_cost); steps in which every core reads at
    // once (the congested B, C, R) have it in their own fit. Both 0: not
    // measured (a profile before format 18, or no excess found).
    double near_line = 0;
    double near_lines = 0;
    // slice_near_line, slice_near_lines: the same for the slice folds, every
    // rank folding its own slice of all inputs at once: a slice's first
    // slice_near_lines lines cost slice_near_line more each, in ns
    // (slice_near_excess, cost.hpp). hmpi-calibrate's slices ring in the
    // L2s: on the 2-core Xeon guest 3.8 ns for the first 155 lines a thread.
    // Both 0: not measured (a profile before format 19, or none found).
    double slice_near_line = 0;
    double slice_near_lines = 0;
    // What the parameters were measured for (docs/model.md) and where they
    // came from (the profile's path, or "built-in default").
    std::string topology_key;
    std::string source;
    // The same machine measured in its other states, where it has more than
    // one (a virtual machine whose flag handoff and copy speeds change for
    // seconds at a time: docs/model.md, "Machines with more than one
    // state"). The runtime then runs, per call shape, the algorithm whose
    // worst ratio to the best algorithm of any state is lowest
    // (rank_over_states, registry.hpp); empty: this state's cheapest.
    // Profile lines "stateN.<key> <value>" (N = 2, 3, ...).
    std::vector<ModelParams> other_states;
};

// The conservative built-in parameters (used when no profile is found).
ModelParams default_model_params();

// Profile files (docs/model.md): text, one "key value" per line.
std::string format_profile(const ModelParams& p);
std::optional<ModelParams> parse_profile(std::string_view text, std::string* error);

// This machine's topology key (a profile measured elsewhere does not apply).
std::string machine_topology_key();

// The parameters the runtime uses: loaded once from the profile
// (HMPI_PROFILE, else the default location for this machine's key), or the
// default with a one-line notice.
const ModelParams& model_params();

// Replaces the parameters model_params() returns (tests, hmpi-info --profile).
void set_model_params(ModelParams p);

}  // namespace hmpi::coll
