// RUN: dispatchlab-opt %s --split-input-file --mlir-print-local-scope --pass-pipeline='builtin.module(func.func(dispatchlab-convert-batch-matmul-to-matmul))' | FileCheck %s

// One case per rule of ConvertBatchMatmulToMatmul (IREE's GlobalOptimization
// pass of that name, as of IREE b48a5955), written after IREE's
// convert_batch_matmul_to_matmul.mlir, with its negatives.

// The RHS is a 2-D weight broadcast along the batch dim (linalg.broadcast,
// dimensions = [0]): the LHS and the init collapse their batch and M dims,
// a linalg.matmul reads the weight itself, its result is expanded back.
func.func @broadcast_weight(%act: tensor<4x10x8xf32>, %weight: tensor<8x6xf32>) -> tensor<4x10x6xf32> {
  %eb = tensor.empty() : tensor<4x8x6xf32>
  %b = linalg.broadcast ins(%weight : tensor<8x6xf32>) outs(%eb : tensor<4x8x6xf32>) dimensions = [0]
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<4x10x6xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x10x6xf32>) -> tensor<4x10x6xf32>
  %r = linalg.batch_matmul ins(%act, %b : tensor<4x10x8xf32>, tensor<4x8x6xf32>) outs(%fill : tensor<4x10x6xf32>) -> tensor<4x10x6xf32>
  return %r : tensor<4x10x6xf32>
}
// CHECK-LABEL: func.func @broadcast_weight(
//  CHECK-SAME:     %[[ACT:[a-zA-Z0-9]+]]: tensor<4x10x8xf32>, %[[W:[a-zA-Z0-9]+]]: tensor<8x6xf32>)
//       CHECK:   %[[FILL:.+]] = linalg.fill
//       CHECK:   %[[LHS:.+]] = tensor.collapse_shape %[[ACT]] {{\[}}[0, 1], [2]] : tensor<4x10x8xf32> into tensor<40x8xf32>
//       CHECK:   %[[INIT:.+]] = tensor.collapse_shape %[[FILL]] {{\[}}[0, 1], [2]] : tensor<4x10x6xf32> into tensor<40x6xf32>
//       CHECK:   %[[MM:.+]] = linalg.matmul ins(%[[LHS]], %[[W]] : tensor<40x8xf32>, tensor<8x6xf32>) outs(%[[INIT]] : tensor<40x6xf32>)
//       CHECK:   %[[R:.+]] = tensor.expand_shape %[[MM]] {{\[}}[0, 1], [2]] output_shape [4, 10, 6] : tensor<40x6xf32> into tensor<4x10x6xf32>
//       CHECK:   return %[[R]]

// -----

// The broadcast in its generalized form (what GeneralizeLinalgNamedOps
// makes of it) matches too; a dynamic batch size comes from the LHS.
func.func @generic_broadcast_dynamic_batch(%act: tensor<?x10x8xf32>, %weight: tensor<8x6xf32>) -> tensor<?x10x6xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %act, %c0 : tensor<?x10x8xf32>
  %eb = tensor.empty(%n) : tensor<?x8x6xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weight : tensor<8x6xf32>) outs(%eb : tensor<?x8x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?x8x6xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty(%n) : tensor<?x10x6xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%eo : tensor<?x10x6xf32>) -> tensor<?x10x6xf32>
  %r = linalg.batch_matmul ins(%act, %b : tensor<?x10x8xf32>, tensor<?x8x6xf32>) outs(%fill : tensor<?x10x6xf32>) -> tensor<?x10x6xf32>
  return %r : tensor<?x10x6xf32>
}
// CHECK-LABEL: func.func @generic_broadcast_dynamic_batch(
//  CHECK-SAME:     %[[ACT:[a-zA-Z0-9]+]]: tensor<?x10x8xf32>, %[[W:[a-zA-Z0-9]+]]: tensor<8x6xf32>)
//       CHECK:   %[[LHS:.+]] = tensor.collapse_shape %[[ACT]] {{\[}}[0, 1], [2]] : tensor<?x10x8xf32> into tensor<?x8xf32>
//       CHECK:   %[[INIT:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1], [2]] : tensor<?x10x6xf32> into tensor<?x6xf32>
//       CHECK:   %[[MM:.+]] = linalg.matmul ins(%[[LHS]], %[[W]] : tensor<?x8xf32>, tensor<8x6xf32>)
//       CHECK:   %[[N:.+]] = tensor.dim %[[ACT]], %{{.+}} : tensor<?x10x8xf32>
//       CHECK:   tensor.expand_shape %[[MM]] {{\[}}[0, 1], [2]] output_shape [%[[N]], 10, 6] : tensor<?x6xf32> into tensor<?x10x6xf32>

// -----

