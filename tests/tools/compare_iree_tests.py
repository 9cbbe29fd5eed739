#!/usr/bin/env python3
"""Feeds every `// -----` case of IREE's DispatchCreation lit tests to
dispatchlab, running for each RUN line the passes of ours its
--pass-pipeline names (the PASSES table; a pass it lacks is an error), and
compares the dispatches formed with the ones the case's CHECK lines
describe. A line naming iree-dispatch-creation-pipeline runs
`dispatchlab compile --pipeline=full`; any other runs dispatchlab-opt.

The project does not ship IREE's files: pass the directory of an IREE
checkout's compiler/src/iree/compiler/DispatchCreation/test.

  tests/tools/compare_iree_tests.py IREE/compiler/src/iree/compiler/DispatchCreation/test \\
      --dispatchlab build/bin/dispatchlab --dispatchlab-opt build/bin/dispatchlab-opt

What a CHECK block says: the `flow.dispatch.region` / `flow.dispatch.workgroups`
lines of a prefix are the expected dispatches, in order; the op names checked
between one of them and its `flow.return` are what that dispatch must hold.
Items (one case under one RUN line) whose prefix checks no dispatch are not
comparable. An item agrees when dispatchlab forms as many dispatches and each
expected one's ops are in a distinct dispatch of ours. For
a RUN line whose passes form no dispatch (fuse_multiuse_elementwise_producer
.mlir), the number of top-level linalg.generic ops is compared instead.

Other outcomes: `unsupported` (the input does not parse: the op or dialect
is named), `invalid IR`, `crash`, `error`. Prints a markdown report.
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

FILES = ["form_dispatch_regions.mlir", "dispatch_linalg_on_tensors.mlir",
         "dispatch_linalg_on_tensors_default.mlir",
         "fuse_multiuse_elementwise_producer.mlir", "pipeline_tests.mlir",
         "pipeline_tests_aggressive.mlir"]

# FormDispatchRegions' pass options and the knobs they are.
PASS_OPTIONS = {"aggressive-fusion": "aggressive-fusion",
                "fuse-multi-use-producers": "fuse-multi-use",
                "fuse-pad-with-producers": "fuse-pad-with-producers",
                "fuse-pad-with-consumers": "fuse-pad-with-consumers"}
# iree-dispatch-creation-pipeline's options (but aggressive-fusion, which is
# the iree-O2 preset) and the knobs they are.
PIPELINE_OPTIONS = {"aggressive-reshape-movement":
                    "aggressive-reshape-movement"}
# Every IREE pass a RUN line may name, and what of ours runs for it: a
# dispatchlab-opt pass, FULL (`dispatchlab compile --pipeline=full`, which
# owns the whole line), or None with the reason nothing runs.
FULL = "full"
PASSES = {
    "canonicalize": "canonicalize",
    "cse": "cse",
    "iree-flow-canonicalize": "canonicalize",
    "iree-dispatch-creation-form-dispatch-regions":
        "dispatchlab-form-dispatch-regions",
    "iree-dispatch-creation-clone-producers-into-dispatch-regions":
        "dispatchlab-clone-producers-into-dispatch-regions",
    "iree-dispatch-creation-convert-tensor-to-flow":
        "dispatchlab-form-copy-dispatches",
    "iree-dispatch-creation-fuse-multi-use-elementwise-producer":
        "dispatchlab-fuse-multi-use-elementwise-producer",
    "iree-dispatch-creation-pipeline": FULL,
    "iree-dispatch-creation-form-split-reduction-dispatches":
        "dispatchlab-form-split-reduction-dispatches",
    # Representation only: regions become isolated workgroups.
    "iree-dispatch-creation-convert-dispatch-regions-to-workgroups": None,
    "iree-dispatch-creation-materialize-default-workgroup-count-region": None,
    # Before the full pipeline: GlobalOptimization steps it runs by default
    # (PRE_FULL), switched off by their knobs for a line that lacks them.
    "iree-dispatch-creation-fold-unit-extent-dims":
        "dispatchlab-fold-unit-extent-dims",
    "iree-global-opt-generalize-linalg-named-ops":
        "dispatchlab-generalize-named-ops",
    # Not modelled (docs/faithfulness.md).
    "iree-preprocessing-attr-based-pipeline": None,
}
PRE_FULL = {"dispatchlab-generalize-named-ops": "generalize-named-ops",
            "dispatchlab-fold-unit-extent-dims": "fold-unit-extent-dims"}
# Passes that form dispatches: a RUN line with none of them is compared by
# its linalg.generic count.
FORMING = {"dispatchlab-form-dispatch-regions",
           "dispatchlab-clone-producers-into-dispatch-regions",
           "dispatchlab-form-copy-dispatches", FULL}
ANCHORS = {"builtin.module", "util.func", "func.func"}
OPENER = re.compile(r"flow\.dispatch\.(region|workgroups)\b")
CLOSER = re.compile(r"flow\.return\b|util\.return\b|\breturn\b")
# Ops that name what a dispatch holds (not the scalar code in bodies).
MEMBER = re.compile(r"(?<![\w.#!])((?:linalg|tensor|iree_linalg_ext|"
                    r"iree_encoding)\.[a-z_0-9]+)(?!\s*=)")
NOT_MEMBERS = {"linalg.yield", "linalg.index", "tensor.dim", "tensor.empty",
               "tensor.extract", "tensor.yield"}
UNSUPPORTED = re.compile(r"Dialect `([^']+)' not found|custom op '([^']+)' "
                         r"is unknown|unregistered operation '([^']+)'|"
                         r"unknown dialect|expected (attribute|type) value|"
                         r"dialect '([^']+)' is unknown|"
                         r"undefined symbol alias id '([^']+)'")


@dataclass
class Run:
    """One RUN line: what of ours runs for it and the prefixes it checks.
    `passes` is a dispatchlab-opt pass pipeline; when empty, `dispatchlab
    compile` runs with `knobs`."""
    prefixes: List[str]
    passes: str = ""
    knobs: List[str] = field(default_factory=list)
    counts_generics: bool = False
    skipped: List[str] = field(default_factory=list)
    unmapped: List[str] = field(default_factory=list)

    def describe(self) -> str:
        text = (f"dispatchlab-opt --pass-pipeline={self.passes}"
                if self.passes else "compile " + " ".join(self.knobs))
        if self.skipped:
            text += f"; RUN-line passes not run: {self.skipped}"
        if self.unmapped:
            text += f"; RUN-line options with no knob: {self.unmapped}"
        return text


class UnmappedPass(Exception):
    pass


def read_runs(text: str) -> List[Run]:
    lines = [l[len("// RUN:"):].strip() for l in text.splitlines()
             if l.startswith("// RUN:")]
    joined, current = [], ""
    for line in lines:
        current += " " + line.rstrip("\\")
        if not line.endswith("\\"):
            joined.append(current)
            current = ""
    return [parse_run(line) for line in joined if "FileCheck" in line]


def parse_pipeline(text: str, pos: int = 0):
    """`a{opts}, b(c, d)` as [(name, opts, children)] and the position
    after it (at a `)` or the end)."""
    items = []
    while pos < len(text) and text[pos] != ")":
        m = re.compile(r"[\s,]*([\w.-]+)").match(text, pos)
        if not m:
            raise UnmappedPass(f"unparsable pass pipeline at '{text[pos:]}'")
        name, pos, options, children = m.group(1), m.end(), "", []
        if text.startswith("{", pos):
            close = text.index("}", pos)
            options, pos = text[pos + 1:close], close + 1
        if text.startswith("(", pos):
            children, pos = parse_pipeline(text, pos + 1)
            pos += 1
        items.append((name, options, children))
        pos = re.compile(r"\s*").match(text, pos).end()
    return items, pos


def translate(items, run: Run, ours: List[str]) -> List[str]:
    """Our passes for IREE's `items`; FULL's options become run.knobs."""
    result = []
    for name, options, children in items:
        if name in ANCHORS:
            inner = translate(children, run, ours)
            if inner:
                result.append(f"{name}({', '.join(inner)})")
            continue
        if name not in PASSES:
            raise UnmappedPass(f"RUN-line pass '{name}' has no entry in "
                               "PASSES")
        mine = PASSES[name]
        if mine is None:
            run.skipped.append(name)
            continue
        ours.append(mine)
        if mine == FULL:
            for option in options.split():
                if option == "aggressive-fusion":
                    run.knobs.append("--preset=iree-O2")
                elif option in PIPELINE_OPTIONS:
                    run.knobs.append(f"--{PIPELINE_OPTIONS[option]}")
                else:
                    run.unmapped.append(option)
            continue
        result.append(mine + translate_options(name, options, run))
    return result


def translate_options(name: str, options: str, run: Run) -> str:
    mapped = []
    for option in options.split():
        key, _, value = option.partition("=")
        if name.endswith("form-dispatch-regions") and key in PASS_OPTIONS:
            mapped.append(f"{PASS_OPTIONS[key]}={value or 'true'}")
        else:
            run.unmapped.append(option)
    return "{" + " ".join(mapped) + "}" if mapped else ""


def parse_run(line: str) -> Run:
    prefixes = re.findall(r"--check-prefix(?:es)?=([\w,-]+)", line)
    prefixes = [p for group in prefixes for p in group.split(",")] or \
        ["CHECK"]
    run = Run(prefixes)
    m = re.search(r"--pass-pipeline=[\"']([^\"']*)[\"']", line)
    if not m:
        raise UnmappedPass("RUN line has no --pass-pipeline")
    ours: List[str] = []
    passes = ", ".join(translate(parse_pipeline(m.group(1))[0], run, ours))
    if FULL in ours:
        others = [p for p in ours if p != FULL and p not in PRE_FULL]
        if others or ours.index(FULL) != len(ours) - 1:
            raise UnmappedPass("RUN line mixes iree-dispatch-creation-pipeline"
                               f" with other passes: {ours}")
        run.knobs += [f"--{knob}=false" for pass_, knob in PRE_FULL.items()
                      if pass_ not in ours]
        run.knobs.insert(0, "--pipeline=full")
    else:
        run.passes = passes
    run.counts_generics = not FORMING.intersection(ours)
    return run


def check_lines(case: str, prefix: str) -> List[str]:
    """The pattern text of `prefix`'s CHECK lines (not CHECK-NOT)."""
    pattern = re.compile(r"//\s*" + re.escape(prefix) +
                         r"(?:-NEXT|-SAME|-DAG|-LABEL)?:(.*)")
    return [m.group(1) for m in map(pattern.search, case.splitlines()) if m]


