#!/usr/bin/env python3
"""Measures this machine's one-core compute and memory peaks with dispatchlab
itself, for scripts/roofline.py.

  compute    experiments/roofline/matmul_1024.mlir: a 1024^3 f32 matmul whose
             right-hand side is a weight, packed into panels as a model's
             weights are
  bandwidth  experiments/roofline/scale_64mb.mlir: y = 2 x, 64 MB in and
             64 MB out

Each is `dispatchlab run FILE --parameters=random --threads 1
--profile-dispatches` under `taskset -c CPU`. FLOPs and bytes are the run's
own compile-stats figures (the dispatch groups' `flops`, `bytes_read` and
`bytes_written`), counted as roofline.py counts a model's: a write is
counted once, though a CPU may read a line before writing it. Times are the
dispatch's median in the profile, as roofline.py's are, so the host's work
around the call (copying the 64 MB result out) is not in them; the figure
from the model's median latency is printed beside it. Prints the load
average before and after: on a loaded machine the figures are not the
machine's.

Usage: measure_peaks.py [--cpu 1] [--repetitions 20] [--binary PATH]
"""

import argparse
import json
import os
import subprocess
import sys

from bench_common import load_average

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = os.path.join(ROOT, "experiments", "roofline")


def run(binary, cpu, repetitions, model):
    """The run JSON of `model`, pinned to `cpu`."""
    command = ["taskset", "-c", str(cpu), binary, "run",
               os.path.join(MODELS, model), "--parameters=random",
               "--threads", "1", "--repetitions", str(repetitions),
               "--profile-dispatches", "--emit=json"]
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit(f"error: {' '.join(command)} failed:\n{result.stderr}")
    return json.loads(result.stdout)


def work(run_json):
    """(flops, bytes, dispatch ms, model ms) of a run: its dispatch groups'
    work, their summed profile medians and the model's median latency."""
    groups = run_json["compile"]["groups"]
    if any("flops" not in g for g in groups):
        sys.exit("error: the run JSON has no flops: rebuild dispatchlab")
    return (sum(g["flops"] for g in groups),
            sum(g["bytes_read"] + g["bytes_written"] for g in groups),
            sum(d["median_ms"] for d in run_json["dispatch_profile"]),
            run_json["latency"]["median_ms"])


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cpu", type=int, default=1)
    parser.add_argument("--repetitions", type=int, default=20)
    parser.add_argument("--binary",
                        default=os.path.join(ROOT, "build", "bin",
                                             "dispatchlab"))
    args = parser.parse_args()

    print(f"load average before: {load_average()}")
    matmul = run(args.binary, args.cpu, args.repetitions, "matmul_1024.mlir")
    scale = run(args.binary, args.cpu, args.repetitions, "scale_64mb.mlir")
    print(f"load average after:  {load_average()}")

    if not matmul.get("packed_weight_bytes"):
        print("warning: the matmul's weight was not packed into panels")
    flops, _, dispatch_ms, model_ms = work(matmul)
    gflops = flops / (dispatch_ms * 1e6)
    print(f"compute:   {gflops:.1f} GFLOP/s ({flops} FLOPs in "
          f"{dispatch_ms:.3f} ms, the dispatch's median; "
          f"{flops / (model_ms * 1e6):.1f} from the model's median)")
    _, nbytes, dispatch_ms, model_ms = work(scale)
    gbps = nbytes / (dispatch_ms * 1e6)
    print(f"bandwidth: {gbps:.2f} GB/s ({nbytes} bytes in "
          f"{dispatch_ms:.3f} ms, the dispatch's median; "
          f"{nbytes / (model_ms * 1e6):.2f} from the model's median)")
    print(f"scripts/roofline.py RUN.json --peak-gflops {gflops:.1f} "
          f"--peak-gbps {gbps:.2f}")


if __name__ == "__main__":
    main()
