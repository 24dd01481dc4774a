#!/usr/bin/env bash
# calibrate.sh - hmpi-calibrate until one calibration stays in one machine
# state. A guest whose speed switches for seconds at a time (the 2-core EPYC
# guest: docs/performance-collectives.md) can switch midway through the
# ~40 s calibration; hmpi-calibrate then warns ("speed check: the machine
# changed speed during the calibration") and its parameters mix the two
# states, so every prediction made from them is off. This repeats the
# calibration until a try ends without that warning.
#
# usage: bench/coll/calibrate.sh OUTPUT [TRIES]
#   OUTPUT  the profile to write (hmpi-calibrate --output)
#   TRIES   calibrations at most (default 4); when every one changed speed
#           the last is kept, and the exit status is 3
# environment: HMPI_BUILD (default build), as run.sh
# outputs: OUTPUT, OUTPUT.log (every try's output, one after the other)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] && [ $# -le 2 ] || { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
output=$1 tries=${2:-4}
case "$tries" in ''|*[!0-9]*|0) echo "calibrate.sh: bad TRIES '$tries'" >&2; exit 2 ;; esac
build=${HMPI_BUILD:-build}
if [ "${build#/}" = "$build" ]; then
    if [ -d "$build" ]; then build=$(cd "$build" && pwd); else build="$repo/$build"; fi
fi
log="$output.log"
: >"$log" || exit 1
try_log=$(mktemp) || exit 1
trap 'rm -f "$try_log"' EXIT
for t in $(seq "$tries"); do
    echo "# calibrate.sh: try $t of $tries ($(date +%T))" >>"$log"
    "$build/bin/hmpi-calibrate" --output "$output" >"$try_log" 2>&1
    rc=$?
    cat "$try_log" >>"$log"
    if [ $rc -ne 0 ]; then
        echo "calibrate.sh: hmpi-calibrate failed (see $log)" >&2
        exit 1
    fi
    if ! grep -q "warning: speed check" "$try_log"; then
        echo "calibrate.sh: $output written (try $t of $tries stayed in one machine state)"
        exit 0
    fi
    echo "calibrate.sh: try $t changed machine state midway; calibrating again" >&2
done
echo "calibrate.sh: warning: all $tries tries changed machine state; $output is the last" >&2
exit 3
