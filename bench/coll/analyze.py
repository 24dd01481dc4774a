#!/usr/bin/env python3
"""analyze.py - plots and metrics for bench/coll/run.sh's measurements.

Reads one or more CSV files of coll_bench lines
    impl,collective,bytes,ranks,avg_us,max_us,iters[,round[,probe_before_ns,probe_after_ns]]
(impl: hmpi, ompi, mpich, or hmpi:<algorithm> for a run with
HMPI_<COLL>_ALGORITHM=<algorithm>), takes the median over rounds, and writes
into --out DIR:
  metrics.md                  the metrics table and per-collective latency tables
  latency_<coll>_np<N>.png    latency against size, HMPI / Open MPI / MPICH (log-log)
  model_<coll>_np<N>.png      HMPI's predicted vs measured time per algorithm
                              (as Li-Hoefler-Hu-Snir 2014, Figures 22-25)
  speedup_np<N>.png           (faster of Open MPI and MPICH) / HMPI per size
With --update-doc FILE the metrics replace what lies between the markers
<!-- BEGIN RESULTS np<N> --> and <!-- END RESULTS np<N> --> in FILE (appended
when absent) and the PNGs are copied to docs/results/collectives-np<N>/.

Metrics, per number of ranks and collective (bench/coll/README.md):
  speedup    geometric mean over sizes of min(Open MPI, MPICH) / HMPI
  slower at  sizes where HMPI is slower than the faster of the two
  pick       fraction of sizes where HMPI's default run (the model's pick)
             is within 10% of the fastest forced algorithm
  pick*      the same for the algorithm hmpi-info --model marks chosen
  pred. err  |predicted - measured| / measured per algorithm (median, max,
             share of sizes within 15%)
  bound      16 MiB Allreduce against its data access volume 2 p m: the time p
             threads take to copy m bytes each at once (copy_bw_threads)
  by state   where the CSV has run.sh's state probes and they show two
             machine states: the speedup per state, from runs whose probes
             before and after agree (state_threshold)
With --state fast|slow every table is made from that state's runs alone.

matplotlib is optional: without it the metrics are still written (and the
missing plots are said clearly). Debian: apt-get install python3-matplotlib,
then run with /usr/bin/python3.
"""
import argparse
import csv
import math
import os
import re
import shutil
import statistics
import sys
from collections import defaultdict

REFS = ("ompi", "mpich")
NAMES = {"hmpi": "HMPI", "ompi": "Open MPI", "mpich": "MPICH"}
# Issue 5's targets for the geometric-mean speedup.
TARGET_3X = {"allreduce", "bcast", "reduce", "barrier"}
ORDER = ["barrier", "bcast", "reduce", "allreduce", "reduce_scatter_block", "reduce_scatter", "allgather",
         "gather", "scatter", "alltoall", "scan", "exscan", "allgatherv", "gatherv"]
# Built-in default of collectives/model/profile.cpp (bytes per ns), used only
# when nothing better is given.
DEFAULT_COPY_BW = 8.0


def fmt_size(b):
    b = int(b)
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if b >= 1 << shift and b % (1 << shift) == 0:
            return f"{b >> shift} {unit}"
    return f"{b} B"


def fmt_us(v):
    if v is None:
        return "-"
    return f"{v:.2f}" if v < 100 else f"{v:.0f}"


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def read_lines(paths, column):
    """Every measurement as (ranks, coll, impl, bytes, value, round,
    probe_before, probe_after); round and probes None where the line has none."""
    out = []
    for path in paths:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line or line.startswith("#") or line.startswith("impl,"):
                    continue
                parts = line.split(",")
                if len(parts) < 7:
                    continue
                try:
                    impl, coll, nbytes, ranks = parts[0], parts[1], int(parts[2]), int(parts[3])
                    value = float(parts[4] if column == "avg" else parts[5])
                except ValueError:
                    print(f"analyze: skipping malformed line in {path}: {line}", file=sys.stderr)
                    continue
                rnd = parts[7] if len(parts) > 7 else None
                try:
                    before, after = float(parts[8]), float(parts[9])
                except (IndexError, ValueError):  # no probe columns, or empty ones
                    before = after = None
                out.append((ranks, coll, impl, nbytes, value, rnd, before, after))
    return out


def medians(lines):
    """(ranks, coll) -> impl -> bytes -> median of the lines' values (over rounds)."""
    raw = defaultdict(list)
    for ranks, coll, impl, nbytes, value, *_ in lines:
        raw[(ranks, coll, impl, nbytes)].append(value)
    data = defaultdict(lambda: defaultdict(dict))
    for (ranks, coll, impl, nbytes), vals in raw.items():
        data[(ranks, coll)][impl][nbytes] = statistics.median(vals)
    return data


