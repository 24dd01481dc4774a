#!/bin/bash
# One-shot 16-core session, stop 16, third lease: calibrate with busy_step
# (HMPI's dissemination barrier on 2..16 ranks), then Allreduce side by side
# with every algorithm forced (3 rounds) under the new profile, and HMPI's
# default again under the same profile without busy_step.
# usage: .devbundle/dev16f.sh OUTDIR [local]
set -u
out=$1 mode=${2:-device} np=16
cd "$(dirname "$0")/.." || exit 1
D=$PWD/.devbundle
T0=$(date +%s)
el() { echo "[t=$(($(date +%s) - T0))s] $*"; }
rounds=3 sizes=(--min 8 --max 4M)
if [ "$mode" = device ]; then
    tar -C / --skip-old-files --keep-directory-symlink -xJf "$D/sys.tar.xz" && ldconfig
else
    np=2 rounds=1 sizes=(--sizes 8,4K)
fi
export LD_LIBRARY_PATH=$D/build/lib
el "calibrate"
timeout 70 "$D/build/bin/hmpi-calibrate" --output "$out/profile.txt" >"$out/calibrate.log" 2>&1
el "calibrate rc=$?"
grep -E "alpha:|call overhead:|busy_step" "$out/calibrate.log" | tail -9
sed -e '/^busy_step /d' "$out/profile.txt" >"$out/profile-nobusy.txt"
el "allreduce"
HMPI_BUILD=$D/build RUN_TIMEOUT=40 timeout 100 bench/coll/run.sh --np "$np" --prebuilt "$D/pre" -c allreduce,reduce_scatter \
    "${sizes[@]}" --time-ms 4 --reps 3 --rounds "$rounds" --profile "$out/profile.txt" --out "$out" --tag "np$np" |
    grep -E "^# wrote|failed" | tail -3
el "default without busy_step"
HMPI_BUILD=$D/build RUN_TIMEOUT=30 timeout 40 bench/coll/run.sh --np "$np" --prebuilt "$D/pre" -c allreduce,reduce_scatter \
    "${sizes[@]}" --time-ms 4 --reps 3 --rounds "$rounds" --impls hmpi --no-algorithms --profile "$out/profile-nobusy.txt" \
    --out "$out" --tag "np$np-nobusy" | grep -E "^# wrote|failed" | tail -3
rm -rf "$out/bin" "$out/raw" "$out"/np*/ 2>/dev/null
el "done"
