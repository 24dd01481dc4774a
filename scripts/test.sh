#!/usr/bin/env bash
# The whole test suite: install, build, then run
#   1. every CTest test (unit tests, MPI test programs under hmpirun at 1-16
#      ranks, launcher tests, the compiler wrappers end to end);
#   2. the same MPI test programs compiled with Open MPI's mpicc and run under
#      its mpirun (proves the tests test MPI, not HMPI);
#   3. the MPI test programs again on a ThreadSanitizer build of HMPI (up to
#      8 ranks; the per-algorithm collective runs only in the release build).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
status=0
# Tests run as many at a time as there are cores, at most 4 (a test starts
# up to 16 ranks; none relies on timing): a few minutes off the run.
jobs=$(nproc)
[ "$jobs" -le 4 ] || jobs=4

echo "== 1. CTest (release build)"
(cd build && ctest -j"$jobs" --output-on-failure --timeout 300) || status=1

echo "== 2. The MPI test programs under Open MPI"
bash tests/run-with-system-mpi.sh || status=1

echo "== 3. ThreadSanitizer build"
HMPI_BUILD_DIR=build-tsan bash scripts/build.sh -DHMPI_SANITIZE=thread
(cd build-tsan && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
   ctest -j"$jobs" --output-on-failure --timeout 600 -L "unit|mpi" -E "\.np16$|^coll\.algorithms\.") || status=1

exit $status