# State probes (run.sh: the one-way handoff of a line between CPUs 0 and 1
# before and after every run, in ns). They are split in two where the two
# groups' medians differ by at least STATE_SPAN (state_threshold); the 2-core
# EPYC guest's probes fall at 30-130 ns and 200-650 ns
# (docs/performance-collectives.md, stop 33).
STATE_SPAN = 2.0


def probed(lines):
    """The lines that carry state probes (run.sh from stop 33 on)."""
    return [x for x in lines if x[6] is not None and x[7] is not None]


def state_threshold(probes):
    """The probe value (ns) that separates two machine states, or None when
    the probes show one. The split is Otsu's on the logarithms (the one that
    maximizes the variance between the two groups); it counts only where
    the upper group's median is at least STATE_SPAN times the lower's. The
    threshold is the geometric middle of the two values either side."""
    v = sorted(x for x in probes if x > 0)
    if len(v) < 2:
        return None
    logs = [math.log(x) for x in v]
    n, total = len(logs), sum(logs)
    best, best_i, below = -1.0, 0, 0.0
    for i in range(1, n):
        below += logs[i - 1]
        if v[i] == v[i - 1]:
            continue
        m0, m1 = below / i, (total - below) / (n - i)
        between = i * (n - i) * (m0 - m1) ** 2
        if between > best:
            best, best_i = between, i
    if best_i == 0 or statistics.median(v[best_i:]) < STATE_SPAN * statistics.median(v[:best_i]):
        return None
    return math.sqrt(v[best_i] * v[best_i - 1])


def run_state(before, after, threshold):
    """'fast' or 'slow' where both probes agree, 'changed' where they do not."""
    a, b = before < threshold, after < threshold
    return ("fast" if a else "slow") if a == b else "changed"


def by_state(runs, threshold):
    """state -> (ranks, coll) -> impl -> bytes -> median over that state's
    rounds; and state -> number of runs (one run = one impl and collective
    in one round)."""
    lines, count = defaultdict(list), defaultdict(set)
    for r in runs:
        st = run_state(r[6], r[7], threshold)
        count[st].add((r[0], r[1], r[2], r[5]))
        lines[st].append(r)
    return {st: medians(v) for st, v in lines.items()}, {st: len(v) for st, v in count.items()}


def state_markdown(runs, ranks, analyses=()):
    """The section that compares implementations within one machine state."""
    mine = [r for r in runs if r[0] == ranks]
    if not mine:
        return []
    probes = [x for r in mine for x in (r[6], r[7])]
    L = [f"### {ranks} ranks: by machine state (state probes)", ""]
    thr = state_threshold(probes)
    lo, hi = min(probes), max(probes)
    if thr is None:
        L.append(f"The state probes (one-way handoff of a line between CPUs 0 and 1 before and after every run, "
                 f"bench/handoff_floor.c) stayed in one state: {lo:.0f}-{hi:.0f} ns. The summary above compares "
                 "like with like.")
        return L + [""]
    data, count = by_state(mine, thr)
    fast = sorted(x for x in probes if x < thr)
    slow = sorted(x for x in probes if x >= thr)
    L.append(f"The state probes (one-way handoff of a line between CPUs 0 and 1 before and after every run, "
             f"bench/handoff_floor.c) show two states, split at {thr:.0f} ns: fast {fast[0]:.0f}-{fast[-1]:.0f} ns "
             f"({count.get('fast', 0)} runs with both probes fast), slow {slow[0]:.0f}-{slow[-1]:.0f} ns "
             f"({count.get('slow', 0)} runs). {count.get('changed', 0)} runs changed state between their probes "
             "and are left out here. Each row compares only runs in one state (medians over that state's rounds); "
             "sizes where HMPI's default or both references lack a run in that state are left out.")
    L.append("")
    L.append("| collective | state | speedup (geomean) | target | sizes | HMPI slower at | "
             "chosen (hmpi-info) within 10% |")
    L.append("|---|---|---|---|---|---|---|")
    by_coll = {a.coll: a for a in analyses if a.ranks == ranks}
    colls = sorted({c for st in ("fast", "slow") for (_, c) in data.get(st, {})}, key=coll_key)
    for coll in colls:
        target = 3.0 if coll in TARGET_3X else 2.0
        whole = by_coll.get(coll)
        for st in ("fast", "slow"):
            impls = data.get(st, {}).get((ranks, coll))
            if not impls:
                continue
            # The same analysis as the summary's, on this state's runs.
            a = Analysis(ranks, coll, impls, whole.pred if whole else {}, whole.chosen if whole else {},
                         {(coll, x) for x in whole.fell_back} if whole else set())
            sp = a.speedups()
            if not sp:
                continue
            g = geomean([r for _, r in sp])
            slower = [fmt_size(b) for b, r in sp if r < 1.0]
            within, sizes = a.chosen_within()
            chosen = f"{within}/{sizes} ({100.0 * within / sizes:.0f}%)" if sizes else "-"
            L.append(f"| {coll} | {st} | {g:.2f}{' ✓' if g >= target else ' ✗'} | {target:g} | {len(sp)} | "
                     f"{', '.join(slower) if slower else 'none'} | {chosen} |")
    return L + [""]


