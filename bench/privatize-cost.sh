#!/usr/bin/env bash
# privatize-cost.sh [BUILD_DIR]: builds bench/privatize_cost.c twice with BUILD_DIR/bin/hmpicc
# (default build/) -- privatized, and with HMPI_PRIVATIZE=0 -- and runs both on one rank,
# three times each, alternating. See docs/privatization.md.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bin/hmpicc" -O2 -o "$work/privatized" bench/privatize_cost.c
HMPI_PRIVATIZE=0 "$build/bin/hmpicc" -O2 -o "$work/plain" bench/privatize_cost.c
for run in 1 2 3; do
    for kind in plain privatized; do
        echo "== $kind (run $run)"
        "$build/bin/hmpirun" -np 1 "$work/$kind"
    done
done
