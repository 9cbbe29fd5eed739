#!/usr/bin/env python3
"""Dispatch counts of every zoo model under pipeline=full and pipeline=iree.

Compiles each model in zoo.json under iree-O0 with `--pipeline=full`,
`--pipeline=iree`, and `--pipeline=iree` with each GlobalOptimization knob
switched against its default (heuristics/HeuristicKnobs.def), and prints a
Markdown table next to the published Disabled count; a knob's cell is the
count with the knob switched, so its difference to the `iree` column is what
that pass moves. docs/zoo.md holds the table.

    experiments/models/globalopt_table.py [--binary build/bin/dispatchlab] [--jobs 2]

Python 3 standard library only.
"""

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from zoo_table import ROOT, published_counts  # noqa: E402

# Column name -> the flags after --preset=iree-O0.
VARIANTS = (
    ("full", ["--pipeline=full"]),
    ("iree", ["--pipeline=iree"]),
    ("detach-elementwise=false", ["--pipeline=iree", "--detach-elementwise=false"]),
    ("erase-unused-operands=false", ["--pipeline=iree", "--erase-unused-operands=false"]),
    ("raise-special-ops=false", ["--pipeline=iree", "--raise-special-ops=false"]),
    ("decompose-concat=false", ["--pipeline=iree", "--decompose-concat=false"]),
    ("outer-dim-concat=true", ["--pipeline=iree", "--outer-dim-concat=true"]),
    ("propagate-transposes=false", ["--pipeline=iree", "--propagate-transposes=false"]),
    ("batch-matmul-to-matmul=false", ["--pipeline=iree", "--batch-matmul-to-matmul=false"]),
    ("strided-contraction-to-contraction=false",
     ["--pipeline=iree", "--strided-contraction-to-contraction=false"]),
    ("demote-contraction-inputs-operations=all", ["--pipeline=iree", "--demote-contraction-inputs-operations=all"]),
    ("quantized-matmul-reassociation=true", ["--pipeline=iree", "--quantized-matmul-reassociation=true"]),
    ("const-expr-hoisting=false", ["--pipeline=iree", "--const-expr-hoisting=false"]),
    ("demote=all, hoisting=false", ["--pipeline=iree", "--demote-contraction-inputs-operations=all",
                                     "--const-expr-hoisting=false"]),
)


def count_dispatches(binary, path, flags):
    """Dispatches of one compile, or the last line of its error."""
    proc = subprocess.run(
        [binary, "compile", path, "--preset=iree-O0", "--emit=stats"] + flags,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        return "error: " + (proc.stderr.strip().splitlines() or ["exit %d" % proc.returncode])[-1]
    return json.loads(proc.stdout)["dispatches"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "build", "bin", "dispatchlab"))
    parser.add_argument("--zoo", default=os.path.join(HERE, "zoo.json"))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()

    with open(args.zoo) as f:
        zoo = json.load(f)
    start = time.monotonic()
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for model in zoo["models"]:
            path = os.path.join(os.path.dirname(args.zoo), model["file"])
            for name, flags in VARIANTS:
                jobs[model["name"], name] = pool.submit(count_dispatches, args.binary, path, flags)
    published = published_counts(zoo)
    names = [name for name, _ in VARIANTS]
    print("| model | " + " | ".join(names) + " | Disabled |")
    print("|---|" + "---|" * (len(names) + 1))
    failed = False
    for model in zoo["models"]:
        cells = [str(jobs[model["name"], name].result()) for name in names]
        failed |= any(cell.startswith("error") for cell in cells)
        row = model.get("published", {}).get("aggressive_stream")
        disabled = published.get(row, ("—", "—"))[0]
        print("| " + " | ".join([model["name"]] + cells + [str(disabled)]) + " |")
    print("\n%d models x %d variants in %.1f s" % (len(zoo["models"]), len(VARIANTS), time.monotonic() - start))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
