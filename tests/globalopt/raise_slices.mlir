// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-raise-special-ops,canonicalize))' --mlir-print-local-scope | FileCheck %s

// RaiseSpecialOps' slice rules (globalopt/RaiseSlices.cpp, after IREE's
// raiseTensorExtractToInput, tryRaiseToView and RaiseInsertSliceToPad).

// A tensor.extract at a zero and two loop indices is an input read through
// (d0, 0, d1); a copy through that map is a rank-reducing slice.
// CHECK-LABEL: func.func @extract_to_slice(
//  CHECK-SAME:     %[[A:[a-z0-9]+]]: tensor<8x3x16xf32>
//       CHECK:   %[[S:.+]] = tensor.extract_slice %[[A]][0, 0, 0] [8, 1, 16] [1, 1, 1] : tensor<8x3x16xf32> to tensor<8x16xf32>
//       CHECK:   return %[[S]]
func.func @extract_to_slice(%a: tensor<8x3x16xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%b : tensor<8x16xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %v = tensor.extract %a[%i, %c0, %j] : tensor<8x3x16xf32>
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// Indices in another order make an input with a permuted map, not a slice;
// the rest of the body stays.
// CHECK-LABEL: func.func @extract_to_permuted_input(
//  CHECK-SAME:     %[[A:[a-z0-9]+]]: tensor<4x6xf32>
//       CHECK:   linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>]
//  CHECK-SAME:     ins(%[[A]] : tensor<4x6xf32>)
//       CHECK:   ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
//       CHECK:     %[[N:.+]] = arith.negf %[[IN]]
//       CHECK:     linalg.yield %[[N]]
func.func @extract_to_permuted_input(%a: tensor<4x6xf32>, %b: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%b : tensor<6x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %v = tensor.extract %a[%j, %i] : tensor<4x6xf32>
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  } -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

// A non-zero constant index stays an extract, as in IREE.
// CHECK-LABEL: func.func @extract_at_nonzero_stays(
//       CHECK:   linalg.generic
//       CHECK:     tensor.extract
func.func @extract_at_nonzero_stays(%a: tensor<8x3x16xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c2 = arith.constant 2 : index
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%b : tensor<8x16xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %v = tensor.extract %a[%i, %c2, %j] : tensor<8x3x16xf32>
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// A loop index over a source dim of another size would not stay
// elementwise: it stays an extract.
// CHECK-LABEL: func.func @extract_of_larger_source_stays(
//       CHECK:   linalg.generic
//       CHECK:     tensor.extract
func.func @extract_of_larger_source_stays(%a: tensor<16x3x16xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%b : tensor<8x16xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %v = tensor.extract %a[%i, %c0, %j] : tensor<16x3x16xf32>
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// A copy fixing an inner position (not only zero) of a dynamic input is a
// slice at that offset, sized by the output.
// CHECK-LABEL: func.func @copy_to_slice(
//  CHECK-SAME:     %[[A:[a-z0-9]+]]: tensor<?x5xf32>
//  CHECK-SAME:     %[[B:[a-z0-9]+]]: tensor<?xf32>
//       CHECK:   %[[D:.+]] = tensor.dim %[[B]], %{{.+}} : tensor<?xf32>
//       CHECK:   %[[S:.+]] = tensor.extract_slice %[[A]][0, 3] [%[[D]], 1] [1, 1] : tensor<?x5xf32> to tensor<?xf32>
//       CHECK:   return %[[S]]
func.func @copy_to_slice(%a: tensor<?x5xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, 3)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<?x5xf32>) outs(%b : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A copy whose input dims are out of the output's order is not a slice.
// CHECK-LABEL: func.func @transposing_copy_stays(
//       CHECK:   linalg.generic
//   CHECK-NOT:   tensor.extract_slice
func.func @transposing_copy_stays(%a: tensor<4x2x6xf32>, %b: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, 0, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x2x6xf32>) outs(%b : tensor<6x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

// An insert into a splat constant is a pad by that value: low padding the
// offsets, high padding what is left.
// CHECK-LABEL: func.func @insert_into_splat_to_pad(
//  CHECK-SAME:     %[[A:[a-z0-9]+]]: tensor<4x6xf32>
//       CHECK:   %[[V:.+]] = arith.constant -1.000000e+00 : f32
//       CHECK:   %[[P:.+]] = tensor.pad %[[A]] low[1, 0] high[3, 2]
//       CHECK:     tensor.yield %[[V]] : f32
//       CHECK:   return %[[P]]
func.func @insert_into_splat_to_pad(%a: tensor<4x6xf32>) -> tensor<8x8xf32> {
  %cst = arith.constant dense<-1.0> : tensor<8x8xf32>
  %0 = tensor.insert_slice %a into %cst[1, 0] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A destination that is not a splat has no single padding value.
// CHECK-LABEL: func.func @insert_into_nonsplat_stays(
//       CHECK:   tensor.insert_slice
//   CHECK-NOT:   tensor.pad
func.func @insert_into_nonsplat_stays(%a: tensor<1x2xf32>) -> tensor<2x2xf32> {
  %cst = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %0 = tensor.insert_slice %a into %cst[1, 0] [1, 2] [1, 1] : tensor<1x2xf32> into tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// A strided insert leaves gaps a pad cannot spell.
// CHECK-LABEL: func.func @strided_insert_stays(
//       CHECK:   tensor.insert_slice
//   CHECK-NOT:   tensor.pad
func.func @strided_insert_stays(%a: tensor<2xf32>) -> tensor<4xf32> {
  %cst = arith.constant dense<0.0> : tensor<4xf32>
  %0 = tensor.insert_slice %a into %cst[0] [2] [2] : tensor<2xf32> into tensor<4xf32>
  return %0 : tensor<4xf32>
}
