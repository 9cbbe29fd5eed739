#!/usr/bin/python3
"""Writes batchnorm_weights.onnxtxt and its .npy files for run_parameters.test.

A 1x1 convolution followed by a BatchNormalization (which the importer folds
into the convolution's weight and bias), and a BatchNormalization of the
input alone (a per-channel scale and shift). The expected outputs are
computed here in doubles from ONNX's definitions, without numpy, so the test
checks the weights the importer's parameter function derives independently.
Run from this directory with python3.
"""
import math
import random
import struct

rng = random.Random(7)


def f32(value):
    return struct.unpack("<f", struct.pack("<f", value))[0]


def uniform(count, low, high):
    return [f32(rng.uniform(low, high)) for _ in range(count)]


def text(values):
    return ", ".join(repr(v) for v in values)


def save_npy(path, shape, values):
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % dims
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(struct.pack(f"<{len(values)}f", *values))


C, O, H, W = 2, 3, 2, 2
EPS = 1e-3
x = uniform(C * H * W, -1, 1)
w = uniform(O * C, -1, 1)
b = uniform(O, -1, 1)
gamma, beta, mean = uniform(O, 0.5, 2), uniform(O, -1, 1), uniform(O, -1, 1)
var = uniform(O, 0.1, 2)
g2, b2, m2, v2 = (uniform(C, 0.5, 2), uniform(C, -1, 1), uniform(C, -1, 1),
                  uniform(C, 0.1, 2))


def normalize(value, g, bt, m, v):
    return (value - m) / math.sqrt(v + f32(EPS)) * g + bt


folded = []
for o in range(O):
    for p in range(H * W):
        z = sum(w[o * C + c] * x[c * H * W + p] for c in range(C)) + b[o]
        folded.append(normalize(z, gamma[o], beta[o], mean[o], var[o]))
alone = [normalize(x[c * H * W + p], g2[c], b2[c], m2[c], v2[c])
         for c in range(C) for p in range(H * W)]

with open("batchnorm_weights.onnxtxt", "w") as f:
    f.write(f"""<ir_version: 8, opset_import: ["" : 17]>
batchnorm (float[1,{C},{H},{W}] x) => (float[1,{O},{H},{W}] y, float[1,{C},{H},{W}] n)
<float[{O},{C},1,1] w = {{{text(w)}}}, float[{O}] b = {{{text(b)}}},
 float[{O}] gamma = {{{text(gamma)}}}, float[{O}] beta = {{{text(beta)}}},
 float[{O}] mean = {{{text(mean)}}}, float[{O}] var = {{{text(var)}}},
 float[{C}] g2 = {{{text(g2)}}}, float[{C}] b2 = {{{text(b2)}}},
 float[{C}] m2 = {{{text(m2)}}}, float[{C}] v2 = {{{text(v2)}}}>
{{
  c = Conv (x, w, b)
  y = BatchNormalization <epsilon={EPS}> (c, gamma, beta, mean, var)
  n = BatchNormalization <epsilon={EPS}> (x, g2, b2, m2, v2)
}}
""")
save_npy("batchnorm_x.npy", (1, C, H, W), x)
save_npy("batchnorm_y.npy", (1, O, H, W), folded)
save_npy("batchnorm_n.npy", (1, C, H, W), alone)
