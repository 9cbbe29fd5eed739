#!/usr/bin/env bash
# dispatchlab against ONNX Runtime's CPU execution provider on this machine (a
# benchmark, not part of CI): installs the bench-only packages
# (DISPATCHLAB_SETUP_ORT=1 scripts/setup.sh: python3-onnx, python3-numpy,
# nodejs, npm and onnxruntime-node into scripts/ort/node_modules), builds
# dispatchlab, then runs scripts/bench_vs_ort.py (see its --help).
# Usage: scripts/bench_vs_ort.sh [--no-build] [--models a,b] [--threads 1,2]
#          [--rounds N] [--repetitions N] [--out FILE.md]
#   --no-build skips installing and building (use an existing build/).
set -euo pipefail
cd "$(dirname "$0")/.."
args=()
build=1
for arg in "$@"; do
  if [[ $arg == --no-build ]]; then build=0; else args+=("$arg"); fi
done
if [[ $build == 1 ]]; then
  DISPATCHLAB_SETUP_ORT=1 DISPATCHLAB_SETUP_NO_BUILD=1 scripts/setup.sh
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j2 --target dispatchlab
fi
exec /usr/bin/python3 scripts/bench_vs_ort.py "${args[@]}"
