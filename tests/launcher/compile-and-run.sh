#!/usr/bin/env bash
# compile-and-run.sh WRAPPER HMPIRUN SOURCE WORKDIR NP
#
# The compiler wrappers end to end: builds SOURCE with WRAPPER (hmpicc or hmpicxx) in one step
# and again in two (-c, then a link of the object, as make and configure do), runs each program
# with `hmpirun -np NP`, and passes only if both exit 0 and print "No Errors".
set -u
wrapper=$1 hmpirun=$2 source=$3 workdir=$4 np=$5

rm -rf "$workdir"
mkdir -p "$workdir" || exit 1

step() {
    echo "+ $*"
    "$@" || { echo "compile-and-run: failed (status $?): $*"; exit 1; }
}
run_program() {
    echo "+ $hmpirun -np $np --timeout 60 $1"
    local out status
    out=$("$hmpirun" -np "$np" --timeout 60 "$1" 2>&1)
    status=$?
    printf '%s\n' "$out"
    ((status == 0)) || { echo "compile-and-run: $1 exited with status $status"; exit 1; }
    grep -q "No Errors" <<<"$out" || { echo "compile-and-run: $1 did not print 'No Errors'"; exit 1; }
}

step "$wrapper" -o "$workdir/one-step" "$source"
run_program "$workdir/one-step"

step "$wrapper" -c "$source" -o "$workdir/prog.o"
step "$wrapper" -o "$workdir/two-step" "$workdir/prog.o"
run_program "$workdir/two-step"
