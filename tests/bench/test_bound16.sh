#!/usr/bin/env bash
# ctest bench.bound16: bench/coll/bound16.sh pairs its measurements within
# each round and reports the medians of their ratios, against stand-ins
# whose times are known (copy_bw_threads: bound 100 us, fold-push floor 90;
# hmpirun: HMPI's Allreduce 125 us, 150 with the base library, or a
# failure); then one real round at 256 KiB with the build's own binaries
# (copy_bw_threads -f checks its results itself).
#
# usage: test_bound16.sh SOURCE_DIR BUILD_DIR
set -u
src=$1 build=$2
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/base"

cat >"$tmp/bin/copy_bw_threads" <<'STAND_IN'
#!/bin/sh
case " $* " in *" -f "*) echo "2,16777216,90.0,88.0,1" ;; *) echo "2,16777216,100.0,99.0,1" ;; esac
STAND_IN
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/coll_bench"
cat >"$tmp/bin/hmpirun" <<STAND_IN
#!/bin/sh
[ -n "\${FAIL_HMPI:-}" ] && exit 1
if [ "\${LD_LIBRARY_PATH:-}" = "$tmp/base" ]; then t=150.0; else t=125.0; fi
echo "# coll_bench: a comment line"
echo "hmpi,allreduce,16777216,2,\$t,130.0,10"
STAND_IN
chmod +x "$tmp/bin/"*

out=$(bash "$src/bench/coll/bound16.sh" --rounds 3 --bindir "$tmp/bin" --hmpirun "$tmp/bin/hmpirun" \
      --base-lib "$tmp/base" --out "$tmp/a.csv" 2>&1) || fail "bound16.sh exited $?: $out"
echo "$out"
[ "$(grep -c ',' "$tmp/a.csv")" -eq 13 ] || fail "expected a header and 4 measurements x 3 rounds in the CSV"
grep -q '^2,floor,90.0$' "$tmp/a.csv" || fail "round 2's floor not recorded"
grep -q '^3,hmpi-base,150.0$' "$tmp/a.csv" || fail "round 3's base-library run not recorded"
echo "$out" | grep -q 'bound / hmpi (target >= 0.80): *median 0.80 over 3 rounds' || fail "bound / hmpi not 0.80"
echo "$out" | grep -q 'bound / floor: *median 1.11 over 3 rounds' || fail "bound / floor not 1.11"
echo "$out" | grep -q 'floor / hmpi: *median 0.72 over 3 rounds' || fail "floor / hmpi not 0.72"
echo "$out" | grep -q 'hmpi-base / hmpi (speedup): *median 1.20 over 3 rounds' || fail "speedup not 1.20"

# HMPI's run failing: said, left out of the CSV and of the ratios.
out=$(FAIL_HMPI=1 bash "$src/bench/coll/bound16.sh" --rounds 2 --bindir "$tmp/bin" --hmpirun "$tmp/bin/hmpirun" \
      --out "$tmp/b.csv" 2>&1)
echo "$out"
echo "$out" | grep -q 'round 2: hmpi failed' || fail "a failed HMPI run not reported"
grep -q ',hmpi,' "$tmp/b.csv" && fail "a failed HMPI run left a row"
echo "$out" | grep -q 'bound / hmpi' && fail "a ratio reported without HMPI measurements"
echo "$out" | grep -q 'bound / floor: *median 1.11 over 2 rounds' || fail "bound / floor lost with HMPI failing"

# Bad arguments.
bash "$src/bench/coll/bound16.sh" --rounds x >/dev/null 2>&1 && fail "--rounds x accepted"
bash "$src/bench/coll/bound16.sh" --bindir "$tmp/none" >/dev/null 2>&1 && fail "a missing copy_bw_threads accepted"

# One real round.
out=$(bash "$src/bench/coll/bound16.sh" --rounds 1 --size 256K --bindir "$build/bench" --hmpirun "$build/bin/hmpirun" \
      --out "$tmp/c.csv" 2>&1) || fail "the real round exited $?: $out"
echo "$out"
for w in bound floor hmpi; do grep -q "^1,$w,[0-9.]*$" "$tmp/c.csv" || fail "real round: no $w measurement"; done
echo "PASS"
