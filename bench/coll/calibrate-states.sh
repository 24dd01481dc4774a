#!/usr/bin/env bash
# calibrate-states.sh - one profile of a machine that switches between two
# states (the 2-core EPYC guest: a flag handoff of 24-108 ns in one, 168-650
# in the other, for seconds at a time): calibrate.sh until a calibration
# stays in the fast state, again until one stays in the slow state, then
# `hmpi-calibrate --combine` (the runtime picks, per call shape, the
# algorithm least behind the best of either state: docs/model.md, "Machines
# with more than one state").
#
# usage: bench/coll/calibrate-states.sh OUTPUT [CUT_NS] [TRIES]
#   OUTPUT  the combined profile; OUTPUT.fast.txt and OUTPUT.slow.txt keep
#           the two calibrations (and their .log files)
#   CUT_NS  the handoff that separates the states (default 145, where
#           analyze.py splits the EPYC guest's runs)
#   TRIES   calibrations at most per state (default 6)
# environment: HMPI_BUILD (default build), as run.sh
# exit status: 0 written; 3 a state never showed in TRIES calibrations
# (nothing combined); 1 anything else failed
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] && [ $# -le 3 ] || { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
output=$1 cut=${2:-145} tries=${3:-6}
case "$cut" in ''|*[!0-9.]*) echo "calibrate-states.sh: bad CUT_NS '$cut'" >&2; exit 2 ;; esac
build=${HMPI_BUILD:-build}
if [ "${build#/}" = "$build" ]; then
    if [ -d "$build" ]; then build=$(cd "$build" && pwd); else build="$repo/$build"; fi
fi
for state in fast slow; do
    CALIBRATE_STATE=$state:$cut HMPI_BUILD=$build "$here/calibrate.sh" "$output.$state.txt" "$tries"
    rc=$?
    if [ $rc -eq 3 ]; then
        echo "calibrate-states.sh: no calibration of $tries stayed in the $state state (handoff" \
             "$([ $state = fast ] && echo below || echo above) $cut ns); nothing combined" >&2
        exit 3
    fi
    [ $rc -eq 0 ] || exit 1
done
"$build/bin/hmpi-calibrate" --combine "$output.fast.txt" "$output.slow.txt" --output "$output" || exit 1