def read_model(path):
    """coll -> algorithm -> bytes -> predicted_us; coll -> bytes -> chosen algorithm.

    Format (hmpi-info --model COLL -n NP): collective,algorithm,bytes,predicted_us,chosen
    with chosen 1 for the model's pick; other lines (headers, comments) are ignored.
    Infinite or non-numeric predictions mean "does not apply" and are dropped."""
    pred = defaultdict(lambda: defaultdict(dict))
    chosen = defaultdict(dict)
    if not path:
        return pred, chosen
    with open(path) as f:
        for row in csv.reader(f):
            if len(row) != 5 or row[0].startswith("#"):
                continue
            coll, alg, nbytes, us, ch = (x.strip() for x in row)
            try:
                nbytes = int(nbytes)
                us = float(us)
            except ValueError:
                continue
            if ch == "1":
                chosen[coll][nbytes] = alg
            if math.isfinite(us) and us >= 0:
                pred[coll][alg][nbytes] = us
    return pred, chosen


def predicted_at(curve, nbytes):
    """The prediction at nbytes: exact, else log-log interpolation between
    the neighbouring predicted sizes (None outside their range)."""
    if nbytes in curve:
        return curve[nbytes]
    if nbytes == 0 and curve:  # Barrier: no size; the model's prediction is the same at every size
        return curve[min(curve)]
    xs = sorted(b for b in curve if b > 0)
    if nbytes <= 0 or not xs or nbytes < xs[0] or nbytes > xs[-1]:
        return None
    for lo, hi in zip(xs, xs[1:]):
        if lo <= nbytes <= hi:
            ylo, yhi = curve[lo], curve[hi]
            if ylo <= 0 or yhi <= 0:
                return ylo + (yhi - ylo) * (nbytes - lo) / (hi - lo)
            t = (math.log(nbytes) - math.log(lo)) / (math.log(hi) - math.log(lo))
            return math.exp(math.log(ylo) + t * (math.log(yhi) - math.log(ylo)))
    return None


def read_fallbacks(path):
    """{(coll, algorithm)} whose forced runs fell back to another algorithm."""
    out = set()
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                m = re.match(r"fallback: hmpi:(\S+) (\S+):", line)
                if m:
                    out.add((m.group(2), m.group(1)))
    return out


def profile_copy_bandwidth(path):
    """copy_bandwidth (bytes per ns) from a profile file ("key value" lines)."""
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*copy_bandwidth\s*[=:]?\s*([0-9.eE+-]+)", line)
            if m:
                return float(m.group(1))
    return None


def memcpy_bandwidth(path):
    """(size, bytes per ns) of memcpy_bw's largest size. memcpy_bw -c prints
    size,lat_us_median,lat_us_min,bw_MBps (MB = 1e6 B), with or without the
    header line."""
    best = None
    with open(path) as f:
        for line in f:
            parts = line.strip().split(",")
            if len(parts) < 4 or not parts[0].isdigit():
                continue
            try:
                size, bw = int(parts[0]), float(parts[3])
            except ValueError:
                continue
            if best is None or size > best[0]:
                best = (size, bw / 1000.0)
    return best


def threaded_copy_lines(path):
    """[(threads, size, median us, probe before, probe after)] from
    copy_bw_threads -c (threads,size,lat_us_median,lat_us_min,bw_MBps),
    header optional; run.sh from stop 58 on appends round,probe_before_ns,
    probe_after_ns (the probes None where absent or empty)."""
    out = []
    if not path or not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            parts = line.strip().split(",")
            if len(parts) < 5 or not parts[0].isdigit():
                continue
            try:
                probes = [float(x) if x else None for x in parts[6:8]] if len(parts) >= 8 else [None, None]
                out.append((int(parts[0]), int(parts[1]), float(parts[2]), probes[0], probes[1]))
            except ValueError:
                continue
    return out


