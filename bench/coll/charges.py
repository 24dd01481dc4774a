#!/usr/bin/env python3
"""charges.py - how much of each profile parameter every algorithm's formula charges.

For each collective, algorithm and size, `hmpi-info --model` is evaluated
with the profile as it is and once more per parameter with that parameter
raised by DELTA; the difference, divided by DELTA, is how many of that
parameter the formula charges: handoffs for `alpha.a`, arguments reached
for `peer_args`, lines for a per-line cost (ns per line). Two algorithms
that take the same steps should be charged the same counts; docs/model.md
("Tiled's levels across domains", "Reduce's waits at two ranks") has the
terms this found.

usage: bench/coll/charges.py --profile FILE [-n NP] [--machine SPEC] [--sizes LIST]
                             [--params LIST] [--coll NAME|all] [--delta D] [--info PATH]
Prints CSV: collective,algorithm,bytes,predicted_us,<one column per parameter>.
environment: HMPI_BUILD (default build): where bin/hmpi-info is.
"""
import argparse
import csv
import io
import os
import re
import subprocess
import sys
import tempfile

DEFAULT_PARAMS = "alpha.a,beta.a,peer_args,step_overhead,poll_line,rewrite_line,fold_rewrite_line"


def hmpi_info():
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    build = os.environ.get("HMPI_BUILD", os.path.join(repo, "build"))
    return os.path.join(build, "bin", "hmpi-info")


def predictions(info, profile_text, args):
    """(collective, algorithm, bytes) -> predicted us, for one profile's text."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(profile_text)
        path = f.name
    try:
        cmd = [info, "--model", args.coll, "-n", str(args.np), "--sizes", args.sizes, "--csv", "--profile", path]
        if args.machine:
            cmd += ["--machine", args.machine]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(path)
    pred = {}
    for row in csv.reader(io.StringIO(out)):
        if len(row) != 5:
            continue
        try:
            pred[(row[0], row[1], int(row[2]))] = float(row[3])
        except ValueError:
            continue  # header, or "does not apply"
    return pred


def with_param(text, name, delta):
    """The profile's text with parameter `name` raised by delta (added at 0 when absent)."""
    pattern = re.compile(r"^" + re.escape(name) + r"\s+(\S+)\s*$", re.M)
    m = pattern.search(text)
    if m:
        value = float(m.group(1)) + delta
        return text[:m.start()] + f"{name} {value!r}" + text[m.end():]
    return text.rstrip("\n") + f"\n{name} {delta!r}\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", required=True, help="an HMPI profile file (hmpi-calibrate's output)")
    ap.add_argument("-n", "--np", type=int, default=2, help="ranks (default 2)")
    ap.add_argument("--machine", help="hmpi-info's --machine SxQ[,l2=SIZE][,l3=SIZE] (default: this machine)")
    ap.add_argument("--sizes", default="8,64,1K,32K,1M", help="sizes, as hmpi-info takes them (default 8,64,1K,32K,1M)")
    ap.add_argument("--params", default=DEFAULT_PARAMS, help=f"comma-separated profile keys (default {DEFAULT_PARAMS})")
    ap.add_argument("--coll", default="all", help="one collective, or all (default)")
    ap.add_argument("--delta", type=float, default=100.0, help="how much each parameter is raised (default 100)")
    ap.add_argument("--info", help="the hmpi-info to run (default: $HMPI_BUILD/bin/hmpi-info)")
    args = ap.parse_args()

    info = args.info or hmpi_info()
    if not os.access(info, os.X_OK):
        print(f"charges: no hmpi-info at {info} (set HMPI_BUILD)", file=sys.stderr)
        return 1
    with open(args.profile) as f:
        text = f.read()
    params = [p for p in args.params.split(",") if p]
    base = predictions(info, text, args)
    if not base:
        print("charges: hmpi-info predicted nothing", file=sys.stderr)
        return 1
    counts = {p: predictions(info, with_param(text, p, args.delta), args) for p in params}
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["collective", "algorithm", "bytes", "predicted_us"] + params)
    for key in sorted(base):
        row = list(key) + [f"{base[key]:.4f}"]
        for p in params:
            raised = counts[p].get(key)
            # us per ns: 1000 x the difference over delta.
            row.append("" if raised is None else f"{(raised - base[key]) * 1000.0 / args.delta:.3f}")
        w.writerow(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