def expected_dispatches(lines: List[str]) -> List[List[str]]:
    dispatches: List[List[str]] = []
    inside = False
    for line in lines:
        if OPENER.search(line):
            dispatches.append([])
            inside = True
            continue
        if inside and CLOSER.search(line):
            inside = False
        if inside:
            dispatches[-1] += [op for op in MEMBER.findall(line)
                               if op not in NOT_MEMBERS]
    return dispatches


def our_dispatches(ir: str) -> List[List[str]]:
    """The ops of each dispatch.region of `compile --emit=dispatch-ir`: a
    region ends where its braces balance."""
    dispatches: List[List[str]] = []
    depth = 0
    for line in ir.splitlines():
        if depth == 0:
            if re.search(r"\bdispatch\.region\b", line):
                dispatches.append([])
                depth = line.count("{") - line.count("}")
            continue
        dispatches[-1] += [op for op in MEMBER.findall(line)
                           if op not in NOT_MEMBERS]
        depth += line.count("{") - line.count("}")
    return dispatches


def holds(ours: List[List[str]], expected: List[List[str]]) -> bool:
    """Each expected dispatch's ops in a distinct dispatch of ours."""
    free = [collections.Counter(d) for d in ours]
    for want in map(collections.Counter, expected):
        match = next((i for i, have in enumerate(free)
                      if have is not None and not want - have), None)
        if match is None:
            return False
        free[match] = None
    return True


