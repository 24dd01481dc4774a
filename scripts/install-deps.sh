#!/usr/bin/env bash
# Installs HMPI's build and test dependencies from Debian 12 packages (run as root).
# Open MPI and MPICH are needed only by the tests and benchmarks that compare
# against them: HMPI itself never loads a system MPI on a single node.
set -euo pipefail
packages=(
  build-essential cmake pkg-config          # toolchain
  autoconf                                  # tests: hmpicc under a real configure script
  clang-14 llvm-14-dev                      # privatization of globals: the pass plugin (privatize/)
  libhwloc-dev hwloc libnuma-dev            # topology and placement
  libboost-context-dev                      # fiber mode (later issues)
  doctest-dev                               # unit tests
  openmpi-bin libopenmpi-dev                # reference MPI for tests and benchmarks
  mpich libmpich-dev                        # second reference MPI for benchmarks
  python3                                   # benchmark tables
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all packages present"
fi
