// RUN: iree-opt --split-input-file --mlir-print-local-scope -iree-global-opt-convert-strided-contraction-to-contraction %s | FileCheck %s
// Our own stand-in for IREE's file of this name (compare_iree_globalopt.test).

util.func public @strided_rows(%input: tensor<16x8xf32>, %filter: tensor<12x8xf32>, %init: tensor<8x12xf32>) -> tensor<8x12xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0 * 2, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%input, %filter : tensor<16x8xf32>, tensor<12x8xf32>) outs(%init : tensor<8x12xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x12xf32>
  util.return %r : tensor<8x12xf32>
}
// CHECK-LABEL: @strided_rows(
//       CHECK:   tensor.extract_slice %{{.+}}[0, 0] [8, 8] [2, 1]
//       CHECK:   affine_map<(d0, d1, d2) -> (d0, d2)>
