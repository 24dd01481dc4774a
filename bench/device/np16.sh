#!/usr/bin/env bash
# np16.sh - the 16-rank measurement in one call on the lent 16-core machine:
# unpack the bundle's system files (make-bundle.sh), calibrate, run every
# collective side by side with Open MPI and MPICH and every HMPI algorithm
# forced (bench/coll/run.sh --prebuilt), the 16 MiB Allreduce paired with
# its copy bound (bench/coll/bound16.sh), the benchmark's entry skew for
# small Allreduce and Bcast (bench/coll/entry_skew.c), Alltoall, Allgather
# and Scatter with every result read after each call (--read-results), then 16 MiB
# Allreduce, Bcast and Reduce; before the runs, the per-line costs of four
# pull patterns (bench/pull_patterns.c). Leaves the CSVs, notes, model
# predictions, profile and logs in OUTDIR, to be analyzed back home
# (bench/device/README.md).
#
# usage: bench/device/np16.sh OUTDIR [options]
#   --np N         ranks (default: the machine's cores, at most 16)
#   --rounds N     rounds of the main run (default 3)
#   --budget S     seconds the whole script may take (default 540): each
#                  step gets a timeout from what is left, the 16 MiB step
#                  and the calibration a fixed share
#   --bundle DIR   the bundle (default .devbundle)
#   --local        on this machine: no unpacking, 2 ranks, sizes 8 B and
#                  4 KiB, 64 KiB for the large step (a check of the script)
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] || { sed -n '2,18p' "$0"; exit 2; }
out=$1
shift
np="" rounds=3 budget=540 bundle=$repo/.devbundle local=0
while [ $# -gt 0 ]; do
    case $1 in
    --np) np=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --bundle) bundle=$(cd "$2" && pwd); shift 2 ;;
    --local) local=1; shift ;;
    *) echo "np16.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
log=$out/np16.log
exec > >(tee -a "$log") 2>&1
T0=$(date +%s)
el() { echo "[t=$(($(date +%s) - T0))s] $*"; }
left() { echo $((budget - ($(date +%s) - T0) - $1)); }
[ -x "$bundle/build/bin/hmpirun" ] || { el "no bundle at $bundle (bench/device/make-bundle.sh)"; exit 1; }

sizes=(--min 8 --max 4M) big=(--sizes 16M) bound_size=16M bound_rounds=5 rr=(--min 8 --max 1M)
pulls=64,256,1K,4K,32K,256K
if [ $local -eq 1 ]; then
    np=${np:-2} rounds=1 sizes=(--sizes 8,4K) big=(--sizes 64K) bound_size=64K bound_rounds=2 rr=(--sizes 8,4K)
    pulls=1K,4K
else
    np=${np:-$(($(nproc) < 16 ? $(nproc) : 16))}
fi
el "host: $(uname -r); $(nproc) cpus; $(lscpu | sed -n 's/^Model name: *//p'); np $np"
lscpu | grep -E "^(L2|L3|NUMA node\(s\))"
head -1 "$bundle/MANIFEST"
sed -n 2p "$bundle/MANIFEST"
if [ $local -eq 0 ]; then
    el "already here: $(command -v mpirun.openmpi mpiexec.mpich | tr '\n' ' ')"
    # Never replace a file the machine has (its own libc, its own MPI).
    tar -C / --skip-old-files --keep-directory-symlink -xJf "$bundle/sys.tar.xz"
    el "unpacked: status $?"
    ldconfig
