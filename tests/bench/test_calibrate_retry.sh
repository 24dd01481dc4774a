#!/usr/bin/env bash
# bench/coll/calibrate.sh against a stand-in hmpi-calibrate whose speed
# check fails a set number of times: it calibrates again until a try stays
# in one state, keeps the last try and says so (exit 3) when none does,
# and passes a failed calibration on; with CALIBRATE_STATE, also until a
# try stays in the state asked for; calibrate-states.sh combines a fast
# and a slow calibration.
#
# usage: test_calibrate_retry.sh REPO
set -u
repo=${1:?usage: test_calibrate_retry.sh REPO}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
# The stand-in: tries 1..$WARN_TRIES print the speed check's warning;
# FAIL=1 makes it fail; tries 1..$FAST_TRIES see the fast state's handoffs
# (50-55 ns), the others the slow state's (200-210). Every try writes its
# number into the profile.
cat >"$tmp/bin/hmpi-calibrate" <<'STUB'
#!/usr/bin/env bash
out="" combine=()
if [ "${1:-}" = --combine ]; then
    shift
    while [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; do combine+=("$1"); shift; done
fi
while [ $# -gt 0 ]; do [ "$1" = --output ] && out=$2; shift; done
if [ ${#combine[@]} -gt 0 ]; then
    { cat "${combine[0]}"; echo "+"; cat "${combine[1]}"; } | tr '\n' ' ' >"$out"
    exit 0
fi
n=$(( $(cat "$COUNTER" 2>/dev/null || echo 0) + 1 ))
echo "$n" >"$COUNTER"
[ "${FAIL:-0}" = 1 ] && { echo "hmpi-calibrate: cannot measure" >&2; exit 1; }
if [ "$n" -le "${FAST_TRIES:-0}" ]; then
    echo "hmpi-calibrate: speed check: NUMA (beta) flag handoff 50.0 ns at the start, 55.0 ns now" >&2
else
    echo "hmpi-calibrate: speed check: NUMA (beta) flag handoff 200.0 ns at the start, 210.0 ns now" >&2
fi
[ "$n" -le "${WARN_TRIES:-0}" ] &&
    echo "hmpi-calibrate: warning: speed check: the machine changed speed during the calibration" >&2
echo "try $n" >"$out"
STUB
chmod +x "$tmp/bin/hmpi-calibrate"
fails=0
# Runs SCRIPT OUTPUT ARGS... with the stand-in and compares its exit
# status, the stand-in's tries and OUTPUT's content with what is expected.
expect() {  # name expected-status expected-tries expected-output SCRIPT OUTPUT [ARGS...]
    local name=$1 want_rc=$2 want_tries=$3 want_line=$4 script=$5 output=$6
    shift 6
    rm -f "$tmp/count" "$output"*
    HMPI_BUILD=$tmp COUNTER=$tmp/count "$repo/bench/coll/$script" "$output" "$@" >"$tmp/out" 2>&1
    local rc=$? got_tries got_line
    got_tries=$(cat "$tmp/count" 2>/dev/null || echo 0)
    got_line=$(cat "$output" 2>/dev/null || echo none)
    if [ "$rc" != "$want_rc" ] || [ "$got_tries" != "$want_tries" ] || [ "$got_line" != "$want_line" ]; then
        echo "FAIL $name: status $rc tries $got_tries output '$got_line'" \
            "(expected $want_rc, $want_tries, '$want_line')"
        sed 's/^/    /' "$tmp/out"
        fails=$((fails + 1))
    else
        echo "ok   $name"
    fi
}
check() {  # name expected-status expected-tries expected-profile-line [TRIES]
    expect "$1" "$2" "$3" "$4" calibrate.sh "$tmp/p.txt" ${5:-}
}
WARN_TRIES=0 check "steady first try" 0 1 "try 1"
WARN_TRIES=2 check "two tries change state" 0 3 "try 3"
WARN_TRIES=9 check "every try changes state" 3 3 "try 3" 3
WARN_TRIES=0 FAIL=1 check "calibration fails" 1 1 none
WARN_TRIES=0 check "bad TRIES" 2 0 none 0
# CALIBRATE_STATE: a try in the other state is repeated like one that
# changed state; a bad value is refused before any try.
CALIBRATE_STATE=slow:145 FAST_TRIES=2 WARN_TRIES=0 check "slow wanted, two fast tries" 0 3 "try 3"
CALIBRATE_STATE=fast:145 FAST_TRIES=1 WARN_TRIES=0 check "fast wanted, first try fast" 0 1 "try 1"
CALIBRATE_STATE=fast:145 FAST_TRIES=0 WARN_TRIES=0 check "fast wanted, never fast" 3 3 "try 3" 3
CALIBRATE_STATE=slow:145 FAST_TRIES=0 WARN_TRIES=1 check "slow wanted, first try changes state" 0 2 "try 2"
CALIBRATE_STATE=medium WARN_TRIES=0 check "bad CALIBRATE_STATE" 2 0 none
CALIBRATE_STATE=slow:abc WARN_TRIES=0 check "bad CALIBRATE_STATE number" 2 0 none
# The log keeps every try's output.
WARN_TRIES=1 check "log of two tries" 0 2 "try 2"
if [ "$(grep -c '^# calibrate.sh: try' "$tmp/p.txt.log")" != 2 ]; then
    echo "FAIL log: expected two tries in $tmp/p.txt.log"; fails=$((fails + 1))
fi
# calibrate-states.sh: a fast calibration, then a slow one, combined (fast
# first); a state that never shows leaves nothing combined (exit 3).
states() {  # name expected-status expected-tries expected-combined
    expect "$1" "$2" "$3" "$4" calibrate-states.sh "$tmp/s.txt" 145 2
}
FAST_TRIES=1 WARN_TRIES=0 states "states: fast, then slow, combined" 0 2 "try 1 + try 2 "
FAST_TRIES=0 WARN_TRIES=0 states "states: never fast" 3 2 none
[ $fails -eq 0 ] && echo "all calibrate.sh checks passed"
exit $((fails > 0))
