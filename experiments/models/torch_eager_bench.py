#!/usr/bin/python3
"""Times zoo models in PyTorch eager mode (the reference of
scripts/bench_vs_reference.sh).

The networks and inputs are export_zoo.py's own (same constructors, same
static shapes, random initialisation), so torch runs what the committed ONNX
files hold. Inference only: eval(), torch.inference_mode(). One warm-up call
(or --warmup), then --repetitions timed calls (time.perf_counter).

Needs Debian 12's python3-torch and python3-torchvision; run it with
/usr/bin/python3. Torch calls the system BLAS (libblas.so.3, a Debian
alternative: the reference BLAS, or OpenBLAS once libopenblas0 is installed),
so the output names the BLAS library that was loaded.

Usage: /usr/bin/python3 experiments/models/torch_eager_bench.py
           [--threads T] [--repetitions N] [--warmup W] MODEL...
Prints one JSON object: {"torch", "threads", "blas", "models": {MODEL:
{"median_ms", "mean_ms", "min_ms", "stddev_ms", "samples_ms"}}}.
"""

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

import export_zoo  # noqa: E402


def loaded_blas() -> str:
    """Path of the BLAS shared object mapped into this process."""
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "/lib" in line}
    blas = sorted(p for p in paths
                  if "libblas" in os.path.basename(p)
                  or "libopenblas" in os.path.basename(p))
    return ", ".join(os.path.realpath(p) for p in blas) or "none"


def time_model(model: export_zoo.ZooModel, repetitions: int,
               warmup: int) -> dict:
    torch.manual_seed(0)
    net = model.build().eval()
    inputs = export_zoo.example_inputs(model)
    samples = []
    with torch.inference_mode():
        for _ in range(warmup):
            net(*inputs)
        for _ in range(repetitions):
            start = time.perf_counter()
            net(*inputs)
            samples.append((time.perf_counter() - start) * 1e3)
    return {
        "median_ms": statistics.median(samples),
        "mean_ms": statistics.fmean(samples),
        "min_ms": min(samples),
        "stddev_ms": statistics.stdev(samples) if len(samples) > 1 else 0.0,
        "samples_ms": samples,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="+", metavar="MODEL")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=1)
    args = parser.parse_args()
    if args.threads < 1 or args.repetitions < 1 or args.warmup < 0:
        sys.exit("torch_eager_bench.py: error: --threads and --repetitions "
                 "must be positive, --warmup non-negative")
    zoo = {m.name: m for m in export_zoo.ZOO}
    for name in args.models:
        if name not in zoo:
            sys.exit(f"torch_eager_bench.py: error: unknown zoo model "
                     f"'{name}' (known: {', '.join(zoo)})")

    torch.set_num_threads(args.threads)
    results = {name: time_model(zoo[name], args.repetitions, args.warmup)
               for name in args.models}
    json.dump({"torch": torch.__version__, "threads": torch.get_num_threads(),
               "blas": loaded_blas(), "models": results}, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