fi
export LD_LIBRARY_PATH=$bundle/build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for b in "$bundle"/pre/* "$bundle"/build/bin/*; do
    ldd "$b" 2>&1 | grep "not found" | sed "s|^|missing for $b: |"
done

el "calibrate"
timeout 150 "$bundle/build/bin/hmpi-calibrate" --output "$out/profile.txt" >"$out/calibrate.log" 2>&1
el "calibrate: status $?"
grep "warning" "$out/calibrate.log"
pf=()
if [ -s "$out/profile.txt" ]; then
    pf=(--profile "$out/profile.txt")
    "$bundle/build/bin/hmpi-info" --params --profile "$out/profile.txt" >"$out/params.txt" 2>&1
    "$bundle/build/bin/hmpi-info" --topology -n "$np" >"$out/topology.txt" 2>&1
    grep -E "^(alpha|beta)\.(a|b|B|r|R) |^(step_overhead|poll_line|peer_args|core_cache_bytes|copy_bandwidth) " "$out/profile.txt"
fi

# The pull patterns at every core and at half of them (bench/pull_patterns.c).
if [ -x "$bundle/pre/pull_patterns" ]; then
    el "pull_patterns"
    { timeout 30 "$bundle/pre/pull_patterns" -t "$np" -m "$pulls"
      [ "$np" -ge 4 ] && timeout 20 "$bundle/pre/pull_patterns" -t $((np / 2)) -m "$pulls" | tail -n +2; } \
        >"$out/pull_patterns.csv" 2>&1
    cat "$out/pull_patterns.csv"
fi

results=/tmp/np16-results
rm -rf "$results"
run() { # TAG TIMEOUT run.sh-arguments...
    local tag=$1 t=$2
    shift 2
    [ "$t" -gt 30 ] || { el "$tag: no time left"; return 1; }
    el "$tag (timeout ${t}s)"
    HMPI_BUILD=$bundle/build RUN_TIMEOUT=60 PYTHON=true timeout "$t" "$repo/bench/coll/run.sh" --np "$np" \
        --prebuilt "$bundle/pre" "${pf[@]}" --out "$results" --tag "$tag" "$@" >"$out/$tag.run.log" 2>&1
    el "$tag: status $? ($(grep -c . "$results/$tag.csv" 2>/dev/null) CSV lines)"
    grep -E "^# note|skipped|failed" "$out/$tag.run.log" | head -5
    cp "$results/$tag".{csv,notes,model.csv,memcpy.csv,copy-threads.csv} "$out/" 2>/dev/null
    return 0
}
# The main run first, leaving 180 s for the paired bound, the read-results
# run and the 16 MiB step.
run "np$np" "$(left 180)" "${sizes[@]}" --time-ms 4 --reps 3 --rounds "$rounds" --root rotate
# The 16 MiB Allreduce against the copy bound and the fold-push floor,
# paired within each round (bench/coll/bound16.sh).
el "bound16 (timeout 40s)"
timeout 40 "$repo/bench/coll/bound16.sh" --np "$np" --size "$bound_size" --rounds "$bound_rounds" \
    --bindir "$bundle/pre" --hmpirun "$bundle/build/bin/hmpirun" ${pf[1]:+--profile "${pf[1]}"} \
    --out "$out/bound16.csv" >"$out/bound16.txt" 2>&1
el "bound16: status $?"
tail -8 "$out/bound16.txt"
# The benchmark's entry skew at this many ranks (bench/coll/entry_skew.c):
# HMPI's default and Open MPI's and MPICH's small Allreduce and Bcast, as
# the barrier leaves the ranks. Short: what is left goes to the runs below.
if [ -x "$bundle/pre/entry_skew-hmpi" ] && [ "$(left 80)" -gt 20 ]; then
    el "entry_skew (timeout 20s)"
    { echo "impl,collective,bytes,delay_rank,delay_ns,rank,call_us,start_offset_ns,first_share,mean_over_ranks_us"
      for c in allreduce bcast; do
        timeout 6 env ${pf[1]:+HMPI_PROFILE=${pf[1]}} "$bundle/build/bin/hmpirun" -np "$np" \
            "$bundle/pre/entry_skew-hmpi" -c $c -m 64 -n 20000 2>/dev/null | tail -n +2 | sed "s/^/hmpi,/"
        timeout 6 env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun.openmpi --allow-run-as-root \
            --bind-to core -np "$np" "$bundle/pre/entry_skew-ompi" -c $c -m 64 -n 20000 2>/dev/null |
            tail -n +2 | sed "s/^/ompi,/"
        timeout 6 mpiexec.mpich -n "$np" -bind-to core "$bundle/pre/entry_skew-mpich" -c $c -m 64 -n 20000 \
            2>/dev/null | tail -n +2 | sed "s/^/mpich,/"
      done; } >"$out/entry_skew.csv" 2>&1
    el "entry_skew: $(grep -c . "$out/entry_skew.csv") lines"
fi
# Pushes leave their lines in the pusher's cache when nobody reads them
# (bench/coll/README.md): the same collectives with every result read.
run "np$np-rr" "$(left 70)" -c alltoall,allgather,scatter "${rr[@]}" --time-ms 4 --reps 3 --rounds 1 \
    --read-results
run "np$np-16M" "$(left 5)" -c allreduce,bcast,reduce "${big[@]}" --time-ms 20 --reps 3 --rounds 2
gzip -f "$out"/*.csv 2>/dev/null
el "done: $(ls "$out" | tr '\n' ' ')"
