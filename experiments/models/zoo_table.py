#!/usr/bin/env python3
"""Dispatch counts of every zoo model under iree-O0 and iree-O2.

Compiles each model in zoo.json with `dispatchlab compile --emit=stats` under
both presets and prints a Markdown table next to the published stream-level
counts (aggressive fusion Disabled/Enabled) of the row the model maps to.

    experiments/models/zoo_table.py [--binary build/bin/dispatchlab] [--jobs 2]
    experiments/models/zoo_table.py --check   # tests/zoo/zoo_compiles.test
    experiments/models/zoo_table.py --roots   # iree-O0 dispatches by root op

--check fails (exit 1) when a model does not import or compile, forms no
dispatch, or forms more dispatches under iree-O2 than under iree-O0. Models
are read from zoo.json, so new ones are covered without editing anything.
Python 3 standard library only.
"""

import argparse
import concurrent.futures
import csv
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PRESETS = ("iree-O0", "iree-O2")


def compile_model(binary, path, preset):
    """Stats of one compile, or the error text."""
    proc = subprocess.run(
        [binary, "compile", path, "--preset=" + preset, "--emit=stats"],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        return None, proc.stderr.strip().splitlines()[-1:] or ["exit %d" % proc.returncode]
    return json.loads(proc.stdout), None


# Columns of the --roots table: the structural class of each fused
# dispatch's root (`root_class` in the stats), then scalar and copy dispatches.
ROOT_CLASSES = ("conv", "contraction", "reduction", "elementwise", "other")


def root_kind(group):
    return group["root_class"] if group["kind"] == "fused" else group["kind"]


def print_roots(models, jobs):
    """iree-O0 dispatches of each model split by what their root is."""
    kinds = list(ROOT_CLASSES) + ["scalar", "copy"]
    print("\n| model | dispatches | " + " | ".join(kinds) + " |")
    print("|---|---|" + "---|" * len(kinds))
    for model in models:
        stats, error = jobs[model["name"], "iree-O0"].result()
        if error:
            continue
        counts = {kind: 0 for kind in kinds}
        for group in stats["groups"]:
            counts[root_kind(group)] += 1
        cells = [model["name"], str(stats["dispatches"])] + [str(counts[k]) for k in kinds]
        print("| " + " | ".join(cells) + " |")


def published_counts(zoo):
    """Published Disabled/Enabled by row name of the aggressive_stream table."""
    rows = {}
    for table in zoo["published_tables"]["aggressive_stream"]:
        with open(os.path.join(ROOT, table)) as f:
            lines = [line for line in f if not line.startswith("#")]
        for row in csv.DictReader(lines):
            rows[row["Model"]] = (int(row["Disabled"]), int(row["Enabled"]))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "build", "bin", "dispatchlab"))
    parser.add_argument("--zoo", default=os.path.join(HERE, "zoo.json"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--check", action="store_true", help="fail on any broken model")
    parser.add_argument("--roots", action="store_true", help="also print iree-O0 dispatches by root op")
    args = parser.parse_args()

    with open(args.zoo) as f:
        zoo = json.load(f)
    models = zoo["models"]
    jobs = {}
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for model in models:
            path = os.path.join(os.path.dirname(args.zoo), model["file"])
            for preset in PRESETS:
                jobs[model["name"], preset] = pool.submit(compile_model, args.binary, path, preset)
    elapsed = time.monotonic() - start

    published = published_counts(zoo)
    failures = []
    print("| model | iree-O0 | iree-O2 | published row | Disabled | Enabled |")
    print("|---|---|---|---|---|---|")
    for model in models:
        name = model["name"]
        counts = []
        for preset in PRESETS:
            stats, error = jobs[name, preset].result()
            count = stats["dispatches"] if stats else None
            if error:
                failures.append("%s (%s): %s" % (name, preset, " ".join(error)))
            elif count <= 0:
                failures.append("%s (%s): no dispatches" % (name, preset))
            counts.append(count)
        if None not in counts and counts[1] > counts[0]:
            failures.append("%s: iree-O2 forms %d dispatches, iree-O0 %d" % (name, counts[1], counts[0]))
        row = model.get("published", {}).get("aggressive_stream")
        disabled, enabled = published.get(row, ("—", "—"))
        cells = [name] + ["error" if c is None else str(c) for c in counts]
        cells += [row or "—", str(disabled), str(enabled)]
        print("| " + " | ".join(cells) + " |")
    if args.roots:
        print_roots(models, jobs)
    print("\n%d models x %d presets in %.1f s" % (len(models), len(PRESETS), elapsed))
    for failure in failures:
        print("FAILED: " + failure)
    if args.check and not failures:
        print("all %d zoo models compile" % len(models))
    return 1 if args.check and failures else 0


if __name__ == "__main__":
    sys.exit(main())
