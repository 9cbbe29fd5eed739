#!/usr/bin/env bash
# The main job: install, build, then run the default sweep (IREE's default
# heuristics, aggressive fusion and the no-fusion reference over the seed
# example and zoo models: dispatch counts) and its latency half (each
# variant timed against no-fusion in interleaved rounds: paired ratios),
# each with an embedded coordinator and local workers, and print both
# tables. Results land in the default database (--db; see docs/sweeps.md);
# a second run reuses them (cached) unless --force is given.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
build/bin/dispatchlab sweep experiments/default.txtpb --workers 2 "$@"
echo
exec build/bin/dispatchlab sweep experiments/default_latency.txtpb --workers 2 "$@"
