// The full pipeline folds unit-extent dims after generalization, as IREE's
// GlobalOptimization does, unless fold-unit-extent-dims=false. Folded, the
// dequantization's broadcast of the scales becomes a projected permutation
// of the contraction's loops, so the two generics share one dispatch
// (IREE's pipeline_tests.mlir grouped_quantized_matmul).
// RUN: dispatchlab compile %s --emit=dispatch-ir | FileCheck %s --check-prefix=FOLD
// RUN: dispatchlab compile %s --emit=dispatch-ir --fold-unit-extent-dims=false | FileCheck %s --check-prefix=NOFOLD

// FOLD-COUNT-1: dispatch.region
// FOLD-NOT:     dispatch.region
// NOFOLD-COUNT-2: dispatch.region
// NOFOLD-NOT:     dispatch.region

#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map2 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#map3 = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#map4 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @dequant_matvec(%w: tensor<64x4x16xi4>, %x: tensor<1x1x4x16xf32>, %scale: tensor<64x4x1xf32>, %zp: tensor<64x4x1xf32>) -> tensor<1x1x64xf32> {
  %cst = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x1x64xf32>
  %e1 = tensor.empty() : tensor<64x4x16xf32>
  %acc = linalg.fill ins(%cst : f32) outs(%e0 : tensor<1x1x64xf32>) -> tensor<1x1x64xf32>
  %deq = linalg.generic {indexing_maps = [#map, #map1, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %scale, %zp : tensor<64x4x16xi4>, tensor<64x4x1xf32>, tensor<64x4x1xf32>) outs(%e1 : tensor<64x4x16xf32>) {
  ^bb0(%in: i4, %s: f32, %z: f32, %out: f32):
    %0 = arith.extui %in : i4 to i32
    %1 = arith.uitofp %0 : i32 to f32
    %2 = arith.subf %1, %z : f32
    %3 = arith.mulf %2, %s : f32
    linalg.yield %3 : f32
  } -> tensor<64x4x16xf32>
  %mv = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %deq : tensor<1x1x4x16xf32>, tensor<64x4x16xf32>) outs(%acc : tensor<1x1x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %0, %out : f32
    linalg.yield %1 : f32
  } -> tensor<1x1x64xf32>
  return %mv : tensor<1x1x64xf32>
}
