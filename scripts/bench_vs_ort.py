#!/usr/bin/python3
"""dispatchlab against ONNX Runtime's CPU execution provider, side by side in
one run on one machine (a benchmark, not a test).

Run it through scripts/bench_vs_ort.sh, which installs the bench-only
packages (python3-onnx, numpy, nodejs, onnxruntime-node) and builds first.

For every zoo model (experiments/models/zoo.json, --models to choose):
  1. One ONNX file both runtimes read: the zoo file with its stripped
     initializers filled with seeded values (uniform in [-1, 1), divided by
     sqrt(elements / largest dim) for rank >= 2: the rule dispatchlab's
     `--parameters=random` uses, so activations stay finite), and seeded
     inputs (floats uniform in [-1, 1), integers 0 or 1) as .npy files.
     Models that ship their weights and inputs use those.
  2. For each thread count T of --threads and each of --rounds rounds:
     `dispatchlab run --parameters=model --preset=P --threads=T` and ONNX
     Runtime (scripts/ort/run_session.mjs: intra-op threads T, sequential,
     all graph optimizations), both pinned with taskset to the last T cores
     of this process's affinity set, in alternating order (ORT first in even
     rounds, dispatchlab first in odd ones). Each figure is the median of
     --repetitions calls after --warmup-seconds of untimed calls.
  3. The outputs are compared: dispatchlab's against ORT's (max|a-b|/max|b|
     per output, reported; above --tolerance is a failure), and dispatchlab
     checks its own against the no-fusion loops reference as always.
  4. With --profile-ops, one more pass at the first thread count with both
     profilers on (ORT's per node, dispatchlab's --profile-dispatches): a
     table of each runtime's time by op type and by dispatch class, and
     ORT's Conv and matmul nodes paired with our dispatches by FLOPs in call
     order, the largest gaps listed (scripts/op_profile.py). Not timed
     rounds: profiling slows the calls.

Speed is ORT's time over dispatchlab's (above 1: dispatchlab is faster),
the geometric mean of the per-round ratios. Prints markdown; --out FILE also
writes it with the date, CPU, load, commit and command.
"""

import argparse
import datetime
import json
import math
import os
import shlex
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence

import op_profile
import roofline
from bench_common import PinnedRunner, load_average, read_cpu

import numpy as np
import onnx
from onnx import numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS_DIR = os.path.join(ROOT, "experiments", "models")
SESSION = os.path.join(ROOT, "scripts", "ort", "run_session.mjs")
NODE_MODULES = os.path.join(ROOT, "scripts", "ort", "node_modules")


@dataclass
class Timing:
    """Per-round medians in ms, or the error that prevented them."""
    rounds: List[float] = field(default_factory=list)
    error: str = ""


def fail(message: str) -> None:
    sys.exit(f"bench_vs_ort: error: {message}")



def fill_initializers(model: onnx.ModelProto, seed: int) -> None:
    """Gives every stripped initializer seeded values (see the module doc)."""
    for index, tensor in enumerate(model.graph.initializer):
        if tensor.doc_string != "stripped":
            continue
        dims = list(tensor.dims)
        dtype = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[tensor.data_type]
        rng = np.random.default_rng(seed + index)
        values = rng.uniform(-1.0, 1.0, size=dims)
        count = int(np.prod(dims)) if dims else 1
        if len(dims) >= 2 and count:
            values /= math.sqrt(count / max(dims))
        filled = numpy_helper.from_array(values.astype(dtype), tensor.name)
        tensor.CopyFrom(filled)


