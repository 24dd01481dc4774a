#!/bin/bash
# One-shot 16-core session, stop 17: calibrate (profile format 5: push_line,
# step_overhead), then the side-by-side run of the twelve collectives with
# every algorithm forced (2 rounds), then Alltoall with --read-results.
# usage: .devbundle/dev17.sh OUTDIR [local]
set -u
out=$1 mode=${2:-device} np=16
cd "$(dirname "$0")/.." || exit 1
D=$PWD/.devbundle
T0=$(date +%s)
el() { echo "[t=$(($(date +%s) - T0))s] $*"; }
left() { echo $(($1 - ($(date +%s) - T0))); }
rounds=2 sizes=(--min 8 --max 4M) total=${TOTAL:-540} ctime=110
if [ "$mode" = device ]; then
    tar -C / --skip-old-files --keep-directory-symlink -xJf "$D/sys.tar.xz" && ldconfig
else
    np=2 rounds=1 sizes=(--sizes 8,4K) total=300 ctime=60
fi
export LD_LIBRARY_PATH=$D/build/lib
el "calibrate"
timeout $ctime "$D/build/bin/hmpi-calibrate" --output "$out/profile.txt" >"$out/calibrate.log" 2>&1
el "calibrate rc=$?"
grep -E "alpha:|call overhead:|busy_step|step_overhead|push_line =" "$out/calibrate.log" | tail -9
el "barriers"
for alg in flat tree dissemination; do
    for t in 2 4 8 $np; do
        [ "$t" -le "$np" ] || continue
        r=$(env "HMPI_BARRIER_ALGORITHM=$alg" timeout 20 "$D/build/bin/hmpirun" -np "$t" --bind-to core "$D/build/bin/hmpi-call-overhead" 2>&1 | awk '/barrier_round_ns/ {print $2}')
        echo "barrier,$alg,$t,$r"
    done
done | tee "$out/barriers.csv"
pf=()
[ -s "$out/profile.txt" ] && pf=(--profile "$out/profile.txt")
el "main run"
HMPI_BUILD=$D/build RUN_TIMEOUT=40 timeout "$(left $((total - 70)))" bench/coll/run.sh --np "$np" --prebuilt "$D/pre" \
    "${sizes[@]}" --time-ms 4 --reps 3 --rounds "$rounds" "${pf[@]}" --out /tmp/r --tag "np$np" |
    grep -E "^# (wrote|load)|failed" | tail -6
el "main rc=$?"
HMPI_BUILD=$D/build RUN_TIMEOUT=30 timeout "$(left $((total - 15)))" bench/coll/run.sh --np "$np" --prebuilt "$D/pre" -c alltoall \
    --min 256 --max 1M --time-ms 4 --reps 3 --rounds 1 --read-results "${pf[@]}" --out /tmp/r --tag "np$np-read" |
    grep -E "^# (wrote|load)|failed" | tail -3
el "read rc=$?"
cd /tmp/r && tar -czf "$out/np$np-stop17.tgz" ./*.csv ./*.notes 2>&1 | tail -2
el "done"
