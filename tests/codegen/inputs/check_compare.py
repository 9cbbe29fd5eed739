"""Prints what compare.test checks of a `dispatchlab compare --emit json`:
per variant its verdict, sample count and whether it has a ratio, and for
the whole comparison its rounds, stop and host conditions."""
import json
import sys

report = json.load(open(sys.argv[1]))
mode = sys.argv[2]
if mode == "fixed":
    print(f"rounds {report['rounds']} stopped_by {report['stopped_by']} "
          f"order_seed {report['order_seed']}")
for variant in report["variants"]:
    ratio = variant["ratio"]
    ok = ratio and ratio["ci_low"] <= ratio["median"] <= ratio["ci_high"] \
        and 0 <= ratio["p_value"] <= 1 and ratio["rounds"] == report["rounds"]
    line = (f"{variant['name']}: {variant['verdict']}, "
            f"{len(variant['samples_seconds'])} samples, "
            f"ratio {'ok' if ok else 'none' if ratio is None else ratio}")
    if variant["identical_to"]:
        line += f", identical_to {variant['identical_to']}"
    print(line)
    samples = variant["samples_seconds"]
    if samples and (len(samples) != report["rounds"] or min(samples) <= 0):
        print(f"bad samples in {variant['name']}")
if mode == "fixed":
    hosts = [report["host_before"], report["host_after"]]
    if all(h["load_average"] is not None and h["frequency_mhz"] for h in hosts):
        print("host conditions recorded")
if mode == "aa":
    floor = report["noise_floor"]
    aa = report["variants"][1]["ratio"]
    print("noise floor = the A/A ratio" if floor == aa else f"floor {floor}")
if mode.startswith("drift"):
    # The A/A copy's ratio under drift injected half way through.
    ratio = report["variants"][1]["ratio"]
    verdict = report["variants"][1]["verdict"]
    if mode == "drift-sequential":
        print(f"separate blocks: {verdict}"
              + (" by at least 5%" if ratio["median"] >= 1.05 else ""))
    else:
        # The ratio, not its p-value: two links of identical code differ
        # by a few percent in layout (docs/compare.md), which 60 paired
        # rounds resolve (0.949x at p 1.5e-8 once); drift not cancelled
        # would give the sequential schedule's 1.8-3.9x.
        quiet = abs(ratio["median"] - 1) < 0.1
        print("paired rounds: " + ("no difference" if quiet else
                                   f"a difference {ratio} ({verdict})"))
