#!/bin/bash
# stop 17, third call: calibrate with poll_line (flat barrier on 2..16
# ranks), then HMPI alone, default and every algorithm forced, 2 rounds,
# under that profile.
set -u
out=$1 np=16 rounds=2 sizes=(--min 8 --max 4M) ctime=70 btime=150
cd "$(dirname "$0")/.." || exit 1
D=$PWD/.devbundle
T0=$(date +%s)
el() { echo "[t=$(($(date +%s) - T0))s] $*"; }
[ "${2:-}" = local ] && np=2 rounds=1 sizes=(--sizes 8,4K) ctime=60 btime=60
export LD_LIBRARY_PATH=$D/build/lib
timeout $ctime "$D/build/bin/hmpi-calibrate" --output "$out/profile.txt" >"$out/calibrate.log" 2>&1
el "calibrate rc=$?"
grep -E "busy_step =|step_overhead =|poll_line|push_line =" "$out/calibrate.log" | tail -9
HMPI_BUILD=$D/build RUN_TIMEOUT=40 timeout $btime bench/coll/run.sh --np "$np" --prebuilt "$D/pre" --impls hmpi \
    "${sizes[@]}" --time-ms 4 --reps 3 --rounds "$rounds" --profile "$out/profile.txt" --out /tmp/r --tag "np$np-c" |
    grep -E "^# (wrote|load)|failed" | tail -6
el "main rc=$?"
cd /tmp/r && tar -czf "$out/np$np-stop17c.tgz" ./*-c.csv ./*-c.notes ./*-c.model.csv 2>&1 | tail -2
el "done"
