"""Where each runtime's time goes in one model call, for bench_vs_ort.py's
--profile-ops: ONNX Runtime's per-node profile summed by op type, beside
dispatchlab's per-dispatch profile summed by dispatch class (roofline.py's
classes). Both come from a separate, profiled pass, so they say where the
time goes, not how fast either runtime is.
"""

import glob
import json
import math
import statistics
from collections import defaultdict
from typing import Dict, List, Tuple

import roofline

CONVOLUTIONS = ("Conv", "FusedConv")
MATMULS = ("Gemm", "FusedGemm", "MatMul", "FusedMatMul")


def node_flops(op: str, args: dict) -> int:
    """FLOPs of a Conv or matmul node from the shapes in its trace event
    (2 x output elements x the products each sums); 0 for other ops or
    without shapes."""
    try:
        inputs = [next(iter(t.values())) for t in args["input_type_shape"]]
        output = next(iter(args["output_type_shape"][0].values()))
    except (KeyError, IndexError, StopIteration, AttributeError):
        return 0
    if op in CONVOLUTIONS and len(inputs) > 1:
        return 2 * math.prod(output) * math.prod(inputs[1][1:])
    if op in MATMULS and inputs:
        return 2 * math.prod(output) * inputs[0][-1]
    return 0


def ort_node_times(prefix: str, calls: int) -> List[dict]:
    """ORT's nodes from its profile (PREFIX*.json) in the order they first
    ran, each with its op, its median ms over the last `calls` calls and its
    FLOPs (node_flops). ORT names a node's kernel event NODE_kernel_time."""
    paths = glob.glob(prefix + "*.json")
    if len(paths) != 1:
        raise RuntimeError(f"expected one ORT profile {prefix}*.json, found "
                           f"{len(paths)}")
    with open(paths[0]) as f:
        events = json.load(f)
    nodes: Dict[str, dict] = {}
    for event in events:
        if event.get("cat") != "Node" or \
                not event["name"].endswith("_kernel_time"):
            continue
        args = event.get("args", {})
        node = nodes.setdefault(event["name"], {
            "node": event["name"][:-len("_kernel_time")],
            "op": args.get("op_name", "?"),
            "flops": node_flops(args.get("op_name", "?"), args),
            "durations": []})
        node["durations"].append(event["dur"] / 1000.0)
    return [{"node": n["node"], "op": n["op"], "flops": n["flops"],
             "ms": statistics.median(n["durations"][-calls:])}
            for n in nodes.values()]


def ort_op_times(prefix: str, calls: int) -> Dict[str, float]:
    """ms per call by op type from ORT's profile: each node's median over
    the last `calls` calls, summed over the op type's nodes."""
    by_op: Dict[str, float] = defaultdict(float)
    for node in ort_node_times(prefix, calls):
        by_op[node["op"]] += node["ms"]
    return dict(by_op)


def paired_nodes(ort: List[dict], ours: List[dict],
                 window: int = 8) -> List[Tuple[dict, dict]]:
    """ORT's Conv and matmul nodes paired with our dispatches, both in call
    order: a node takes the first of the next `window` dispatches (after the
    last one taken) whose FLOPs are half its own to 25% more; a node with
    none stays unpaired. Ours count the fused epilogue's arithmetic too, and
    ORT's blocked (NCHWc) shapes pad channels to a multiple of its block,
    24 to 32 in and out. `ours` is roofline.dispatches_of's list."""
    pairs = []
    start = 0
    for node in ort:
        if node["flops"] <= 0:
            continue
        for index in range(start, min(start + window, len(ours))):
            if 0.5 * node["flops"] <= ours[index]["flops"] <= \
                    1.25 * node["flops"]:
                pairs.append((node, ours[index]))
                start = index + 1
                break
    return pairs


def dispatchlab_class_times(run: dict) -> Dict[str, float]:
    """ms per call by dispatch class from the parsed JSON of `run
    --profile-dispatches --emit=json`; ValueError without a profile."""
    classes = roofline.classes_of(roofline.dispatches_of(run))
    return {label: c["ms"] for label, c in classes.items()}


def breakdown(times: Dict[str, float]) -> str:
    """"Conv 5.74 (59%), ..." largest first."""
    total = sum(times.values())
    return ", ".join(f"{name} {ms:.3g} ({100 * ms / total:.0f}%)"
                     for name, ms in sorted(times.items(),
                                            key=lambda kv: -kv[1]))


def section(rows: List[Tuple[str, Dict[str, float], Dict[str, float]]],
            threads: int) -> str:
    """Markdown: per model, ORT's op types and dispatchlab's classes."""
    lines = [f"## Where the time goes, {threads} thread(s), profiled pass",
             "",
             "ms per call: ORT's per-node profile summed by op type; "
             "dispatchlab's `--profile-dispatches` summed by dispatch class "
             "(scripts/roofline.py's classes; a class includes the "
             "elementwise ops fused into its dispatches). Sums, not "
             "latencies: both profilers slow the calls.", "",
             "| model | ORT total | ORT by op type | dispatchlab total | "
             "dispatchlab by class |", "|---|---|---|---|---|"]
    for name, ort, ours in rows:
        lines.append(f"| {name} | {sum(ort.values()):.3g} | {breakdown(ort)}"
                     f" | {sum(ours.values()):.3g} | {breakdown(ours)} |")
    return "\n".join(lines) + "\n"


def gaps_section(rows: List[Tuple[str, List[Tuple[dict, dict]]]],
                 threads: int, top: int = 5) -> str:
    """Markdown: per model, the paired nodes where our dispatch takes longest
    beyond ORT's node, and the paired sums."""
    lines = [f"## Largest per-node gaps, {threads} thread(s), profiled pass",
             "", "ORT's Conv and matmul nodes paired with our dispatches in "
             "call order by FLOPs (scripts/op_profile.py, paired_nodes); ms "
             "per call from the same profiled pass.", "",
             "| model | paired (ORT / ours ms) | ORT node | op | MFLOP | "
             "ORT ms | dispatch | ours ms |", "|---|---|---|---|---|---|---|"
             "---|"]
    for name, pairs in rows:
        total = (f"{len(pairs)} ({sum(n['ms'] for n, _ in pairs):.3g} / "
                 f"{sum(d['ms'] for _, d in pairs):.3g})")
        worst = sorted(pairs, key=lambda p: p[0]["ms"] - p[1]["ms"])[:top]
        for rank, (node, ours) in enumerate(worst):
            lead = f"| {name} | {total} |" if rank == 0 else "|  |  |"
            lines.append(f"{lead} {node['node']} | {node['op']} | "
                         f"{node['flops'] / 1e6:.1f} | {node['ms']:.3g} | "
                         f"{ours['name']} | {ours['ms']:.3g} |")
    return "\n".join(lines) + "\n"
