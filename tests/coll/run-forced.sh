#!/usr/bin/env bash
# run-forced.sh "VAR=ALG [VAR=ALG ...]" COMMAND [ARGS...]
#
# Runs COMMAND once per VAR=ALG word with that one variable set (an
# HMPI_<COLLECTIVE>_ALGORITHM forcing one algorithm), one after the other.
# Exits 1 at the end if any run failed, naming it.
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 \"VAR=ALG [VAR=ALG ...]\" COMMAND [ARGS...]" >&2
    exit 2
fi
forced=$1
shift
status=0
for assignment in $forced; do
    echo "run-forced: $assignment"
    if ! env "$assignment" "$@"; then
        echo "run-forced: FAIL with $assignment" >&2
        status=1
    fi
done
exit $status
