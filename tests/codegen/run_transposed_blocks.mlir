// Elementwise ops writing their output in another order than they read
// their input: BERT's key transpose with its bias (12 heads x 64 x 128
// tokens from 128 x 12 x 64), a plain 48x32 transpose, both in 16x16 blocks
// through register transposes, and an NCHW image scaled per channel into
// NHWC (3 planes interleaved, the scale read through a broadcast). The
// outputs must equal the scalar-loops reference exactly (one addf or mulf
// per element), on one thread and on two.

// RUN: dispatchlab run %s --repetitions 1 --emit=json | FileCheck %s
// RUN: dispatchlab run %s --threads 2 --repetitions 1 --emit=json | FileCheck %s

// CHECK: "max_abs_diff": 0,
// CHECK: "passed": true
// CHECK: "max_abs_diff": 0,
// CHECK: "passed": true
// CHECK: "max_abs_diff": 0,
// CHECK: "passed": true

#bias = affine_map<(d0, d1, d2) -> (d1, d2)>
#tokens = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#heads = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
#nchw = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#channel = affine_map<(d0, d1, d2, d3) -> (d1)>
#nhwc = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
func.func @main(%b: tensor<12x64xf32>, %k: tensor<128x12x64xf32>, %m: tensor<48x32xf32>, %x: tensor<1x3x5x32xf32>, %s: tensor<3xf32>) -> (tensor<12x64x128xf32>, tensor<32x48xf32>, tensor<1x5x32x3xf32>) {
  %e0 = tensor.empty() : tensor<12x64x128xf32>
  %t0 = linalg.generic {indexing_maps = [#bias, #tokens, #heads], iterator_types = ["parallel", "parallel", "parallel"]} ins(%b, %k : tensor<12x64xf32>, tensor<128x12x64xf32>) outs(%e0 : tensor<12x64x128xf32>) {
  ^bb0(%bias: f32, %in: f32, %o: f32):
    %sum = arith.addf %bias, %in : f32
    linalg.yield %sum : f32
  } -> tensor<12x64x128xf32>
  %e1 = tensor.empty() : tensor<32x48xf32>
  %t1 = linalg.transpose ins(%m : tensor<48x32xf32>) outs(%e1 : tensor<32x48xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<1x5x32x3xf32>
  %t2 = linalg.generic {indexing_maps = [#nchw, #channel, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %s : tensor<1x3x5x32xf32>, tensor<3xf32>) outs(%e2 : tensor<1x5x32x3xf32>) {
  ^bb0(%in: f32, %scale: f32, %o: f32):
    %p = arith.mulf %in, %scale : f32
    linalg.yield %p : f32
  } -> tensor<1x5x32x3xf32>
  return %t0, %t1, %t2 : tensor<12x64x128xf32>, tensor<32x48xf32>, tensor<1x5x32x3xf32>
}
