#!/usr/bin/env python3
"""Seeded, bounded fuzzing of dispatchlab's inputs: mutated ONNX models (text
and binary), MLIR modules, sweep specs and `run` inputs (.npy).

Each input is run through the command a user would run on it (`import` or
`compile --emit=stats` on a model, `sweep` on a spec) and classified:

  ok            exit 0
  error         non-zero exit with an `error` line on stderr (what bad input
                must get)
  crash         killed by a signal, or an exit status that a signal or an
                abort leaves (>= 128)
  hang          still running after --timeout seconds
  internal      an LLVM/MLIR internal failure on stderr (`LLVM ERROR`,
                an assertion, a stack dump, "importer bug", "invalid IR"):
                invalid IR reaching the end of a pipeline counts here
  silent        non-zero exit without any error line

Anything but `ok` and `error` is a failure: its input is kept in --keep and
named on stdout, and the exit status is 1. The same --seed gives the same
inputs, so a failure reproduces.
"""

import argparse
import concurrent.futures
import glob
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import Callable, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

SWEEP_FAILED = re.compile(r"^sweep .*: \d+ of \d+ jobs? failed: ", re.M)
INTERNAL = re.compile(r"LLVM ERROR|Assertion .* failed|Stack dump|PLEASE submit"
                      r"|importer bug|invalid IR|terminate called|"
                      r"UNREACHABLE|libprotobuf (ERROR|FATAL)")
# Values that sit on the edges of what a field can hold.
EDGE_NUMBERS = ["0", "-1", "1", "2", "3", "-7", "65535", "2147483647",
                "-2147483648", "4294967296", "9223372036854775807",
                "1e308", "-1e308", "inf", "-inf", "nan", "0.5", "1e-45"]
EDGE_VARINTS = [0, 1, 2, 3, 127, 128, 255, 65535, 2**31 - 1, 2**31, 2**32,
                2**63 - 1, 2**64 - 1]
NUMBER = re.compile(r"(?<![\w.%#@])-?\d+(\.\d+)?(e[-+]?\d+)?(?![\w])")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")


# --- text mutations (MLIR, text ONNX, text-format specs) ---------------------

def mutate_number(text: str, rng: random.Random) -> str:
    matches = list(NUMBER.finditer(text))
    if not matches:
        return text
    m = rng.choice(matches)
    return text[:m.start()] + rng.choice(EDGE_NUMBERS) + text[m.end():]


def mutate_word(text: str, rng: random.Random) -> str:
    """Replaces one identifier with another of the same text (an op, a type,
    an attribute name or a field)."""
    matches = list(WORD.finditer(text))
    if len(matches) < 2:
        return text
    m, other = rng.choice(matches), rng.choice(matches)
    return text[:m.start()] + other.group() + text[m.end():]


