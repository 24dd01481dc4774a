#!/usr/bin/env bash
# mpi.h compiles warning-free with -Wall -Wextra -Werror (and -pedantic) in C
# and in C++, and every MPI_ function libhmpi exports has its PMPI_ twin.
# usage: check-header.sh INCLUDE_DIR LIBHMPI
set -u
inc=$1 lib=$2
pass=0 fail=0
check() {  # name, command...
  local name=$1; shift
  if "$@" >/tmp/check-header.$$ 2>&1; then pass=$((pass+1)); echo "ok    $name"
  else fail=$((fail+1)); echo "FAIL  $name"; cat /tmp/check-header.$$; fi
}
src='#include <mpi.h>
int main(void) { MPI_Status s; MPI_Comm c = MPI_COMM_WORLD; (void)s; (void)c; return MPI_SUCCESS; }'
for std in c99 c11 c17; do
  check "C $std -Wall -Wextra -Werror -pedantic" sh -c "printf '%s\n' '$src' | cc -std=$std -I'$inc' -Wall -Wextra -Werror -pedantic -fsyntax-only -x c -"
done
for std in c++11 c++17 c++20; do
  check "C++ $std -Wall -Wextra -Werror -pedantic" sh -c "printf '%s\n' '$src' | c++ -std=$std -I'$inc' -Wall -Wextra -Werror -pedantic -fsyntax-only -x c++ -"
done
mpi=$(nm -D --defined-only "$lib" | awk '$3 ~ /^MPI_/ {print substr($3, 5)}' | sort)
pmpi=$(nm -D --defined-only "$lib" | awk '$3 ~ /^PMPI_/ {print substr($3, 6)}' | sort)
check "libhmpi exports MPI_ functions" test -n "$mpi"
missing=$(comm -23 <(echo "$mpi") <(echo "$pmpi"))
check "every MPI_X has its PMPI_X twin" test -z "$missing"
[ -n "$missing" ] && echo "without PMPI_ twin: $missing"
declared=$(sed -n 's/^HMPI_DECLARE_API([^,]*, *\([A-Za-z0-9_]*\),.*/\1/p' "$inc/mpi.h" | sort)
unexported=$(comm -23 <(echo "$declared") <(echo "$mpi"))
check "every function mpi.h declares is exported" test -z "$unexported"
[ -n "$unexported" ] && echo "declared but not in libhmpi:" $unexported
weak=$(nm -D --defined-only "$lib" | awk '$3 ~ /^MPI_/ && $2 != "W" {print $3}')
check "MPI_X are weak (a profiling library's MPI_X wins)" test -z "$weak"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
