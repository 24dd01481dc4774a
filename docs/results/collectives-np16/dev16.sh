#!/bin/bash
# One-shot 16-core session: install the bundled MPI runtimes, calibrate HMPI,
# validate and time the collectives against Open MPI and MPICH.
# usage: .devbundle/dev16.sh NP OUTDIR [local]
# (Run as recorded for the validated run; the timed run changed --sizes to
# --min 8 --max 4M, dropped --validate, and used 4 rounds and 3 for 16 MiB.)
# .devbundle held the prebuilt executables (pre/), a stripped build/ and
# sys.tar.xz, the Open MPI and MPICH packages files of the 2-core machine.
set -u
np=$1 out=$2 mode=${3:-device}
cd "$(dirname "$0")/.." || exit 1
D=$PWD/.devbundle
T0=$(date +%s)
el() { echo "[t=$(($(date +%s) - T0))s] $*"; }
el "host: $(uname -a)"
nproc
lscpu | grep -E "Model name|Socket|Core|Thread|NUMA|L1d|L2|L3|MHz" | head -14
free -g | head -2
df -h /dev/shm /tmp 2>&1 | tail -2
head -2 /etc/os-release
el "preexisting: $(ls -d /usr/lib/x86_64-linux-gnu/openmpi 2>&1 | head -1); $(command -v mpirun.openmpi mpiexec.mpich | tr '\n' ' ')"
if [ "$mode" = device ]; then
    tar -C / --skip-old-files --keep-directory-symlink -xJf "$D/sys.tar.xz" && ldconfig
    el "extracted: $?"
fi
export LD_LIBRARY_PATH=$D/build/lib
for b in "$D"/pre/* "$D"/build/bin/* /usr/bin/orterun /usr/bin/mpiexec.hydra /usr/bin/hydra_pmi_proxy; do
    ldd "$b" 2>&1 | grep "not found" | sed "s|^|missing for $b: |"
done
el "smoke"
timeout 30 "$D/build/bin/hmpirun" -np "$np" --bind-to core "$D/pre/coll_bench-hmpi" -c allreduce,bcast --sizes 8,1M --time-ms 2 --reps 1 2>&1 | tail -3
timeout 40 env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun.openmpi --allow-run-as-root --bind-to core -np "$np" \
    "$D/pre/coll_bench-ompi" -c allreduce,bcast --sizes 8,1M --time-ms 2 --reps 1 2>&1 | tail -3
timeout 40 mpiexec.mpich -n "$np" -bind-to core "$D/pre/coll_bench-mpich" -c allreduce,bcast --sizes 8,1M --time-ms 2 --reps 1 2>&1 | tail -3
el "calibrate"
ctime=130 total=530 gtime=60 rounds=3
[ "$mode" = local ] && ctime=60 total=200 gtime=30 rounds=1
timeout "$ctime" "$D/build/bin/hmpi-calibrate" --output "$out/profile-np$np.txt" >"$out/calibrate.log" 2>&1
el "calibrate rc=$?"
grep -E "alpha:|beta:|call overhead:|bytes/ns|levels|machine" "$out/calibrate.log" | tail -8
pf=()
[ -s "$out/profile-np$np.txt" ] && pf=(--profile "$out/profile-np$np.txt")
el "model + memcpy"
for c in barrier bcast reduce allreduce reduce_scatter_block reduce_scatter allgather gather scatter alltoall scan exscan; do
    env ${pf[@]:+HMPI_PROFILE=${pf[1]}} "$D/build/bin/hmpi-info" --model $c -n "$np" --csv 2>&1 | awk -F, 'NF == 5 && $3 ~ /^[0-9]+$/'
done >"$out/model-np$np.csv"
wc -l "$out/model-np$np.csv"
taskset -c 0 "$D/pre/memcpy_bw" -c -q -m 16M -r 5 >"$out/memcpy.csv" 2>&1
tail -2 "$out/memcpy.csv"
env ${pf[@]:+HMPI_PROFILE=${pf[1]}} "$D/build/bin/hmpi-info" --topology -n "$np" >"$out/hmpi-info.txt" 2>&1; env ${pf[@]:+HMPI_PROFILE=${pf[1]}} "$D/build/bin/hmpi-info" --params >>"$out/hmpi-info.txt" 2>&1
btime=$((total - ($(date +%s) - T0) - gtime))
el "bench (timeout $btime s)"
HMPI_BUILD=$D/build RUN_TIMEOUT=60 timeout "$btime" bench/coll/run.sh --np "$np" --prebuilt "$D/pre" \
    --sizes 8,32,128,512,2K,8K,32K,128K,512K,2M --time-ms 4 --reps 3 --rounds "$rounds" --validate "${pf[@]}" \
    --out /tmp/r --tag "np$np" | grep -v "^# r[0-9]" | tail -40
el "bench rc=$?; big"
HMPI_BUILD=$D/build RUN_TIMEOUT=40 timeout "$gtime" bench/coll/run.sh --np "$np" --prebuilt "$D/pre" \
    -c allreduce,bcast,reduce --sizes 16M --time-ms 20 --reps 3 --rounds 2 "${pf[@]}" \
    --out /tmp/r --tag "np$np-16M" | tail -12
el "big rc=$?"
cd /tmp/r && find raw -name "*.err" -size +0 >/tmp/errs.txt
tar -czf "$out/np$np.tgz" np$np*.csv np$np*.notes np$np*.log np$np*/metrics.md -T /tmp/errs.txt 2>&1 | tail -2
el "done"
