#!/bin/sh
# ctest tools.calibrate_quick: `hmpi-calibrate --quick` writes a profile
# (creating its directory) that parses and is sane (`--check`: every value
# positive and finite, nearer links not dearer than farther ones, memory
# not cheaper than cache, measured on this machine's topology); the runtime
# loads it through HMPI_PROFILE without a notice, and falls back to the
# default with exactly one notice line when the named file is missing or
# malformed. A format 2 profile is used, with one notice. Profiles of two
# machine states combine (--combine) and load.
#
# usage: test-quick.sh HMPI_CALIBRATE HMPI_INFO SCRATCH_DIR [LIMIT_S]
# (LIMIT_S: how long --quick may take, default 60 s; more for sanitizer builds)
set -u
calibrate=$1 info=$2 dir=$3 limit=${4:-60}
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$dir" && mkdir -p "$dir" || fail "cannot make $dir"
profile=$dir/sub/dir/profile.txt

start=$(date +%s)
"$calibrate" --quick --output "$profile" 2>"$dir/progress.txt"
rc=$?
end=$(date +%s)
cat "$dir/progress.txt"
[ $rc -eq 0 ] || fail "hmpi-calibrate --quick exited $rc"
echo "hmpi-calibrate --quick took $((end - start)) s"
[ $((end - start)) -le "$limit" ] || fail "--quick took more than $limit s"
grep -q '^hmpi-calibrate: \[1/' "$dir/progress.txt" || fail "no numbered progress lines"
[ -f "$profile" ] || fail "no profile written at $profile"
cat "$profile"
"$calibrate" --check "$profile" || fail "the profile is not sane"
grep -q '^call_overhead ' "$profile" || fail "no call_overhead (measured with hmpi-call-overhead under hmpirun)"
grep -q '^rewrite_line ' "$profile" || fail "no rewrite_line"
grep -q '^source_line ' "$profile" || fail "no source_line"
# Ranks sharing a CPU (format 12): measured on every machine, positive.
grep -q '^switch_handoff [0-9]*\.*[0-9]*$' "$profile" || fail "no switch_handoff"
# The streaming fold of every core at once (format 15): measured, or said
# why not (one core, or --quick on caches too large to step past quickly).
grep -q '^fold_stream_line [0-9]*\.*[0-9]*$' "$profile" ||
  grep -q 'fold_stream_line: not measured (' "$dir/progress.txt" || fail "no fold_stream_line and no reason"
grep -q 'switch_handoff = [0-9.]* ns per handoff' "$dir/progress.txt" || fail "no switch_handoff progress line"
# The one-reader sweeps split at the L2 (format 18): every link's b_l2,
# c_l2, r_l2, or a note saying why not (--quick's sweeps are too coarse on
# most machines).
grep -q '^alpha\.b_l2 [0-9.]*$' "$profile" || grep -q 'no split at the L2' "$dir/progress.txt" ||
  fail "no b_l2 and no reason"
# The slices ring split at the L2 (format 19): R_slices_l2, or a note why not.
grep -q '^alpha\.R_slices_l2 [0-9.]*$' "$profile" || grep -q 'no split at the L2 in the slices ring' "$profile" ||
  grep -q 'congestion skipped' "$dir/progress.txt" || fail "no R_slices_l2 and no reason"