def seeded_input(spec: dict, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    dtype = np.dtype(spec["dtype"])
    if dtype.kind == "f":
        return rng.uniform(-1.0, 1.0, size=spec["shape"]).astype(dtype)
    return rng.integers(0, 2, size=spec["shape"]).astype(dtype)


class Bench(PinnedRunner):
    def __init__(self, args):
        super().__init__(args.timeout, args.memory_limit_mb)
        self.args = args
        built = os.path.join(os.path.abspath(args.build_dir), "bin",
                             "dispatchlab")
        if not os.access(built, os.X_OK):
            fail(f"{built} not found: build it first")
        if not os.path.isdir(os.path.join(NODE_MODULES, "onnxruntime-node")):
            fail(f"onnxruntime-node is not in {NODE_MODULES}: run "
                 "DISPATCHLAB_SETUP_ORT=1 scripts/setup.sh")
        self.tmp = tempfile.TemporaryDirectory(prefix="bench_vs_ort.")
        # Every run uses this copy, so a rebuild during the benchmark cannot
        # mix two binaries.
        self.dispatchlab = shutil.copy2(built, self.tmp.name)
        # Later rounds and thread counts reuse the compiled code and the
        # reference's outputs (docs/run.md#caches); timing is unaffected.
        self.cache_dir = os.path.join(self.tmp.name, "cache")
        self.provenance: Dict[str, str] = {}
        self.ort_version = "unknown"

    def prepare(self, entry: dict) -> dict:
        """The filled model file and input .npy files of one zoo model."""
        name = entry["name"]
        work = os.path.join(self.tmp.name, name)
        os.makedirs(os.path.join(work, "inputs"))
        path = os.path.join(MODELS_DIR, entry["file"])
        if entry.get("weights") == "stripped":
            model = onnx.load(path)
            fill_initializers(model, self.args.seed)
            path = os.path.join(work, "model.onnx")
            onnx.save(model, path)
        inputs = {}
        for index, spec in enumerate(entry["inputs"]):
            file = os.path.join(work, "inputs", spec["name"] + ".npy")
            if "input_npy" in entry and len(entry["inputs"]) == 1:
                shutil.copy(os.path.join(MODELS_DIR, entry["input_npy"]), file)
            else:
                np.save(file, seeded_input(spec, self.args.seed + index))
            inputs[spec["name"]] = file
        return {"name": name, "path": path, "work": work, "inputs": inputs}

    def output_dir(self, model: dict, runtime: str, threads: int) -> str:
        directory = os.path.join(model["work"], f"{runtime}_T{threads}")
        os.makedirs(directory, exist_ok=True)
        return directory

    def run_dispatchlab(self, model: dict, threads: int,
                        extra: Sequence[str] = ()) -> Optional[dict]:
        """The run's JSON, or None after recording a failure."""
        command = [self.dispatchlab, "run", model["path"],
                   f"--preset={self.args.preset}", "--parameters=model",
                   f"--threads={threads}",
                   f"--repetitions={self.args.repetitions}",
                   f"--warmup-seconds={self.args.warmup_seconds}",
                   "--emit=json", f"--cache-dir={self.cache_dir}",
                   f"--output-dir={self.output_dir(model, 'dl', threads)}"]
        command += [f"--input={n}={f}" for n, f in model["inputs"].items()]
        what = f"dispatchlab {model['name']} T={threads}"
        out = self.execute(command + list(extra), threads, what,
                           limit_memory=True)
        if out is None:
            return None
        data = json.loads(out)
        self.provenance = data["provenance"]
        return data

    def run_ort(self, model: dict, threads: int,
                extra: Sequence[str] = ()) -> Optional[dict]:
        """run_session.mjs's JSON, or None after recording a failure."""
        command = ["node", SESSION, model["path"],
                   os.path.dirname(next(iter(model["inputs"].values()))),
                   self.output_dir(model, "ort", threads), str(threads),
                   str(self.args.repetitions), str(self.args.warmup_seconds)]
        what = f"onnxruntime {model['name']} T={threads}"
        out = self.execute(command + list(extra), threads, what,
                           limit_memory=False)
        if out is None:
            return None
        data = json.loads(out)
        self.ort_version = data["ort_version"]
        model["ort_outputs"] = data["output_names"]
        return data

    def profile(self, model: dict, threads: int) -> Optional[tuple]:
        """(ORT ms by op type, dispatchlab ms by class, ORT's nodes paired
        with our dispatches) from one profiled pass of each, or None after
        recording a failure."""
        prefix = os.path.join(model["work"], f"ort_profile_T{threads}")
        ours = self.run_dispatchlab(model, threads, ["--profile-dispatches"])
        if ours is None or self.run_ort(model, threads, [prefix]) is None:
            return None
        calls = self.args.repetitions
        try:
            return (op_profile.ort_op_times(prefix, calls),
                    op_profile.dispatchlab_class_times(ours),
                    op_profile.paired_nodes(
                        op_profile.ort_node_times(prefix, calls),
                        roofline.dispatches_of(ours)))
        except (OSError, ValueError, RuntimeError) as error:
            self.failures.append(f"{model['name']}: profiles: {error}")
            return None

    def compare_outputs(self, model: dict, threads: int) -> str:
        """max|a-b|/max|b| of dispatchlab's outputs against ORT's."""
        dl = self.output_dir(model, "dl", threads)
        ort = self.output_dir(model, "ort", threads)
        worst = 0.0
        for index, name in enumerate(model.get("ort_outputs", [])):
            ours = os.path.join(dl, f"result{index}.npy")
            theirs = os.path.join(ort, f"{name}.npy")
            if not (os.path.exists(ours) and os.path.exists(theirs)):
                return "-"
            a = np.load(ours).astype(np.float64)
            b = np.load(theirs).astype(np.float64)
            if a.shape != b.shape:
                self.failures.append(f"{model['name']}: output {name} is "
                                     f"{a.shape} here, {b.shape} in ORT")
                return "shape differs"
            scale = max(float(np.max(np.abs(b))) if b.size else 0.0, 1e-30)
            worst = max(worst, float(np.max(np.abs(a - b))) / scale
                        if a.size else 0.0)
        if worst > self.args.tolerance:
            self.failures.append(f"{model['name']} T={threads}: outputs "
                                 f"differ from ORT's by {worst:.2e} relative")
        return f"{worst:.1e}"


def geomean(values: List[float]) -> Optional[float]:
    values = [v for v in values if v and v > 0]
    if not values:
        return None
    return math.exp(sum(map(math.log, values)) / len(values))


def fmt_rounds(timing: Timing) -> str:
    if not timing.rounds:
        return "failed"
    return " / ".join(f"{t:.3g}" for t in timing.rounds)


def round_ratios(reference: Timing, candidate: Timing) -> List[float]:
    """Each round's reference time over its candidate time; empty unless
    both have every round."""
    if len(reference.rounds) != len(candidate.rounds):
        return []
    return [r / c for r, c in zip(reference.rounds, candidate.rounds)]


def speed(reference: Timing, candidate: Timing) -> Optional[float]:
    return geomean(round_ratios(reference, candidate))


def fmt_x(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.2f}x"


def fmt_speed(reference: Timing, candidate: Timing) -> str:
    """speed(reference, candidate) and, over several rounds, the range of
    the rounds' ratios, so a reader can tell a tie on a noisy host from a
    lead."""
    ratios = round_ratios(reference, candidate)
    ratio = geomean(ratios)
    if ratio is None or len(ratios) < 2:
        return fmt_x(ratio)
    return f"{ratio:.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"


def measure(bench: Bench, models: List[dict], threads: List[int]):
    """timings[(model, runtime, T)], alternating the runtimes' order."""
    timings = {(m["name"], r, t): Timing()
               for m in models for r in ("ort", "dl") for t in threads}
    for round_index in range(bench.args.rounds):
        order = ["ort", "dl"] if round_index % 2 == 0 else ["dl", "ort"]
        for model in models:
            for t in threads:
                for runtime in order:
                    timing = timings[(model["name"], runtime, t)]
                    if timing.error:
                        continue
                    run = bench.run_ort if runtime == "ort" else \
                        bench.run_dispatchlab
                    data = run(model, t)
                    if data is None:
                        timing.error = bench.failures[-1]
                    elif runtime == "ort":
                        timing.rounds.append(data["median_ms"])
                    else:
                        timing.rounds.append(data["latency"]["median_ms"])
    return timings


def table(bench: Bench, models: List[dict], threads: List[int],
          timings) -> str:
    header = ["model"]
    for t in threads:
        header += [f"ORT T={t} (ms)", f"dispatchlab T={t} (ms)",
                   f"speed T={t}", f"outputs vs ORT T={t}"]
    if len(threads) > 1:
        header += [f"dispatchlab T={threads[-1]} over T={threads[0]}",
                   f"ORT T={threads[-1]} over T={threads[0]}"]
    rows, speeds = [], {t: [] for t in threads}
    for model in models:
        row = [model["name"]]
        for t in threads:
            ort = timings[(model["name"], "ort", t)]
            dl = timings[(model["name"], "dl", t)]
            ratio = speed(ort, dl)
            speeds[t].append(ratio)
            row += [fmt_rounds(ort), fmt_rounds(dl), fmt_speed(ort, dl),
                    bench.compare_outputs(model, t) if ratio else "-"]
        if len(threads) > 1:
            for runtime in ("dl", "ort"):
                one = timings[(model["name"], runtime, threads[0])]
                many = timings[(model["name"], runtime, threads[-1])]
                # Time on T[0] over time on T[-1]: the speed-up.
                row.append(fmt_speed(one, many))
        rows.append(row)
    lines = ["| " + " | ".join(header) + " |",
             "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    means = [f"geomean speed T={t}: {fmt_x(geomean(speeds[t]))}"
             for t in threads]
    return "\n".join(lines) + "\n\n" + "; ".join(means) + "\n"


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", default="",
                        help="comma-separated zoo model names (default: all)")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repetitions", type=int, default=20)
    parser.add_argument("--warmup-seconds", type=float, default=1.0)
    parser.add_argument("--preset", default="iree-O2")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tolerance", type=float, default=1e-3,
                        help="largest accepted relative output difference")
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--memory-limit-mb", type=int, default=16384)
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", help="also write the report here")
    parser.add_argument("--profile-ops", action="store_true",
                        help="add a profiled pass: time by ORT op type and "
                             "by dispatchlab dispatch class")
    return parser.parse_args()


