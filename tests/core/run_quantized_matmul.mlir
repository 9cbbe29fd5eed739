// `dispatchlab run --pipeline=iree --quantized-matmul-reassociation=true` on
// a matvec of weights dequantized per group (i8, scales and zero points per
// group of 32): FuseDequantizationMatmul quantizes the activation per group
// to i16 and multiplies in i32. The result approximates the reference (which
// multiplies the dequantized f32 weights) within the f32 tolerance (1e-4;
// 2.2e-5 when this test was written); the group max, scales, sums and
// quantization are dispatches of their own, 5 against 1. Off by default, as
// in IREE.
//
// RUN: dispatchlab run %s --pipeline=iree --quantized-matmul-reassociation=true --emit=json | FileCheck %s --check-prefix=ON --implicit-check-not='"passed": false'
// RUN: dispatchlab run %s --pipeline=iree --emit=json | FileCheck %s --check-prefix=OFF --implicit-check-not='"passed": false'
//
// ON: "passed": true
// ON: "dispatches": 5,
// OFF: "passed": true
// OFF: "dispatches": 1,



#q = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#g = affine_map<(d0, d1, d2) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d1, d2)>
#o = affine_map<(d0, d1, d2) -> (d0)>
func.func @grouped_matvec(%q: tensor<16x4x32xi8>, %a: tensor<4x32xf32>, %s: tensor<16x4xf32>, %zp: tensor<16x4xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x4x32xf32>
  %w = linalg.generic {indexing_maps = [#q, #g, #g, #q], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %s, %zp : tensor<16x4x32xi8>, tensor<16x4xf32>, tensor<16x4xf32>) outs(%e : tensor<16x4x32xf32>) {
  ^bb0(%qi: i8, %si: f32, %zi: f32, %out: f32):
    %0 = arith.extui %qi : i8 to i32
    %1 = arith.uitofp %0 : i32 to f32
    %2 = arith.subf %1, %zi : f32
    %3 = arith.mulf %2, %si : f32
    linalg.yield %3 : f32
  } -> tensor<16x4x32xf32>
  %eo = tensor.empty() : tensor<16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%eo : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.generic {indexing_maps = [#a, #q, #o], iterator_types = ["parallel", "reduction", "reduction"]} ins(%a, %w : tensor<4x32xf32>, tensor<16x4x32xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%ai: f32, %wi: f32, %out: f32):
    %0 = arith.mulf %ai, %wi : f32
    %1 = arith.addf %0, %out : f32
    linalg.yield %1 : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}


