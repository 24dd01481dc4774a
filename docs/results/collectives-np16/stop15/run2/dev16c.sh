#!/bin/bash
# One-shot 16-core session, stop 15, second run: the same bundle as
# dev16b.sh (HEAD's library), calibrated again, the side-by-side timing
# repeated (4 rounds) to check the first run's figures.
# usage: .devbundle/dev16c.sh OUTDIR [local]
set -u
out=$1 mode=${2:-device} np=16
cd "$(dirname "$0")/.." || exit 1
D=$PWD/.devbundle
T0=$(date +%s)
el() { echo "[t=$(($(date +%s) - T0))s] $*"; }
left() { echo $(($1 - ($(date +%s) - T0))); }
rounds=4 sizes=(--min 8 --max 4M) total=${TOTAL:-370}
if [ "$mode" = device ]; then
    tar -C / --skip-old-files --keep-directory-symlink -xJf "$D/sys.tar.xz" && ldconfig
else
    np=2 rounds=1 sizes=(--sizes 8,4K,256K) total=90
fi
export LD_LIBRARY_PATH=$D/build/lib
el "calibrate"
timeout 50 "$D/build/bin/hmpi-calibrate" --output "$out/profile2-np$np.txt" >"$out/calibrate2.log" 2>&1
el "calibrate rc=$?"
grep -E "alpha:|call overhead:|rewrite_line =|source_line =" "$out/calibrate2.log" | tail -5
pf=()
[ -s "$out/profile2-np$np.txt" ] && pf=(--profile "$out/profile2-np$np.txt")
el "main run"
HMPI_BUILD=$D/build RUN_TIMEOUT=40 timeout "$(left $((total - 35)))" bench/coll/run.sh --np "$np" --prebuilt "$D/pre" \
    "${sizes[@]}" --time-ms 4 --reps 3 --rounds "$rounds" "${pf[@]}" --out /tmp/r2 --tag "np$np" |
    grep -E "^# (wrote|load)|failed" | tail -6
el "main rc=$?; 16M"
HMPI_BUILD=$D/build RUN_TIMEOUT=25 timeout "$(left "$total")" bench/coll/run.sh --np "$np" --prebuilt "$D/pre" \
    -c allreduce,bcast,reduce --sizes 16M --time-ms 20 --reps 3 --rounds 2 "${pf[@]}" \
    --out /tmp/r2 --tag "np$np-16M" | grep -E "^# wrote|failed" | tail -3
el "16M rc=$?"
cd /tmp/r2 && tar -czf "$out/np$np-run2.tgz" ./*.csv ./*.notes ./*.log 2>&1 | tail -2
el "done"
