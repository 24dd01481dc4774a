#!/usr/bin/env python3
"""bench/coll/charges.py against the formulas: at two ranks in two cache
domains, algorithms that take the same steps are charged the same waits
(docs/model.md, "Tiled's levels across domains", "Reduce's waits at two
ranks"). usage: test_charges.py HMPI_INFO PROFILE"""
import csv
import io
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
tool = os.path.join(here, "..", "..", "bench", "coll", "charges.py")
info, profile = sys.argv[1], sys.argv[2]
failures = []


def charges(coll):
    out = subprocess.run([sys.executable, tool, "--info", info, "--profile", profile, "--machine", "2x1,l2=1M,l3=508M",
                          "--coll", coll, "--sizes", "64,4K", "--params", "alpha.a,beta.a,peer_args,step_overhead"],
                         capture_output=True, text=True, check=True).stdout
    rows = {}
    for r in csv.DictReader(io.StringIO(out)):
        rows[(r["algorithm"], int(r["bytes"]))] = {k: float(v) for k, v in r.items()
                                                   if k not in ("collective", "algorithm", "bytes") and v != ""}
    return rows


def expect(what, got, want):
    if abs(got - want) > 0.01:
        failures.append(f"{what}: {got:.3f}, expected {want}")


# Reduce: the root waits for the other rank's flag, reads its arguments,
# folds, publishes "folded"; the other rank waits for that (half a handoff
# in the mean over ranks). Tree, binomial and linear: 1.5 handoffs, one
# step of HMPI's own, one peer's arguments and, through them, its data's
# first line (one more peer_args; docs/model.md, "A fold's first line of
# each peer").
reduce = charges("reduce")
for alg in ("tree", "binomial", "linear"):
    for size in (64, 4096):
        c = reduce[(alg, size)]
        expect(f"reduce {alg} {size} B handoffs (alpha.a + beta.a)", c["alpha.a"] + c["beta.a"], 1.5)
        expect(f"reduce {alg} {size} B step_overhead", c["step_overhead"], 1)
        expect(f"reduce {alg} {size} B peer_args", c["peer_args"], 2)

# Allreduce: tree and tiled (one rank per domain) fold across the two
# domains and broadcast the result the same way: the same counts, but for
# tiled's two stores into lines the other rank holds (its copy of the input
# into the receive buffer the root read, the broadcast's copy over it),
# each first waiting for a line's round trip across, charged a_b
# (docs/model.md, "Tiled's one-member domains"), and the tree's broadcast
# step, charged step_overhead since stop 61 (tiled's is not: its first
# rewrites were fitted without it; docs/model.md, "The tree Allreduce's
# broadcast step"): two steps of HMPI's, the level and the broadcast.
allreduce = charges("allreduce")
for size in (64, 4096):
    t, u = allreduce[("tree", size)], allreduce[("tiled", size)]
    expect(f"allreduce tree {size} B step_overhead", t["step_overhead"], 2)
    for k in ("alpha.a", "beta.a", "peer_args", "step_overhead"):
        extra = {"beta.a": 2, "step_overhead": -1}.get(k, 0)
        expect(f"allreduce tiled {size} B {k} (tree's {t[k]:.2f})", u[k], t[k] + extra)

# The tool's own arithmetic: the prediction grows by exactly the count.
if not all(v.get("predicted_us", 0) > 0 for v in reduce.values()):
    failures.append("a reduce prediction is not positive")

for f in failures:
    print("FAIL:", f)
print(f"charges: {'ok' if not failures else str(len(failures)) + ' failure(s)'}")
sys.exit(1 if failures else 0)
