#!/usr/bin/env bash
# dispatchlab against PyTorch eager and OpenBLAS sgemm on this machine (a
# benchmark, not part of CI): installs the bench-only Debian packages
# (DISPATCHLAB_SETUP_BENCH=1 scripts/setup.sh), builds dispatchlab and
# dispatchlab-sgemm-bench, then runs scripts/bench_vs_reference.py, which
# prints markdown tables (see its --help).
# Usage: scripts/bench_vs_reference.sh [--no-build] [--threads 1,2]
#          [--repetitions N] [--sections models,matmul,fusion] [--out FILE.md]
#   --no-build skips installing and building (use an existing build/).
exec "$(dirname "$0")/bench_side_by_side.sh" DISPATCHLAB_SETUP_BENCH "dispatchlab dispatchlab-sgemm-bench" \
  scripts/bench_vs_reference.py "$@"
