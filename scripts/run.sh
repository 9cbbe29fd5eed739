#!/usr/bin/env bash
# The main job: install, build, then run the default sweep (IREE's default
# heuristics, aggressive fusion and the no-fusion reference over the seed
# example and zoo models) with an embedded coordinator and local workers, and
# print its table. Results land in the default database (--db; see
# docs/sweeps.md); a second run reuses
# them (cached) unless --force is given.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
exec build/bin/dispatchlab sweep experiments/default.txtpb --workers 2 "$@"
