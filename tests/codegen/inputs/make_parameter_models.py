#!/usr/bin/python3
"""Writes the ONNX text models and .npy files of run_parameters.test.

The expected outputs are computed here with numpy from ONNX's definitions
(ConvTranspose as a scatter of every input element times the kernel), not
from dispatchlab, so the test checks the weights the importer's parameter
function derives independently.
Run from this directory with Debian's python3 (numpy).
"""
import numpy as np

rng = np.random.default_rng(7)


def values(array):
    # str of a float32 is the shortest text that reads back to the same value.
    return ", ".join(str(v) for v in array.ravel())


def dims(array):
    return ",".join(str(d) for d in array.shape)


def conv_transpose(x, w, b, strides, pads, group=1, dilations=(1, 1),
                   output_padding=(0, 0)):
    n, c, h, wd = x.shape
    cg = c // group
    mg = w.shape[1]
    kh, kw = w.shape[2:]
    full_h = strides[0] * (h - 1) + output_padding[0] + (kh - 1) * dilations[0] + 1
    full_w = strides[1] * (wd - 1) + output_padding[1] + (kw - 1) * dilations[1] + 1
    out = np.zeros((n, mg * group, full_h, full_w), np.float64)
    for g in range(group):
        for ci in range(cg):
            for m in range(mg):
                for i in range(h):
                    for j in range(wd):
                        for p in range(kh):
                            for q in range(kw):
                                out[:, g * mg + m,
                                    i * strides[0] + p * dilations[0],
                                    j * strides[1] + q * dilations[1]] += (
                                    x[:, g * cg + ci, i, j] *
                                    w[g * cg + ci, m, p, q])
    out = out[:, :, pads[0]:full_h - pads[2], pads[1]:full_w - pads[3]]
    if b is not None:
        out += b.reshape(1, -1, 1, 1)
    return out.astype(np.float32)


# ConvTranspose: an asymmetric 3x2 kernel with bias, stride 2, pads and
# output_padding (derived as transpose(reverse(w, [2, 3]), ...)), and a
# grouped one (reverse(transpose(reshape(...)))).
x = rng.uniform(-1, 1, (1, 4, 3, 3)).astype(np.float32)
w = rng.uniform(-1, 1, (4, 2, 3, 2)).astype(np.float32)
b = rng.uniform(-1, 1, (2,)).astype(np.float32)
wg = rng.uniform(-1, 1, (4, 3, 2, 3)).astype(np.float32)
up = conv_transpose(x, w, b, (2, 2), (1, 0, 0, 1), output_padding=(1, 0))
grp = conv_transpose(x, wg, None, (1, 2), (0, 1, 0, 1), group=2)
with open("conv_transpose_weights.onnxtxt", "w") as f:
    f.write(f"""<ir_version: 8, opset_import: ["" : 17]>
deconv (float[1,4,3,3] x) => (float[{dims(up)}] up, float[{dims(grp)}] grp)
<float[4,2,3,2] w = {{{values(w)}}},
 float[2] b = {{{values(b)}}},
 float[4,3,2,3] wg = {{{values(wg)}}}>
{{
  up = ConvTranspose <strides=[2,2], pads=[1,0,0,1], output_padding=[1,0]> (x, w, b)
  grp = ConvTranspose <strides=[1,2], pads=[0,1,0,1], group=2> (x, wg)
}}
""")
np.save("conv_transpose_x.npy", x)
np.save("conv_transpose_up.npy", up)
np.save("conv_transpose_grp.npy", grp)

# Weights from Constant nodes instead of initializers: a conv kernel (read
# through a derived layout) and a matmul weight (read as is).
xc = rng.uniform(-1, 1, (1, 2, 4, 4)).astype(np.float32)
kc = rng.uniform(-1, 1, (3, 2, 2, 2)).astype(np.float32)
mc = rng.uniform(-1, 1, (9, 5)).astype(np.float32)
conv = np.zeros((1, 3, 3, 3), np.float64)
for o in range(3):
    for i in range(3):
        for j in range(3):
            conv[0, o, i, j] = np.sum(xc[0, :, i:i + 2, j:j + 2] * kc[o])
relu = np.maximum(conv, 0).reshape(1, 3, 9)
y = (relu @ mc).astype(np.float32)
with open("constant_weights.onnxtxt", "w") as f:
    f.write(f"""<ir_version: 8, opset_import: ["" : 17]>
consts (float[1,2,4,4] x) => (float[1,3,5] y)
{{
  k = Constant <value = float[3,2,2,2] k_value {{{values(kc)}}}> ()
  m = Constant <value = float[9,5] m_value {{{values(mc)}}}> ()
  conv = Conv (x, k)
  relu = Relu (conv)
  shape = Constant <value = int64[3] {{1, 3, 9}}> ()
  flat = Reshape (relu, shape)
  y = MatMul (flat, m)
}}
""")
np.save("constant_x.npy", xc)
np.save("constant_y.npy", y)

# Weights read by 32-column panels (PackWeightPanels): a matmul weight as
# the model gives it (packed [16, 64] -> [2, 16, 32]) and a conv kernel
# whose transposed layout is packed further ([64, 4, 3, 3] -> [2, 3, 3, 4,
# 32]).
xp = rng.uniform(-1, 1, (4, 16)).astype(np.float32)
mp = rng.uniform(-1, 1, (16, 64)).astype(np.float32)
xi = rng.uniform(-1, 1, (1, 4, 5, 5)).astype(np.float32)
kp = rng.uniform(-1, 1, (64, 4, 3, 3)).astype(np.float32)
fc = (xp.astype(np.float64) @ mp).astype(np.float32)
conv = np.zeros((1, 64, 3, 3), np.float64)
for o in range(64):
    for i in range(3):
        for j in range(3):
            conv[0, o, i, j] = np.sum(xi[0, :, i:i + 3, j:j + 3] * kp[o])
with open("panel_weights.onnxtxt", "w") as f:
    f.write(f"""<ir_version: 8, opset_import: ["" : 17]>
panels (float[4,16] x, float[1,4,5,5] image) => (float[4,64] fc, float[1,64,3,3] conv)
<float[16,64] m = {{{values(mp)}}},
 float[64,4,3,3] k = {{{values(kp)}}}>
{{
  fc = MatMul (x, m)
  conv = Conv (image, k)
}}
""")
np.save("panel_x.npy", xp)
np.save("panel_image.npy", xi)
np.save("panel_fc.npy", fc)
np.save("panel_conv.npy", conv.astype(np.float32))
