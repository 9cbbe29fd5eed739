// dispatchlab-annotate-data-tiling-hints (IREE's AnnotateDataTilingHints,
// matmul op type): which contractions the data-tiling fusion route encodes.
//
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-annotate-data-tiling-hints))' \
// RUN:   | FileCheck %s

#lhs = affine_map<(m, n, k) -> (m, k)>
#rhs = affine_map<(m, n, k) -> (n, k)>
#out = affine_map<(m, n, k) -> (m, n)>

// A matmul (B transposed by its maps) and a batch matmul: one loop each of
// batch, M, N and K, a multiply-add body.
// CHECK-LABEL: func.func @matmuls
//       CHECK:   linalg.matmul indexing_maps = [{{.+}}] {dispatchlab.data_tiling_hint}
//       CHECK:   linalg.batch_matmul {dispatchlab.data_tiling_hint}
func.func @matmuls(%a: tensor<4x8xf32>, %b: tensor<16x8xf32>, %c: tensor<4x16xf32>,
                   %x: tensor<2x4x8xf32>, %y: tensor<2x8x16xf32>, %z: tensor<2x4x16xf32>)
    -> (tensor<4x16xf32>, tensor<2x4x16xf32>) {
  %0 = linalg.matmul indexing_maps = [#lhs, #rhs, #out]
      ins(%a, %b : tensor<4x8xf32>, tensor<16x8xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = linalg.batch_matmul ins(%x, %y : tensor<2x4x8xf32>, tensor<2x8x16xf32>)
      outs(%z : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %0, %1 : tensor<4x16xf32>, tensor<2x4x16xf32>
}

// -----

// A generic contraction whose factors are extended first (a mixed-precision
// matmul) still has a matmul-like body.
// CHECK-LABEL: func.func @extending_generic
//       CHECK:   linalg.generic
//  CHECK-SAME:     dispatchlab.data_tiling_hint
func.func @extending_generic(%a: tensor<4x8xi8>, %b: tensor<16x8xi8>, %c: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                        affine_map<(m, n, k) -> (n, k)>,
                                        affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xi8>, tensor<16x8xi8>) outs(%c : tensor<4x16xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xe = arith.extsi %x : i8 to i32
    %ye = arith.extsi %y : i8 to i32
    %m = arith.muli %xe, %ye : i32
    %s = arith.addi %acc, %m : i32
    linalg.yield %s : i32
  } -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}

// -----

// Not candidates: a body that is not multiply-add (max-plus), two batch
// loops, an elementwise op.
// CHECK-LABEL: func.func @not_candidates
//   CHECK-NOT:   dispatchlab.data_tiling_hint
func.func @not_candidates(%a: tensor<4x8xf32>, %b: tensor<16x8xf32>, %c: tensor<4x16xf32>,
                          %x: tensor<2x3x4x8xf32>, %y: tensor<2x3x8x16xf32>, %z: tensor<2x3x4x16xf32>)
    -> (tensor<4x16xf32>, tensor<2x3x4x16xf32>, tensor<4x16xf32>) {
  %0 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                        affine_map<(m, n, k) -> (n, k)>,
                                        affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<16x8xf32>) outs(%c : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %s = arith.addf %p, %q : f32
    %m = arith.maximumf %acc, %s : f32
    linalg.yield %m : f32
  } -> tensor<4x16xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(b0, b1, m, n, k) -> (b0, b1, m, k)>,
                                        affine_map<(b0, b1, m, n, k) -> (b0, b1, k, n)>,
                                        affine_map<(b0, b1, m, n, k) -> (b0, b1, m, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<2x3x4x8xf32>, tensor<2x3x8x16xf32>) outs(%z : tensor<2x3x4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x3x4x16xf32>
  %2 = linalg.add ins(%c, %c : tensor<4x16xf32>, tensor<4x16xf32>)
      outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0, %1, %2 : tensor<4x16xf32>, tensor<2x3x4x16xf32>, tensor<4x16xf32>
}

// -----

// A contraction on an encoded operand is already data-tiled.
// CHECK-LABEL: func.func @encoded_operand
//   CHECK-NOT:   dispatchlab.data_tiling_hint
#enc = #iree_encoding.testing<>
func.func @encoded_operand(%a: tensor<4x8xf32, #enc>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32, #enc>, tensor<8x16xf32>)
      outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// A hint already in the function: the choice was made, nothing is added.
// CHECK-LABEL: func.func @hint_present
//       CHECK:   linalg.matmul {dispatchlab.data_tiling_hint}
//       CHECK:   linalg.matmul ins
func.func @hint_present(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %0 = linalg.matmul {dispatchlab.data_tiling_hint} ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
      outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
      outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0, %1 : tensor<4x16xf32>, tensor<4x16xf32>
}
