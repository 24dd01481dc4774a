#!/usr/bin/env bash
# Configures and builds HMPI into ./build (or $HMPI_BUILD_DIR), with any extra CMake arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${HMPI_BUILD_DIR:-build}
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$dir" -j "$(nproc)"