def classify_failure(proc) -> Tuple[str, str]:
    stderr = proc.stderr
    if proc.returncode < 0:
        return "crash", f"signal {-proc.returncode}"
    m = UNSUPPORTED.search(stderr)
    if m:
        return "unsupported", next((g for g in m.groups() if g), m.group(0))
    if "does not dominate" in stderr or "invalid" in stderr.lower():
        return "invalid IR", first_line(stderr)
    return "error", first_line(stderr)


def first_line(text: str) -> str:
    lines = [l for l in text.splitlines() if "error" in l] or \
        text.splitlines() or [""]
    return lines[0].strip()[:160]


# dispatchlab-opt has no model loader: run first what compile's loader runs,
# so a pre-formed flow.dispatch.region becomes our dispatch.region.
CONVERT_PREFORMED = "dispatchlab-convert-preformed-regions"


def with_preformed_conversion(passes: str) -> str:
    """`passes` with the conversion first, on the module."""
    if passes.startswith("builtin.module(") and passes.endswith(")"):
        inner = passes[len("builtin.module("):-1]
        return f"builtin.module({CONVERT_PREFORMED}, {inner})"
    return f"builtin.module({CONVERT_PREFORMED}, {passes})"


class Comparer:
    def __init__(self, args):
        self.args = args
        self.tmp = tempfile.mkdtemp(prefix="compare_iree_tests.")

    def run_ours(self, source: str, run: Run) -> subprocess.CompletedProcess:
        path = os.path.join(self.tmp, "case.mlir")
        with open(path, "w") as f:
            f.write(source)
        if run.passes:
            pipeline = with_preformed_conversion(run.passes)
            command = [self.args.dispatchlab_opt, path,
                       f"--pass-pipeline={pipeline}"]
        else:
            command = [self.args.dispatchlab, "compile", path,
                       "--emit=dispatch-ir"] + run.knobs
        try:
            return subprocess.run(command, capture_output=True, text=True,
                                  timeout=self.args.timeout)
        except subprocess.TimeoutExpired:
            return subprocess.CompletedProcess(command, -9, "", "timeout")

    def compare(self, case: str, run: Run) -> Tuple[str, str]:
        lines = [l for p in run.prefixes for l in check_lines(case, p)]
        if run.counts_generics:
            want = sum(1 for l in lines if re.search(
                r"=\s*linalg\.generic", l))
            if not want:
                return "not comparable", ""
        else:
            expected = expected_dispatches(lines)
            if not expected:
                return "not comparable", ""
        proc = self.run_ours(case, run)
        if proc.returncode != 0:
            return classify_failure(proc)
        if run.counts_generics:
            have = len(re.findall(r"^\s*%[\w:#]+ = linalg\.generic",
                                  proc.stdout, re.M))
            return ("agree" if have == want else "differ",
                    f"{have} generic ops, expected {want}")
        ours = our_dispatches(proc.stdout)
        detail = f"{len(ours)} dispatches, expected {len(expected)}"
        if len(ours) == len(expected) and holds(ours, expected):
            return "agree", detail
        return "differ", detail + f"; ours {ours}, expected {expected}"