def threaded_copy_times(path):
    """{(threads, size): median us over the measurements} (threaded_copy_lines)."""
    raw = defaultdict(list)
    for t, s, us, *_ in threaded_copy_lines(path):
        raw[(t, s)].append(us)
    return {k: statistics.median(v) for k, v in raw.items()}


class AllreduceBound:
    """The data-volume bound of an m-byte Allreduce on p ranks: it reads p
    vectors and writes p results, 2 p m bytes of data access, the volume of
    p threads each copying m bytes at once (a copy reads and writes each
    byte). With copy_bw_threads' time for exactly that (p threads, m bytes
    each) the bound is that time; without it, p threads at one thread's
    copy bandwidth each, as if the cores did not share the memory system:
    m / BW, a lower (looser) bound."""

    def __init__(self, bw, bw_source, threaded, threaded_lines=()):
        self.bw, self.bw_source, self.threaded = bw, bw_source, threaded
        self.threaded_lines = list(threaded_lines)

    def by_state(self, ranks, m, threshold):
        """{state: median us} of the measurements of `ranks` threads copying
        m bytes whose two probes agree on a state (threshold: the runs')."""
        raw = defaultdict(list)
        for t, s, us, before, after in self.threaded_lines:
            if (t, s) == (ranks, m) and before is not None and after is not None:
                st = run_state(before, after, threshold)
                if st != "changed":
                    raw[st].append(us)
        return {st: statistics.median(v) for st, v in raw.items()}

    def __call__(self, ranks, m):
        """(bound in us, how it was obtained)."""
        t = self.threaded.get((ranks, m))
        if t is not None:
            n = sum(1 for x in self.threaded_lines if (x[0], x[1]) == (ranks, m))
            return t, (f"{ranks} threads each copying {fmt_size(m)} at once, pinned as the ranks are: "
                       f"{t:.0f} us, median{f' of {n} measurements (one a round)' if n > 1 else ''} "
                       f"(bench/copy_bw_threads.c); where the runs show two machine states, a row per state "
                       f"compares HMPI's runs in that state with the bound measured in it")
        return m / self.bw / 1000.0, (f"no measurement of {ranks} threads copying {fmt_size(m)} at once: {ranks} "
                                      f"threads at BW = {self.bw:.2f} GB/s each ({self.bw_source}), as if they "
                                      f"did not share the memory system")


def copy_bandwidth(args):
    """(bytes per ns, where it came from)."""
    if args.bandwidth:
        return args.bandwidth, "--bandwidth"
    if args.profile:
        bw = profile_copy_bandwidth(args.profile)
        if bw:
            return bw, f"copy_bandwidth of the profile {args.profile}"
        print(f"analyze: no copy_bandwidth in {args.profile}", file=sys.stderr)
    if args.memcpy and os.path.exists(args.memcpy):
        m = memcpy_bandwidth(args.memcpy)
        if m:
            return m[1], f"single-thread memcpy bandwidth at {fmt_size(m[0])} (bench/memcpy_bw.c, {args.memcpy})"
    return DEFAULT_COPY_BW, "HMPI's built-in default copy_bandwidth (no profile, --bandwidth or memcpy measurement)"


def coll_key(c):
    return (ORDER.index(c) if c in ORDER else len(ORDER), c)


