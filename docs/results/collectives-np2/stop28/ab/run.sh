#!/bin/bash
# A/B: old (HEAD~1) vs new library, forced algorithms, alternating.
export HMPI_PROFILE=/tmp/profile.txt
out=/tmp/ab/ab.csv; : > $out
for round in 1 2 3 4 5; do
  for v in old new; do
    if [ $v = old ]; then B=/tmp/old/build; else B=/work/main/build; fi
    for spec in reduce:tree allreduce:tree allreduce:hierarchical; do
      c=${spec%%:*}; a=${spec##*:}; C=$(echo $c | tr a-z A-Z)
      env HMPI_${C}_ALGORITHM=$a $B/bin/hmpirun -np 2 --bind-to core $B/bench/coll_bench -c $c --sizes 4K,16K,64K,256K,1M,4M,16M --reps 5 --time-ms 5 --no-header --root rotate | sed "s/^/$v,$a,$round,/" >> $out
    done
  done
done
