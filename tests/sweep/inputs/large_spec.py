"""Prints a sweep spec of the two seeds, one explicit variant and the axes
max-operands (1..A) x inline-constant-bytes (0..B-1): 2 x (1 + A x B) jobs.
Its run jobs are bound to a CPU class no worker has, so an embedded sweep
stops before running any.  Usage: large_spec.py SEEDS_DIR A B"""
import sys

seeds, a, b = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
print('name: "big"')
for seed in ("004_dot_exp.mlir", "000_matmul_bias_relu.mlir"):
    print(f'models: "{seeds}/{seed}"')
print("kind: RUN")
print('measurement { cpu_class: "no-such-cpu" }')
print('variants { name: "o2" preset: "iree-O2" }')
print('axes { knob: "max-operands"',
      *(f'values: "{i}"' for i in range(1, a + 1)), "}")
print('axes { knob: "inline-constant-bytes"',
      *(f'values: "{i}"' for i in range(b)), "}")
