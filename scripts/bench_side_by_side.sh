#!/usr/bin/env bash
# What bench_vs_reference.sh and bench_vs_ort.sh share: install one opt-in
# package set, build the targets a benchmark needs, then run its script.
# Usage: scripts/bench_side_by_side.sh SETUP_VARIABLE "TARGETS" SCRIPT.py
#          [--no-build] [script arguments...]
#   SETUP_VARIABLE: the scripts/setup.sh switch (DISPATCHLAB_SETUP_BENCH,
#   DISPATCHLAB_SETUP_ORT); --no-build skips installing and building.
set -euo pipefail
cd "$(dirname "$0")/.."
setup=$1 targets=$2 script=$3
shift 3
args=()
build=1
for arg in "$@"; do
  if [[ $arg == --no-build ]]; then build=0; else args+=("$arg"); fi
done
if [[ $build == 1 ]]; then
  env "$setup=1" DISPATCHLAB_SETUP_NO_BUILD=1 scripts/setup.sh
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  # shellcheck disable=SC2086 # TARGETS is a list
  cmake --build build -j2 --target $targets
fi
exec /usr/bin/python3 "$script" "${args[@]}"
