#!/bin/bash
# Every algorithm of each collective forced (HMPI_<COLL>_ALGORITHM), and the
# model's own choice ("default"), at each rank count: the data behind
# docs/model.md, "More ranks than CPUs". Run from the repository root after
# building (build/bin/hmpicc, hmpirun, hmpi-info):
#   build/bin/hmpicc -O2 -o /tmp/coll_bench bench/coll/coll_bench.c
#   bash docs/results/oversubscribed/model-sweep.sh /tmp/coll_bench OUT.csv "4 8 16" \
#       "barrier bcast reduce allreduce allgather alltoall reduce_scatter_block gather scatter scan"
# CSV lines: hmpi:<algorithm>,collective,bytes,ranks,avg_us,max_us,iters.
set -u
bench=$1 out=$2 nps=$3 colls=$4
sizes=${SIZES:-8,256,4096,32768,262144}
: > "$out"
for np in $nps; do
    for c in $colls; do
        algs="default $(build/bin/hmpi-info --algorithms "$c" 2>/dev/null | grep -v '^inter_')"
        for a in $algs; do
            force=()
            [ "$a" != default ] && force=("HMPI_${c^^}_ALGORITHM=$a")
            s=$sizes
            [ "$c" = barrier ] && s=8  # measured once, whatever the size
            env "${force[@]}" timeout 300 build/bin/hmpirun -np "$np" "$bench" -c "$c" --sizes "$s" \
                --root rotate --time-ms 5 --reps 3 --impl "hmpi:$a" --no-header 2>/dev/null |
                grep -v '^#' >> "$out"
        done
    done
done
