#!/bin/bash
# stop 17, second call: three more rounds of the side-by-side run under the
# first call's profile, then 16 MiB Allreduce/Bcast/Reduce (2 rounds).
set -u
out=$1 np=16
cd "$(dirname "$0")/.." || exit 1
D=$PWD/.devbundle
T0=$(date +%s)
el() { echo "[t=$(($(date +%s) - T0))s] $*"; }
tar -C / --skip-old-files --keep-directory-symlink -xJf "$D/sys.tar.xz" && ldconfig
export LD_LIBRARY_PATH=$D/build/lib
pf=(--profile docs/results/collectives-np16/stop17/profile.txt)
HMPI_BUILD=$D/build RUN_TIMEOUT=40 timeout 330 bench/coll/run.sh --np "$np" --prebuilt "$D/pre" \
    --min 8 --max 4M --time-ms 4 --reps 3 --rounds 3 "${pf[@]}" --out /tmp/r --tag "np$np-b" |
    grep -E "^# (wrote|load)|failed" | tail -6
el "main rc=$?"
HMPI_BUILD=$D/build RUN_TIMEOUT=40 timeout 70 bench/coll/run.sh --np "$np" --prebuilt "$D/pre" -c allreduce,bcast,reduce \
    --sizes 16M --time-ms 20 --reps 3 --rounds 2 "${pf[@]}" --out /tmp/r --tag "np$np-16M" | grep -E "^# (wrote|load)|failed" | tail -3
el "16M rc=$?"
cd /tmp/r && tar -czf "$out/np$np-stop17b.tgz" ./*.csv ./*.notes 2>&1 | tail -2
el "done"
