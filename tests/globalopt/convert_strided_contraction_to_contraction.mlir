// RUN: dispatchlab-opt %s --split-input-file --mlir-print-local-scope --pass-pipeline='builtin.module(func.func(dispatchlab-convert-strided-contraction-to-contraction))' | FileCheck %s

// One case per rule of ConvertStridedContractionToContraction (IREE's
// GlobalOptimization pass of that name, as of IREE b48a5955), written after
// IREE's strided_contraction_to_contraction.mlir, with negatives.

// A strided 1x1 convolution, generalized and with its unit filter loops
// folded: the input reads (d0, d1 * 2, d2 * 2, d4). It reads a slice with
// strides [1, 2, 2, 1] instead, through the identity positions (d0, d1, d2,
// d4); the bit-extending body is still a multiply-add.
func.func @strided_1x1_conv(%input: tensor<2x16x18x8xbf16>, %filter: tensor<32x8xbf16>) -> tensor<2x8x9x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x9x32xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x9x32xf32>) -> tensor<2x8x9x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 2, d2 * 2, d4)>,
                                        affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>,
                                        affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%input, %filter : tensor<2x16x18x8xbf16>, tensor<32x8xbf16>) outs(%fill : tensor<2x8x9x32xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %ae = arith.extf %a : bf16 to f32
    %be = arith.extf %b : bf16 to f32
    %m = arith.mulf %ae, %be : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x8x9x32xf32>
  return %r : tensor<2x8x9x32xf32>
}
// CHECK-LABEL: func.func @strided_1x1_conv(
//  CHECK-SAME:     %[[IN:[a-zA-Z0-9]+]]: tensor<2x16x18x8xbf16>, %[[F:[a-zA-Z0-9]+]]: tensor<32x8xbf16>)
//       CHECK:   %[[S:.+]] = tensor.extract_slice %[[IN]][0, 0, 0, 0] [2, 8, 9, 8] [1, 2, 2, 1] : tensor<2x16x18x8xbf16> to tensor<2x8x9x8xbf16>
//       CHECK:   %[[R:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>]
//  CHECK-SAME:       ins(%[[S]], %[[F]] :
//       CHECK:   return %[[R]]

// -----

// A dynamic input dim that is read without stride keeps its size: the
// slice takes it from tensor.dim.
func.func @strided_dynamic_batch(%input: tensor<?x16x18x8xf32>, %filter: tensor<32x8xf32>) -> tensor<?x8x9x32xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %input, %c0 : tensor<?x16x18x8xf32>
  %e = tensor.empty(%n) : tensor<?x8x9x32xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<?x8x9x32xf32>) -> tensor<?x8x9x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 2, d2 * 2, d4)>,
                                        affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>,
                                        affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%input, %filter : tensor<?x16x18x8xf32>, tensor<32x8xf32>) outs(%fill : tensor<?x8x9x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x8x9x32xf32>
  return %r : tensor<?x8x9x32xf32>
}
// CHECK-LABEL: func.func @strided_dynamic_batch(
//  CHECK-SAME:     %[[IN:[a-zA-Z0-9]+]]: tensor<?x16x18x8xf32>
//       CHECK:   linalg.fill
//       CHECK:   %[[N:.+]] = tensor.dim %[[IN]], %{{.+}} : tensor<?x16x18x8xf32>
//  CHECK-NEXT:   %[[S:.+]] = tensor.extract_slice %[[IN]][0, 0, 0, 0] [%[[N]], 8, 9, 8] [1, 2, 2, 1] : tensor<?x16x18x8xf32> to tensor<?x8x9x8xf32>
//       CHECK:   linalg.generic
//  CHECK-SAME:       affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
//  CHECK-SAME:       ins(%[[S]], %{{.+}} :

// -----

// Only `dim * cst` positions become strides; `d2 * 2 + d4` (a filter
// window) stays, and the slice keeps that dim whole.
func.func @strided_partial_conv(%input: tensor<2x16x18x8xf32>, %filter: tensor<32x2x8xf32>) -> tensor<2x8x9x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x9x32xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x9x32xf32>) -> tensor<2x8x9x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2, d2 * 2 + d4, d5)>,
                                        affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d5)>,
                                        affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%input, %filter : tensor<2x16x18x8xf32>, tensor<32x2x8xf32>) outs(%fill : tensor<2x8x9x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x8x9x32xf32>
  return %r : tensor<2x8x9x32xf32>
}
// CHECK-LABEL: func.func @strided_partial_conv(
//       CHECK:   %[[S:.+]] = tensor.extract_slice %{{.+}}[0, 0, 0, 0] [2, 8, 18, 8] [1, 2, 1, 1] : tensor<2x16x18x8xf32> to tensor<2x8x18x8xf32>
//       CHECK:   linalg.generic
//  CHECK-SAME:       affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d5)>
//  CHECK-SAME:       ins(%[[S]], %{{.+}} :