// Dynamic batch and M: both expanded sizes are read off the LHS.
func.func @dynamic_batch_and_m(%act: tensor<?x?x8xf32>, %weight: tensor<8x6xf32>) -> tensor<?x?x6xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %act, %c0 : tensor<?x?x8xf32>
  %m = tensor.dim %act, %c1 : tensor<?x?x8xf32>
  %eb = tensor.empty(%n) : tensor<?x8x6xf32>
  %b = linalg.broadcast ins(%weight : tensor<8x6xf32>) outs(%eb : tensor<?x8x6xf32>) dimensions = [0]
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty(%n, %m) : tensor<?x?x6xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%eo : tensor<?x?x6xf32>) -> tensor<?x?x6xf32>
  %r = linalg.batch_matmul ins(%act, %b : tensor<?x?x8xf32>, tensor<?x8x6xf32>) outs(%fill : tensor<?x?x6xf32>) -> tensor<?x?x6xf32>
  return %r : tensor<?x?x6xf32>
}
// CHECK-LABEL: func.func @dynamic_batch_and_m(
//  CHECK-SAME:     %[[ACT:[a-zA-Z0-9]+]]: tensor<?x?x8xf32>
//       CHECK:   %[[MM:.+]] = linalg.matmul
//   CHECK-DAG:   %[[N:.+]] = tensor.dim %[[ACT]], %c0
//   CHECK-DAG:   %[[M:.+]] = tensor.dim %[[ACT]], %c1
//       CHECK:   tensor.expand_shape %[[MM]] {{\[}}[0, 1], [2]] output_shape [%[[N]], %[[M]], 6] : tensor<?x6xf32> into tensor<?x?x6xf32>

// -----

// transpose_b maps, RHS (b, n, k): the matmul takes the transpose_b maps.
func.func @broadcast_weight_transpose_b(%act: tensor<4x10x8xf32>, %weight: tensor<6x8xf32>) -> tensor<4x10x6xf32> {
  %eb = tensor.empty() : tensor<4x6x8xf32>
  %b = linalg.broadcast ins(%weight : tensor<6x8xf32>) outs(%eb : tensor<4x6x8xf32>) dimensions = [0]
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<4x10x6xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x10x6xf32>) -> tensor<4x10x6xf32>
  %r = linalg.batch_matmul
      indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                       affine_map<(b, m, n, k) -> (b, n, k)>,
                       affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%act, %b : tensor<4x10x8xf32>, tensor<4x6x8xf32>) outs(%fill : tensor<4x10x6xf32>) -> tensor<4x10x6xf32>
  return %r : tensor<4x10x6xf32>
}
// CHECK-LABEL: func.func @broadcast_weight_transpose_b(
//  CHECK-SAME:     %[[ACT:[a-zA-Z0-9]+]]: tensor<4x10x8xf32>, %[[W:[a-zA-Z0-9]+]]: tensor<6x8xf32>)
//       CHECK:   %[[LHS:.+]] = tensor.collapse_shape %[[ACT]]
//       CHECK:   %[[MM:.+]] = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%[[LHS]], %[[W]] : tensor<40x8xf32>, tensor<6x8xf32>)
//       CHECK:   tensor.expand_shape %[[MM]] {{\[}}[0, 1], [2]] output_shape [4, 10, 6]

// -----

// Negative: the broadcast feeds the LHS, not the RHS.
func.func @broadcast_on_lhs(%lhs: tensor<10x8xf32>, %rhs: tensor<4x8x6xf32>) -> tensor<4x10x6xf32> {
  %eb = tensor.empty() : tensor<4x10x8xf32>
  %b = linalg.broadcast ins(%lhs : tensor<10x8xf32>) outs(%eb : tensor<4x10x8xf32>) dimensions = [0]
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<4x10x6xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x10x6xf32>) -> tensor<4x10x6xf32>
  %r = linalg.batch_matmul ins(%b, %rhs : tensor<4x10x8xf32>, tensor<4x8x6xf32>) outs(%fill : tensor<4x10x6xf32>) -> tensor<4x10x6xf32>
  return %r : tensor<4x10x6xf32>
}
// CHECK-LABEL: func.func @broadcast_on_lhs(
//   CHECK-NOT:   tensor.collapse_shape
//       CHECK:   linalg.batch_matmul

// -----

// Negative: the broadcast adds dim 1, not the batch dim.
func.func @broadcast_non_batch_dim(%act: tensor<4x10x8xf32>, %weight: tensor<4x6xf32>) -> tensor<4x10x6xf32> {
  %eb = tensor.empty() : tensor<4x8x6xf32>
  %b = linalg.broadcast ins(%weight : tensor<4x6xf32>) outs(%eb : tensor<4x8x6xf32>) dimensions = [1]
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<4x10x6xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x10x6xf32>) -> tensor<4x10x6xf32>
  %r = linalg.batch_matmul ins(%act, %b : tensor<4x10x8xf32>, tensor<4x8x6xf32>) outs(%fill : tensor<4x10x6xf32>) -> tensor<4x10x6xf32>
  return %r : tensor<4x10x6xf32>
}
// CHECK-LABEL: func.func @broadcast_non_batch_dim(
//   CHECK-NOT:   tensor.collapse_shape
//       CHECK:   linalg.batch_matmul

// -----