class Analysis:
    def __init__(self, ranks, coll, impls, pred, chosen, fallbacks):
        self.ranks, self.coll, self.impls = ranks, coll, impls
        self.hmpi = impls.get("hmpi", {})
        self.forced = {i.split(":", 1)[1]: v for i, v in impls.items() if i.startswith("hmpi:")}
        self.fell_back = {a for a in self.forced if (coll, a) in fallbacks}
        # An algorithm that fell back at some sizes (HMPI says so once per
        # run) still ran itself wherever it applies, which is where the model
        # gives it a finite prediction (hmpi-info leaves the others out).
        self.usable = {}
        for a, v in self.forced.items():
            pts = v if a not in self.fell_back else {b: t for b, t in v.items() if b in pred.get(a, {})}
            if pts:
                self.usable[a] = pts
        self.pred, self.chosen = pred, chosen
        self.sizes = sorted(set().union(*[set(v) for v in impls.values()])) if impls else []

    def ref(self, b):
        vals = [(self.impls[r][b], r) for r in REFS if r in self.impls and b in self.impls[r]]
        return min(vals) if vals else (None, None)

    def speedups(self):
        out = []
        for b in self.sizes:
            r, _ = self.ref(b)
            h = self.hmpi.get(b)
            if r is not None and h:
                out.append((b, r / h))
        return out

    def best_forced(self, b):
        vals = [(v[b], a) for a, v in self.usable.items() if b in v]
        return min(vals) if vals else (None, None)

    def pick_rows(self):
        """(bytes, default time, best forced time, best algorithm, model's chosen algorithm)."""
        rows = []
        for b in self.sizes:
            best, alg = self.best_forced(b)
            if best is None or b not in self.hmpi:
                continue
            rows.append((b, self.hmpi[b], best, alg, self.chosen.get(b)))
        return rows

    def chosen_within(self):
        """(within, sizes): of the sizes where HMPI's default, the algorithm
        hmpi-info chose and the other forced ones ran, how many had the chosen
        one within 10% of the fastest forced."""
        rows = self.pick_rows()
        chosen = [(r, self.usable[r[4]][r[0]]) for r in rows if r[4] and r[4] in self.usable and r[0] in self.usable[r[4]]]
        return sum(1 for r, t in chosen if t <= 1.10 * r[2]), len(chosen)

    def prediction_errors(self):
        """algorithm -> [(bytes, predicted, measured)]."""
        out = {}
        for alg, curve in self.pred.items():
            meas = self.usable.get(alg)
            if not meas:
                continue
            pts = []
            for b in sorted(meas):
                p = predicted_at(curve, b)
                if p is not None and meas[b] > 0:
                    pts.append((b, p, meas[b]))
            if pts:
                out[alg] = pts
        return out


def bound_by_state(runs, ranks, m, bound):
    """Rows of the bound table per machine state, where the runs show two
    states and the bound was measured in that state too: HMPI's default
    m-byte Allreduce over that state's rounds against that state's bound
    (a machine whose states differ in copy bandwidth has two bounds)."""
    mine = [r for r in probed(runs) if r[0] == ranks]
    thr = state_threshold([x for r in mine for x in (r[6], r[7])]) if mine else None
    if thr is None:
        return []
    bounds = bound.by_state(ranks, m, thr)
    data, _ = by_state(mine, thr)
    rows = []
    for st in ("fast", "slow"):
        t = data.get(st, {}).get((ranks, "allreduce"), {}).get("hmpi", {}).get(m)
        b = bounds.get(st)
        if t and b:
            rows.append(f"| {fmt_size(m)}, {st} state only | {fmt_us(t)} | {fmt_us(b)} | {t / b:.2f} | "
                        f"{b / t:.2f} {'✓' if b / t >= 0.8 else '✗'} |")
    return rows


