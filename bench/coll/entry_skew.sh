#!/usr/bin/env bash
# entry_skew.sh - the benchmark's entry skew at 2 ranks (entry_skew.c), for
# HMPI's small-message algorithms (forced) and Open MPI and MPICH, side by
# side: per setting, each rank's mean call time, its start's offset from the
# first rank's, and the mean over ranks; then rank 0 held back D ns after
# the barrier (--delay 0:D) and rank 1 held back (--delay 1:D), which move
# the starts toward equal or further apart. R rounds, implementations in
# turn within each. docs/model.md, "The benchmark's entry skew".
#
# usage: bench/coll/entry_skew.sh [--rounds R] [--delay D] [--bytes B] [--out CSV]
#   (defaults: 3 rounds, D = 150 ns, B = 64 bytes, CSV in bench/coll/results/)
# environment: HMPI_BUILD (default build), HMPI_PROFILE (the profile HMPI's
# runs load; default: this machine's)
# Prints a summary per implementation, collective and setting: medians over
# rounds, and the range of the mean over ranks.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${HMPI_BUILD:-$repo/build}
rounds=3 delay=150 bytes=64 out=""
while [[ $# -gt 0 ]]; do
    case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --delay) delay=$2; shift 2 ;;
    --bytes) bytes=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
    esac
done
mkdir -p "$here/results"
[[ -n $out ]] || out=$here/results/entry_skew-$(date +%Y%m%d-%H%M%S).csv
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
"$build/bin/hmpicc" -O2 -o "$bin/hmpi" "$here/entry_skew.c"
impls=(hmpi)
if command -v mpicc.openmpi >/dev/null && command -v mpirun.openmpi >/dev/null; then
    mpicc.openmpi -O2 -o "$bin/ompi" "$here/entry_skew.c" && impls+=(ompi)
fi
if command -v mpicc.mpich >/dev/null && command -v mpiexec.mpich >/dev/null; then
    mpicc.mpich -O2 -o "$bin/mpich" "$here/entry_skew.c" && impls+=(mpich)
fi
settings=(--delay 0:0 --delay "0:$delay" --delay "1:$delay")
# HMPI's algorithms whose small-message times the model is scored on.
hmpi_runs=("allreduce tree" "allreduce tiled" "allreduce reduce_bcast" "allreduce tiled_push" "allreduce inline"
           "reduce tree" "reduce inline" "bcast one_stage" "bcast inline" "barrier -")
launch() {
    case $1 in
    hmpi) echo "$build/bin/hmpirun -np 2" ;;
    ompi) echo "env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1" \
        "mpirun.openmpi --allow-run-as-root --bind-to core -np 2" ;;
    mpich) echo "mpiexec.mpich -n 2 -bind-to core" ;;
    esac
}
header=round,impl,collective,bytes,delay_rank,delay_ns,rank,call_us,start_offset_ns,first_share,mean_over_ranks_us
echo "$header" >"$out"
for ((r = 1; r <= rounds; r++)); do
    for impl in "${impls[@]}"; do
        if [[ $impl == hmpi ]]; then
            for run in "${hmpi_runs[@]}"; do
                read -r coll alg <<<"$run"
                tag=hmpi envs=()
                [[ $alg == - ]] || tag="hmpi:$alg" envs=("HMPI_${coll^^}_ALGORITHM=$alg")
                env "${envs[@]}" $(launch hmpi) "$bin/hmpi" -c "$coll" -m "$bytes" "${settings[@]}" 2>/dev/null |
                    tail -n +2 | sed "s/^/$r,$tag,/" >>"$out"
            done
        else
            for coll in allreduce reduce bcast barrier; do
                $(launch "$impl") "$bin/$impl" -c "$coll" -m "$bytes" "${settings[@]}" 2>/dev/null |
                    tail -n +2 | sed "s/^/$r,$impl,/" >>"$out"
            done
        fi
    done
done
echo "entry_skew.sh: $out"
python3 - "$out" <<'EOF'
import csv, collections, statistics as st, sys
rows = collections.defaultdict(list)
for r in csv.DictReader(open(sys.argv[1])):
    rows[(r["impl"], r["collective"], r["delay_rank"], r["delay_ns"], r["rank"])].append(r)
print("| impl | collective | setting | rank 0 us (start offset ns) | rank 1 us (start offset ns) "
      "| mean over ranks us (range) |")
print("|---|---|---|---|---|---|")
med = lambda v: st.median(float(x) for x in v)
for impl, coll in sorted({(k[0], k[1]) for k in rows}, key=lambda x: (x[1], x[0])):
    for dr, dn in sorted({(k[2], k[3]) for k in rows if k[:2] == (impl, coll)}, key=lambda x: (x[1] != "0", x)):
        a, b = rows[(impl, coll, dr, dn, "0")], rows[(impl, coll, dr, dn, "1")]
        means = [float(x["mean_over_ranks_us"]) for x in a]
        setting = "as the barrier leaves them" if dn == "0" else f"rank {dr} held {dn} ns"
        cell = lambda v: f"{med(x['call_us'] for x in v):.3f} ({med(x['start_offset_ns'] for x in v):.0f})"
        print(f"| {impl} | {coll} | {setting} | {cell(a)} | {cell(b)} "
              f"| {st.median(means):.3f} ({min(means):.3f}-{max(means):.3f}) |")
EOF
