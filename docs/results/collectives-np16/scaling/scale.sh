#!/bin/bash
# How HMPI's small-message collectives scale with the rank count (2..16),
# every algorithm forced, for fitting per-peer synchronization costs.
# usage: .devbundle/scale.sh OUTDIR [local]
set -u
out=$1 mode=${2:-device}
cd "$(dirname "$0")/.." || exit 1
D=$PWD/.devbundle
T0=$(date +%s)
el() { echo "[t=$(($(date +%s) - T0))s] $*"; }
if [ "$mode" = device ]; then
    tar -C / --skip-old-files --keep-directory-symlink -xJf "$D/sys.tar.xz" && ldconfig
fi
export LD_LIBRARY_PATH=$D/build/lib
nps="2 4 8 16" ctime=60 total=150
[ "$mode" = local ] && nps="2" total=60
el "calibrate"
timeout "$ctime" "$D/build/bin/hmpi-calibrate" --output "$out/profile.txt" >"$out/calibrate.log" 2>&1
el "calibrate rc=$?"
grep -E "alpha:|call overhead:" "$out/calibrate.log" | tail -2
pf=()
[ -s "$out/profile.txt" ] && pf=(--profile "$out/profile.txt")
for np in $nps; do
    left=$((total - ($(date +%s) - T0)))
    [ $left -gt 5 ] || break
    el "np $np (timeout $left s)"
    HMPI_BUILD=$D/build RUN_TIMEOUT=30 timeout "$left" bench/coll/run.sh --np "$np" --prebuilt "$D/pre" --impls hmpi \
        -c barrier,bcast,reduce,allreduce,gather,allgather --sizes 8,64,512,4K,32K --time-ms 3 --reps 3 --rounds 2 \
        "${pf[@]}" --out /tmp/s --tag "scale-np$np" >/dev/null 2>&1
    el "np $np rc=$?"
done
cd /tmp/s && tar -czf "$out/scale.tgz" scale-np*.csv scale-np*.model.csv scale-np*.notes 2>&1 | tail -2
el "done"
