"""Summarizes a `compare --copies` JSON: each timed variant's copies, and
whether its per-round samples are the geometric means of its copies'."""
import json
import math
import sys

report = json.load(open(sys.argv[1]))
print(f"copies {report['copies']}, rounds {report['rounds']}, "
      f"method: {report['method']}")
for variant in report["variants"]:
    copies = [c["samples_seconds"] for c in variant["copy_samples"]]
    lengths = {len(samples) for samples in copies}
    rounds = variant["samples_seconds"]
    means = all(
        math.isclose(rounds[r],
                     math.exp(sum(math.log(c[r]) for c in copies) / len(copies)),
                     rel_tol=1e-9) for r in range(len(rounds)))
    print(f"{variant['name']}: {len(copies)} copies of "
          f"{'/'.join(map(str, sorted(lengths)))} samples, round samples are "
          f"{'their geometric means' if means else 'not their geometric means'}"
          f", ratio {'ok' if variant['ratio'] else 'none'}, "
          f"output_difference {variant['output_difference']}")