// Negative: a generic broadcasting and transposing at once (input map
// (d0, d1, d2) -> (d2, d1)) is no pure broadcast.
func.func @broadcast_fused_with_transpose(%act: tensor<4x10x8xf32>, %weight: tensor<6x8xf32>) -> tensor<4x10x6xf32> {
  %eb = tensor.empty() : tensor<4x8x6xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weight : tensor<6x8xf32>) outs(%eb : tensor<4x8x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x8x6xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<4x10x6xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x10x6xf32>) -> tensor<4x10x6xf32>
  %r = linalg.batch_matmul ins(%act, %b : tensor<4x10x8xf32>, tensor<4x8x6xf32>) outs(%fill : tensor<4x10x6xf32>) -> tensor<4x10x6xf32>
  return %r : tensor<4x10x6xf32>
}
// CHECK-LABEL: func.func @broadcast_fused_with_transpose(
//   CHECK-NOT:   tensor.collapse_shape
//       CHECK:   linalg.batch_matmul

// -----

// Negative: a generic whose body computes something is no broadcast.
func.func @broadcast_with_compute(%act: tensor<4x10x8xf32>, %weight: tensor<8x6xf32>) -> tensor<4x10x6xf32> {
  %eb = tensor.empty() : tensor<4x8x6xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weight : tensor<8x6xf32>) outs(%eb : tensor<4x8x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4x8x6xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<4x10x6xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x10x6xf32>) -> tensor<4x10x6xf32>
  %r = linalg.batch_matmul ins(%act, %b : tensor<4x10x8xf32>, tensor<4x8x6xf32>) outs(%fill : tensor<4x10x6xf32>) -> tensor<4x10x6xf32>
  return %r : tensor<4x10x6xf32>
}
// CHECK-LABEL: func.func @broadcast_with_compute(
//   CHECK-NOT:   tensor.collapse_shape
//       CHECK:   linalg.batch_matmul

// -----

// Negative: a transposed LHS (b, k, m): collapsing it would give
// [batch * K, M], which does not match the result's [batch * M, N]. The
// same holds with a transposed RHS as well.
func.func @broadcast_weight_transpose_a(%act: tensor<4x8x10xf32>, %weight: tensor<8x6xf32>) -> tensor<4x10x6xf32> {
  %eb = tensor.empty() : tensor<4x8x6xf32>
  %b = linalg.broadcast ins(%weight : tensor<8x6xf32>) outs(%eb : tensor<4x8x6xf32>) dimensions = [0]
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<4x10x6xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x10x6xf32>) -> tensor<4x10x6xf32>
  %r = linalg.batch_matmul
      indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>,
                       affine_map<(b, m, n, k) -> (b, k, n)>,
                       affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%act, %b : tensor<4x8x10xf32>, tensor<4x8x6xf32>) outs(%fill : tensor<4x10x6xf32>) -> tensor<4x10x6xf32>
  return %r : tensor<4x10x6xf32>
}
// CHECK-LABEL: func.func @broadcast_weight_transpose_a(
//   CHECK-NOT:   tensor.collapse_shape
//       CHECK:   linalg.batch_matmul

// -----

// Negative: a unit-batch batch_matmul whose RHS is the weight reshaped to
// rank 3 (the TOSA form of an ONNX MatMul of a 2-D weight, as in the zoo's
// BERT family) holds no broadcast, so IREE's pattern leaves it, and so
// does ours.
func.func @unit_batch_reshaped_weight(%act: tensor<1x10x8xf32>, %weight: tensor<8x6xf32>) -> tensor<1x10x6xf32> {
  %w = tensor.expand_shape %weight [[0, 1], [2]] output_shape [1, 8, 6] : tensor<8x6xf32> into tensor<1x8x6xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<1x10x6xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x10x6xf32>) -> tensor<1x10x6xf32>
  %r = linalg.batch_matmul ins(%act, %w : tensor<1x10x8xf32>, tensor<1x8x6xf32>) outs(%fill : tensor<1x10x6xf32>) -> tensor<1x10x6xf32>
  return %r : tensor<1x10x6xf32>
}
// CHECK-LABEL: func.func @unit_batch_reshaped_weight(
//   CHECK-NOT:   tensor.collapse_shape
//       CHECK:   linalg.batch_matmul

// -----

// Negative: on buffers the pattern has nothing to reshape.
func.func @memref_batch_matmul(%act: memref<4x10x8xf32>, %weight: memref<8x6xf32>, %b: memref<4x8x6xf32>, %out: memref<4x10x6xf32>) {
  linalg.broadcast ins(%weight : memref<8x6xf32>) outs(%b : memref<4x8x6xf32>) dimensions = [0]
  linalg.batch_matmul ins(%act, %b : memref<4x10x8xf32>, memref<4x8x6xf32>) outs(%out : memref<4x10x6xf32>)
  return
}
// CHECK-LABEL: func.func @memref_batch_matmul(
//   CHECK-NOT:   memref.collapse_shape
//       CHECK:   linalg.batch_matmul