def case_name(case: str) -> str:
    m = re.search(r"func(?:\.func)?\s+(?:public\s+|private\s+)?@([\w.$-]+)",
                  case)
    return m.group(1) if m else "?"


def compare_file(comparer: Comparer, path: str):
    with open(path) as f:
        text = f.read()
    runs = read_runs(text)
    results = []
    for index, case in enumerate(text.split("// -----")):
        for run in runs:
            outcome, detail = comparer.compare(case, run)
            results.append((index, case_name(case), run, outcome, detail))
    return runs, results


def report(per_file) -> str:
    kinds = ["agree", "differ", "unsupported", "invalid IR", "crash", "error",
             "not comparable"]
    lines = ["| file | " + " | ".join(kinds) + " |",
             "|" + "---|" * (len(kinds) + 1)]
    totals = collections.Counter()
    details = []
    for name, (runs, results) in per_file.items():
        counts = collections.Counter(r[3] for r in results)
        totals.update(counts)
        lines.append(f"| {name} | " + " | ".join(str(counts[k])
                                                for k in kinds) + " |")
        for index, case, run, outcome, detail in results:
            if outcome in ("agree", "not comparable"):
                continue
            details.append(f"- {name} case {index} `{case}` "
                           f"[{','.join(run.prefixes)}: {run.describe()}]: "
                           f"{outcome}: {detail}")
    lines.append("| all | " + " | ".join(str(totals[k]) for k in kinds) +
                 " |")
    comparable = totals["agree"] + totals["differ"]
    summary = (f"\n{totals['agree']} of {comparable} comparable items agree"
               f" ({100 * totals['agree'] / max(comparable, 1):.0f}%); "
               f"{totals['unsupported']} unsupported, {totals['invalid IR']} "
               f"invalid IR, {totals['crash']} crashes, {totals['error']} "
               "other errors.\n")
    return "\n".join(lines) + "\n" + summary + "\n" + "\n".join(details) + "\n"


def robustness(comparer: Comparer, names: List[str], test_dir: str) -> str:
    """Every case under every preset and both pipelines: what must never
    happen is a crash or invalid IR."""
    bad, runs = [], 0
    for name in names:
        with open(os.path.join(test_dir, name)) as f:
            cases = f.read().split("// -----")
        for index, case in enumerate(cases):
            for preset in ["iree-O0", "iree-O2", "no-fusion"]:
                for pipeline in ["full", "formation"]:
                    run = Run([], knobs=[f"--preset={preset}",
                                         f"--pipeline={pipeline}"])
                    proc = comparer.run_ours(case, run)
                    runs += 1
                    if proc.returncode == 0:
                        continue
                    kind, detail = classify_failure(proc)
                    if kind in ("crash", "invalid IR"):
                        bad.append(f"- {name} case {index} `{case_name(case)}`"
                                   f" {preset} {pipeline}: {kind}: {detail}")
    return (f"\nEvery case under iree-O0, iree-O2 and no-fusion, full and "
            f"formation pipelines: {runs} runs, {len(bad)} crashes or "
            "invalid IR.\n" + "".join(line + "\n" for line in bad))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("test_dir", help="IREE's DispatchCreation/test")
    parser.add_argument("--dispatchlab", required=True)
    parser.add_argument("--dispatchlab-opt", required=True)
    parser.add_argument("--files", default=",".join(FILES))
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--all-presets", action="store_true",
                        help="also run every case under every preset and "
                        "both pipelines, reporting crashes and invalid IR")
    args = parser.parse_args()
    comparer = Comparer(args)
    per_file = {}
    for name in args.files.split(","):
        path = os.path.join(args.test_dir, name)
        if not os.path.exists(path):
            sys.exit(f"compare_iree_tests: error: {path} does not exist")
        try:
            per_file[name] = compare_file(comparer, path)
        except UnmappedPass as error:
            sys.exit(f"compare_iree_tests: error: {path}: {error}")
    print(report(per_file))
    if args.all_presets:
        print(robustness(comparer, list(per_file), args.test_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
