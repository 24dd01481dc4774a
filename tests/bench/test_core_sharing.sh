#!/usr/bin/env bash
# test_core_sharing.sh CORE_SHARING - bench/core_sharing.c: one short run
# prints its header and a line per kind of work with positive times and
# ratio (the ratio together / alone, to two decimals); bad arguments exit 2.
set -u
bin=$1
fail() { echo "FAIL: $*"; exit 1; }
out=$("$bin" -p 1 -w 65536) || fail "core_sharing -p 1 -w 65536 exited $?"
printf '%s\n' "$out"
[ "$(printf '%s\n' "$out" | head -1)" = "work,cpus,alone_ns,together_ns,ratio" ] || fail "header"
for work in alu copy_l2; do
    line=$(printf '%s\n' "$out" | grep "^$work,0-1,") || fail "no $work line"
    printf '%s\n' "$line" | awk -F, '{ exit !(NF == 5 && $3 > 0 && $4 > 0 && $5 > 0 &&
        ($5 - $4 / $3) < 0.01 && ($4 / $3 - $5) < 0.01) }' || fail "$work line: $line"
done
"$bin" -w 100 2>/dev/null; [ $? -eq 2 ] || fail "-w 100 did not exit 2"
"$bin" --bogus 2>/dev/null; [ $? -eq 2 ] || fail "an unknown option did not exit 2"
echo "PASS"
