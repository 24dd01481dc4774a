#!/bin/sh
# ctest tools.info_replay: hmpi-info replays the model for a machine measured
# elsewhere. --machine builds the made-up topology it names, --profile loads
# a profile whatever topology it was measured on, and both change the
# predictions; sizes take K/M/G; bad values are refused with a message and
# exit status 2.
#
# usage: test-info-replay.sh HMPI_INFO PROFILE SCRATCH_DIR
set -u
info=$1 profile=$2 dir=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$dir" && mkdir -p "$dir" || fail "cannot make $dir"

"$info" --topology --machine 2x8,l2=1M,l3=32M >"$dir/topo.txt" || fail "--topology --machine failed"
cat "$dir/topo.txt"
grep -q "p=16 s=2 q=8" "$dir/topo.txt" || fail "--machine 2x8 did not give 16 ranks in 2 domains of 8"
grep -q "L2 1 MiB, LLC 32 MiB" "$dir/topo.txt" || fail "--machine's cache sizes were not used"

"$info" --params --profile "$profile" >"$dir/params.txt" || fail "--params --profile failed"
cat "$dir/params.txt"
grep -q "model parameters from $profile" "$dir/params.txt" || fail "the profile was not loaded"
a=$(sed -n 's/^alpha\.a //p' "$profile")
grep -q "alpha  a = *$(printf '%.1f' "$a") ns" "$dir/params.txt" || fail "alpha.a $a of the profile not in use"

sizes=8,4096,1048576
m16="--machine 1x16,l2=2M,l3=300M"
# shellcheck disable=SC2086
"$info" --model allreduce $m16 --profile "$profile" --csv --sizes $sizes >"$dir/replay.csv" || fail "replay failed"
cat "$dir/replay.csv"
for b in 8 4096 1048576; do
  [ "$(awk -F, -v b=$b '$3 == b && $5 == 1' "$dir/replay.csv" | wc -l)" -eq 1 ] || fail "not one pick at $b bytes"
done
# shellcheck disable=SC2086
"$info" --model allreduce $m16 --csv --sizes $sizes >"$dir/default.csv" || fail "model without profile failed"
cmp -s "$dir/replay.csv" "$dir/default.csv" && fail "--profile did not change the predictions"
"$info" --model allreduce --machine 2x8,l2=2M,l3=300M --profile "$profile" --csv --sizes $sizes >"$dir/two.csv" ||
  fail "replay on 2x8 failed"
cmp -s "$dir/replay.csv" "$dir/two.csv" && fail "--machine did not change the predictions"

# Sizes take K/M/G like the rest: the same predictions as in bytes.
# shellcheck disable=SC2086
"$info" --model allreduce $m16 --profile "$profile" --csv --sizes 8,4K,1M >"$dir/scaled.csv" || fail "K/M sizes refused"
cmp -s "$dir/replay.csv" "$dir/scaled.csv" || fail "8,4K,1M did not give what 8,4096,1048576 gives"
for bad in 8,x 8,,16 -8; do
  "$info" --model allreduce --sizes "$bad" >"$dir/out.txt" 2>"$dir/err.txt" && fail "--sizes $bad accepted"
  grep -q "bad size" "$dir/err.txt" || fail "no message for --sizes $bad: $(cat "$dir/err.txt")"
done

# More ranks than the made-up machine's cores: the topology says so, and
# with a switch_handoff in the profile (format 12; the replayed profile,
# format 2, gets what format 3 added too) the 16-rank predictions grow,
# the 2-rank ones do not.
"$info" --topology -n 16 --machine 2x1 >"$dir/over.txt" || fail "--topology -n 16 --machine 2x1 failed"
grep -q "oversubscribed: up to 8 ranks share a CPU" "$dir/over.txt" || fail "16 ranks on 2 cores not oversubscribed"
"$info" --topology -n 2 --machine 2x1 >"$dir/over.txt" || fail "--topology -n 2 --machine 2x1 failed"
! grep -q "oversubscribed" "$dir/over.txt" || fail "2 ranks on 2 cores called oversubscribed"
sed -e 's/^format [0-9]*$/format 12/' "$profile" >"$dir/base.txt"
grep -q '^rewrite_line ' "$dir/base.txt" || printf 'rewrite_line 10\nsource_line 1.2\n' >>"$dir/base.txt"
cp "$dir/base.txt" "$dir/switch.txt" && echo "switch_handoff 2000" >>"$dir/switch.txt"
for np in 16 2; do
  for p in base switch; do
    "$info" --model barrier -n $np --machine 2x1 --profile "$dir/$p.txt" --csv >"$dir/$p-$np.csv" ||
      fail "--model barrier -n $np with $p.txt failed"
  done
done
cmp -s "$dir/base-16.csv" "$dir/switch-16.csv" && fail "switch_handoff did not change the 16-rank predictions"
cmp -s "$dir/base-2.csv" "$dir/switch-2.csv" || fail "switch_handoff changed a 2-rank prediction on 2 cores"

for bad in 0x4 4 2x8,l4=1M 2x8,l2=lots; do
  "$info" --model allreduce --machine "$bad" >"$dir/out.txt" 2>"$dir/err.txt" && fail "--machine $bad accepted"
  grep -q "bad --machine" "$dir/err.txt" || fail "no message for --machine $bad: $(cat "$dir/err.txt")"
done
printf 'format 2\ntopology_key x\nalpha.a -1\n' >"$dir/bad.txt"
for p in "$dir/missing.txt" "$dir/bad.txt"; do
  "$info" --params --profile "$p" >"$dir/out.txt" 2>"$dir/err.txt" && fail "--profile $p accepted"
  grep -q "$p" "$dir/err.txt" || fail "the message does not name $p: $(cat "$dir/err.txt")"
done
echo "info replay test passed"