# Two cores or more: pushing ring and the 2-rank barrier round; the
# inline copy-in's rewrite_line measured (across domains where each has one
# core), not the built-in default's.
if [ "$(nproc)" -ge 2 ]; then
  grep -q '^# rewrite_line: [0-9]* reader(s) of core' "$profile" || fail "rewrite_line not measured"
  ! grep -q 'rewrite_line, source_line: one core, not measured' "$profile" || fail "rewrite_line left at the default"
  # Format 13: the first rewrite's round trip, with rewrite_line.
  grep -q '^rewrite_first [0-9]*\.*[0-9]*$' "$profile" || fail "no rewrite_first"
  # Format 14: an inline read's round trip after the flag.
  grep -q '^inline_read_first [0-9]*\.*[0-9]*$' "$profile" || fail "no inline_read_first"
  # The fold rewrite's knee comes with fold_rewrite_line where the L2 is
  # known (the progress names the knee) and that was written.
  if grep -q '^fold_rewrite_line ' "$profile" && grep -q 'knee [0-9]* lines: a third of the L2' "$dir/progress.txt"; then
    grep -q '^fold_rewrite_knee ' "$profile" || fail "fold_rewrite_line without its knee"
    grep -q '^fold_rewrite_line_beyond ' "$profile" || fail "fold_rewrite_knee without fold_rewrite_line_beyond"
  fi
  grep -q '^push_line ' "$profile" || fail "no push_line"
  # Format 16: the same ring past the L2, or why not.
  grep -q '^push_line_beyond [0-9]*\.*[0-9]*$' "$profile" ||
    grep -q 'push_line_beyond: not measured (' "$dir/progress.txt" || fail "no push_line_beyond and no reason"
  # Format 20: the fold with its pushes in the L2, against the fold alone
  # (absent where hidden under the fold: then the note says how measured).
  grep -q '^push_held_line [0-9]*\.*[0-9]*$' "$profile" || grep -q '^# push_held_line: ' "$profile" ||
    fail "no push_held_line and no note"
  # Format 21: non-temporal copies inside the cache, both terms or the
  # reason there are none.
  { grep -q '^nt_copy_from [0-9]*$' "$profile" && grep -q '^nt_copy_ratio 0\.[0-9]*$' "$profile"; } ||
    grep -q 'nt_copy_from: .*not written\|nt_copy_from: not measured (' "$dir/progress.txt" ||
    fail "neither nt_copy_from with nt_copy_ratio nor the reason they are absent"
  # Format 17: every core's copy-in at once and the counter's claims.
  grep -q '^rewrite_all_line [0-9]*\.*[0-9]*$' "$profile" || fail "no rewrite_all_line"
  grep -q '^claim_line [0-9]*\.*[0-9]*$' "$profile" || fail "no claim_line"
  # The speed check ran (the handoff again at the end); a change it saw is
  # in the profile as a note.
  grep -q 'speed check: .* flag handoff [0-9.]* ns at the start, [0-9.]* ns now' "$dir/progress.txt" ||
    fail "no speed check at the end"
  if grep -q 'warning: speed check' "$dir/progress.txt"; then
    grep -q '^# speed check: the machine changed speed' "$profile" || fail "a speed change not noted in the profile"
  fi
  # Not written, with its reason, when the chase is no dearer or when every
  # direct round trip came out below the handoff measured earlier (a
  # machine that changed speed during the calibration).
  grep -q '^peer_args ' "$profile" || grep -q 'peer_args: the chased round trip no dearer' "$profile" ||
    grep -q 'peer_args: the round trip came out shorter than the flag handoff .* not written' "$profile" ||
    fail "neither peer_args nor the reason it is absent"
  grep -q '^step_overhead ' "$profile" || grep -q 'step_overhead: a 2-rank round no dearer' "$profile" ||
    fail "neither step_overhead nor the reason it is absent"
  grep -q '^fold_rewrite_line ' "$profile" || grep -q 'fold_rewrite_line: a fold into lines others read no dearer' "$profile" ||
    fail "neither fold_rewrite_line nor the reason it is absent"
  { grep -q '^copy_rewrite_bytes ' "$profile" && grep -q '^copy_rewrite_line ' "$profile"; } ||
    grep -q 'copy_rewrite: no copy size dearer' "$profile" || fail "neither copy_rewrite nor the reason it is absent"
fi
# The reduction into a third buffer, on every link (R_slices: format 10).
for k in r R r_mem R_mem R_slices R_slices_mem; do
  grep -q "^alpha\.$k [0-9]" "$profile" || fail "no alpha.$k"
  grep -q "^beta\.$k [0-9]" "$profile" || fail "no beta.$k"
done
# The cache one core keeps: measured, or the reason it is not.
grep -q '^core_cache_bytes [1-9][0-9]*$' "$profile" || grep -q '^# core_cache_bytes: .*not written' "$profile" ||
  fail "neither core_cache_bytes nor the reason it is absent"

# The runtime uses it, silently.
HMPI_PROFILE=$profile "$info" --params >"$dir/params.txt" 2>"$dir/params.err" || fail "hmpi-info --params failed"
cat "$dir/params.txt"
grep -q "model parameters from $profile" "$dir/params.txt" || fail "the runtime did not load $profile"
! grep -q notice "$dir/params.err" || fail "a notice although the profile was loaded: $(cat "$dir/params.err")"

# Missing or malformed: the default, with one notice line.
printf 'format 1\ntopology_key x\nalpha.a -1\n' >"$dir/bad.txt"
for p in "$dir/missing.txt" "$dir/bad.txt"; do
  HMPI_PROFILE=$p "$info" --params >"$dir/params.txt" 2>"$dir/params.err" || fail "hmpi-info --params failed"
  cat "$dir/params.err"
  grep -q "model parameters from built-in default" "$dir/params.txt" || fail "no fall-back to the default for $p"
  [ "$(grep -c 'notice: no model profile' "$dir/params.err")" -eq 1 ] || fail "not exactly one notice for $p"
