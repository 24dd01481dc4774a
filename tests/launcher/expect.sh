#!/usr/bin/env bash
# expect.sh STATUS REGEX [REGEX...] -- COMMAND [ARGS...]
#
# Runs COMMAND, shows its output, and passes only if it exits with STATUS (a number, or "nonzero")
# and its stdout+stderr match every REGEX (grep -E, each anywhere, in any order). For the
# launcher tests that run real HMPI programs and expect them to fail in a particular way.
set -u
if (($# < 3)); then
    echo "usage: expect.sh STATUS REGEX [REGEX...] -- COMMAND [ARGS...]" >&2
    exit 2
fi
want_status=$1
shift
regexes=()
while (($# > 0)) && [[ $1 != -- ]]; do
    regexes+=("$1")
    shift
done
if (($# < 2)); then
    echo "expect.sh: missing -- COMMAND" >&2
    exit 2
fi
shift

out=$("$@" 2>&1)
status=$?
printf '%s\n' "$out"

ok=1
if [[ $want_status == nonzero ]]; then
    ((status != 0)) || { echo "expect.sh: exited with status 0, expected non-zero"; ok=0; }
elif ((status != want_status)); then
    echo "expect.sh: exited with status $status, expected $want_status"
    ok=0
fi
for regex in "${regexes[@]}"; do
    grep -Eq -e "$regex" <<<"$out" || { echo "expect.sh: output does not match /$regex/"; ok=0; }
done
((ok))
