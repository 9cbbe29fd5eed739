#!/usr/bin/env python3
"""Roofline table of a profiled run: where each class of dispatch stands
against the machine's compute and memory peaks.

Input: the JSON of
  dispatchlab run MODEL --profile-dispatches --emit=json [--threads 1 ...]
whose `dispatch_profile` gives each dispatch's `median_ms` per model call and
whose `compile.groups` give its `flops`, `bytes_read`, `bytes_written` and
`root_shape_class` (proto/results.proto). Peaks: scripts/measure_peaks.py,
measured with the same binary, pinning and thread count.

For a dispatch or a class (its dispatches' FLOPs, bytes and times summed):
  GFLOP/s  = flops / time,  GB/s = (bytes_read + bytes_written) / time
  AI       = flops / bytes (arithmetic intensity, FLOP per byte)
  roofline = min(peak GFLOP/s, AI * peak GB/s); bound says which term is
             smaller (compute, or memory)
  fraction = GFLOP/s / roofline, which is also the shortest time the peaks
             allow, max(flops / peak, bytes / bandwidth), over the time
             taken; for a dispatch without arithmetic (a copy) only that
             second form is defined, and it is used.
Bytes are each tensor once (the minimum traffic), so a fraction below 1 may
be traffic beyond that minimum as much as slow code; and the bandwidth peak
is memory's, so a dispatch whose tensors stay in cache can exceed 1.

Usage: roofline.py RUN.json --peak-gflops X --peak-gbps Y [--per-dispatch]
Prints markdown.
"""

import argparse
import json
import sys

# root_shape_class -> row label.
LABELS = {
    "conv_1x1": "1x1 conv",
    "conv_kxk": "kxk conv",
    "conv_depthwise": "depthwise conv",
    "pool": "pool",
    "matmul": "matmul",
    "batch_matmul": "batch_matmul",
    "reduction": "reduction",
    "elementwise": "elementwise",
    "copy": "copy",
    "other": "other",
}
STRIDED = "_strided"


def class_label(group):
    """The row label of a dispatch group, e.g. "1x1 conv, strided"."""
    if group is None:
        # Dispatches codegen adds (encodings) have no compile-stats group.
        return "not in compile stats"
    shape = group["root_shape_class"]
    strided = shape.endswith(STRIDED)
    if strided:
        shape = shape[: -len(STRIDED)]
    label = LABELS.get(shape, shape)
    return label + ", strided" if strided else label


def dispatches_of(run):
    """The dispatches of a parsed run JSON, each a dict of name, label, ms,
    flops and bytes; ValueError if the run has no profile or work figures."""
    if "dispatch_profile" not in run:
        raise ValueError("no dispatch_profile: run with "
                         "--profile-dispatches --emit=json")
    groups = {g["name"]: g for g in run.get("compile", {}).get("groups", [])}
    if any("flops" not in g for g in groups.values()):
        raise ValueError("dispatch groups have no flops: it comes from a "
                         "dispatchlab without per-dispatch work figures")
    dispatches = []
    for entry in run["dispatch_profile"]:
        group = groups.get(entry["dispatch"])
        dispatches.append({
            "name": entry["dispatch"],
            "label": class_label(group),
            "ms": entry["median_ms"],
            "flops": group["flops"] if group else 0,
            "bytes": group["bytes_read"] + group["bytes_written"]
                     if group else 0,
        })
    return dispatches


def load(path):
    """(dispatches, model, threads) of a run JSON file; exits naming the
    file if it cannot be read or has no profile."""
    try:
        with open(path) if path != "-" else sys.stdin as f:
            run = json.load(f)
    except (OSError, ValueError) as error:
        sys.exit(f"error: cannot read {path}: {error}")
    try:
        dispatches = dispatches_of(run)
    except ValueError as error:
        sys.exit(f"error: {path}: {error}")
    return dispatches, run.get("model", path), run.get("threads")


