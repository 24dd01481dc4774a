#!/usr/bin/env bash
# run-per-algorithm.sh HMPIRUN PROGRAM NP COLLECTIVE [ITER]
#
# Runs a collective test program once per registered algorithm of one
# collective, forcing each in turn with HMPI_<COLLECTIVE>_ALGORITHM=<name>:
#
#   HMPI_<COLL>_ALGORITHM=<name> HMPIRUN -np NP PROGRAM -c COLLECTIVE -n ITER
#
# PROGRAM is t_coll (or t_coll_nb, t_coll_inter, t_coll_neighbor: the same
# -c/-n options). The algorithm names come from `hmpi-info --algorithms
# COLLECTIVE` (one per line), found next to HMPIRUN or at $HMPI_INFO. A run
# passes when it exits 0 and prints " No Errors". Prints one line per
# algorithm; exits 1 if any algorithm fails (naming it), 2 on a usage or
# setup problem (no hmpi-info, no algorithms listed).
#
# Environment: HMPI_INFO (path of hmpi-info), TIMEOUT (seconds per run,
# default 120), and any HMPI_* settings, passed through.
set -u

if [ $# -lt 4 ] || [ $# -gt 5 ]; then
    echo "usage: $0 HMPIRUN PROGRAM NP COLLECTIVE [ITER]" >&2
    exit 2
fi
hmpirun=$1 prog=$2 np=$3 coll=$4 iter=${5:-40}
tmo=${TIMEOUT:-120}
info=${HMPI_INFO:-$(dirname "$hmpirun")/hmpi-info}

if [ ! -x "$info" ]; then
    echo "run-per-algorithm: no hmpi-info at '$info' (build the hmpi-info target, or set HMPI_INFO):" \
         "cannot list the algorithms of $coll" >&2
    exit 2
fi
if ! names=$("$info" --algorithms "$coll" 2>&1); then
    echo "run-per-algorithm: '$info --algorithms $coll' failed:" >&2
    printf '%s\n' "$names" | sed 's/^/    /' >&2
    exit 2
fi
mapfile -t algos < <(printf '%s\n' "$names" | sed 's/[[:space:]]*$//' | grep -v '^$')
if [ ${#algos[@]} -eq 0 ]; then
    echo "run-per-algorithm: '$info --algorithms $coll' listed no algorithm" >&2
    exit 2
fi

var=HMPI_$(printf '%s' "$coll" | tr '[:lower:]' '[:upper:]')_ALGORITHM
failed=()
for a in "${algos[@]}"; do
    start=$(date +%s%N)
    out=$(env "$var=$a" "$hmpirun" -np "$np" --timeout "$tmo" "$prog" -c "$coll" -n "$iter" 2>&1)
    rc=$?
    ms=$((($(date +%s%N) - start) / 1000000))
    if [ $rc -eq 0 ] && grep -q " No Errors" <<<"$out"; then
        printf 'PASS  %s=%-24s np=%-3s %d ms\n' "$var" "$a" "$np" "$ms"
    else
        printf 'FAIL  %s=%-24s np=%-3s %d ms (exit %d)\n' "$var" "$a" "$np" "$ms" "$rc"
        printf '%s\n' "$out" | tail -n 25 | sed 's/^/    /'
        failed+=("$a")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "run-per-algorithm: $coll failed with algorithm(s): ${failed[*]}"
    exit 1
fi
echo "run-per-algorithm: $coll: all ${#algos[@]} algorithm(s) passed at np=$np"
exit 0
