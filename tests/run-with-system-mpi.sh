#!/usr/bin/env bash
# run-with-system-mpi.sh [PROGRAM-NAME...]
#
# Builds every tests/mpi/*.c and *.cpp with a system MPI (not HMPI) and runs each
# at 2, 4, 8 and 16 ranks, with the pass criterion of tests/run-mpi-test.sh:
# exit status 0 and " No Errors" in the output. This shows the tests check MPI
# semantics rather than HMPI's behaviour.
#
# Environment:
#   MPI=openmpi (default) | mpich     which system MPI to use
#   MPICC, MPICXX                     compiler wrappers (override the defaults)
#   NPS="2 4 8 16"                    rank counts
#   TIMEOUT=120                       seconds per run
#   KEEP=1                            keep the build/output directory
# Arguments: optional program names (e.g. t_basic) to run only those.
# Prints one line per run and a final "N passed, N failed"; exits 1 on any failure.
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$here/mpi
mpi=${MPI:-openmpi}
nps=${NPS:-"2 4 8 16"}
tmo=${TIMEOUT:-120}

case $mpi in
openmpi)
    MPICC=${MPICC:-mpicc.openmpi}
    MPICXX=${MPICXX:-mpicxx.openmpi}
    extra_flags=
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    launch() { mpirun.openmpi --oversubscribe --allow-run-as-root --bind-to none \
                   --mca mpi_yield_when_idle 1 -np "$@"; }
    ;;
mpich)
    MPICC=${MPICC:-mpicc.mpich}
    MPICXX=${MPICXX:-mpicxx.mpich}
    # MPICH's MPI_STATUSES_IGNORE is (MPI_Status *)1, which GCC 12 reports as
    # "accessing N bytes in a region of size 0" at every array-of-statuses call.
    extra_flags=-Wno-stringop-overflow
    launch() { mpiexec.mpich -n "$@"; }
    ;;
*)
    echo "run-with-system-mpi: unknown MPI '$mpi' (openmpi or mpich)" >&2
    exit 2
    ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/hmpi-sysmpi.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
    echo "build and logs in $work"
else
    trap 'rm -rf "$work"' EXIT
fi

passed=0 failed=0
progs=()
shopt -s nullglob
for f in "$src"/*.c "$src"/*.cpp; do
    name=$(basename "${f%.*}")
    if [ $# -gt 0 ]; then
        want=0
        for a in "$@"; do [ "$a" = "$name" ] && want=1; done
        [ $want = 1 ] || continue
    fi
    case $f in
    *.c) cc=$MPICC; std=-std=c11 ;;
    *) # the C API from C++: leave out the deprecated C++ bindings (their headers warn)
       cc=$MPICXX; std="-std=c++20 -DOMPI_SKIP_MPICXX=1 -DMPICH_SKIP_MPICXX=1" ;;
    esac
    if "$cc" $std -O2 -g -Wall -Wextra $extra_flags -I"$src" -o "$work/$name" "$f" -lpthread >"$work/$name.build.log" 2>&1; then
        if [ -s "$work/$name.build.log" ]; then
            echo "WARN  build $name (compiler output below)"
            sed 's/^/    /' "$work/$name.build.log"
        fi
        progs+=("$name")
    else
        echo "FAIL  build $name"
        sed 's/^/    /' "$work/$name.build.log"
        failed=$((failed + 1))
    fi
done

for name in "${progs[@]}"; do
    for np in $nps; do
        log=$work/$name.np$np.log
        start=$(date +%s%N)
        timeout -k 10 "$tmo" bash -c "$(declare -f launch); launch $np \"$work/$name\"" >"$log" 2>&1
        rc=$?
        ms=$((($(date +%s%N) - start) / 1000000))
        secs=$((ms / 1000)).$(((ms % 1000) / 100))
        if [ $rc -eq 0 ] && grep -q " No Errors" "$log"; then
            printf 'PASS  %-16s np=%-2s %6ss\n' "$name" "$np" "$secs"
            passed=$((passed + 1))
        else
            why="exit $rc"
            [ $rc -eq 124 ] && why="timeout after ${tmo}s"
            [ $rc -eq 0 ] && why="no ' No Errors' in output"
            printf 'FAIL  %-16s np=%-2s %6ss  (%s)\n' "$name" "$np" "$secs" "$why"
            tail -n 30 "$log" | sed 's/^/    /'
            failed=$((failed + 1))
        fi
    done
done

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
