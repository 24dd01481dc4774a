#!/usr/bin/env bash
# autoconf.sh BIN_DIR WORKDIR: hmpicc the way configure scripts and Makefiles use a compiler.
#   1. The questions configure asks: --version, -v, -E, -c (conftest.o), -show/-showme:compile/
#      -showme:link, and a conftest that calls MPI_Init compiled and linked in one step and run.
#   2. A real configure script (autoconf, if installed): CC=hmpicc ./configure with AC_PROG_CC,
#      AC_CHECK_HEADER(mpi.h) and AC_CHECK_FUNC(MPI_Init), then make, then the program run under
#      hmpirun at 4 ranks checks that its global is per rank.
set -u
bin=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
hmpicc=$bin/hmpicc
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
failed=0
fail() { echo "FAIL: $*"; failed=1; }

"$hmpicc" --version >version.out 2>&1 || fail "hmpicc --version"
grep -qi "clang\|gcc\|version" version.out || fail "hmpicc --version printed: $(cat version.out)"
"$hmpicc" -v >/dev/null 2>&1 || fail "hmpicc -v"
cat >conftest.c <<'SRC'
#include <mpi.h>
#define HMPI_CONFTEST_MACRO 42
int value = HMPI_CONFTEST_MACRO;
int main(int argc, char **argv) {
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 1;
    MPI_Finalize();
    return value == 42 ? 0 : 1;
}
SRC
"$hmpicc" -E conftest.c >conftest.i 2>&1 || fail "hmpicc -E"
grep -q "value = 42" conftest.i || fail "hmpicc -E did not preprocess"
grep -q "MPI_Init" conftest.i || fail "hmpicc -E did not find mpi.h"
"$hmpicc" -c conftest.c && [[ -s conftest.o ]] || fail "hmpicc -c conftest.c made no conftest.o"
nm conftest.o | grep -q __hmpi_priv_marker || fail "conftest.o was not privatized"
"$hmpicc" -o conftest conftest.c || fail "hmpicc -o conftest conftest.c"
./conftest || fail "./conftest (one rank, no launcher) failed"
"$hmpicc" -o conftest2 conftest.o || fail "linking conftest.o"
show=$("$hmpicc" -show -o conftest conftest.c) || fail "hmpicc -show"
echo "-show: $show"
grep -q -- "-fpass-plugin=" <<<"$show" || fail "-show lacks the pass"
grep -q -- "--wrap=main" <<<"$show" || fail "-show lacks the link flags"
compile=$("$hmpicc" -showme:compile) && grep -q -- "-I" <<<"$compile" || fail "-showme:compile: $compile"
link=$("$hmpicc" -showme:link) && grep -q -- "-lhmpi" <<<"$link" || fail "-showme:link: $link"

if command -v autoconf >/dev/null && command -v make >/dev/null; then
    mkdir -p project && cd project || exit 1
    cp "$here/toolchain_prog.c" prog.c
    cp "$here/../mpi/mpitest.h" .
    sed -i 's|"../mpi/mpitest.h"|"mpitest.h"|' prog.c
    cat >configure.ac <<'AC'
AC_INIT([hmpi-conftest], [1.0])
AC_PROG_CC
AC_CHECK_HEADER([mpi.h], [], [AC_MSG_ERROR([mpi.h not found])])
AC_CHECK_FUNC([MPI_Init], [], [AC_MSG_ERROR([MPI_Init not found])])
AC_CONFIG_FILES([Makefile])
AC_OUTPUT
AC
    printf 'CC = @CC@\nCFLAGS = @CFLAGS@\nprog: prog.c\n\t$(CC) $(CFLAGS) -o prog prog.c\n' >Makefile.in
    autoconf >autoconf.log 2>&1 || { cat autoconf.log; fail "autoconf"; }
    CC=$hmpicc ./configure >configure.out 2>&1 || { cat configure.out config.log; fail "CC=hmpicc ./configure"; }
    grep "MPI_Init\|mpi.h\|C compiler works" configure.out
    make >make.out 2>&1 || { cat make.out; fail "make"; }
    out=$("$bin/hmpirun" -np 4 --timeout 60 ./prog 2>&1)
    echo "$out"
    grep -q " No Errors" <<<"$out" || fail "the configured program under hmpirun"
else
    echo "no autoconf: the configure-script part is skipped"
fi
((failed == 0)) && echo "autoconf-style use of hmpicc works"
exit $failed
