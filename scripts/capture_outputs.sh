#!/usr/bin/env bash
# Captures the outputs a behaviour-preserving change must leave byte-identical:
# compile stats (without the commit) and tables of every zoo model and seed
# under the three presets, the default sweep's table, report in every format
# for three metrics, and --help. Compare two captures with `diff -r`.
# Usage: scripts/capture_outputs.sh BUILD_DIR OUT_DIR   (from the repository root)
set -uo pipefail
B=$1/bin
OUT=$2
mkdir -p "$OUT"
for m in experiments/models/*.onnx experiments/models/*.mlir tests/inputs/seeds/*.mlir; do
  for p in iree-O0 iree-O2 no-fusion; do
    n=$OUT/$(basename "$m").$p
    "$B/dispatchlab" compile "$m" --preset=$p --emit=stats 2>&1 |
      grep -v '"dispatchlab_commit"' > "$n.json"
    "$B/dispatchlab" compile "$m" --preset=$p --emit=table > "$n.table" 2>&1
  done
done
rm -f "$OUT/db.sqlite"
# Progress lines carry ETAs; the table after them is what must not change.
"$B/dispatchlab" sweep experiments/default.txtpb --workers 2 --db "$OUT/db.sqlite" 2>/dev/null |
  grep -v '^sweep default' > "$OUT/sweep.txt"
for f in table md csv json html; do
  for metric in dispatches transient_bytes generic_after; do
    "$B/dispatchlab" report --db "$OUT/db.sqlite" --format $f --metric $metric \
      --baseline preset=iree-O0 > "$OUT/report.$metric.$f" 2>&1
  done
done
rm -f "$OUT/db.sqlite"
"$B/dispatchlab" --help > "$OUT/help.txt" 2>&1