def mutate_lines(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    choice = rng.randrange(3)
    if choice == 0:
        del lines[i]
    elif choice == 1:
        lines.insert(i, lines[j])
    else:
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def truncate(text: str, rng: random.Random) -> str:
    return text[:rng.randrange(len(text) + 1)]


TEXT_MUTATIONS = [mutate_number] * 4 + [mutate_word] * 2 + [mutate_lines] * 2 \
    + [truncate]


def mutate_text(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        text = rng.choice(TEXT_MUTATIONS)(text, rng)
    return text


# --- protobuf wire-format mutations (binary ONNX) ----------------------------

def read_varint(data: bytes, pos: int) -> Tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= len(data) or shift > 63:
            raise ValueError("bad varint")
        byte = data[pos]
        value |= (byte & 0x7F) << shift
        pos += 1
        shift += 7
        if not byte & 0x80:
            return value, pos


def varint(value: int) -> bytes:
    out = bytearray()
    value &= 2**64 - 1
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def parse_fields(data: bytes) -> Optional[List[list]]:
    """[key, wire type, payload] per field, or None if `data` is no message;
    a length-delimited payload is parsed again when it is a message."""
    fields, pos = [], 0
    try:
        while pos < len(data):
            key, pos = read_varint(data, pos)
            wire = key & 7
            if wire == 0:
                value, pos = read_varint(data, pos)
            elif wire == 2:
                length, pos = read_varint(data, pos)
                if pos + length > len(data):
                    return None
                value = data[pos:pos + length]
                pos += length
            elif wire in (1, 5):
                size = 8 if wire == 1 else 4
                value = data[pos:pos + size]
                pos += size
            else:
                return None
            if key >> 3 == 0:
                return None
            fields.append([key, wire, value])
    except ValueError:
        return None
    return fields


def serialize(fields: List[list]) -> bytes:
    out = bytearray()
    for key, wire, value in fields:
        out += varint(key)
        if wire == 0:
            out += varint(value)
        elif wire == 2:
            payload = serialize(value) if isinstance(value, list) else value
            out += varint(len(payload)) + payload
        else:
            out += value
    return bytes(out)


def collect(fields: List[list], depth: int = 0) -> List[Tuple[list, list]]:
    """(field, its parent list) for every field, nested messages expanded in
    place (small payloads only, so strings rarely parse as messages)."""
    found = []
    for field in fields:
        found.append((field, fields))
        if field[1] == 2 and not isinstance(field[2], list) and depth < 8:
            nested = parse_fields(field[2]) if len(field[2]) > 1 else None
            if nested:
                field[2] = nested
                found += collect(nested, depth + 1)
    return found


def mutate_field(field: list, parent: list, rng: random.Random) -> None:
    choice = rng.randrange(4)
    if choice == 0:
        parent.remove(field)
    elif choice == 1:
        parent.insert(rng.randrange(len(parent) + 1), list(field))
    elif field[1] == 0:
        field[2] = rng.choice(EDGE_VARINTS) if choice == 2 else \
            max(0, field[2] + rng.choice([-1, 1]))
    elif field[1] == 2 and not isinstance(field[2], list) and field[2]:
        data = bytearray(field[2])
        data[rng.randrange(len(data))] = rng.randrange(256)
        field[2] = bytes(data)
    elif field[1] in (1, 5):
        field[2] = bytes(rng.randrange(256) for _ in field[2])


def mutate_protobuf(data: bytes, rng: random.Random) -> bytes:
    fields = parse_fields(data)
    if not fields:
        return data[:rng.randrange(len(data) + 1)]
    targets = collect(fields)
    for _ in range(rng.randint(1, 3)):
        field, parent = rng.choice(targets)
        if field in parent:
            mutate_field(field, parent, rng)
    return serialize(fields)


def mutate_npy(data: bytes, rng: random.Random) -> bytes:
    """A .npy file with its header text or its data mutated."""
    end = data.find(b"\n") + 1
    if rng.random() < 0.6:
        header = mutate_text(data[:end].decode("latin1"), rng)
        return header.encode("latin1") + data[end:]
    body = bytearray(data[end:])
    for _ in range(rng.randint(1, 8)):
        if body:
            body[rng.randrange(len(body))] = rng.randrange(256)
    return data[:end] + bytes(body[:rng.randrange(len(body) + 1)]
                              if rng.random() < 0.3 else body)


# --- running and classifying --------------------------------------------------

@dataclass
class Outcome:
    kind: str
    detail: str


def stacks_of(pid: int) -> str:
    """Every thread's innermost frames of a hung process (gdb, if present),
    so that a hang which does not reproduce still says where it was."""
    gdb = shutil.which("gdb")
    if not gdb:
        return "no gdb for its stacks"
    try:
        out = subprocess.run(
            [gdb, "-p", str(pid), "-batch", "-ex", "thread apply all bt 6"],
            capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return "gdb did not attach in 120 s"
    frames = [line for line in out.stdout.decode("utf-8", "replace")
              .splitlines() if line.startswith(("Thread ", "#"))]
    return "\n    ".join(["stacks:"] + frames)


def classify(command: List[str], cwd: str, timeout: float) -> Outcome:
    with subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL) as proc:
        try:
            _, stderr_bytes = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            stacks = stacks_of(proc.pid)
            proc.kill()
            proc.communicate()
            return Outcome("hang", f"still running after {timeout:g} s; "
                           f"{stacks}")
    stderr = stderr_bytes.decode("utf-8", "replace")
    internal = INTERNAL.search(stderr)
    if proc.returncode < 0 or proc.returncode >= 128:
        return Outcome("crash", f"exit status {proc.returncode}: "
                       f"{stderr.strip().splitlines()[-1:] or ''}")
    if internal:
        line = next(l for l in stderr.splitlines() if INTERNAL.search(l))
        return Outcome("internal", line.strip())
    if proc.returncode == 0:
        return Outcome("ok", "")
    # A sweep whose jobs failed exits 3 after a summary line by failure
    # class (docs/sweeps.md): reported, not silent.
    if "error" in stderr.lower() or (proc.returncode == 3 and
                                     SWEEP_FAILED.search(stderr)):
        return Outcome("error", "")
    return Outcome("silent", f"exit code {proc.returncode}, stderr "
                   f"{stderr.strip()[:200]!r}")


@dataclass
class Case:
    target: str
    name: str
    directory: str
    command: List[str]


class Fuzzer:
    def __init__(self, args):
        self.args = args
        self.dispatchlab = os.path.abspath(args.dispatchlab)
        self.convert = os.path.abspath(args.onnx_convert)
        self.work = tempfile.mkdtemp(prefix="dispatchlab-fuzz.")

    def case_dir(self, target: str, index: int) -> str:
        directory = os.path.join(self.work, f"{target}-{index}")
        os.makedirs(directory)
        return directory

    def onnx_text_case(self, index: int, rng: random.Random,
                       seeds: List[str]) -> Optional[Case]:
        """A mutated text model; None when the mutation no longer parses as
        text ONNX (the converter, a test tool, is not under test)."""
        seed = rng.choice(seeds)
        directory = self.case_dir("onnx", index)
        text = mutate_text(read(seed), rng)
        source = write(directory, "model.onnxtxt", text)
        model = os.path.join(directory, "model.onnx")
        if subprocess.run([self.convert, source, "-o", model],
                          capture_output=True).returncode != 0:
            return None
        return Case("onnx", f"{os.path.basename(seed)}#{index}", directory,
                    self.model_command(model, rng))

    def onnx_binary_case(self, index: int, rng: random.Random,
                         seeds: List[str]) -> Case:
        seed = rng.choice(seeds)
        directory = self.case_dir("onnxbin", index)
        with open(seed, "rb") as f:
            data = mutate_protobuf(f.read(), rng)
        model = os.path.join(directory, "model.onnx")
        with open(model, "wb") as f:
            f.write(data)
        return Case("onnx", f"{os.path.basename(seed)}#{index}", directory,
                    self.model_command(model, rng))

    def model_command(self, model: str, rng: random.Random) -> List[str]:
        if model.endswith(".onnx") and rng.random() < 0.5:
            return [self.dispatchlab, "import", model, "-o",
                    model + ".mlir"]
        preset = rng.choice(["iree-O0", "iree-O2", "no-fusion"])
        return [self.dispatchlab, "compile", model, f"--preset={preset}",
                "--emit=stats", "-o", model + ".json"]

    def mlir_case(self, index: int, rng: random.Random,
                  seeds: List[str]) -> Case:
        seed = rng.choice(seeds)
        directory = self.case_dir("mlir", index)
        model = write(directory, "model.mlir", mutate_text(seed, rng))
        return Case("mlir", f"mlir#{index}", directory,
                    self.model_command(model, rng))

    def run_case(self, index: int, rng: random.Random) -> Case:
        """`run` on a model (a mutated one half the time) with a mutated
        .npy input."""
        directory = self.case_dir("run", index)
        model = os.path.join(ROOT, "experiments", "models", "mnist_cnn.onnx")
        with open(model, "rb") as f:
            data = f.read()
        if rng.random() < 0.5:
            data = mutate_protobuf(data, rng)
        model = os.path.join(directory, "model.onnx")
        with open(model, "wb") as f:
            f.write(data)
        with open(os.path.join(ROOT, "experiments", "models",
                               "mnist_cnn.input.npy"), "rb") as f:
            npy = mutate_npy(f.read(), rng)
        with open(os.path.join(directory, "input.npy"), "wb") as f:
            f.write(npy)
        return Case("run", f"run#{index}", directory,
                    [self.dispatchlab, "run", model, "--parameters=model",
                     "--input=input=input.npy", "--repetitions=1",
                     "--warmup-seconds=0", "--emit=json"])

    def spec_case(self, index: int, rng: random.Random,
                  seeds: List[str]) -> Case:
        directory = self.case_dir("spec", index)
        shutil.copy(os.path.join(ROOT, "tests", "inputs", "seeds",
                                 "000_matmul_bias_relu.mlir"),
                    os.path.join(directory, "model.mlir"))
        spec = write(directory, "spec.txtpb",
                     mutate_text(rng.choice(seeds), rng))
        return Case("spec", f"spec#{index}", directory,
                    [self.dispatchlab, "sweep", spec, "--workers", "1",
                     "--db", os.path.join(directory, "results.db")])


def read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(directory: str, name: str, text: str) -> str:
    path = os.path.join(directory, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def files(*patterns: str) -> List[str]:
    found = []
    for pattern in patterns:
        found += sorted(glob.glob(os.path.join(ROOT, pattern)))
    return found


def mlir_seeds() -> List[str]:
    """Every `// -----` case of the heuristics' and core's lit tests (IREE's
    spellings among them), plus the seeds."""
    cases = []
    for path in files("tests/inputs/seeds/*.mlir", "tests/heuristics/*.mlir",
                      "tests/core/*.mlir", "tests/inputs/*.mlir"):
        for case in read(path).split("// -----"):
            lines = [l for l in case.split("\n")
                     if not l.lstrip().startswith("//")]
            if "func.func" in case or "util.func" in case:
                cases.append("\n".join(lines))
    return cases


# Spec seeds: compile sweeps of one small model, with every field the parser
# reads. No RUN jobs: they wait for machine-wide core locks, which the other
# tests running beside this one hold for minutes (the `run` target covers
# measurement).
SPEC_SEEDS = [
    'name: "fuzz"\nmodels: "model.mlir"\n'
    'variants { name: "o0" preset: "iree-O0" }\n'
    'variants { name: "k" preset: "iree-O2" set: "max-operands=8" '
    'set: "fuse-multi-use=false" }\n'
    'axes { knob: "max-operands" values: "4" values: "16" }\n'
    'measurement { timeout_seconds: 20 memory_limit_mb: 4096 }\n',
    'name: "fuzz-measured"\nmodels: "model.mlir"\n'
    'variants { name: "o2" preset: "iree-O2" kind: COMPILE }\n'
    'measurement { timeout_seconds: 20 repetitions: 2 warmup_seconds: 0.01 '
    'threads: 1 tolerance: 0.001 }\n',
]


def build_cases(fuzzer: Fuzzer, args) -> List[Case]:
    rng = random.Random(args.seed)
    text_seeds = files("tests/onnx/*.onnxtxt", "tests/onnx/inputs/*.onnxtxt")
    binary_seeds = files("experiments/models/mobilenet_v3_small.onnx",
                         "experiments/models/unidirectional_lstm.onnx",
                         "experiments/models/mlp.onnx")
    mlir = mlir_seeds()
    cases: List[Case] = []
    for index in range(args.onnx):
        if index % 2 == 0:
            case = fuzzer.onnx_text_case(index, rng, text_seeds)
        else:
            case = fuzzer.onnx_binary_case(index, rng, binary_seeds)
        if case:
            cases.append(case)
    cases += [fuzzer.mlir_case(i, rng, mlir) for i in range(args.mlir)]
    cases += [fuzzer.spec_case(i, rng, SPEC_SEEDS) for i in range(args.specs)]
    cases += [fuzzer.run_case(i, rng) for i in range(args.runs)]
    return cases


def summarize(results: List[Tuple[Case, Outcome]]) -> str:
    kinds = ["ok", "error", "crash", "hang", "internal", "silent"]
    lines = ["target  inputs  " + "  ".join(kinds)]
    for target in ["onnx", "mlir", "spec", "run"]:
        mine = [o.kind for c, o in results if c.target == target]
        counts = "  ".join(f"{mine.count(k):>{len(k)}}" for k in kinds)
        lines.append(f"{target:<6}  {len(mine):>6}  {counts}")
    return "\n".join(lines)


def self_test() -> int:
    """The classifier on commands whose outcome is known, so that the fuzz
    test can fail: a classifier that calls everything `ok` would pass any
    fuzzing."""
    py = [sys.executable, "-c"]
    expected = [
        ("ok", py + ["pass"]),
        ("error", py + ["import sys; sys.exit('x.mlir: error: bad op')"]),
        ("crash", py + ["import os, signal; os.kill(os.getpid(), "
                        "signal.SIGSEGV)"]),
        ("crash", py + ["import os; os.abort()"]),
        ("hang", py + ["import time; time.sleep(30)"]),
        ("internal", py + ["import sys; sys.exit('LLVM ERROR: out of "
                           "memory')"]),
        ("internal", py + ["import sys; print('error: the imported IR is "
                           "invalid (an importer bug)', file=sys.stderr)"]),
        ("silent", py + ["import sys; sys.exit(3)"]),
        ("error", py + ["import sys; print('sweep s: 1 of 2 jobs failed: 1 "
                        "timeout; see: dispatchlab jobs', file=sys.stderr); "
                        "sys.exit(3)"]),
    ]
    wrong = 0
    for kind, command in expected:
        outcome = classify(command, ".", timeout=2)
        if outcome.kind != kind:
            print(f"self-test: {command[-1]!r} is {outcome.kind}, "
                  f"expected {kind}")
            wrong += 1
        elif kind == "hang" and shutil.which("gdb") and \
                "#0 " not in outcome.detail:
            print(f"self-test: the hang's stacks are missing: "
                  f"{outcome.detail!r}")
            wrong += 1
    print(f"self-test: {len(expected) - wrong} of {len(expected)} "
          "classified as expected")
    return 1 if wrong else 0


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--self-test", action="store_true",
                        help="only check the classifier on known commands")
    parser.add_argument("--dispatchlab")
    parser.add_argument("--onnx-convert")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--onnx", type=int, default=160,
                        help="mutated ONNX models (half text, half binary)")
    parser.add_argument("--mlir", type=int, default=160)
    parser.add_argument("--specs", type=int, default=30)
    parser.add_argument("--runs", type=int, default=10,
                        help="`run` on mnist_cnn with mutated inputs")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", default="fuzz-failures",
                        help="directory the failing inputs are copied to")
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    if args.self_test:
        return self_test()
    if not (args.dispatchlab and args.onnx_convert):
        sys.exit("fuzz.py: error: --dispatchlab and --onnx-convert are "
                 "required")
    fuzzer = Fuzzer(args)
    # A stopped run (ctest's timeout, kill) still removes its inputs.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        cases = build_cases(fuzzer, args)
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            outcomes = pool.map(
                lambda c: classify(c.command, c.directory, args.timeout),
                cases)
            results = list(zip(cases, outcomes))
        print(summarize(results))
        failures = [(c, o) for c, o in results
                    if o.kind not in ("ok", "error")]
        for case, outcome in failures:
            kept = os.path.join(os.path.abspath(args.keep),
                                os.path.basename(case.directory))
            shutil.copytree(case.directory, kept, dirs_exist_ok=True)
            command = " ".join(case.command).replace(case.directory, kept)
            print(f"{outcome.kind}: {case.name}: {outcome.detail}\n"
                  f"  reproduce: (cd {kept} && {command})")
        return 1 if failures else 0
    finally:
        shutil.rmtree(fuzzer.work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
