#!/usr/bin/env bash
# The main job: install, build, and run a real MPI program (a 1-D heat
# equation solver, apps/heat1d.c) on 4 ranks under hmpirun. No system MPI is used.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
echo "+ build/bin/hmpirun -np 4 build/bin/heat1d"
build/bin/hmpirun -np 4 build/bin/heat1d
