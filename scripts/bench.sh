#!/usr/bin/env bash
# Builds and runs the formation-time benchmark (not part of ctest).
# Usage: scripts/bench.sh [JSON_OUT] [extra Google Benchmark flags...]
#   JSON_OUT, if given, also receives the results as JSON.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$BUILD_DIR" dispatchlab-bench
args=(--benchmark_format=console)
if [[ $# -gt 0 && $1 != --* ]]; then
  args+=("--benchmark_out=$1" --benchmark_out_format=json)
  shift
fi
exec "$BUILD_DIR/bin/dispatchlab-bench" "${args[@]}" "$@"
