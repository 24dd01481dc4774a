#!/bin/bash
# Stop 25, fourth call: the side-by-side run again with the library whose
# blocking collectives restart the spin/yield/park clock at every wait they
# get past (2 rounds, rotating root, the first call's profile), then 16 MiB.
set -u
out=$1 mode=${2:-device} np=16
cd "$(dirname "$0")/.." || exit 1
D=$PWD/.devbundle
T0=$(date +%s)
el() { echo "[t=$(($(date +%s) - T0))s] $*"; }
left() { echo $(($1 - ($(date +%s) - T0))); }
total=${TOTAL:-230} rounds=2 sizes=(--min 8 --max 4M) big=(--sizes 16M)
if [ "$mode" = device ]; then tar -C / --skip-old-files --keep-directory-symlink -xJf "$D/sys.tar.xz" && ldconfig
else np=2 rounds=1 sizes=(--sizes 8,1M) big=(--sizes 64K); fi
export LD_LIBRARY_PATH=$D/build/lib
pf=(--profile "$D/profile16.txt")
save() { (cd /tmp/r 2>/dev/null && tar -czf "$out/np$np-stop25c.tgz" ./*.csv ./*.notes 2>/dev/null); }
HMPI_BUILD=$D/build RUN_TIMEOUT=45 timeout "$(left $((total - 35)))" bench/coll/run.sh --np "$np" --prebuilt "$D/pre" \
    "${sizes[@]}" --time-ms 4 --reps 3 --rounds "$rounds" --root rotate "${pf[@]}" --out /tmp/r --tag "np$np-c" |
    grep -E "^# (wrote|load)|failed" | tail -4
el "main rc=$?"
save
HMPI_BUILD=$D/build RUN_TIMEOUT=30 timeout "$(left $((total - 3)))" bench/coll/run.sh --np "$np" --prebuilt "$D/pre" -c allreduce,bcast,reduce \
    "${big[@]}" --time-ms 20 --reps 3 --rounds 2 "${pf[@]}" --out /tmp/r --tag "np$np-c16M" | grep -E "^# (wrote|load)|failed" | tail -3
el "16M rc=$?"
save
