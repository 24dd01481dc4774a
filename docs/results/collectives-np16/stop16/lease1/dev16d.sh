#!/bin/bash
# One-shot 16-core session, stop 16: calibrate (now with poll_peer), validate
# the new fan_in barrier and inline_reduce_bcast Allreduce at 16 ranks, the
# side-by-side run of seven collectives with every HMPI algorithm forced,
# the model's picks again without poll_peer (HMPI's default only), the
# barrier alone over more rounds, and Alltoall/Gather/Scatter with
# --read-results.
# usage: .devbundle/dev16d.sh OUTDIR [local]
set -u
out=$1 mode=${2:-device} np=16
cd "$(dirname "$0")/.." || exit 1
D=$PWD/.devbundle
T0=$(date +%s)
el() { echo "[t=$(($(date +%s) - T0))s] $*"; }
left() { echo $(($1 - ($(date +%s) - T0))); }
rounds=2 sizes=(--min 8 --max 4M) total=${TOTAL:-500} vsizes=8,64,4K,64K
if [ "$mode" = device ]; then
    tar -C / --skip-old-files --keep-directory-symlink -xJf "$D/sys.tar.xz" && ldconfig
else
    np=2 rounds=1 sizes=(--sizes 8,4K) total=200 vsizes=8
fi
export LD_LIBRARY_PATH=$D/build/lib
R=/tmp/r16
mkdir -p $R
run() { HMPI_BUILD=$D/build bench/coll/run.sh --np "$np" --prebuilt "$D/pre" --out $R "$@"; }
el "calibrate"
timeout 70 "$D/build/bin/hmpi-calibrate" --output "$out/profile.txt" >"$out/calibrate.log" 2>&1
el "calibrate rc=$?"
grep -E "alpha:|call overhead:|rewrite_line =|source_line =|poll_peer" "$out/calibrate.log" | tail -12
pf=() nopp=()
if [ -s "$out/profile.txt" ]; then
    pf=(--profile "$out/profile.txt")
    sed -e '/^poll_peer /d' "$out/profile.txt" >"$out/profile-nopp.txt"
    nopp=(--profile "$out/profile-nopp.txt")
fi
el "validate"
RUN_TIMEOUT=60 timeout "$(left 120)" bash -c "$(declare -f run); D=$D np=$np R=$R; run --validate-only -c barrier,allreduce --sizes $vsizes ${pf[*]} --tag val" >"$out/validate.log" 2>&1
el "validate rc=$?"
grep -E "validation:|FAIL|fail" "$out/validate.log" | head -5
el "main run"
RUN_TIMEOUT=40 timeout "$(left $((total - 150)))" bash -c "$(declare -f run); D=$D np=$np R=$R; run -c barrier,allreduce,allgather,reduce_scatter,alltoall,bcast,reduce ${sizes[*]} --time-ms 4 --reps 3 --rounds $rounds ${pf[*]} --tag np$np" |
    grep -E "^# (wrote|load)|failed" | tail -4
el "main done; model without poll_peer (HMPI default only)"
RUN_TIMEOUT=30 timeout "$(left $((total - 110)))" bash -c "$(declare -f run); D=$D np=$np R=$R; run -c barrier,allreduce,allgather,reduce_scatter,alltoall,bcast,reduce ${sizes[*]} --time-ms 4 --reps 3 --rounds $rounds --impls hmpi --no-algorithms ${nopp[*]} --tag np$np-nopp" |
    grep -E "^# wrote|failed" | tail -3
el "barrier alone"
RUN_TIMEOUT=30 timeout "$(left $((total - 90)))" bash -c "$(declare -f run); D=$D np=$np R=$R; run -c barrier --time-ms 4 --reps 3 --rounds 6 ${pf[*]} --tag np$np-barrier" |
    grep -E "^# wrote|failed" | tail -3
el "read-results"
RUN_TIMEOUT=30 timeout "$(left $((total - 10)))" bash -c "$(declare -f run); D=$D np=$np R=$R; run -c alltoall,gather,scatter ${sizes[*]} --read-results --time-ms 4 --reps 3 --rounds $rounds ${pf[*]} --tag np$np-read" |
    grep -E "^# wrote|failed" | tail -3
el "pack"
cd $R && tar -czf "$out/np$np-stop16.tgz" ./*.csv ./*.notes ./*.log 2>&1 | tail -2
el "done"
