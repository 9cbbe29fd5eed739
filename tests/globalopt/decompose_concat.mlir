// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-decompose-concat))' | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-decompose-concat{outer-dim-concat=true}))' | FileCheck %s --check-prefix=OUTER

// One case per rule of DecomposeConcat (IREE's GlobalOptimization pass of
// that name; outer-dim-concat is its enableConcatTransposition).

// A concat along an inner dim becomes empty + one insert_slice per input.
// With outer-dim-concat it already runs along the outermost non-unit dim
// (dim 0 is a unit dim), so it is decomposed the same way, untransposed.
func.func @inner_dim_concat(%a: tensor<1x4xf32>, %b: tensor<1x6xf32>) -> tensor<1x10xf32> {
  %c = tensor.concat dim(1) %a, %b : (tensor<1x4xf32>, tensor<1x6xf32>) -> tensor<1x10xf32>
  return %c : tensor<1x10xf32>
}
// CHECK-LABEL: func.func @inner_dim_concat(
//  CHECK-SAME:     %[[A:[a-zA-Z0-9]+]]: tensor<1x4xf32>, %[[B:[a-zA-Z0-9]+]]: tensor<1x6xf32>)
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<1x10xf32>
//       CHECK:   %[[S0:.+]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [1, 4] [1, 1]
//       CHECK:   %[[S1:.+]] = tensor.insert_slice %[[B]] into %[[S0]][0, 4] [1, 6] [1, 1]
//       CHECK:   return %[[S1]]
// OUTER-LABEL: func.func @inner_dim_concat(
//   OUTER-NOT:   linalg.transpose
//       OUTER:   tensor.insert_slice
//       OUTER:   tensor.insert_slice

// -----

// A concat along dim 0 stays: IREE writes it in place as tensor updates.
func.func @outer_dim_concat(%a: tensor<2x4xf32>, %b: tensor<3x4xf32>) -> tensor<5x4xf32> {
  %c = tensor.concat dim(0) %a, %b : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<5x4xf32>
  return %c : tensor<5x4xf32>
}
// CHECK-LABEL: func.func @outer_dim_concat(
//   CHECK-NOT:   tensor.insert_slice
//       CHECK:   tensor.concat dim(0)
// OUTER-LABEL: func.func @outer_dim_concat(
//   OUTER-NOT:   linalg.transpose
//       OUTER:   tensor.concat dim(0)

// -----

// A concat along a dim after the outermost non-unit dim: decomposed in
// place by default; with outer-dim-concat transposed so that it runs along
// dim 0, where it stays, between transposes of its inputs and result.
func.func @transposed_concat(%a: tensor<2x4xf32>, %b: tensor<2x6xf32>) -> tensor<2x10xf32> {
  %c = tensor.concat dim(1) %a, %b : (tensor<2x4xf32>, tensor<2x6xf32>) -> tensor<2x10xf32>
  return %c : tensor<2x10xf32>
}
// CHECK-LABEL: func.func @transposed_concat(
//   CHECK-NOT:   linalg.transpose
//       CHECK:   tensor.insert_slice
//       CHECK:   tensor.insert_slice
// OUTER-LABEL: func.func @transposed_concat(
//  OUTER-SAME:     %[[A:[a-zA-Z0-9]+]]: tensor<2x4xf32>, %[[B:[a-zA-Z0-9]+]]: tensor<2x6xf32>)
//       OUTER:   %[[TA:.+]] = linalg.transpose ins(%[[A]] : tensor<2x4xf32>) outs(%{{.+}} : tensor<4x2xf32>) permutation = [1, 0]
//       OUTER:   %[[TB:.+]] = linalg.transpose ins(%[[B]] : tensor<2x6xf32>) outs(%{{.+}} : tensor<6x2xf32>) permutation = [1, 0]
//       OUTER:   %[[C:.+]] = tensor.concat dim(0) %[[TA]], %[[TB]] : (tensor<4x2xf32>, tensor<6x2xf32>) -> tensor<10x2xf32>
//       OUTER:   %[[T:.+]] = linalg.transpose ins(%[[C]] : tensor<10x2xf32>) outs(%{{.+}} : tensor<2x10xf32>) permutation = [1, 0]
//       OUTER:   return %[[T]]

// -----

// Concats inside a dispatch stay.
func.func @keep_in_dispatch(%a: tensor<2x4xf32>, %b: tensor<2x6xf32>) -> tensor<2x10xf32> {
  %d = dispatch.region -> (tensor<2x10xf32>) {
    %c = tensor.concat dim(1) %a, %b : (tensor<2x4xf32>, tensor<2x6xf32>) -> tensor<2x10xf32>
    dispatch.return %c : tensor<2x10xf32>
  }
  return %d : tensor<2x10xf32>
}
// CHECK-LABEL: func.func @keep_in_dispatch(
//   CHECK-NOT:   tensor.insert_slice
//       CHECK:   tensor.concat dim(1)
// OUTER-LABEL: func.func @keep_in_dispatch(
//   OUTER-NOT:   linalg.transpose
//       OUTER:   tensor.concat dim(1)

// -----

// IREE's spelling of a pre-formed dispatch is left alone too.
func.func @keep_in_flow_dispatch(%a: tensor<2x4xf32>, %b: tensor<2x6xf32>) -> tensor<2x10xf32> {
  %d = flow.dispatch.region -> (tensor<2x10xf32>) {
    %c = tensor.concat dim(1) %a, %b : (tensor<2x4xf32>, tensor<2x6xf32>) -> tensor<2x10xf32>
    flow.return %c : tensor<2x10xf32>
  }
  return %d : tensor<2x10xf32>
}
// CHECK-LABEL: func.func @keep_in_flow_dispatch(
//   CHECK-NOT:   tensor.insert_slice
//       CHECK:   tensor.concat dim(1)
// OUTER-LABEL: func.func @keep_in_flow_dispatch(
//   OUTER-NOT:   linalg.transpose
//       OUTER:   tensor.concat dim(1)
