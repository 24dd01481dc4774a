#!/usr/bin/env bash
# cmake-project.sh STYLE BIN_DIR WORKDIR: the wrappers as CMake sees them. Configures a tiny CMake
# project (C and C++, find_package(MPI REQUIRED), MPI::MPI_C / MPI::MPI_CXX), builds it, and runs
# both programs under hmpirun at 4 ranks; each checks that its global is per rank (privatized).
#   STYLE findmpi:  -DMPI_C_COMPILER=BIN_DIR/hmpicc -DMPI_CXX_COMPILER=BIN_DIR/hmpicxx with the
#                   project compiled by clang-14/clang++-14: FindMPI interrogates the wrappers
#                   (-showme:compile, -showme:link) and the flags it extracts privatize.
#   STYLE compiler: -DCMAKE_C_COMPILER=BIN_DIR/hmpicc -DCMAKE_CXX_COMPILER=BIN_DIR/hmpicxx: FindMPI
#                   finds that the compiler builds MPI code by itself.
set -u
style=$1 bin=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work/src" "$work/build" || exit 1
cat >"$work/src/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.13)
project(hmpi_findmpi C CXX)
find_package(MPI REQUIRED)
message(STATUS "MPI_C_COMPILER=\${MPI_C_COMPILER} MPI_C_COMPILE_OPTIONS=\${MPI_C_COMPILE_OPTIONS} MPI_C_LIBRARIES=\${MPI_C_LIBRARIES}")
add_executable(prog_c $here/toolchain_prog.c)
target_link_libraries(prog_c PRIVATE MPI::MPI_C)
add_executable(prog_cxx $here/toolchain_prog.cpp)
target_link_libraries(prog_cxx PRIVATE MPI::MPI_CXX)
CMAKE
case $style in
    findmpi) flags=(-DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14
                    -DMPI_C_COMPILER="$bin/hmpicc" -DMPI_CXX_COMPILER="$bin/hmpicxx") ;;
    compiler) flags=(-DCMAKE_C_COMPILER="$bin/hmpicc" -DCMAKE_CXX_COMPILER="$bin/hmpicxx") ;;
    *) echo "unknown style $style"; exit 2 ;;
esac
cmake -S "$work/src" -B "$work/build" "${flags[@]}" >"$work/configure.log" 2>&1 ||
    { cat "$work/configure.log"; echo "FAIL: configuring"; exit 1; }
grep "MPI_C_COMPILER=" "$work/configure.log"
cmake --build "$work/build" -j2 >"$work/build.log" 2>&1 || { cat "$work/build.log"; echo "FAIL: building"; exit 1; }
status=0
for prog in prog_c prog_cxx; do
    out=$("$bin/hmpirun" -np 4 --timeout 60 "$work/build/$prog" 2>&1)
    rc=$?
    echo "$prog: $out"
    if [[ $rc != 0 ]] || ! grep -q " No Errors" <<<"$out"; then echo "FAIL: $prog"; status=1; fi
done
exit $status