// -----

// A stride on a reduction dim of the first input; integer multiply-add.
func.func @strided_reduction_dim_int(%input: tensor<16x20x4xi32>, %filter: tensor<12x10x4xi32>) -> tensor<16x12xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<16x12xi32>
  %fill = linalg.fill ins(%zero : i32) outs(%e : tensor<16x12xi32>) -> tensor<16x12xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2 * 2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%input, %filter : tensor<16x20x4xi32>, tensor<12x10x4xi32>) outs(%fill : tensor<16x12xi32>) {
  ^bb0(%a: i32, %b: i32, %acc: i32):
    %m = arith.muli %a, %b : i32
    %s = arith.addi %acc, %m : i32
    linalg.yield %s : i32
  } -> tensor<16x12xi32>
  return %r : tensor<16x12xi32>
}
// CHECK-LABEL: func.func @strided_reduction_dim_int(
//       CHECK:   %[[S:.+]] = tensor.extract_slice %{{.+}}[0, 0, 0] [16, 10, 4] [1, 2, 1] : tensor<16x20x4xi32> to tensor<16x10x4xi32>
//       CHECK:   linalg.generic
//  CHECK-SAME:       affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
//  CHECK-SAME:       ins(%[[S]], %{{.+}} :

// -----

// Negative: only the first input may be strided; a strided second input
// (a non-permutation filter map) leaves the op alone.
func.func @strided_second_input(%input: tensor<16x4xf32>, %filter: tensor<12x8xf32>) -> tensor<16x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x12xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<16x12xf32>) -> tensor<16x12xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                        affine_map<(d0, d1, d2) -> (d1, d2 * 2)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%input, %filter : tensor<16x4xf32>, tensor<12x8xf32>) outs(%fill : tensor<16x12xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x12xf32>
  return %r : tensor<16x12xf32>
}
// CHECK-LABEL: func.func @strided_second_input(
//   CHECK-NOT:   tensor.extract_slice
//       CHECK:   affine_map<(d0, d1, d2) -> (d1, d2 * 2)>

// -----

// Negative: a body that is no multiply-add (a max-reduction of products).
func.func @not_multiply_add(%input: tensor<16x8xf32>, %filter: tensor<12x4xf32>) -> tensor<16x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x12xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<16x12xf32>) -> tensor<16x12xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2 * 2)>,
                                        affine_map<(d0, d1, d2) -> (d1, d2)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%input, %filter : tensor<16x8xf32>, tensor<12x4xf32>) outs(%fill : tensor<16x12xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.maximumf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x12xf32>
  return %r : tensor<16x12xf32>
}
// CHECK-LABEL: func.func @not_multiply_add(
//   CHECK-NOT:   tensor.extract_slice
//       CHECK:   affine_map<(d0, d1, d2) -> (d0, d2 * 2)>

// -----

// Negative: no reduction loop (a strided elementwise product).
func.func @no_reduction(%input: tensor<16x8xf32>, %other: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %e = tensor.empty() : tensor<16x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1 * 2)>,
                                        affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%input, %other : tensor<16x8xf32>, tensor<16x4xf32>) outs(%e : tensor<16x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x4xf32>
  return %r : tensor<16x4xf32>
}
// CHECK-LABEL: func.func @no_reduction(
//   CHECK-NOT:   tensor.extract_slice
//       CHECK:   affine_map<(d0, d1) -> (d0, d1 * 2)>

// -----

// Negative: the strided position's loop has a dynamic size, so the slice
// size is unknown statically.
func.func @dynamic_strided_loop(%input: tensor<?x8xf32>, %filter: tensor<12x8xf32>, %init: tensor<?x12xf32>) -> tensor<?x12xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0 * 2, d2)>,
                                        affine_map<(d0, d1, d2) -> (d1, d2)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%input, %filter : tensor<?x8xf32>, tensor<12x8xf32>) outs(%init : tensor<?x12xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x12xf32>
  return %r : tensor<?x12xf32>
}
// CHECK-LABEL: func.func @dynamic_strided_loop(
//   CHECK-NOT:   tensor.extract_slice
//       CHECK:   affine_map<(d0, d1, d2) -> (d0 * 2, d2)>

// -----

// Negative: every input map is a projected permutation already (a plain
// matmul generic): nothing to do.
func.func @plain_contraction(%a: tensor<16x8xf32>, %b: tensor<8x12xf32>) -> tensor<16x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x12xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<16x12xf32>) -> tensor<16x12xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                        affine_map<(d0, d1, d2) -> (d2, d1)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<16x8xf32>, tensor<8x12xf32>) outs(%fill : tensor<16x12xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x12xf32>
  return %r : tensor<16x12xf32>
}
// CHECK-LABEL: func.func @plain_contraction(
//   CHECK-NOT:   tensor.extract_slice
//       CHECK:   linalg.generic