def figures(ms, flops, nbytes, peak_gflops, peak_gbps):
    """GFLOP/s, GB/s, AI, bound and fraction of roofline (None where a
    figure is undefined)."""
    gflops = flops / (ms * 1e6) if ms > 0 else None
    gbps = nbytes / (ms * 1e6) if ms > 0 else None
    ai = flops / nbytes if nbytes > 0 else None
    if flops == 0 and nbytes == 0:
        return gflops, gbps, ai, None, None
    compute_s = flops / (peak_gflops * 1e9)
    memory_s = nbytes / (peak_gbps * 1e9)
    bound = "compute" if compute_s >= memory_s else "memory"
    fraction = max(compute_s, memory_s) / (ms * 1e-3) if ms > 0 else None
    return gflops, gbps, ai, bound, fraction


def fmt(value, spec):
    return "n/a" if value is None else format(value, spec)


def pct(value):
    return "n/a" if value is None else f"{100 * value:.1f}%"


def row(cells):
    return "| " + " | ".join(cells) + " |"


def figure_cells(ms, total_ms, flops, nbytes, args):
    gflops, gbps, ai, bound, fraction = figures(
        ms, flops, nbytes, args.peak_gflops, args.peak_gbps)
    share = ms / total_ms if total_ms > 0 else None
    return [fmt(ms, ".4g"), pct(share), fmt(gflops, ".1f"), fmt(gbps, ".2f"),
            fmt(ai, ".2f"), bound or "n/a", pct(fraction)]


def classes_of(dispatches):
    """label -> the class's dispatch count n and summed ms, flops, bytes."""
    classes = {}
    for d in dispatches:
        c = classes.setdefault(d["label"], {"n": 0, "ms": 0.0, "flops": 0,
                                            "bytes": 0})
        c["n"] += 1
        c["ms"] += d["ms"]
        c["flops"] += d["flops"]
        c["bytes"] += d["bytes"]
    return classes


def class_table(dispatches, total_ms, args):
    classes = classes_of(dispatches)
    lines = [row(["class", "dispatches", "ms", "share", "GFLOP/s", "GB/s",
                  "AI (FLOP/B)", "bound", "of roofline"]),
             row(["---"] * 9)]
    for label, c in sorted(classes.items(), key=lambda kv: -kv[1]["ms"]):
        lines.append(row([label, str(c["n"])] + figure_cells(
            c["ms"], total_ms, c["flops"], c["bytes"], args)))
    return lines


def dispatch_table(dispatches, total_ms, args):
    def worst_first(d):
        fraction = figures(d["ms"], d["flops"], d["bytes"], args.peak_gflops,
                           args.peak_gbps)[4]
        return (fraction is None, fraction or 0.0, -d["ms"])

    lines = [row(["dispatch", "class", "ms", "share", "GFLOP/s", "GB/s",
                  "AI (FLOP/B)", "bound", "of roofline"]),
             row(["---"] * 9)]
    for d in sorted(dispatches, key=worst_first):
        lines.append(row([d["name"], d["label"]] + figure_cells(
            d["ms"], total_ms, d["flops"], d["bytes"], args)))
    return lines


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run", help="run JSON (--profile-dispatches), or -")
    parser.add_argument("--peak-gflops", type=float, required=True)
    parser.add_argument("--peak-gbps", type=float, required=True)
    parser.add_argument("--per-dispatch", action="store_true",
                        help="also list every dispatch, worst fraction "
                             "first")
    args = parser.parse_args()
    if args.peak_gflops <= 0 or args.peak_gbps <= 0:
        parser.error("peaks must be positive")

    dispatches, model, threads = load(args.run)
    total_ms = sum(d["ms"] for d in dispatches)
    print(f"{model}: {len(dispatches)} dispatches, {total_ms:.4g} ms summed "
          f"medians, {threads} thread(s); peaks {args.peak_gflops:g} GFLOP/s, "
          f"{args.peak_gbps:g} GB/s (ridge at "
          f"{args.peak_gflops / args.peak_gbps:.2f} FLOP/B)")
    print()
    print("\n".join(class_table(dispatches, total_ms, args)))
    if args.per_dispatch:
        print()
        print("\n".join(dispatch_table(dispatches, total_ms, args)))


if __name__ == "__main__":
    main()
