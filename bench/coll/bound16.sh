#!/usr/bin/env bash
# bound16.sh - the large Allreduce against its data-volume bound, measured
# in pairs: each round runs, back to back, the bound (N threads copying SIZE
# bytes each, bench/copy_bw_threads.c), the floor of an allreduce that
# reads every input once and writes every result once (copy_bw_threads -f:
# each thread folds its slice of all N inputs and streams it into all N
# destinations), and HMPI's own MPI_Allreduce of SIZE bytes (coll_bench,
# the model's pick unless HMPI_ALLREDUCE_ALGORITHM is set); with --base-lib
# also the same call against another libhmpi.so (an A/B of two builds).
# On a machine whose speed drifts between runs (the 2-core EPYC guest: the
# copy alone takes 520-880 us at 16 MiB within one state) only ratios taken
# within a round mean anything: the summary gives the median over rounds of
# bound / measured (issue 5's criterion: at least 0.80) and of the others.
#
# usage: bench/coll/bound16.sh [options]
#   --np N          ranks and threads (default 2)
#   --size S        bytes per rank (default 16M; K/M suffixes)
#   --rounds R      rounds (default 7)
#   --profile FILE  HMPI's model profile (HMPI_PROFILE)
#   --bindir DIR    take copy_bw_threads and coll_bench (or coll_bench-hmpi)
#                   from DIR (default: build/bench)
#   --hmpirun PATH  launcher (default: build/bin/hmpirun, or $HMPI_BUILD/bin/hmpirun)
#   --base-lib DIR  also run HMPI with LD_LIBRARY_PATH=DIR (its libhmpi.so): "hmpi-base"
#   --out FILE      CSV of every measurement: round,what,us (default: bound16.csv here)
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${HMPI_BUILD:-$repo/build}
np=2 size=16M rounds=7 profile="" bindir=$build/bench hmpirun=$build/bin/hmpirun base="" out=bound16.csv
need() { [ "$2" -ge 2 ] || { echo "bound16.sh: $1 needs a value" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
    case $1 in
    --np) need "$1" $#; np=$2; shift 2 ;;
    --size) need "$1" $#; size=$2; shift 2 ;;
    --rounds) need "$1" $#; rounds=$2; shift 2 ;;
    --profile) need "$1" $#; profile=$2; shift 2 ;;
    --bindir) need "$1" $#; bindir=$2; shift 2 ;;
    --hmpirun) need "$1" $#; hmpirun=$2; shift 2 ;;
    --base-lib) need "$1" $#; base=$2; shift 2 ;;
    --out) need "$1" $#; out=$2; shift 2 ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "bound16.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
case $np$rounds in *[!0-9]*) echo "bound16.sh: --np and --rounds take numbers" >&2; exit 2 ;; esac
[ "$np" -ge 1 ] && [ "$rounds" -ge 1 ] || { echo "bound16.sh: --np and --rounds must be at least 1" >&2; exit 2; }
copy=$bindir/copy_bw_threads
bench=$bindir/coll_bench
[ -x "$bench" ] || bench=$bindir/coll_bench-hmpi
for f in "$copy" "$bench" "$hmpirun"; do
    [ -x "$f" ] || { echo "bound16.sh: no executable $f (build HMPI, or --bindir/--hmpirun)" >&2; exit 2; }
done
[ -z "$profile" ] || export HMPI_PROFILE=$profile

# One measurement in us, or nothing when the run failed.
copy_us() { "$copy" -p "$np" -s "$size" -r 5 -c -q "$@" 2>/dev/null | awk -F, 'NR == 1 { print $3 }'; }
hmpi_us() { "$hmpirun" -np "$np" "$bench" -c allreduce --sizes "$size" --no-header 2>/dev/null |
            awk -F, '$2 == "allreduce" { print $5 }'; }

echo "round,what,us" >"$out"
echo "# bound16: np $np, size $size, $rounds rounds${profile:+, profile $profile}${base:+, base library $base}" \
     "${HMPI_ALLREDUCE_ALGORITHM:+, HMPI_ALLREDUCE_ALGORITHM=$HMPI_ALLREDUCE_ALGORITHM}"
for r in $(seq 1 "$rounds"); do
    line="round $r:"
    for what in bound floor hmpi hmpi-base; do
        case $what in
        bound) us=$(copy_us) ;;
        floor) us=$(copy_us -f) ;;
        hmpi) us=$(hmpi_us) ;;
        hmpi-base) [ -n "$base" ] || continue; us=$(LD_LIBRARY_PATH=$base hmpi_us) ;;
        esac
        [ -n "$us" ] || { echo "bound16.sh: round $r: $what failed" >&2; continue; }
        echo "$r,$what,$us" >>"$out"
        line="$line $what $us"
    done
    echo "$line"
done
# Medians of each and of the ratios paired within a round.
awk -F, '
NR > 1 { v[$1, $2] = $3; seen[$2] = 1; if ($1 > n) n = $1 }
# The median of a[1..k], sorting a in place (so a[1] and a[k] are min and max).
function med(a, k,   i, j, t) {
    for (i = 1; i <= k; i++)
        for (j = i + 1; j <= k; j++)
            if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
function ratio(x, y, label,   r, k, a, m) {
    k = 0
    for (r = 1; r <= n; r++) if ((r, x) in v && (r, y) in v && v[r, y] > 0) a[++k] = v[r, x] / v[r, y]
    if (k) { m = med(a, k); printf "%-31s median %.2f over %d rounds (min %.2f, max %.2f)\n", label, m, k, a[1], a[k] }
}
END {
    split("bound floor hmpi hmpi-base", order, " ")
    for (i = 1; i <= 4; i++) {
        w = order[i]
        if (!(w in seen)) continue
        k = 0; delete a
        for (r = 1; r <= n; r++) if ((r, w) in v) a[++k] = v[r, w]
        if (k) printf "%-10s median %9.1f us (min %.1f, max %.1f, %d rounds)\n", w, med(a, k), a[1], a[k], k
    }
    ratio("bound", "hmpi", "bound / hmpi (target >= 0.80):")
    ratio("bound", "floor", "bound / floor:")
    ratio("floor", "hmpi", "floor / hmpi:")
    if ("hmpi-base" in seen) ratio("hmpi-base", "hmpi", "hmpi-base / hmpi (speedup):")
}' "$out"
