#!/usr/bin/env bash
# dispatchlab against ONNX Runtime's CPU execution provider on this machine (a
# benchmark, not part of CI): installs the bench-only packages
# (DISPATCHLAB_SETUP_ORT=1 scripts/setup.sh: python3-onnx, python3-numpy,
# nodejs, npm and onnxruntime-node into scripts/ort/node_modules), builds
# dispatchlab, then runs scripts/bench_vs_ort.py (see its --help).
# Usage: scripts/bench_vs_ort.sh [--no-build] [--models a,b] [--threads 1,2]
#          [--rounds N] [--repetitions N] [--profile-ops] [--out FILE.md]
#   --no-build skips installing and building (use an existing build/).
exec "$(dirname "$0")/bench_side_by_side.sh" DISPATCHLAB_SETUP_ORT "dispatchlab" \
  scripts/bench_vs_ort.py "$@"
