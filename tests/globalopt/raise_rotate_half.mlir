// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-raise-special-ops,canonicalize))' --mlir-print-local-scope | FileCheck %s

// RaiseSpecialOps' rotate-half rules (globalopt/RaiseRotateHalf.cpp, after
// IREE's ConcatenateNegateAndSlicePattern and
// InsertSliceNegateAndSlicePattern): [a, b] -> [-b, a] along the innermost
// dim becomes one generic over the input seen as [..., 2, n/2].

#id = affine_map<(d0, d1) -> (d0, d1)>
// The concat form.
// CHECK-LABEL: func.func @rotate_half_concat(
//  CHECK-SAME:     %[[X:[a-z0-9]+]]: tensor<3x8xf32>
//   CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
//       CHECK:   %[[IN:.+]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2]] output_shape [3, 2, 4] : tensor<3x8xf32> into tensor<3x2x4xf32>
//       CHECK:   %[[R:.+]] = linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel", "parallel", "parallel"]
//       CHECK:     %[[I0:.+]] = linalg.index 0
//       CHECK:     %[[I1:.+]] = linalg.index 1
//       CHECK:     %[[I2:.+]] = linalg.index 2
//       CHECK:     %[[H:.+]] = arith.subi %[[C1]], %[[I1]]
//       CHECK:     %[[V:.+]] = tensor.extract %[[IN]][%[[I0]], %[[H]], %[[I2]]]
//       CHECK:     %[[N:.+]] = arith.negf %[[V]]
//       CHECK:     %[[SECOND:.+]] = arith.cmpi eq, %[[H]], %[[C1]]
//       CHECK:     %[[S:.+]] = arith.select %[[SECOND]], %[[N]], %[[V]]
//       CHECK:     linalg.yield %[[S]]
//       CHECK:   %[[OUT:.+]] = tensor.collapse_shape %[[R]] {{\[\[}}0], [1, 2]] : tensor<3x2x4xf32> into tensor<3x8xf32>
//       CHECK:   return %[[OUT]]
func.func @rotate_half_concat(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %a = tensor.extract_slice %x[0, 0] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
  %b = tensor.extract_slice %x[0, 4] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
  %e = tensor.empty() : tensor<3x4xf32>
  %nb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<3x4xf32>
  %r = tensor.concat dim(1) %nb, %a : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x8xf32>
  return %r : tensor<3x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// The two-insert form, with rank-reducing slices of a dynamic dim.
// CHECK-LABEL: func.func @rotate_half_inserts(
//  CHECK-SAME:     %[[X:[a-z0-9]+]]: tensor<1x?x8xf32>
//  CHECK-SAME:     %[[DEST:[a-z0-9]+]]: tensor<1x?x8xf32>
//       CHECK:   %[[IN:.+]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1], [2, 3]]
//       CHECK:   %[[INIT:.+]] = tensor.expand_shape %[[DEST]] {{\[\[}}0], [1], [2, 3]]
//       CHECK:   %[[R:.+]] = linalg.generic
//  CHECK-SAME:     outs(%[[INIT]] : tensor<1x?x2x4xf32>)
//       CHECK:     tensor.extract %[[IN]]
//       CHECK:   %[[OUT:.+]] = tensor.collapse_shape %[[R]]
//       CHECK:   return %[[OUT]]
func.func @rotate_half_inserts(%x: tensor<1x?x8xf32>, %dest: tensor<1x?x8xf32>, %n: index) -> tensor<1x?x8xf32> {
  %a = tensor.extract_slice %x[0, 0, 0] [1, %n, 4] [1, 1, 1] : tensor<1x?x8xf32> to tensor<?x4xf32>
  %b = tensor.extract_slice %x[0, 0, 4] [1, %n, 4] [1, 1, 1] : tensor<1x?x8xf32> to tensor<?x4xf32>
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %nb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.negf %in : f32
    linalg.yield %v : f32
  } -> tensor<?x4xf32>
  %0 = tensor.insert_slice %nb into %dest[0, 0, 0] [1, %n, 4] [1, 1, 1] : tensor<?x4xf32> into tensor<1x?x8xf32>
  %1 = tensor.insert_slice %a into %0[0, 0, 4] [1, %n, 4] [1, 1, 1] : tensor<?x4xf32> into tensor<1x?x8xf32>
  return %1 : tensor<1x?x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// Slices that are not the two halves (both from offset zero here) are not a
// rotation: IREE's concat form does not check and would rewrite this.
// CHECK-LABEL: func.func @concat_of_same_half_stays(
//       CHECK:   tensor.concat
//   CHECK-NOT:   tensor.expand_shape
func.func @concat_of_same_half_stays(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %a = tensor.extract_slice %x[0, 0] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
  %e = tensor.empty() : tensor<3x4xf32>
  %na = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<3x4xf32>
  %r = tensor.concat dim(1) %na, %a : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x8xf32>
  return %r : tensor<3x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// Inserts that put each half back where it was are not a rotation.
// CHECK-LABEL: func.func @inserts_in_place_stay(
//   CHECK-NOT:   tensor.expand_shape
//       CHECK:   tensor.insert_slice
//       CHECK:   tensor.insert_slice
func.func @inserts_in_place_stay(%x: tensor<3x8xf32>, %dest: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %a = tensor.extract_slice %x[0, 0] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
  %b = tensor.extract_slice %x[0, 4] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
  %e = tensor.empty() : tensor<3x4xf32>
  %nb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<3x4xf32>
  %0 = tensor.insert_slice %nb into %dest[0, 4] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<3x8xf32>
  %1 = tensor.insert_slice %a into %0[0, 0] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<3x8xf32>
  return %1 : tensor<3x8xf32>
}
