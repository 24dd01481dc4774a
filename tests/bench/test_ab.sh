#!/usr/bin/env bash
# ctest bench.ab: bench/coll/ab.sh pairs the two builds within each round
# and alternates their order, against stand-in builds whose times are
# known (base: 2.0 us in odd rounds, 4.0 in even ones, a machine that
# drifts; new: 1.6 and 3.6, 0.80 and 0.90 of base: the paired median is
# 0.85 where the ratio of the medians would be 0.87), then fails on a
# build without the binaries; then one real round of the build's own
# binaries against themselves.
#
# usage: test_ab.sh SOURCE_DIR BUILD_DIR
set -u
src=$1 build=$2
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

for which in base new; do
    mkdir -p "$tmp/$which/bin" "$tmp/$which/bench"
    printf '#!/bin/sh\nexit 0\n' >"$tmp/$which/bench/coll_bench"
    if [ $which = base ]; then odd=2.0 even=4.0; else odd=1.6 even=3.6; fi
    # The round number comes from a counter file the stand-in keeps per build.
    cat >"$tmp/$which/bin/hmpirun" <<STAND_IN
#!/bin/sh
n=\$(cat "$tmp/$which/count" 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n >"$tmp/$which/count"
[ -n "\${HMPI_ALLREDUCE_ALGORITHM:-}" ] || exit 3
if [ \$((n % 2)) -eq 1 ]; then t=$odd; else t=$even; fi
echo "# coll_bench: a comment line"
echo "hmpi,allreduce,8,2,\$t,\$t,100"
echo "hmpi,allreduce,64,2,\$t,\$t,100"
STAND_IN
    chmod +x "$tmp/$which/bin/hmpirun" "$tmp/$which/bench/coll_bench"
done
out=$(bash "$src/bench/coll/ab.sh" --base "$tmp/base" --new "$tmp/new" --rounds 4 --out "$tmp/ab.csv" \
      allreduce:inline 2>&1) || fail "ab.sh exited $?: $out"
echo "$out"
[ "$(grep -c ',' "$tmp/ab.csv")" -eq 17 ] || fail "expected a header and 2 builds x 2 sizes x 4 rounds in the CSV"
# Round 1 runs new first, round 2 base first.
[ "$(sed -n 2p "$tmp/ab.csv" | cut -d, -f1,2)" = "1,new" ] || fail "round 1 did not start with the new build"
[ "$(sed -n 6p "$tmp/ab.csv" | cut -d, -f1,2)" = "2,base" ] || fail "round 2 did not start with the base build"
echo "$out" | grep -q '^allreduce,inline,8,3.000,2.600,0.850,0.80,0.90,4$' || fail "8 B not paired to 0.850"
echo "$out" | grep -q '^allreduce,inline,64,3.000,2.600,0.850,0.80,0.90,4$' || fail "64 B not paired to 0.850"
bash "$src/bench/coll/ab.sh" --base "$tmp/nothing" --new "$tmp/new" allreduce:inline >/dev/null 2>&1 &&
    fail "a base without binaries was accepted"

out=$(bash "$src/bench/coll/ab.sh" --base "$build" --new "$build" --rounds 1 --sizes 8 allreduce:inline 2>&1) ||
    fail "the real round exited $?: $out"
echo "$out"
echo "$out" | grep -q '^allreduce,inline,8,[0-9.]*,[0-9.]*,[0-9.]*,[0-9.]*,[0-9.]*,1$' ||
    fail "no paired line for the real round"
echo "PASS"
