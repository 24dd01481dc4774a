#!/usr/bin/env bash
# ab.sh - two HMPI builds side by side on forced algorithms: each round
# runs bench/coll/coll_bench under the base build's hmpirun and under the
# new one's, in alternating order (base first in even rounds, new first in
# odd ones), so that a machine whose speed drifts during the session
# (the 2-core guest's two states) weighs on both alike; then, per
# collective, algorithm and size, the medians of each build's times and
# the median over rounds of new / base within each round (paired).
#
# usage: bench/coll/ab.sh --base DIR [--new DIR] [--np N] [--rounds R] [--sizes LIST]
#                         [--out CSV] [--] COLL:ALG...
#   --base DIR    the base build directory (bin/hmpirun, bench/coll_bench)
#   --new DIR     the new one (default: this checkout's build)
#   --np N        ranks (default 2)
#   --rounds R    rounds (default 10)
#   --sizes LIST  coll_bench's --sizes (default 8,64,512,4K)
#   --out CSV     keep the measurements (round,build,collective,algorithm,bytes,avg_us)
#   COLL:ALG      a collective and the algorithm forced with HMPI_<COLL>_ALGORITHM
# environment: COLL_BENCH_ARGS (more coll_bench options; default --reps 5 --time-ms 5)
#
# Two runs of one library differed by 1.01-1.03 in paired medians over 30
# rounds on the 2-core guest (stop 49): read smaller differences as noise.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
base="" new=$repo/build np=2 rounds=10 sizes=8,64,512,4K out=""
while [ $# -gt 0 ]; do
    case $1 in
    --base) base=$2; shift 2 ;;
    --new) new=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --) shift; break ;;
    -*) echo "ab.sh: unknown option '$1'" >&2; exit 2 ;;
    *) break ;;
    esac
done
if [ -z "$base" ] || [ $# -eq 0 ]; then
    sed -n '2,19p' "$0" >&2
    exit 2
fi
for d in "$base" "$new"; do
    [ -x "$d/bin/hmpirun" ] && [ -x "$d/bench/coll_bench" ] ||
        { echo "ab.sh: no bin/hmpirun and bench/coll_bench under '$d'" >&2; exit 2; }
done
read -r -a extra <<<"${COLL_BENCH_ARGS:---reps 5 --time-ms 5}"
csv=${out:-$(mktemp)}
echo "round,build,collective,algorithm,bytes,avg_us" >"$csv"
for ((round = 1; round <= rounds; ++round)); do
    if ((round % 2)); then order="new base"; else order="base new"; fi
    for which in $order; do
        if [ "$which" = base ]; then dir=$base; else dir=$new; fi
        for spec in "$@"; do
            coll=${spec%%:*} alg=${spec#*:}
            var=HMPI_$(printf '%s' "$coll" | tr '[:lower:]' '[:upper:]')_ALGORITHM
            if ! lines=$(env "$var=$alg" "$dir/bin/hmpirun" -np "$np" "$dir/bench/coll_bench" -c "$coll" \
                             --sizes "$sizes" --no-header "${extra[@]}" 2>/dev/null); then
                echo "ab.sh: round $round, $which build, $spec failed" >&2
                exit 1
            fi
            # coll_bench: impl,collective,bytes,ranks,avg_us,max_us,iters
            printf '%s\n' "$lines" | awk -F, -v r="$round" -v w="$which" -v a="$alg" \
                '!/^#/ && NF >= 5 { print r "," w "," $2 "," a "," $3 "," $5 }' >>"$csv"
        done
    done
done
python3 - "$csv" <<'PY'
import collections, csv, statistics, sys
times = collections.defaultdict(dict)
for row in csv.DictReader(open(sys.argv[1])):
    times[(row['collective'], row['algorithm'], int(row['bytes']))][(row['build'], row['round'])] = float(row['avg_us'])
print('collective,algorithm,bytes,base_us,new_us,new/base (paired median),min,max,rounds')
for (coll, alg, size), t in sorted(times.items()):
    rounds = sorted({r for _, r in t})
    both = [r for r in rounds if ('new', r) in t and ('base', r) in t and t[('base', r)] > 0]
    paired = [t[('new', r)] / t[('base', r)] for r in both]
    if not paired:
        continue
    b = statistics.median(v for (w, _), v in t.items() if w == 'base')
    n = statistics.median(v for (w, _), v in t.items() if w == 'new')
    ratio = statistics.median(paired)
    print(f'{coll},{alg},{size},{b:.3f},{n:.3f},{ratio:.3f},{min(paired):.2f},{max(paired):.2f},{len(paired)}')
PY
[ -n "$out" ] || rm -f "$csv"
