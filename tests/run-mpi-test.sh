#!/usr/bin/env bash
# run-mpi-test.sh LAUNCHER NP TIMEOUT PROGRAM [ARGS...]
# Runs an MPI test program and passes only if the job exits 0 AND its output
# matches TEST_PASS_PATTERN (default "No Errors").
set -u
launcher=$1 np=$2 timeout=$3; shift 3
out=$("$launcher" -np "$np" --timeout "$timeout" "$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ $rc -ne 0 ]; then echo "run-mpi-test: job exited with status $rc"; exit 1; fi
pattern=${TEST_PASS_PATTERN:-No Errors}
if ! grep -qE "$pattern" <<<"$out"; then echo "run-mpi-test: output does not match '$pattern'"; exit 1; fi
exit 0
