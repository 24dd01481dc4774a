#!/bin/bash
# Stop 25, one-shot 16-core session: calibrate (profile format 8: the
# third-buffer costs r, R, r_mem, R_mem), then the side-by-side run of the
# twelve collectives with every algorithm forced (rotating root, 3 rounds),
# then 16 MiB Allreduce/Bcast/Reduce, then more HMPI-only rounds while time is left.
# usage: .devbundle/dev25.sh OUTDIR [local]
set -u
out=$1 mode=${2:-device} np=16
cd "$(dirname "$0")/.." || exit 1
D=$PWD/.devbundle
T0=$(date +%s)
el() { echo "[t=$(($(date +%s) - T0))s] $*"; }
left() { echo $(($1 - ($(date +%s) - T0))); }
rounds=3 sizes=(--min 8 --max 4M) total=${TOTAL:-520} ctime=120 big=(--sizes 16M)
if [ "$mode" = device ]; then
    el "host: $(uname -r); $(nproc) cpus; $(lscpu | grep 'Model name' | sed 's/  */ /g')"
    lscpu | grep -E "L2|L3|NUMA node\(s\)"
    el "preexisting: $(command -v mpirun.openmpi mpiexec.mpich | tr '\n' ' ')"
    tar -C / --skip-old-files --keep-directory-symlink -xJf "$D/sys.tar.xz" && ldconfig
    el "extracted: $?"
else
    np=2 rounds=1 sizes=(--sizes 8,4K) total=300 ctime=60 big=(--sizes 64K)
fi
export LD_LIBRARY_PATH=$D/build/lib
for b in "$D"/pre/* "$D"/build/bin/*; do
    ldd "$b" 2>&1 | grep "not found" | sed "s|^|missing for $b: |"
done
save() { (cd /tmp/r 2>/dev/null && tar -czf "$out/np$np-stop25.tgz" ./*.csv ./*.notes 2>/dev/null); }
el "calibrate"
timeout $ctime "$D/build/bin/hmpi-calibrate" --output "$out/profile.txt" >"$out/calibrate.log" 2>&1
el "calibrate rc=$?"
grep -E "alpha:|call overhead:|step_overhead|push_line =|reduce3|r_mem|R =" "$out/calibrate.log" | tail -12
pf=()
[ -s "$out/profile.txt" ] && pf=(--profile "$out/profile.txt")
LD_LIBRARY_PATH=$D/build/lib "$D/build/bin/hmpi-info" --params ${pf[@]:+--profile "$out/profile.txt"} 2>&1 | head -40 >"$out/params.txt"
el "main run"
HMPI_BUILD=$D/build RUN_TIMEOUT=45 timeout "$(left $((total - 120)))" bench/coll/run.sh --np "$np" --prebuilt "$D/pre" \
    "${sizes[@]}" --time-ms 4 --reps 3 --rounds "$rounds" --root rotate "${pf[@]}" --out /tmp/r --tag "np$np" |
    grep -E "^# (wrote|load|note)|failed|skipped" | tail -8
el "main rc=$?"
save
HMPI_BUILD=$D/build RUN_TIMEOUT=40 timeout "$(left $((total - 80)))" bench/coll/run.sh --np "$np" --prebuilt "$D/pre" -c allreduce,bcast,reduce \
    "${big[@]}" --time-ms 20 --reps 3 --rounds 2 "${pf[@]}" --out /tmp/r --tag "np$np-16M" | grep -E "^# (wrote|load)|failed" | tail -3
el "16M rc=$?"
save
if [ "$(left 0)" -gt 150 ]; then
    HMPI_BUILD=$D/build RUN_TIMEOUT=40 timeout "$(left 20)" bench/coll/run.sh --np "$np" --prebuilt "$D/pre" --impls hmpi \
        "${sizes[@]}" --time-ms 4 --reps 3 --rounds 1 --root rotate "${pf[@]}" --out /tmp/r --tag "np$np-hmpi" |
        grep -E "^# (wrote|load)|failed" | tail -3
    el "hmpi-only rc=$?"
fi
save
el "done"
