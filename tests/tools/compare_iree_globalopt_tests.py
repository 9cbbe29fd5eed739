#!/usr/bin/env python3
"""Runs IREE's GlobalOptimization lit tests for the passes `globalopt/`
models through our passes and checks each `// -----` case's output with the
case's own CHECK lines (FileCheck, under every prefix its RUN lines check).

The project does not ship IREE's files: pass the directory of an IREE
checkout's compiler/src/iree/compiler/GlobalOptimization/test.

  tests/tools/compare_iree_globalopt_tests.py IREE/compiler/src/iree/compiler/GlobalOptimization/test \\
      --dispatchlab-opt build/bin/dispatchlab-opt [--filecheck FILECHECK] [--details]

Our passes print the same ops as IREE's (`linalg.softmax`, `util.func` via
the compat dialects), so the CHECK lines apply unchanged. Outcomes per
(case, prefix): `agree` (FileCheck passes), `differ` (it fails: a rule we do
not model, or one that acts otherwise; --details prints FileCheck's first
complaint), `unsupported` (the case does not parse here: the op is named),
`error`. Prints a markdown report.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from typing import Dict, List, Tuple

# IREE's pass -> ours; every pass a RUN line names must be here.
PASSES = {
    "iree-global-opt-raise-special-ops": "dispatchlab-raise-special-ops",
    "iree-global-opt-detach-elementwise-from-named-ops":
        "dispatchlab-detach-elementwise-from-named-ops",
    "iree-global-opt-decompose-concat": "dispatchlab-decompose-concat",
    "iree-global-opt-propagate-linalg-transpose":
        "dispatchlab-propagate-linalg-transpose",
    "iree-global-opt-convert-batch-matmul-to-matmul":
        "dispatchlab-convert-batch-matmul-to-matmul",
    "iree-global-opt-convert-strided-contraction-to-contraction":
        "dispatchlab-convert-strided-contraction-to-contraction",
    "iree-global-opt-demote-contraction-inputs":
        "dispatchlab-demote-contraction-inputs",
    "iree-global-opt-fuse-dequantization-matmul":
        "dispatchlab-fuse-dequantization-matmul",
    "iree-flow-canonicalize": "canonicalize",
    "canonicalize": "canonicalize",
    "cse": "cse",
}
# IREE's pass options -> ours (DemoteContractionInputs' `type` and
# `operation` are spelled alike).
OPTIONS = {"enable-concat-transposition": "outer-dim-concat",
           "enable-aggressive-propagation":
               "aggressive-transpose-propagation",
           "enable-aggressive-propagation-through-conv":
               "propagate-through-conv",
           "enable-edge-reshape-propagation": "edge-reshape-propagation"}
FILES = ["raise_special_ops.mlir", "detach_elementwise_from_named_ops.mlir",
         "transpose_and_decompose_concat.mlir",
         "propagate_linalg_transpose.mlir",
         "convert_batch_matmul_to_matmul.mlir",
         "strided_contraction_to_contraction.mlir",
         "demote_contraction_inputs.mlir",
         "fuse_dequantization_matmul.mlir"]
UNSUPPORTED = re.compile(r"custom op '([^']+)' is unknown|unregistered "
                         r"operation '([^']+)'|Dialect `([^']+)' not found|"
                         r"dialect '([^']+)' is unknown|"
                         r"parsed with an (unregistered dialect)")
PIPELINE_PASS = re.compile(r"([\w-]+)(\{[^}]*\})?")


class UnmappedPass(Exception):
    pass


def our_pass(name: str, options: str) -> str:
    if name not in PASSES:
        raise UnmappedPass(name)
    for theirs, ours in OPTIONS.items():
        options = options.replace(theirs + "=", ours + "=")
    return PASSES[name] + options


def parse_run(line: str) -> Tuple[str, List[str]]:
    """The pipeline of ours for one RUN line, and the prefixes it checks."""
    words = shlex.split(line)
    passes = []
    for word in words:
        if word.startswith("--pass-pipeline="):
            body = word.split("=", 1)[1]
            inner = re.search(r"\((?:util\.func|func\.func)\((.*)\)\)", body)
            for match in PIPELINE_PASS.finditer(inner.group(1)):
                passes.append(our_pass(match.group(1), match.group(2) or ""))
        elif word.startswith(("--iree-", "-iree-")) or word in (
                "--canonicalize", "--cse"):
            # A pass flag, with one or two dashes and its options after
            # `=` (`-iree-pass="a=1 b=2"`, quotes gone after shlex).
            name, _, options = word.lstrip("-").partition("=")
            passes.append(our_pass(name, "{" + options + "}"
                                   if options else ""))
    prefixes = ["CHECK"]
    for word in words:
        if word.startswith("--check-prefix"):
            prefixes = word.split("=", 1)[1].split(",")
    return f"builtin.module(any({','.join(passes)}))", prefixes


def read_runs(text: str) -> List[Tuple[str, List[str]]]:
    runs, current = [], ""
    for line in text.splitlines():
        if not line.startswith("// RUN:"):
            continue
        current += " " + line[len("// RUN:"):].strip().rstrip("\\")
        if not line.endswith("\\"):
            if "FileCheck" in current:
                runs.append(parse_run(current))
            current = ""
    return runs


def case_name(case: str) -> str:
    match = re.search(r"func(?:\.func)?\s+(?:public\s+|private\s+)?@([\w.$]+)",
                      case)
    return match.group(1) if match else "?"


# A CHECK line capturing a map alias (`#[[$MAP:.+]] = affine_map<...>`)
# needs the aliases printed, so such cases run without local scope.
ALIAS_CHECK = re.compile(r"//\s*[\w-]+:\s*#\[\[")


def compare_case(opt: str, filecheck: str, case: str, pipeline: str,
                 prefix: str) -> Tuple[str, str]:
    scope = [] if ALIAS_CHECK.search(case) else ["--mlir-print-local-scope"]
    with tempfile.NamedTemporaryFile("w", suffix=".mlir") as file:
        file.write(case)
        file.flush()
        ran = subprocess.run([opt, f"--pass-pipeline={pipeline}"] + scope
                             + [file.name],
                             capture_output=True, text=True, timeout=120)
        if ran.returncode != 0:
            unsupported = UNSUPPORTED.search(ran.stderr)
            if unsupported:
                op = next(g for g in unsupported.groups() if g)
                return "unsupported", op
            return "error", (ran.stderr.strip().splitlines() or ["?"])[0]
        checked = subprocess.run(
            [filecheck, file.name, f"--check-prefix={prefix}",
             "--allow-unused-prefixes"],
            input=ran.stdout, capture_output=True, text=True, timeout=60)
    if checked.returncode == 0:
        return "agree", ""
    complaint = [l for l in checked.stderr.splitlines() if "error:" in l]
    return "differ", complaint[0].split("error:", 1)[1].strip() \
        if complaint else ""


def compare_file(args, path: str) -> List[Tuple[str, str, str, str]]:
    text = open(path).read()
    try:
        runs = read_runs(text)
    except UnmappedPass as error:
        return [("(file)", "", "error", f"no pass of ours for {error}")]
    rows = []
    for case in text.split("// -----"):
        for pipeline, prefixes in runs:
            for prefix in prefixes:
                if not re.search(rf"//\s*{re.escape(prefix)}(-[A-Z]+)?:",
                                 case):
                    continue
                outcome, detail = compare_case(args.dispatchlab_opt,
                                               args.filecheck, case,
                                               pipeline, prefix)
                rows.append((case_name(case), prefix, outcome, detail))
    return rows


def report(per_file: Dict[str, list], details: bool) -> str:
    outcomes = ["agree", "differ", "unsupported", "error"]
    lines = ["| file | " + " | ".join(outcomes) + " |",
             "|---|" + "---|" * len(outcomes)]
    totals = dict.fromkeys(outcomes, 0)
    for name, rows in per_file.items():
        counts = [sum(1 for r in rows if r[2] == o) for o in outcomes]
        for outcome, count in zip(outcomes, counts):
            totals[outcome] += count
        lines.append(f"| {name} | " + " | ".join(map(str, counts)) + " |")
    lines.append("| all | " + " | ".join(str(totals[o]) for o in outcomes)
                 + " |")
    for name, rows in per_file.items():
        for case, prefix, outcome, detail in rows:
            if outcome != "agree" and (details or outcome != "differ"):
                lines.append(f"- {name} @{case} [{prefix}]: {outcome}"
                             + (f": {detail}" if detail else ""))
            elif outcome == "differ":
                lines.append(f"- {name} @{case} [{prefix}]: differ")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("test_dir")
    parser.add_argument("--dispatchlab-opt", required=True)
    parser.add_argument("--filecheck", default="/usr/lib/llvm-22/bin/FileCheck")
    parser.add_argument("--details", action="store_true",
                        help="FileCheck's first complaint for each differ")
    args = parser.parse_args()
    per_file = {}
    for name in FILES:
        path = os.path.join(args.test_dir, name)
        if not os.path.exists(path):
            print(f"error: {path} not found (pass IREE's "
                  "GlobalOptimization/test directory)", file=sys.stderr)
            return 1
        per_file[name] = compare_file(args, path)
    print(report(per_file, args.details))
    return 0


if __name__ == "__main__":
    sys.exit(main())
