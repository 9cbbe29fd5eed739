#!/usr/bin/env bash
# The main job: install, build, then form dispatches for the seed example
# under IREE's default heuristics and print its dispatch table.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
exec build/bin/dispatchlab compile tests/inputs/seeds/000_matmul_bias_relu.mlir --emit=table "$@"