def metrics_markdown(analyses, bound, metric, inputs, runs=(), state=None):
    L, T = [], []
    state_note = f" (the {state} machine state's runs only: analyze.py --state {state})" if state else ""
    ranks_set = sorted({a.ranks for a in analyses})
    L.append(f"Measured: `{'`, `'.join(inputs)}`; time = {'average over ranks' if metric == 'avg' else 'maximum over ranks'}"
             f" of each rank's mean call time, median over rounds{state_note}.")
    L.append("")
    for ranks in ranks_set:
        group = sorted((a for a in analyses if a.ranks == ranks), key=lambda a: coll_key(a.coll))
        L.append(f"### {ranks} ranks: summary")
        L.append("")
        L.append("| collective | speedup (geomean, faster of OMPI/MPICH / HMPI) | target | sizes | HMPI slower at | "
                 "model pick within 10% of best | chosen (hmpi-info) within 10% |")
        L.append("|---|---|---|---|---|---|---|")
        for a in group:
            sp = a.speedups()
            g = geomean([r for _, r in sp])
            target = 3.0 if a.coll in TARGET_3X else 2.0
            slower = [fmt_size(b) for b, r in sp if r < 1.0]
            rows = a.pick_rows()
            within = [r for r in rows if r[1] <= 1.10 * r[2]]
            pick = f"{len(within)}/{len(rows)} ({100.0 * len(within) / len(rows):.0f}%)" if rows else "-"
            ok, n = a.chosen_within()
            chosen = f"{ok}/{n} ({100.0 * ok / n:.0f}%)" if n else "-"
            gtxt = "-" if g is None else f"{g:.2f}" + (" ✓" if g >= target else " ✗")
            L.append(f"| {a.coll} | {gtxt} | {target:g} | {len(sp)} | {', '.join(slower) if slower else 'none'} | "
                     f"{pick} | {chosen} |")
        L.append("")
        L.append("Targets (issue 5): speedup >= 3 for Allreduce, Bcast, Reduce, Barrier and >= 2 for the others; "
                 "HMPI slower at no size; model pick within 10% of the best forced algorithm at >= 90% of sizes.")
        L.append("")
        L += state_markdown(runs, ranks, group)

        L.append(f"### {ranks} ranks: model prediction error per algorithm")
        L.append("")
        L.append("|pred - meas| / meas over the sizes where both exist (forced runs, HMPI_<COLL>_ALGORITHM). "
                 "Target: within 15% for the tree and tiled algorithms.")
        L.append("")
        L.append("| collective | algorithm | sizes | median error | max error | within 15% |")
        L.append("|---|---|---|---|---|---|")
        any_pred = False
        for a in group:
            for alg, pts in sorted(a.prediction_errors().items()):
                errs = [abs(p - m) / m for _, p, m in pts]
                ok = sum(1 for e in errs if e <= 0.15)
                mark = " **(tree/tiled)**" if ("tree" in alg or "tiled" in alg) else ""
                L.append(f"| {a.coll} | {alg}{mark} | {len(pts)} | {100 * statistics.median(errs):.0f}% | "
                         f"{100 * max(errs):.0f}% | {ok}/{len(errs)} |")
                any_pred = True
        if not any_pred:
            L.append("| - | no predictions (hmpi-info --model missing or no forced runs) | | | | |")
        fb = sorted({(a.coll, alg) for a in group for alg in a.fell_back})
        if fb:
            L.append("")
            L.append("Forced algorithms that fell back to another where they do not apply (those sizes are left out of "
                     "'best' and of the errors): " +
                     ", ".join(f"{c}/{alg}" for c, alg in fb) + ".")
        L.append("")

        L.append(f"### {ranks} ranks: large Allreduce against the data-volume bound")
        L.append("")
        ar = next((a for a in group if a.coll == "allreduce"), None)
        if ar and ar.hmpi:
            m = max(ar.hmpi)
            t = ar.hmpi[m]
            bound_us, how = bound(ranks, m)
            L.append(f"Bound: every rank's vector read once and the result written once on every rank, 2 p m bytes "
                     f"of data access (design notes, collectives-techniques.md: T >= 2pm / memory bandwidth), the "
                     f"volume of p threads each copying m bytes at once; p = {ranks}, m = {fmt_size(m)}: {how}.")
            L.append("")
            L.append("| size | HMPI measured [us] | bound [us] | measured / bound | bound / measured (target >= 0.80) |")
            L.append("|---|---|---|---|---|")
            L.append(f"| {fmt_size(m)} | {fmt_us(t)} | {fmt_us(bound_us)} | {t / bound_us:.2f} | "
                     f"{bound_us / t:.2f} {'✓' if bound_us / t >= 0.8 else '✗'} |")
            L += bound_by_state(runs, ranks, m, bound)
            if m != 16 << 20:
                L.append("")
                L.append(f"(The largest Allreduce measured is {fmt_size(m)}, not 16 MiB.)")
        else:
            L.append("No HMPI Allreduce measurement.")
        L.append("")

        T.append(f"### {ranks} ranks: latency tables [us]")
        T.append("")
        T.append("HMPI, Open MPI, MPICH: default runs; hmpi:<alg>: HMPI forced to that algorithm "
                 "((fb): at that size it fell back to another); best ref / HMPI > 1 means HMPI is faster.")
        T.append("")
        for a in group:
            have = [i for i in ("hmpi", "ompi", "mpich") if i in a.impls]
            algs = sorted(a.forced)
            T.append(f"**{a.coll}**")
            T.append("")
            head = ["size"] + [NAMES[i] for i in have] + ["best ref / HMPI"] + [f"hmpi:{x}" for x in algs]
            if algs:
                head += ["best forced"]
            if a.chosen:
                head += ["chosen (model)"]
            T.append("| " + " | ".join(head) + " |")
            T.append("|" + "---|" * len(head))
            for b in a.sizes:
                r, _ = a.ref(b)
                h = a.hmpi.get(b)
                cells = [fmt_size(b)] + [fmt_us(a.impls[i].get(b)) for i in have]
                cells.append(f"{r / h:.2f}" if r is not None and h else "-")
                # (fb) only where it did not run itself (no finite prediction there).
                cells += [fmt_us(a.forced[x].get(b)) + (" (fb)" if x in a.fell_back and b not in a.usable.get(x, {}) else "")
                          for x in algs]
                if algs:
                    cells.append(a.best_forced(b)[1] or "-")
                if a.chosen:
                    cells.append(a.chosen.get(b, "-"))
                T.append("| " + " | ".join(cells) + " |")
            T.append("")
    return "\n".join(L) + "\n", "\n".join(T) + "\n"