def report(bench: Bench, body: str, started: str, load_before: str) -> str:
    p = bench.provenance
    return (
        f"# dispatchlab against ONNX Runtime\n\n"
        f"- Started {started}, finished "
        f"{datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC; load average "
        f"{load_before} before, {load_average()} after.\n"
        f"- Host: {read_cpu()} ({p.get('host_cpu', '?')}; features "
        f"{p.get('host_features', '?')}); affinity set {bench.cores}.\n"
        f"- dispatchlab {p.get('dispatchlab_commit', '?')}, LLVM "
        f"{p.get('llvm_version', '?')}, preset {bench.args.preset}; "
        f"ONNX Runtime {bench.ort_version} (onnxruntime-node, CPU EP, "
        f"graph optimizations all, sequential, intra-op threads T).\n"
        f"- Medians of {bench.args.repetitions} calls after "
        f"{bench.args.warmup_seconds:g} s of warm-up, {bench.args.rounds} "
        f"rounds alternating which runs first; each cell lists the rounds. "
        f"Speed is ORT time / dispatchlab time (above 1: dispatchlab "
        f"faster), geomean over rounds, with the range of the rounds' "
        f"ratios in parentheses (the two-thread speed-ups too).\n"
        f"- Command: `{shlex.join(['scripts/bench_vs_ort.py'] + sys.argv[1:])}`"
        f"\n\n{body}")


def main() -> None:
    args = parse_args()
    bench = Bench(args)
    with open(os.path.join(MODELS_DIR, "zoo.json")) as f:
        zoo = json.load(f)["models"]
    wanted = [m for m in args.models.split(",") if m]
    unknown = set(wanted) - {m["name"] for m in zoo}
    if unknown:
        fail(f"--models names {sorted(unknown)}, not in zoo.json")
    entries = [m for m in zoo if not wanted or m["name"] in wanted]
    threads = [int(t) for t in args.threads.split(",")]
    started = f"{datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC"
    load_before = load_average()
    models = [bench.prepare(entry) for entry in entries]
    timings = measure(bench, models, threads)
    body = table(bench, models, threads, timings)
    if args.profile_ops:
        profiles = [(m["name"],) + p for m in models
                    if (p := bench.profile(m, threads[0])) is not None]
        body += "\n" + op_profile.section([p[:3] for p in profiles],
                                          threads[0])
        body += "\n" + op_profile.gaps_section(
            [(p[0], p[3]) for p in profiles], threads[0])
    if bench.failures:
        body += "\nFailures:\n\n" + "".join(f"- {f}\n" for f in
                                            bench.failures)
    text = report(bench, body, started, load_before)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
