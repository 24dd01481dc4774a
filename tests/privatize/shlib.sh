#!/usr/bin/env bash
# shlib.sh COMPILER RUNNER NP WORKDIR: builds shlib_lib.c (a COMPILER whose name has "cxx":
# shlib_cxx_lib.cpp) into a shared library with `COMPILER -shared -fPIC` and shlib_main.c
# (shlib_cxx_main.cpp) against it, runs it with NP ranks and passes if it
# prints " No Errors". COMPILER hmpicc with RUNNER an hmpirun: the library's globals are
# privatized; COMPILER mpicc.openmpi with RUNNER "openmpi": the same under Open MPI (skips, exit
# 77, if it is not installed).
set -u
compiler=$1 runner=$2 np=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
if [[ $runner == openmpi ]]; then
    command -v "$compiler" >/dev/null && command -v mpirun.openmpi >/dev/null || { echo "no Open MPI: skipped"; exit 77; }
fi
mkdir -p "$work" && cd "$work" || exit 1
case $compiler in
    *cxx*) lib=shlib_cxx_lib.cpp main=shlib_cxx_main.cpp std=(-std=c++17 -DOMPI_SKIP_MPICXX=1) ;;
    *) lib=shlib_lib.c main=shlib_main.c std=() ;;
esac
"$compiler" "${std[@]}" -O2 -g -Wall -Wextra -shared -fPIC -o libshlib.so "$here/$lib" ||
    { echo "FAIL: building libshlib.so"; exit 1; }
"$compiler" "${std[@]}" -O2 -g -Wall -Wextra -o shlib "$here/$main" -L. -lshlib -Wl,-rpath,"$work" -lpthread ||
    { echo "FAIL: building shlib"; exit 1; }
if [[ $runner == openmpi ]]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    out=$(timeout 120 mpirun.openmpi --oversubscribe --allow-run-as-root --bind-to none --mca mpi_yield_when_idle 1 \
          -np "$np" ./shlib 2>&1)
else
    out=$("$runner" -np "$np" --timeout 60 ./shlib 2>&1)
fi
status=$?
echo "$out"
[[ $status == 0 ]] || { echo "FAIL: exit status $status"; exit 1; }
grep -q " No Errors" <<<"$out" || { echo "FAIL: no ' No Errors'"; exit 1; }
