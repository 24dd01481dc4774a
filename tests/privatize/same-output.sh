#!/usr/bin/env bash
# same-output.sh HMPIRUN NP PROGRAM MPI_COMPILER WORKDIR SOURCE... : runs PROGRAM (built with
# hmpicc/hmpicxx) under hmpirun, builds SOURCE... with MPI_COMPILER (Open MPI's wrapper) and runs
# it under Open MPI's mpirun, both with NP ranks; passes if both exit 0 and print the same.
# PROGRAM "-": only runs SOURCE... under Open MPI and passes if it prints " No Errors".
# With no Open MPI installed it reports a skip (exit 77).
set -u
hmpirun=$1 np=$2 program=$3 mpicompiler=$4 work=$5
shift 5
command -v "$mpicompiler" >/dev/null && command -v mpirun.openmpi >/dev/null || { echo "no Open MPI: skipped"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
std=()
case $1 in *.cpp) std=(-std=c++17 -DOMPI_SKIP_MPICXX=1) ;; esac
"$mpicompiler" "${std[@]}" -O2 -o "$work/reference" "$@" -lpthread || { echo "FAIL: building with $mpicompiler"; exit 1; }
if [[ $program != - ]]; then "$hmpirun" -np "$np" --timeout 60 "$program" >"$work/hmpi.out" 2>"$work/hmpi.err" || { echo "FAIL: under hmpirun"; cat "$work"/hmpi.*; exit 1; }; fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
timeout 120 mpirun.openmpi --oversubscribe --allow-run-as-root --bind-to none --mca mpi_yield_when_idle 1 \
    -np "$np" "$work/reference" >"$work/openmpi.out" 2>"$work/openmpi.err" || { echo "FAIL: under Open MPI"; cat "$work"/openmpi.*; exit 1; }
if [[ $program == - ]]; then
    cat "$work/openmpi.out"
    grep -q " No Errors" "$work/openmpi.out" || { echo "FAIL: no ' No Errors' under Open MPI"; exit 1; }
    exit 0
fi
cat "$work/hmpi.out"
if ! diff "$work/openmpi.out" "$work/hmpi.out"; then echo "FAIL: the outputs differ (< Open MPI, > HMPI)"; exit 1; fi
echo "same output as Open MPI"
