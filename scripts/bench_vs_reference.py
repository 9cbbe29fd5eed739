#!/usr/bin/python3
"""dispatchlab against PyTorch eager and OpenBLAS sgemm, in one run on one
machine with the same thread count (a benchmark, not a test).

Run it through scripts/bench_vs_reference.sh, which installs the bench-only
packages and builds first. Sections (--sections, default all):

  models  ResNet50, MobileNetV2 and BERT-base (--models) under dispatchlab's
          iree-O2 and no-fusion presets and under torch eager (export_zoo.py's
          networks, same shapes). Torch is timed twice: with the system BLAS
          (OpenBLAS once libopenblas-dev is installed) and with Debian's
          reference BLAS, what python3-torch uses without OpenBLAS.
  matmul  the shapes of BERT-base's matmul dispatches plus 1024^3: one
          fill + (batch_)matmul module per shape through `dispatchlab run`,
          against OpenBLAS cblas_sgemm (build/bin/dispatchlab-sgemm-bench).
  fusion  iree-O0 and iree-O2 latency over no-fusion on the zoo models of the
          default sweep (--fusion-models).

Every process is pinned with taskset to the last T cores of this process's
affinity set, for each T of --threads. dispatchlab latencies are the median
of --repetitions timed calls after one warm-up (`dispatchlab run`); each run
also checks its outputs against the no-fusion loops reference, so a wrong
result is a failure, not a figure. Failures are reported in the table with
their first error line.

Prints markdown; --out FILE also writes it with the date, CPU, commit and
command.
"""

import argparse
import datetime
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from bench_common import PinnedRunner, load_average, read_cpu

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS_DIR = os.path.join(ROOT, "experiments", "models")
REFERENCE_BLAS_DIRS = ["/usr/lib/x86_64-linux-gnu/blas",
                       "/usr/lib/x86_64-linux-gnu/lapack"]

# (op, batch, M, N, K) of BERT-base's matmul dispatches (Q/K/V/attention
# output, FFN in and out, MLM head, the two attention products: all
# batch_matmuls after import), then a large square one as both ops.
MATMUL_CASES = [("batch_matmul", 1, 128, 768, 768),
                ("batch_matmul", 1, 128, 3072, 768),
                ("batch_matmul", 1, 128, 768, 3072),
                ("batch_matmul", 1, 128, 30522, 768),
                ("batch_matmul", 12, 128, 128, 64),
                ("batch_matmul", 12, 128, 64, 128),
                ("batch_matmul", 1, 1024, 1024, 1024),
                ("matmul", 1, 1024, 1024, 1024)]
MATMUL_SHAPES = list(dict.fromkeys(case[1:] for case in MATMUL_CASES))

DEFAULT_MODELS = ["resnet50", "mobilenet_v2", "bert_base_mlm"]
# The zoo models of experiments/default.txtpb.
DEFAULT_FUSION_MODELS = ["mnist_cnn", "mobilenet_v2", "resnet50",
                         "bert_base_mlm", "mobilebert_squad"]


@dataclass
class Measured:
    """A figure (median ms, or GFLOP/s), or the error that prevented it."""
    value: Optional[float] = None
    error: str = ""


def fail(message: str) -> None:
    sys.exit(f"bench_vs_reference: error: {message}")



