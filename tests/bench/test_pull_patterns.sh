#!/usr/bin/env bash
# test_pull_patterns.sh PULL_PATTERNS - bench/pull_patterns.c: one short run
# at 2 threads prints its header and, per block size, one line per pattern
# with positive per-line times; bad arguments exit 2.
set -u
bin=$1
fail() { echo "FAIL: $*"; exit 1; }
out=$("$bin" -t 2 -r 3 -m 1K,4096) || fail "pull_patterns -t 2 -r 3 -m 1K,4096 exited $?"
printf '%s\n' "$out"
[ "$(printf '%s\n' "$out" | head -1)" = "pattern,threads,block_bytes,read_ns_line,write_ns_line,fold_ns_line" ] || fail "header"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 9 ] || fail "expected 8 result lines"
for size in 1024 4096; do
    for pattern in ring alltoall allgather fanout; do
        line=$(printf '%s\n' "$out" | grep "^$pattern,2,$size,") || fail "no $pattern line at $size"
        printf '%s\n' "$line" | awk -F, '{ exit !(NF == 6 && $4 > 0 && $5 > 0 && $6 > 0) }' || fail "$pattern line: $line"
    done
done
"$bin" -m 100 2>/dev/null; [ $? -eq 2 ] || fail "-m 100 did not exit 2"
"$bin" -t 1 2>/dev/null; [ $? -eq 2 ] || fail "-t 1 did not exit 2"
"$bin" --bogus 2>/dev/null; [ $? -eq 2 ] || fail "an unknown option did not exit 2"
echo "PASS"
