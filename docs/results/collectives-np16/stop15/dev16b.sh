#!/bin/bash
# One-shot 16-core session, stop 15: calibrate (rewrite_line, source_line at
# 16 cores), HMPI vs Open MPI vs MPICH with every HMPI algorithm forced
# (new build: staggered commutative folds, flag polls that read every flag),
# then the same HMPI algorithms with the previous build (base/) for an A/B
# on the machine, and a validation of the changed collectives.
# usage: .devbundle/dev16b.sh OUTDIR [local]
set -u
out=$1 mode=${2:-device} np=16
cd "$(dirname "$0")/.." || exit 1
D=$PWD/.devbundle
T0=$(date +%s)
el() { echo "[t=$(($(date +%s) - T0))s] $*"; }
left() { echo $(($1 - ($(date +%s) - T0))); }
el "host: $(uname -r) $(nproc) cpus"
lscpu | grep -E "Model name|L2|L3|NUMA node\(s\)" | head -4
rounds=3 bigr=2 abr=2 sizes=(--min 8 --max 4M)
if [ "$mode" = device ]; then
    tar -C / --skip-old-files --keep-directory-symlink -xJf "$D/sys.tar.xz" && ldconfig
    el "extracted: $?"
else
    np=2 rounds=1 bigr=1 abr=1 sizes=(--sizes 8,4K,256K)
fi
export LD_LIBRARY_PATH=$D/build/lib
el "calibrate"
timeout 70 "$D/build/bin/hmpi-calibrate" --output "$out/profile-np$np.txt" >"$out/calibrate.log" 2>&1
el "calibrate rc=$?"
grep -E "alpha:|beta:|call overhead:|rewrite|source" "$out/calibrate.log" | tail -8
pf=()
[ -s "$out/profile-np$np.txt" ] && pf=(--profile "$out/profile-np$np.txt")
el "main run"
HMPI_BUILD=$D/build RUN_TIMEOUT=40 timeout "$(left 330)" bench/coll/run.sh --np "$np" --prebuilt "$D/pre" \
    "${sizes[@]}" --time-ms 4 --reps 3 --rounds "$rounds" "${pf[@]}" --out /tmp/r --tag "np$np" |
    grep -E "^# (wrote|load)|failed|FAIL" | tail -8
el "main rc=$?; 16M"
HMPI_BUILD=$D/build RUN_TIMEOUT=30 timeout 45 bench/coll/run.sh --np "$np" --prebuilt "$D/pre" \
    -c allreduce,bcast,reduce --sizes 16M --time-ms 20 --reps 3 --rounds "$bigr" "${pf[@]}" \
    --out /tmp/r --tag "np$np-16M" | grep -E "^# wrote|failed" | tail -3
el "16M rc=$?; base A/B"
LD_LIBRARY_PATH=$D/base/lib HMPI_BUILD=$D/base RUN_TIMEOUT=30 timeout "$(left 455)" bench/coll/run.sh --np "$np" \
    --prebuilt "$D/pre" --impls hmpi -c barrier,reduce,allreduce,reduce_scatter_block,reduce_scatter \
    "${sizes[@]}" --time-ms 4 --reps 3 --rounds "$abr" "${pf[@]}" --out /tmp/r --tag "base-np$np" |
    grep -E "^# wrote|failed" | tail -3
el "base rc=$?; validate"
HMPI_BUILD=$D/build RUN_TIMEOUT=20 timeout "$(left 495)" bench/coll/run.sh --np "$np" --prebuilt "$D/pre" \
    --impls hmpi -c barrier,reduce,allreduce,reduce_scatter_block,reduce_scatter --sizes 8,4K,64K,1M \
    --validate-only --out /tmp/r --tag "val-np$np" | grep -E "validation|FAILED" | tail -6
el "validate rc=$?"
cd /tmp/r && find raw -name "*.err" -size +0 | head -50 >/tmp/errs.txt
tar -czf "$out/np$np.tgz" ./*.csv ./*.notes ./*.log -T /tmp/errs.txt 2>&1 | tail -2
el "done"
