"""Where each runtime's time goes in one model call, for bench_vs_ort.py's
--profile-ops: ONNX Runtime's per-node profile summed by op type, beside
dispatchlab's per-dispatch profile summed by dispatch class (roofline.py's
classes). Both come from a separate, profiled pass, so they say where the
time goes, not how fast either runtime is.
"""

import glob
import json
import statistics
from collections import defaultdict
from typing import Dict, List, Tuple

import roofline


def ort_op_times(prefix: str, calls: int) -> Dict[str, float]:
    """ms per call by op type from ORT's profile (PREFIX*.json): the median
    over the last `calls` calls of each node, summed over the op type's
    nodes. ORT names a node's kernel event NODE_kernel_time."""
    paths = glob.glob(prefix + "*.json")
    if len(paths) != 1:
        raise RuntimeError(f"expected one ORT profile {prefix}*.json, found "
                           f"{len(paths)}")
    with open(paths[0]) as f:
        events = json.load(f)
    per_node: Dict[Tuple[str, str], List[float]] = defaultdict(list)
    for event in events:
        if event.get("cat") == "Node" and \
                event["name"].endswith("_kernel_time"):
            key = (event["name"], event["args"].get("op_name", "?"))
            per_node[key].append(event["dur"] / 1000.0)
    by_op: Dict[str, float] = defaultdict(float)
    for (_, op), durations in per_node.items():
        by_op[op] += statistics.median(durations[-calls:])
    return dict(by_op)


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
