#!/usr/bin/env bash
# accuracy.sh - the model's prediction error, scored per machine state: N
# rounds of (hmpi-calibrate, then run.sh with HMPI forced to each algorithm,
# predictions from that profile), then state_accuracy.py over the rounds
# (docs/model.md, "Scoring the model per machine state").
#
# usage: bench/coll/accuracy.sh [--rounds N] [--np P] [-c LIST] [--out DIR]
#   --rounds N   rounds (default 6)   --np P   ranks (default 2)
#   -c LIST      collectives (default allreduce,reduce,reduce_scatter_block,
#                reduce_scatter,barrier: those with tree or tiled algorithms)
#   --out DIR    output directory (default bench/coll/results/accuracy-<date>)
# environment: HMPI_BUILD (default build), as run.sh; CALIBRATE_TRIES (default
#   4): calibrations a round makes at most (bench/coll/calibrate.sh: again
#   while one changes machine state midway)
# outputs, in DIR: profN.txt (and profN.txt.log, every try's output), roundN.* (run.sh's files), accuracy.md
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${HMPI_BUILD:-$repo/build}
rounds=6 np=2 colls=allreduce,reduce,reduce_scatter_block,reduce_scatter,barrier
out=$here/results/accuracy-$(date +%Y%m%d-%H%M%S)
while [[ $# -gt 0 ]]; do
    case $1 in
        --rounds) rounds=$2; shift 2 ;;
        --np) np=$2; shift 2 ;;
        -c) colls=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        *) echo "accuracy.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"
for r in $(seq "$rounds"); do
    # A round whose calibration changed state midway scores nothing.
    HMPI_BUILD=$build "$here/calibrate.sh" "$out/prof$r.txt" "${CALIBRATE_TRIES:-4}" >"$out/calibrate$r.log" 2>&1 ||
        [ $? -eq 3 ]
    HMPI_BUILD=$build "$here/run.sh" --np "$np" --impls hmpi -c "$colls" --rounds 1 --root rotate \
        --profile "$out/prof$r.txt" --tag "round$r" --out "$out" >"$out/run$r.log" 2>&1
    echo "accuracy: round $r of $rounds done ($(date +%T))"
done
"${PYTHON:-python3}" "$here/state_accuracy.py" "$out" --ranks "$np" | tee "$out/accuracy.md"
