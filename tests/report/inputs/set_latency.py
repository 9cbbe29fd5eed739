"""Rewrites one run result's latency from another's, for report tests that
need a known answer: set_latency.py DB SWEEP VARIANT FROM_SWEEP FROM_VARIANT
FACTOR [--drop-samples | --keep N] gives the first (sweep, variant)'s result
the samples and median of the second's times FACTOR (FACTOR 1: the same
samples, which no test can tell apart), without samples or with only the
first N. set_latency.py DB SWEEP VARIANT --fixed MEDIAN gives it 20 samples
spread evenly over MEDIAN +-10% instead, so that intervals computed from it
do not depend on how noisy the machine was when the sweep ran."""
import json
import sqlite3
import sys

if sys.argv[4] == "--fixed":
    db, sweep, variant, _, median = sys.argv[1:6]
    from_sweep, from_variant, factor = sweep, variant, 1.0
    fixed = float(median)
else:
    db, sweep, variant, from_sweep, from_variant, factor = sys.argv[1:7]
    fixed = None
options = sys.argv[7:]
drop = "--drop-samples" in options
keep = int(options[options.index("--keep") + 1]) if "--keep" in options else None
factor = float(factor)
con = sqlite3.connect(db)


def result(sweep_name, variant_name):
    row = con.execute(
        "SELECT r.id, r.stats_json FROM jobs j JOIN sweeps s ON s.id = j.sweep_id "
        "JOIN results r ON r.id = j.result_id WHERE s.name = ? AND j.variant = ?",
        (sweep_name, variant_name)).fetchone()
    if row is None:
        sys.exit(f"set_latency.py: no result for {sweep_name}/{variant_name}")
    return row[0], json.loads(row[1])


target_id, target = result(sweep, variant)
_, source = result(from_sweep, from_variant)
latency = target["run"]["latency"]
if fixed is not None:
    source["run"]["latency"]["median_ms"] = fixed
    source["run"]["latency"]["samples_ms"] = [
        fixed * (0.9 + 0.01 * k) for k in range(20)]
latency["median_ms"] = source["run"]["latency"]["median_ms"] * factor
latency["samples_ms"] = [s * factor for s in source["run"]["latency"]["samples_ms"]]
if drop:
    del latency["samples_ms"]
elif keep is not None:
    latency["samples_ms"] = latency["samples_ms"][:keep]
con.execute("UPDATE results SET stats_json = ? WHERE id = ?",
            (json.dumps(target), target_id))
con.commit()