def make_plots(analyses, outdir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("analyze: matplotlib is not installed for " + sys.executable + ": NO PLOTS written "
              "(Debian: apt-get install python3-matplotlib, then run with /usr/bin/python3); the metrics are written.",
              file=sys.stderr)
        return []
    written = []
    style = {"hmpi": ("C0", "o"), "ompi": ("C1", "s"), "mpich": ("C2", "^")}
    for a in analyses:
        # Latency against size.
        fig, ax = plt.subplots(figsize=(6.4, 4.4))
        if a.coll == "barrier":
            names = [i for i in ("hmpi", "ompi", "mpich") if i in a.impls]
            vals = [a.impls[i].get(0, float("nan")) for i in names]
            ax.bar([NAMES[i] for i in names], vals, color=[style[i][0] for i in names])
            ax.set_ylabel("time [us]")
        else:
            for impl in ("hmpi", "ompi", "mpich"):
                if impl in a.impls:
                    xs = sorted(b for b in a.impls[impl] if b > 0)
                    c, mk = style[impl]
                    ax.loglog(xs, [a.impls[impl][b] for b in xs], marker=mk, color=c, label=NAMES[impl], ms=4)
            ax.set_xlabel("bytes per rank")
            ax.set_ylabel("time [us]")
            ax.legend()
            ax.grid(True, which="both", alpha=0.3)
        ax.set_title(f"MPI_{a.coll.capitalize()}, {a.ranks} ranks")
        fig.tight_layout()
        path = os.path.join(outdir, f"latency_{a.coll}_np{a.ranks}.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)

        # Model prediction against measurement, per algorithm.
        algs = sorted(set(a.forced) | set(a.pred))
        if algs:
            fig, ax = plt.subplots(figsize=(6.4, 4.4))
            barrier = a.coll == "barrier"
            for k, alg in enumerate(algs):
                color = f"C{k % 10}"
                meas = a.forced.get(alg, {})
                pred = a.pred.get(alg, {})
                if barrier:
                    if 0 in meas:
                        ax.bar(k - 0.2, meas[0], 0.4, color=color, label=f"{alg} measured")
                    if 0 in pred:
                        ax.bar(k + 0.2, pred[0], 0.4, color=color, alpha=0.4, hatch="//", label=f"{alg} predicted")
                    continue
                xs = sorted(b for b in meas if b > 0)
                if xs:
                    lbl = f"{alg} measured" + (" (fell back)" if alg in a.fell_back else "")
                    ax.loglog(xs, [meas[b] for b in xs], marker="o", ms=3, color=color, label=lbl)
                px = sorted(b for b in pred if b > 0)
                if px:
                    ax.loglog(px, [pred[b] for b in px], linestyle="--", color=color, label=f"{alg} predicted")
            if barrier:
                ax.set_xticks(range(len(algs)))
                ax.set_xticklabels(algs)
                ax.set_ylabel("time [us]")
            else:
                hx = sorted(b for b in a.hmpi if b > 0)
                if hx:
                    ax.loglog(hx, [a.hmpi[b] for b in hx], color="black", linewidth=0.8, linestyle=":",
                              label="HMPI default (model's pick)")
                ax.set_xlabel("bytes per rank")
                ax.set_ylabel("time [us]")
                ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=7)
            ax.set_title(f"HMPI MPI_{a.coll.capitalize()}, {a.ranks} ranks: model vs measured")
            fig.tight_layout()
            path = os.path.join(outdir, f"model_{a.coll}_np{a.ranks}.png")
            fig.savefig(path, dpi=110)
            plt.close(fig)
            written.append(path)

    # Speedup against size, every collective, per number of ranks.
    for ranks in sorted({a.ranks for a in analyses}):
        fig, ax = plt.subplots(figsize=(7.5, 4.8))
        k = 0
        for a in sorted((a for a in analyses if a.ranks == ranks), key=lambda a: coll_key(a.coll)):
            sp = [(b, r) for b, r in a.speedups() if b > 0]
            if sp:
                ax.semilogx([b for b, _ in sp], [r for _, r in sp], marker=".", color=f"C{k % 10}",
                            linestyle="-" if k < 10 else "--", label=a.coll)
                k += 1
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_yscale("log")
        ax.set_xlabel("bytes per rank")
        ax.set_ylabel("min(Open MPI, MPICH) / HMPI")
        ax.set_title(f"HMPI speedup over the faster of Open MPI and MPICH, {ranks} ranks")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
        fig.tight_layout()
        path = os.path.join(outdir, f"speedup_np{ranks}.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def update_doc(doc, text, pngs, ranks_set):
    """Replace the results section of `doc` (between the markers) and copy the PNGs next to it."""
    docdir = os.path.dirname(os.path.abspath(doc))
    tag = "-".join(f"np{r}" for r in ranks_set)
    imgdir = os.path.join(docdir, "results", f"collectives-{tag}")
    os.makedirs(imgdir, exist_ok=True)
    links = []
    for p in pngs:
        shutil.copy(p, imgdir)
        rel = os.path.relpath(os.path.join(imgdir, os.path.basename(p)), docdir)
        links.append(f"![{os.path.basename(p)}]({rel})")
    begin, end = f"<!-- BEGIN RESULTS {tag} -->", f"<!-- END RESULTS {tag} -->"
    body = f"{begin}\n{text}\n#### Plots\n\n" + "\n".join(links) + f"\n{end}"
    src = open(doc).read() if os.path.exists(doc) else ""
    if begin in src and end in src:
        src = src[:src.index(begin)] + body + src[src.index(end) + len(end):]
    else:
        src = src.rstrip("\n") + "\n\n" + body + "\n"
    with open(doc, "w") as f:
        f.write(src)
    print(f"analyze: updated {doc} ({len(pngs)} plots in {imgdir})")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+", help="coll_bench CSV files (run.sh's STEM.csv)")
    ap.add_argument("--out", help="output directory (default: the first CSV's name without .csv)")
    ap.add_argument("--model", help="HMPI predictions: collective,algorithm,bytes,predicted_us,chosen")
    ap.add_argument("--notes", help="run.sh's STEM.notes (forced algorithms that fell back)")
    ap.add_argument("--memcpy", help="memcpy_bw CSV: its largest size's bandwidth bounds the large Allreduce")
    ap.add_argument("--profile", help="HMPI profile file: its copy_bandwidth (bytes/ns) bounds the large Allreduce")
    ap.add_argument("--bandwidth", type=float, help="copy bandwidth in GB/s (= bytes/ns), overrides the others")
    ap.add_argument("--copy-threads", help="copy_bw_threads CSV: the time p threads take to copy m bytes each at "
                                           "once is the large Allreduce's bound (else one thread's bandwidth above)")
    ap.add_argument("--metric", choices=("avg", "max"), default="avg",
                    help="time used: average over ranks (default) or maximum over ranks")
    ap.add_argument("--state", choices=("fast", "slow"),
                    help="only the runs in this machine state (both state probes on that side of state_threshold); "
                         "every table is then that state's alone")
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--update-doc", metavar="FILE", help="write the results into FILE between the markers")
    args = ap.parse_args()

    outdir = args.out or re.sub(r"\.csv$", "", args.csv[0])
    os.makedirs(outdir, exist_ok=True)
    lines = read_lines(args.csv, args.metric)
    data = medians(lines)
    runs = probed(lines)
    if args.state:
        threshold = state_threshold([x for r in runs for x in (r[6], r[7])])
        if threshold is None:
            print("analyze: --state: the state probes show one machine state (or there are none)", file=sys.stderr)
            return 1
        data = by_state(runs, threshold)[0].get(args.state, {})
        runs = []  # the per-state section compares states; here there is one
        print(f"analyze: runs in the {args.state} state only (state probes split at {threshold:.0f} ns)")
    if not data:
        print("analyze: no measurements in " + ", ".join(args.csv), file=sys.stderr)
        return 1
    pred, chosen = read_model(args.model)
    if args.model and not pred:
        print(f"analyze: no usable predictions in {args.model}", file=sys.stderr)
    fallbacks = read_fallbacks(args.notes)
    analyses = [Analysis(ranks, coll, impls, pred.get(coll, {}), chosen.get(coll, {}), fallbacks)
                for (ranks, coll), impls in sorted(data.items(), key=lambda kv: (kv[0][0], coll_key(kv[0][1])))]
    bw, bw_source = copy_bandwidth(args)
    bound = AllreduceBound(bw, bw_source, threaded_copy_times(args.copy_threads),
                           threaded_copy_lines(args.copy_threads))
    summary, tables = metrics_markdown(analyses, bound, args.metric, [os.path.basename(p) for p in args.csv],
                                       runs, args.state)
    text = summary + "\n" + tables
    with open(os.path.join(outdir, "metrics.md"), "w") as f:
        f.write(text)
    print(summary)  # the latency tables are in metrics.md
    print(f"analyze: wrote {os.path.join(outdir, 'metrics.md')}")
    pngs = [] if args.no_plots else make_plots(analyses, outdir)
    if pngs:
        print(f"analyze: wrote {len(pngs)} plots to {outdir}")
    if args.update_doc:
        update_doc(args.update_doc, text, pngs, sorted({a.ranks for a in analyses}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