class Bench(PinnedRunner):
    def __init__(self, args):
        super().__init__(args.timeout, args.memory_limit_mb)
        self.args = args
        build = os.path.abspath(args.build_dir)
        built = os.path.join(build, "bin", "dispatchlab")
        self.sgemm = os.path.join(build, "bin", "dispatchlab-sgemm-bench")
        if not os.access(built, os.X_OK):
            fail(f"{built} not found: build it first")
        self.cache: Dict[Tuple[str, str, int], Measured] = {}
        self.host_cpu = "unknown"
        self.tmp = tempfile.TemporaryDirectory(prefix="bench_vs_reference.")
        # Every run uses this copy, so a rebuild during the benchmark cannot
        # mix two binaries.
        self.dispatchlab = shutil.copy2(built, self.tmp.name)
        if subprocess.run([self.dispatchlab, "--help"],
                          capture_output=True).returncode != 0:
            fail(f"{built} does not run (being linked?)")

    def dispatchlab_run(self, model: str, path: str, preset: str,
                        threads: int) -> Measured:
        key = (model, preset, threads)
        if key in self.cache:
            return self.cache[key]
        command = [self.dispatchlab, "run", path, f"--preset={preset}",
                   f"--repetitions={self.args.repetitions}",
                   f"--threads={threads}", "--emit=json"]
        if path.endswith(".onnx"):
            command.append("--parameters=random")
        what = f"dispatchlab {model} {preset} T={threads}"
        # A model that blows up in codegen must fail, not take the machine.
        out = self.execute(command, threads, what, limit_memory=True)
        result = Measured(error=self.failures[-1] if out is None else "")
        if out is not None:
            if self.args.json_dir:
                name = f"{model}_{preset}_T{threads}.json".replace(" ", "_")
                with open(os.path.join(self.args.json_dir, name), "w") as f:
                    f.write(out)
            data = json.loads(out)
            result.value = data["latency"]["median_ms"]
            self.host_cpu = data["provenance"]["host_cpu"]
        self.cache[key] = result
        return result

    def torch_eager(self, models: List[str], threads: int,
                    reference_blas: bool) -> Tuple[Dict[str, Measured], str]:
        command = [self.args.python,
                   os.path.join(MODELS_DIR, "torch_eager_bench.py"),
                   f"--threads={threads}",
                   f"--repetitions={self.args.repetitions}"] + models
        env = None
        what = f"torch eager T={threads}"
        if reference_blas:
            if not all(map(os.path.isdir, REFERENCE_BLAS_DIRS)):
                error = f"{what}: no reference BLAS in {REFERENCE_BLAS_DIRS}"
                self.failures.append(error)
                return {m: Measured(error=error) for m in models}, ""
            env = {"LD_LIBRARY_PATH": ":".join(REFERENCE_BLAS_DIRS)}
            what += " (reference BLAS)"
        out = self.execute(command, threads, what, env)
        if out is None:
            return {m: Measured(error=self.failures[-1]) for m in models}, ""
        data = json.loads(out)
        return ({m: Measured(value=data["models"][m]["median_ms"])
                 for m in models}, data["blas"])

    def sgemm_gflops(self, threads: int) -> Dict[tuple, Measured]:
        if not os.access(self.sgemm, os.X_OK):
            error = (f"{self.sgemm} not built: it needs libopenblas-dev "
                     "(DISPATCHLAB_SETUP_BENCH=1 scripts/setup.sh)")
            self.failures.append(error)
            return {s: Measured(error=error) for s in MATMUL_SHAPES}
        shapes = ",".join("x".join(map(str, s)) for s in MATMUL_SHAPES)
        out = self.execute(
            [self.sgemm, f"--shapes={shapes}", f"--threads={threads}",
             "--benchmark_format=json", "--benchmark_repetitions=5",
             "--benchmark_report_aggregates_only=true"],
            threads, f"OpenBLAS sgemm T={threads}")
        if out is None:
            return {s: Measured(error=self.failures[-1])
                    for s in MATMUL_SHAPES}
        results = {}
        for entry in json.loads(out)["benchmarks"]:
            if entry.get("aggregate_name") != "median":
                continue
            dims = entry["run_name"].split("/")[1]
            shape = tuple(int(d) for d in dims.split("x"))
            results[shape] = Measured(value=entry["FLOPS"] / 1e9)
        return results

    def matmul_module(self, op: str, b: int, m: int, n: int, k: int) -> str:
        """fill + `op`, the form BERT's matmul dispatches have after
        import."""
        path = os.path.join(self.tmp.name, f"{op}_{b}x{m}x{n}x{k}.mlir")
        batch = f"{b}x" if op == "batch_matmul" else ""
        lhs = f"tensor<{batch}{m}x{k}xf32>"
        rhs = f"tensor<{batch}{k}x{n}xf32>"
        out = f"tensor<{batch}{m}x{n}xf32>"
        with open(path, "w") as f:
            f.write(
                f"func.func @main(%lhs: {lhs}, %rhs: {rhs}) -> {out} {{\n"
                f"  %zero = arith.constant 0.0 : f32\n"
                f"  %empty = tensor.empty() : {out}\n"
                f"  %init = linalg.fill ins(%zero : f32) "
                f"outs(%empty : {out}) -> {out}\n"
                f"  %result = linalg.{op} ins(%lhs, %rhs : {lhs}, "
                f"{rhs}) outs(%init : {out}) -> {out}\n"
                f"  return %result : {out}\n}}\n")
        return path


def fmt_ms(m: Measured) -> str:
    if m.value is None:
        return "failed"
    return f"{m.value:.3g}" if m.value < 100 else f"{m.value:.0f}"


