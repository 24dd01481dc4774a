#!/usr/bin/env bash
# check-explain.sh HMPIRUN COLL_BENCH: HMPI_EXPLAIN=1 (docs/collectives.md,
# "Choosing an algorithm") on a real program. Per communicator it prints
# the topology and the model's parameters; per collective and size range
# the predicted time of every algorithm, once (not once per rank); and the
# choices algorithms make from the model while they run (plans), once per
# range, for a forced tree Allreduce, tiled Allreduce and tree Barrier.
set -u
hmpirun=$1 bench=$2
fails=0
run() {  # run NP ENV... -- BENCH ARGS...: the job's output
    local np=$1; shift
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    env HMPI_EXPLAIN=1 "${envs[@]}" "$hmpirun" -np "$np" --timeout 120 "$bench" --iters 20 --reps 1 --warmup 2 "$@" 2>&1
}
expect_once() {  # expect_once WHAT OUTPUT REGEX: exactly one line matches
    local n
    n=$(grep -cE "$3" <<<"$2")
    if [ "$n" -ne 1 ]; then
        echo "check-explain: FAIL: $1: $n lines match '$3' (want 1)"
        fails=$((fails + 1))
    fi
}

out=$(run 2 -- -c allreduce --sizes 8,4K)
expect_once "the communicator" "$out" "explain: communicator of 2 ranks \(context [0-9]+\): levels: "
expect_once "the parameters" "$out" "explain: model parameters from .*alpha a=[0-9]"
# Every algorithm with its prediction, the cheapest first.
expect_once "Allreduce's 8 B range" "$out" \
    "explain: context [0-9]+ allreduce \[8 B, 12 B\): ([a-z_]+ [0-9.]+ us, ){3,}"
expect_once "Allreduce's 4 KiB range" "$out" "explain: context [0-9]+ allreduce \[4 KiB, 5793 B\): [a-z_]+ [0-9.]+ us, "

out=$(run 2 HMPI_ALLREDUCE_ALGORITHM=tree HMPI_BARRIER_ALGORITHM=tree -- -c allreduce --sizes 8,4K)
expect_once "the tree's plan at 8 B" "$out" \
    "explain: context [0-9]+ allreduce \[8 B, 12 B\): tree: Eq. 1 keeps [0-9]+ of a domain's ranks, (one|two)-stage broadcast"
expect_once "the tree's plan at 4 KiB" "$out" "explain: context [0-9]+ allreduce \[4 KiB, 5793 B\): tree: Eq. 1 keeps "
expect_once "the tree barrier's plan" "$out" "explain: context [0-9]+ barrier \[0 B, 1 B\): tree: (one|two)-stage release"

out=$(run 3 HMPI_ALLREDUCE_ALGORITHM=tiled -- -c allreduce --sizes 64K)
expect_once "tiled's plan" "$out" "explain: context [0-9]+ allreduce \[64 KiB, 92682 B\): tiled: (one|two)-stage broadcast"

if [ "$fails" -ne 0 ]; then
    echo "check-explain: $fails failure(s); the last job's output:"
    printf '%s\n' "$out"
    exit 1
fi
echo "check-explain: ok"
