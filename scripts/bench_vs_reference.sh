#!/usr/bin/env bash
# dispatchlab against PyTorch eager and OpenBLAS sgemm on this machine (a
# benchmark, not part of CI): installs the bench-only Debian packages
# (DISPATCHLAB_SETUP_BENCH=1 scripts/setup.sh), builds dispatchlab and
# dispatchlab-sgemm-bench, then runs scripts/bench_vs_reference.py, which
# prints markdown tables (see its --help).
# Usage: scripts/bench_vs_reference.sh [--no-build] [--threads 1,2]
#          [--repetitions N] [--sections models,matmul,fusion] [--out FILE.md]
#   --no-build skips installing and building (use an existing build/).
set -euo pipefail
cd "$(dirname "$0")/.."
args=()
build=1
for arg in "$@"; do
  if [[ $arg == --no-build ]]; then build=0; else args+=("$arg"); fi
done
if [[ $build == 1 ]]; then
  DISPATCHLAB_SETUP_BENCH=1 DISPATCHLAB_SETUP_NO_BUILD=1 scripts/setup.sh
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j2 --target dispatchlab dispatchlab-sgemm-bench
fi
exec /usr/bin/python3 scripts/bench_vs_reference.py "${args[@]}"
