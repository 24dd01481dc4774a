#!/usr/bin/env python3
"""state_accuracy.py - the model's prediction error per machine state.

Reads the rounds accuracy.sh wrote (DIR/roundN.csv, measured with HMPI forced
to each algorithm, and DIR/roundN.model.csv, hmpi-info's predictions from
the profile calibrated just before that round), splits the runs by their
state probes as analyze.py does, and compares, per state, the median
measured time over that state's runs with the median prediction of the
profiles calibrated in that state (a round's profile counts for the state
its calibration measured: the flag handoff in its comments, against the
probes' threshold; else the state most of its runs were in). On a machine with one state this is analyze.py's
prediction table with one profile per round; on one that changes speed (the
2-core EPYC guest: docs/performance-collectives.md) it scores each state's
measurements against a calibration of that state, which a single profile
cannot do for both.

usage: state_accuracy.py DIR [--ranks N] [--collectives LIST] [--rescore HMPI_INFO] [--per-size]
  --rescore  recompute every round's predictions with this hmpi-info from
             the round's profile (DIR/profN.txt), instead of reading
             DIR/roundN.model.csv: a model change scored on recorded rounds
  --per-size after the table, one row per tree/tiled algorithm and size:
             the state's median measurement and prediction, and the error
             (which sizes a model change moves)
Writes markdown to stdout.
"""
import argparse
import glob
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from analyze import predicted_at, probed, read_lines, read_model, run_state, state_threshold  # noqa: E402

TREE_TILED = {"tree", "tiled", "tiled_push"}
LIMIT = 0.15


def calibrated_handoff(profile):
    """The flag handoff hmpi-calibrate measured (its profile's comment
    "flag handoff X ns", the first link's), which is what the state probes
    measure: the state the profile was calibrated in. None without it."""
    try:
        with open(profile) as f:
            for line in f:
                m = re.search(r"flag handoff ([0-9.]+) ns", line)
                if line.startswith("#") and m:
                    return float(m.group(1))
    except OSError:
        pass
    return None


def rescored(info, profile, colls, ranks):
    """hmpi-info --model's predictions for `colls` from `profile`, in a
    temporary CSV (read_model's format); None when it fails."""
    if not os.path.exists(profile):
        return None
    rows = []
    for coll in sorted(colls):
        r = subprocess.run([info, "--model", coll, "-n", str(ranks), "--csv"], capture_output=True, text=True,
                           env=dict(os.environ, HMPI_PROFILE=profile))
        if r.returncode != 0:
            print(f"state_accuracy: hmpi-info --model {coll} failed with {profile}: {r.stderr[:200]}", file=sys.stderr)
            return None
        rows += [l for l in r.stdout.splitlines() if l.count(",") == 4]
    fd, path = tempfile.mkstemp(suffix=".model.csv")
    with os.fdopen(fd, "w") as f:
        f.write("\n".join(rows) + "\n")
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--collectives", help="comma-separated (default: all measured)")
    ap.add_argument("--rescore", metavar="HMPI_INFO", help="recompute the predictions with this hmpi-info")
    ap.add_argument("--per-size", action="store_true",
                    help="after the table, every tree/tiled size: measured and predicted medians, error")
    args = ap.parse_args()
    rounds = {}
    for path in glob.glob(os.path.join(args.dir, "round*.csv")):
        m = re.fullmatch(r"round(\d+)\.csv", os.path.basename(path))
        if m:
            rounds[int(m.group(1))] = path
    if not rounds:
        sys.exit(f"state_accuracy: no roundN.csv in {args.dir}")
    lines = {r: [x for x in read_lines([p], "avg") if x[0] == args.ranks and x[2].startswith("hmpi:")]
             for r, p in rounds.items()}
    threshold = state_threshold([v for ls in lines.values() for x in probed(ls) for v in (x[6], x[7])])
    measured = defaultdict(list)  # (state, coll, alg, bytes) -> times
    predicted = defaultdict(list)
    profile_state = {}
    for r, ls in sorted(lines.items()):
        states = Counter()
        for x in ls:
            st = run_state(x[6], x[7], threshold) if threshold and x[6] is not None else "one"
            states[st] += 1
            if st != "changed":
                measured[(st, x[1], x[2].split(":", 1)[1], x[3])].append(x[4])
        st = max((s for s in states if s != "changed"), key=lambda s: states[s], default=None)
        handoff = calibrated_handoff(os.path.join(args.dir, f"prof{r}.txt"))
        if threshold and handoff is not None:
            st = run_state(handoff, handoff, threshold)
        if st is None:
            continue
        model = os.path.join(args.dir, f"round{r}.model.csv")
        if args.rescore:
            model = rescored(args.rescore, os.path.join(args.dir, f"prof{r}.txt"), {x[1] for x in ls}, args.ranks)
        if not model or not os.path.exists(model):
            continue
        profile_state[r] = st
        pred, _ = read_model(model)
        if args.rescore:
            os.unlink(model)  # rescored()'s temporary file
        for coll, algs in pred.items():
            for alg, curve in algs.items():
                for b in {k[3] for k in measured if k[1] == coll and k[2] == alg}:
                    p = predicted_at(curve, b)
                    if p is not None:
                        predicted[(st, coll, alg, b)].append(p)
    colls = args.collectives.split(",") if args.collectives else sorted({k[1] for k in measured})
    out = ["| state | rounds (profiles) | collective | algorithm | sizes | median error | max error | within 15% |",
           "|---|---|---|---|---|---|---|---|"]
    sizes = ["", "| state | collective | algorithm | bytes | measured [us] | predicted [us] | error |",
             "|---|---|---|---|---|---|---|"]
    for st in sorted({k[0] for k in measured}):
        n_rounds = sum(1 for s in profile_state.values() if s == st)
        for coll in colls:
            for alg in sorted({k[2] for k in measured if k[0] == st and k[1] == coll}):
                errs = []
                for b in sorted({k[3] for k in measured if k[:3] == (st, coll, alg)}):
                    if (st, coll, alg, b) not in predicted:
                        continue
                    m = statistics.median(measured[(st, coll, alg, b)])
                    p = statistics.median(predicted[(st, coll, alg, b)])
                    if m > 0:
                        errs.append(abs(p - m) / m)
                        if args.per_size and alg in TREE_TILED:
                            sizes.append(f"| {st} | {coll} | {alg} | {b} | {m:.3f} | {p:.3f} "
                                         f"| {100 * (p - m) / m:+.0f}% |")
                if not errs:
                    continue
                name = f"{alg} **(tree/tiled)**" if alg in TREE_TILED else alg
                out.append(f"| {st} | {n_rounds} | {coll} | {name} | {len(errs)} | {100 * statistics.median(errs):.0f}% "
                           f"| {100 * max(errs):.0f}% | {sum(e <= LIMIT for e in errs)}/{len(errs)} |")
    print("\n".join(out + (sizes if args.per_size else [])))


if __name__ == "__main__":
    main()
