"""Prints the structure of the one stored comparison of a sweep database:
the method, why the rounds stopped, and per variant its verdict, whether it
has a numeric ratio and one sample per round. No timing values."""
import json
import sqlite3
import sys

(stats,) = sqlite3.connect(sys.argv[1]).execute(
    "SELECT stats_json FROM results").fetchone()
c = json.loads(stats)["comparison"]
print("method", c["method"].split(":")[0])
print("stopped_by", c["stopped_by"], "rounds_ok", c["rounds"] >= 6,
      "seed", c["order_seed"])
print("host_before load",
      isinstance(c["host_before"]["load_average"], (int, float)))
for v in c["variants"]:
    ratio = v["ratio"]
    samples = v["samples_seconds"]
    line = [v["name"], v["verdict"], "ratio",
            # A median of exactly 1 (an A/A pair of identical medians) is
            # written as the JSON number 1, which Python reads as an int.
            None if ratio is None
            else isinstance(ratio["median"], (int, float))
            and ratio["ci_low"] <= ratio["median"] <= ratio["ci_high"],
            "samples_per_round",
            None if not samples else len(samples) == c["rounds"]]
    if v["identical_to"]:
        line += ["identical_to", v["identical_to"]]
    print(*line)