done
"$calibrate" --check "$dir/bad.txt" && fail "--check accepted a malformed profile"

# A format 2 profile (before rewrite_line and source_line) is used, with
# one notice saying those terms are left out.
sed -e "s/^format \([3-9]\|[12][0-9]\)$/format 2/" -e "/^push_held_line /d" \
    -e "/^nt_copy_from /d" -e "/^nt_copy_ratio /d" \
    -e "/_l2 /d" -e "/^near_line /d" -e "/^near_lines /d" -e "/^slice_near_line /d" -e "/^slice_near_lines /d" \
    -e "/^rewrite_all_line /d" -e "/^claim_line /d" \
    -e "/^push_line_beyond /d" -e "/^inline_read_first /d" -e "/^fold_stream_line /d" \
    -e "/^fold_rewrite_line /d" -e "/^fold_rewrite_knee /d" -e "/^rewrite_first /d" \
    -e "/^fold_rewrite_line_beyond /d" -e "/^copy_rewrite_/d" -e "/\.R_slices /d" \
    -e "/\.R_slices_mem /d" -e "/^rewrite_knee /d" -e "/^rewrite_line_beyond /d" -e "/\.r /d" \
    -e "/\.R /d" -e "/\.r_mem /d" -e "/\.R_mem /d" -e "/^rewrite_line /d" -e "/^source_line /d" \
    -e "/^busy_step /d" -e "/^push_line /d" -e "/^step_overhead /d" -e "/^poll_line /d" \
    -e "/^peer_args /d" -e "/^core_cache_bytes /d" -e "/^switch_handoff /d" "$profile" >"$dir/format2.txt"
HMPI_PROFILE=$dir/format2.txt "$info" --params >"$dir/params.txt" 2>"$dir/params.err" || fail "hmpi-info --params failed"
cat "$dir/params.err"
grep -q "model parameters from $dir/format2.txt" "$dir/params.txt" || fail "the format 2 profile was not used"
grep -q "not in this profile" "$dir/params.txt" || fail "hmpi-info does not say the terms are missing"
[ "$(grep -c 'notice: model profile .* is format 2' "$dir/params.err")" -eq 1 ] || fail "not exactly one format 2 notice"

# A profile of another topology is not sane here (and not used).
sed 's/^topology_key .*/topology_key other-machine/' "$profile" >"$dir/other.txt"
"$calibrate" --check "$dir/other.txt" && fail "--check accepted another machine's profile"
HMPI_PROFILE=$dir/other.txt "$info" --params >"$dir/params.txt" 2>"$dir/params.err"
grep -q "other-machine" "$dir/params.err" || fail "the notice does not name the other topology"
# Two machine states in one profile (--combine): the second state here
# the same calibration with every handoff 5x dearer. It checks, loads
# silently, and hmpi-info shows either state's predictions.
awk '$1 ~ /\.a$/ { print $1, $2 * 5; next } { print }' "$profile" >"$dir/slower.txt"
"$calibrate" --combine "$profile" "$dir/slower.txt" --output "$dir/states.txt" || fail "--combine failed"
grep -q '^state2\.alpha\.a [0-9]' "$dir/states.txt" || fail "no state2 lines in the combined profile"
"$calibrate" --check "$dir/states.txt" >"$dir/check.txt" || fail "the combined profile is not sane"
grep -q 'state2: alpha a=' "$dir/check.txt" || fail "--check does not show state 2"
HMPI_PROFILE=$dir/states.txt "$info" --params >"$dir/params.txt" 2>"$dir/params.err" || fail "hmpi-info --params failed"
! grep -q notice "$dir/params.err" || fail "a notice although the combined profile was loaded: $(cat "$dir/params.err")"
grep -q "machine's state 2" "$dir/params.txt" || fail "hmpi-info --params does not show state 2"
"$info" --model allgather -n 2 --sizes 1M --profile "$dir/states.txt" --state 2 >"$dir/model.txt" ||
  fail "hmpi-info --state 2 failed"
grep -q 'describes 2 machine states; predictions of state 2' "$dir/model.txt" || fail "no state 2 predictions"
"$info" --model allgather -n 2 --profile "$dir/states.txt" --state 3 2>/dev/null && fail "--state 3 accepted"
"$calibrate" --combine "$profile" "$dir/other.txt" --output "$dir/mixed.txt" 2>/dev/null &&
  fail "--combine accepted profiles of two topologies"
"$calibrate" --combine "$dir/states.txt" "$profile" --output "$dir/nested.txt" 2>/dev/null &&
  fail "--combine accepted a profile that has states already"
echo "calibrate test passed"
