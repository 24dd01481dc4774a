#!/usr/bin/env bash
# The main job: install, build, and run a real MPI program (a 1-D heat
# equation solver, apps/heat1d.c), compiled with hmpicc, on 4 ranks under
# hmpirun. No system MPI is used.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
# Compiled the way users compile: hmpicc (clang-14 with per-rank globals).
echo "+ build/bin/hmpicc -O2 -o build/heat1d apps/heat1d.c -lm"
build/bin/hmpicc -O2 -o build/heat1d apps/heat1d.c -lm
echo "+ build/bin/hmpirun -np 4 build/heat1d"
build/bin/hmpirun -np 4 build/heat1d
