#!/usr/bin/env bash
# calibrate.sh - hmpi-calibrate until one calibration stays in one machine
# state. A guest whose speed switches for seconds at a time (the 2-core EPYC
# guest: docs/performance-collectives.md) can switch midway through the
# ~40 s calibration; hmpi-calibrate then warns ("speed check: the machine
# changed speed during the calibration") and its parameters mix the two
# states, so every prediction made from them is off. This repeats the
# calibration until a try ends without that warning. With CALIBRATE_STATE
# it also repeats a try that stayed in the other state: a run measured
# mostly in the slow state is priced wrongly by a profile calibrated in the
# fast one (stop 45: a fast-state calibration before a run whose runs were
# three quarters slow predicted them 50-90% short).
#
# usage: bench/coll/calibrate.sh OUTPUT [TRIES]
#   OUTPUT  the profile to write (hmpi-calibrate --output)
#   TRIES   calibrations at most (default 4); when none was kept the last
#           is, and the exit status is 3
# environment: HMPI_BUILD (default build), as run.sh
#   CALIBRATE_STATE  slow:NS or fast:NS: keep only a try whose speed check
#                    saw the flag handoff above (slow) or below (fast) NS
#                    ns at its start and at its end (the 2-core EPYC guest:
#                    slow:145, where analyze.py split stop 45's runs)
# outputs: OUTPUT, OUTPUT.log (every try's output, one after the other)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] && [ $# -le 2 ] || { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
output=$1 tries=${2:-4}
case "$tries" in ''|*[!0-9]*|0) echo "calibrate.sh: bad TRIES '$tries'" >&2; exit 2 ;; esac
want=${CALIBRATE_STATE:-}
case "$want" in
    '') ;;
    slow:[0-9]*|fast:[0-9]*)
        case "${want#*:}" in *[!0-9.]*) echo "calibrate.sh: bad CALIBRATE_STATE '$want'" >&2; exit 2 ;; esac ;;
    *) echo "calibrate.sh: bad CALIBRATE_STATE '$want' (slow:NS or fast:NS)" >&2; exit 2 ;;
esac
# Whether a try's speed check (its handoffs at the start and at the end)
# is in the wanted state; with nothing wanted, every try is.
in_wanted_state() {
    [ -n "$want" ] || return 0
    awk -v state="${want%%:*}" -v cut="${want#*:}" '
        /speed check: .* flag handoff [0-9.]+ ns at the start, [0-9.]+ ns now/ {
            for (i = 1; i < NF; i++) {
                if ($i == "handoff") a = $(i + 1)
                if ($i == "start,") b = $(i + 1)
            }
            seen = 1
        }
        END {
            if (!seen) exit 1
            if (state == "slow") exit !(a > cut && b > cut)
            exit !(a < cut && b < cut)
        }' "$1"
}
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
    if grep -q "warning: speed check" "$try_log"; then
        echo "calibrate.sh: try $t changed machine state midway; calibrating again" >&2
    elif ! in_wanted_state "$try_log"; then
        echo "calibrate.sh: try $t stayed in one machine state, not the one CALIBRATE_STATE=$want asks for;" \
             "calibrating again" >&2
    else
        echo "calibrate.sh: $output written (try $t of $tries stayed in one machine state${want:+, $want})"
        exit 0
    fi
done
echo "calibrate.sh: warning: no try of $tries stayed in one machine state${want:+ ($want)}; $output is the last" >&2
exit 3
