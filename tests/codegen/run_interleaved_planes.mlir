// An NCHW image copied into NHWC (3 planes interleaved into the innermost
// dim): tiles of all 3 planes by a vector of columns, whose transposed
// 16x3 blocks are written as whole 1-D vectors; 20 columns are split into
// 16 and a rest of 4 (4x3 blocks). The outputs must equal the scalar-loops
// reference exactly (a copy), on one thread and on two.

// RUN: dispatchlab run %s --repetitions 1 --emit=json | FileCheck %s
// RUN: dispatchlab run %s --threads 2 --repetitions 1 --emit=json | FileCheck %s

// CHECK: "max_abs_diff": 0,
// CHECK: "passed": true
// CHECK: "max_abs_diff": 0,
// CHECK: "passed": true

func.func @main(%x: tensor<1x3x7x32xf32>, %y: tensor<1x3x5x20xf32>) -> (tensor<1x7x32x3xf32>, tensor<1x5x20x3xf32>) {
  %e0 = tensor.empty() : tensor<1x7x32x3xf32>
  %t0 = linalg.transpose ins(%x : tensor<1x3x7x32xf32>) outs(%e0 : tensor<1x7x32x3xf32>) permutation = [0, 2, 3, 1]
  %e1 = tensor.empty() : tensor<1x5x20x3xf32>
  %t1 = linalg.transpose ins(%y : tensor<1x3x5x20xf32>) outs(%e1 : tensor<1x5x20x3xf32>) permutation = [0, 2, 3, 1]
  return %t0, %t1 : tensor<1x7x32x3xf32>, tensor<1x5x20x3xf32>
}