def ratio(a: Measured, b: Measured) -> Optional[float]:
    if a.value is None or b.value is None or b.value == 0:
        return None
    return a.value / b.value


def fmt_ratio(r: Optional[float]) -> str:
    return "—" if r is None else f"{r:.2f}"


def geomean(values: List[Optional[float]]) -> str:
    present = [v for v in values if v is not None and v > 0]
    if not present:
        return "—"
    mean = math.exp(sum(math.log(v) for v in present) / len(present))
    note = "" if len(present) == len(values) else \
        f" ({len(present)} of {len(values)})"
    return f"{mean:.2f}{note}"


def table(header: List[str], rows: List[List[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def models_section(bench: Bench, threads: int) -> str:
    models = bench.args.models
    torch_system, blas = bench.torch_eager(models, threads, False)
    torch_reference, reference_blas = bench.torch_eager(models, threads, True)
    rows = []
    for model in models:
        path = os.path.join(MODELS_DIR, model + ".onnx")
        fused = bench.dispatchlab_run(model, path, "iree-O2", threads)
        unfused = bench.dispatchlab_run(model, path, "no-fusion", threads)
        rows.append([model, fmt_ms(fused), fmt_ms(unfused),
                     fmt_ms(torch_system[model]),
                     fmt_ms(torch_reference[model]),
                     fmt_ratio(ratio(torch_system[model], fused)),
                     fmt_ratio(ratio(torch_reference[model], fused)),
                     fmt_ratio(ratio(fused, unfused))])
    return (f"### Models, {threads} thread(s) (median ms)\n\n"
            f"torch eager loaded {blas or '(failed)'}; \"reference BLAS\" "
            "is the same torch with Debian's reference libblas.so.3, the "
            "default without libopenblas0 (loaded "
            f"{reference_blas or '(failed)'}). Speedup = "
            "torch ms / dispatchlab iree-O2 ms; fused/no-fusion = iree-O2 ms "
            "/ no-fusion ms (below 1: fusion is faster).\n\n" +
            table(["model", "dispatchlab iree-O2 ms", "no-fusion ms",
                   "torch eager ms", "torch eager, reference BLAS ms",
                   "speedup vs torch", "speedup vs torch (reference BLAS)",
                   "fused/no-fusion"], rows))


def matmul_section(bench: Bench, threads: int) -> str:
    openblas = bench.sgemm_gflops(threads)
    rows = []
    for op, b, m, n, k in MATMUL_CASES:
        flops = 2.0 * b * m * n * k
        run = bench.dispatchlab_run(f"{op} {b}x{m}x{n}x{k}",
                                    bench.matmul_module(op, b, m, n, k),
                                    "iree-O2", threads)
        ours = Measured(
            value=None if run.value is None else flops / run.value / 1e6)
        theirs = openblas.get((b, m, n, k), Measured(error="missing"))
        rows.append([f"{m}x{n}x{k}", op if b == 1 else f"{op}, batch {b}",
                     fmt_ms(run),
                     "failed" if ours.value is None else f"{ours.value:.1f}",
                     "failed" if theirs.value is None else f"{theirs.value:.1f}",
                     fmt_ratio(ratio(ours, theirs))])
    return (f"### Matmul dispatches, {threads} thread(s)\n\n"
            "GFLOP/s = 2*B*M*N*K / median time; dispatchlab: `dispatchlab "
            "run` of fill + the op (iree-O2), OpenBLAS: cblas_sgemm "
            "per batch element, median of 5 Google Benchmark "
            "repetitions.\n\n" +
            table(["shape (M,N,K)", "dispatchlab op", "dispatchlab ms", "dispatchlab GFLOP/s",
                   "OpenBLAS GFLOP/s", "ratio"], rows))


def fusion_section(bench: Bench, threads: int) -> str:
    rows, o0_ratios, o2_ratios = [], [], []
    for model in bench.args.fusion_models:
        path = os.path.join(MODELS_DIR, model + ".onnx")
        o0 = bench.dispatchlab_run(model, path, "iree-O0", threads)
        o2 = bench.dispatchlab_run(model, path, "iree-O2", threads)
        none = bench.dispatchlab_run(model, path, "no-fusion", threads)
        o0_ratios.append(ratio(o0, none))
        o2_ratios.append(ratio(o2, none))
        rows.append([model, fmt_ms(o0), fmt_ms(o2), fmt_ms(none),
                     fmt_ratio(o0_ratios[-1]), fmt_ratio(o2_ratios[-1])])
    rows.append(["geometric mean", "", "", "", geomean(o0_ratios),
                 geomean(o2_ratios)])
    return (f"### Fused vs no-fusion, {threads} thread(s) (median ms)\n\n"
            "Ratio = variant ms / no-fusion ms (below 1: fusion is "
            "faster).\n\n" +
            table(["model", "iree-O0 ms", "iree-O2 ms", "no-fusion ms",
                   "iree-O0/no-fusion", "iree-O2/no-fusion"], rows))


def git(*args: str) -> str:
    proc = subprocess.run(["git", "-C", ROOT, *args], text=True,
                          capture_output=True)
    return proc.stdout.strip() if proc.returncode == 0 else "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", default="1",
                        help="comma-separated thread counts (default 1)")
    parser.add_argument("--repetitions", type=int, default=10,
                        help="timed calls per measurement (default 10)")
    parser.add_argument("--sections", default="models,matmul,fusion",
                        help="comma-separated, of models, matmul, fusion")
    parser.add_argument("--models", default=",".join(DEFAULT_MODELS),
                        help="zoo models of the models section")
    parser.add_argument("--fusion-models",
                        default=",".join(DEFAULT_FUSION_MODELS),
                        help="zoo models of the fusion section")
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds per process (default 600)")
    parser.add_argument("--memory-limit-mb", type=int, default=8192,
                        help="address-space limit of each dispatchlab run "
                        "(default 8192)")
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--python", default="/usr/bin/python3",
                        help="interpreter with Debian's python3-torch")
    parser.add_argument("--out", help="also write the markdown here")
    parser.add_argument("--json-dir",
                        help="keep each `dispatchlab run` JSON output here")
    args = parser.parse_args()

    sections = args.sections.split(",")
    unknown = set(sections) - {"models", "matmul", "fusion"}
    if unknown:
        fail(f"unknown section '{sorted(unknown)[0]}' "
             "(models, matmul, fusion)")
    args.models = args.models.split(",")
    args.fusion_models = args.fusion_models.split(",")
    for model in args.models + args.fusion_models:
        if not os.path.exists(os.path.join(MODELS_DIR, model + ".onnx")):
            fail(f"no zoo model experiments/models/{model}.onnx")
    try:
        thread_counts = [int(t) for t in args.threads.split(",")]
    except ValueError:
        fail(f"--threads expects comma-separated integers, got "
             f"'{args.threads}'")
    bench = Bench(args)
    for threads in thread_counts:
        if not 1 <= threads <= len(bench.cores):
            fail(f"--threads {threads}: {len(bench.cores)} cores available")
    if args.repetitions < 1:
        fail("--repetitions must be positive")
    if args.json_dir:
        os.makedirs(args.json_dir, exist_ok=True)

    start = datetime.datetime.now(datetime.timezone.utc)
    load_before = load_average()
    builders = {"models": models_section, "matmul": matmul_section,
                "fusion": fusion_section}
    parts = []
    for threads in thread_counts:
        for section in sections:
            parts.append(builders[section](bench, threads))
    load_after = load_average()

    dirty = " (with uncommitted changes)" if git("status", "--porcelain",
                                                 "--untracked-files=no") \
        else ""
    command = "scripts/bench_vs_reference.sh " + shlex.join(sys.argv[1:])
    header = [
        f"- date: {start:%Y-%m-%d %H:%M} UTC, "
        f"{(datetime.datetime.now(datetime.timezone.utc) - start).seconds // 60}"
        " min",
        f"- CPU: {read_cpu()} (LLVM host CPU {bench.host_cpu}), "
        f"{os.cpu_count()} logical cores; runs pinned "
        f"to cores {bench.cores} (taskset, last T cores)",
        f"- threads: {', '.join(map(str, thread_counts))}; repetitions: "
        f"{args.repetitions}",
        f"- load average before/after: {load_before} / {load_after}",
        f"- commit: {git('rev-parse', '--short', 'HEAD')}{dirty}",
        f"- command: `{command}`",
    ]
    if bench.failures:
        parts.append("### Failures\n\n" +
                     "\n".join(f"- {f}" for f in bench.failures))
    text = "\n".join(header) + "\n\n" + "\n\n".join(parts) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write("# dispatchlab vs PyTorch eager and OpenBLAS\n\n" + text)


if __name__ == "__main__":
    main()
