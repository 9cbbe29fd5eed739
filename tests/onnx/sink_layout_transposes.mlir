// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-sink-layout-transposes))' | FileCheck %s

// One case per rule of the importer's dispatchlab-sink-layout-transposes.

// A residual add of two NHWC->NCHW transposes, with a per-channel bias and a
// user that transposes back: the add runs in NHWC, the bias is read through
// the permuted map, and the two transposes after it cancel.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @add_of_transposes(%a: tensor<1x7x5x8xf32>, %b: tensor<1x7x5x8xf32>, %bias: tensor<8xf32>) -> tensor<1x7x5x8xf32> {
  %ea = tensor.empty() : tensor<1x8x7x5xf32>
  %ta = linalg.transpose ins(%a : tensor<1x7x5x8xf32>) outs(%ea : tensor<1x8x7x5xf32>) permutation = [0, 3, 1, 2]
  %eb = tensor.empty() : tensor<1x8x7x5xf32>
  %tb = linalg.transpose ins(%b : tensor<1x7x5x8xf32>) outs(%eb : tensor<1x8x7x5xf32>) permutation = [0, 3, 1, 2]
  %e = tensor.empty() : tensor<1x8x7x5xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ta, %tb, %bias : tensor<1x8x7x5xf32>, tensor<1x8x7x5xf32>, tensor<8xf32>) outs(%e : tensor<1x8x7x5xf32>) {
  ^bb0(%x: f32, %y: f32, %c: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.addf %s, %c : f32
    linalg.yield %t : f32
  } -> tensor<1x8x7x5xf32>
  %eback = tensor.empty() : tensor<1x7x5x8xf32>
  %back = linalg.transpose ins(%sum : tensor<1x8x7x5xf32>) outs(%eback : tensor<1x7x5x8xf32>) permutation = [0, 2, 3, 1]
  return %back : tensor<1x7x5x8xf32>
}
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[CHAN:.+]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-LABEL: func.func @add_of_transposes(
//  CHECK-SAME:     %[[A:[a-zA-Z0-9]+]]: tensor<1x7x5x8xf32>, %[[B:[a-zA-Z0-9]+]]: tensor<1x7x5x8xf32>, %[[BIAS:[a-zA-Z0-9]+]]: tensor<8xf32>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[CHAN]], #[[ID]]]
//  CHECK-SAME:     ins(%[[A]], %[[B]], %[[BIAS]] : tensor<1x7x5x8xf32>, tensor<1x7x5x8xf32>, tensor<8xf32>)
//  CHECK-SAME:     outs(%{{.+}} : tensor<1x7x5x8xf32>)
//   CHECK-NOT:   linalg.transpose
//       CHECK:   return %[[SUM]]

// -----

// Inputs transposed by different permutations: left alone.
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @different_permutations(%a: tensor<2x3x4xf32>, %b: tensor<4x2x3xf32>) -> tensor<2x4x3xf32> {
  %ea = tensor.empty() : tensor<2x4x3xf32>
  %ta = linalg.transpose ins(%a : tensor<2x3x4xf32>) outs(%ea : tensor<2x4x3xf32>) permutation = [0, 2, 1]
  %eb = tensor.empty() : tensor<2x4x3xf32>
  %tb = linalg.transpose ins(%b : tensor<4x2x3xf32>) outs(%eb : tensor<2x4x3xf32>) permutation = [1, 0, 2]
  %e = tensor.empty() : tensor<2x4x3xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ta, %tb : tensor<2x4x3xf32>, tensor<2x4x3xf32>) outs(%e : tensor<2x4x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<2x4x3xf32>
  return %sum : tensor<2x4x3xf32>
}
// CHECK-LABEL: func.func @different_permutations(
//       CHECK:   %[[TA:.+]] = linalg.transpose
//       CHECK:   %[[TB:.+]] = linalg.transpose
//       CHECK:   linalg.generic
//  CHECK-SAME:     ins(%[[TA]], %[[TB]] : tensor<2x4x3xf32>, tensor<2x4x3xf32>)

// -----

// An input read through an identity map that is no transpose: left alone.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @untransposed_input(%a: tensor<3x4xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %ea = tensor.empty() : tensor<4x3xf32>
  %ta = linalg.transpose ins(%a : tensor<3x4xf32>) outs(%ea : tensor<4x3xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<4x3xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ta, %b : tensor<4x3xf32>, tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x3xf32>
  return %sum : tensor<4x3xf32>
}
// CHECK-LABEL: func.func @untransposed_input(
//  CHECK-SAME:     %[[A:[a-zA-Z0-9]+]]: tensor<3x4xf32>, %[[B:[a-zA-Z0-9]+]]: tensor<4x3xf32>
//       CHECK:   %[[TA:.+]] = linalg.transpose ins(%[[A]]
//       CHECK:   linalg.generic
//  CHECK-SAME:     ins(%[[TA]], %[[B]] : tensor<4x3xf32>, tensor<4x3xf32>)

// -----

// A user that reduces the result: the transpose stays above the op, so the
// reduction reads what it read before.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @reduction_user(%a: tensor<3x4xf32>) -> tensor<4xf32> {
  %ea = tensor.empty() : tensor<4x3xf32>
  %ta = linalg.transpose ins(%a : tensor<3x4xf32>) outs(%ea : tensor<4x3xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<4x3xf32>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ta : tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.reduce ins(%neg : tensor<4x3xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %sum : tensor<4xf32>
}
// CHECK-LABEL: func.func @reduction_user(
//       CHECK:   %[[TA:.+]] = linalg.transpose
//       CHECK:   %[[NEG:.+]] = linalg.generic
//  CHECK-SAME:     ins(%[[TA]] : tensor<4x3xf32>)
//       CHECK:   linalg.reduce ins(%[[NEG]]

// -----

// The body reads its init: left alone, the init's layout matters.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @init_read(%a: tensor<3x4xf32>, %acc: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %ea = tensor.empty() : tensor<4x3xf32>
  %ta = linalg.transpose ins(%a : tensor<3x4xf32>) outs(%ea : tensor<4x3xf32>) permutation = [1, 0]
  %sum = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ta : tensor<4x3xf32>) outs(%acc : tensor<4x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x3xf32>
  return %sum : tensor<4x3xf32>
}
// CHECK-LABEL: func.func @init_read(
//       CHECK:   %[[TA:.+]] = linalg.transpose
//       CHECK:   linalg.generic
//  CHECK-SAME:     ins(%[[TA]] : tensor<4x3xf32>)

// -----

// Two transposes that do not cancel compose into one.
func.func @compose(%a: tensor<2x3x4xf32>) -> tensor<3x4x2xf32> {
  %e1 = tensor.empty() : tensor<3x2x4xf32>
  %t1 = linalg.transpose ins(%a : tensor<2x3x4xf32>) outs(%e1 : tensor<3x2x4xf32>) permutation = [1, 0, 2]
  %e2 = tensor.empty() : tensor<3x4x2xf32>
  %t2 = linalg.transpose ins(%t1 : tensor<3x2x4xf32>) outs(%e2 : tensor<3x4x2xf32>) permutation = [0, 2, 1]
  return %t2 : tensor<3x4x2xf32>
}
// CHECK-LABEL: func.func @compose(
//  CHECK-SAME:     %[[A:[a-zA-Z0-9]+]]: tensor<2x3x4xf32>
//       CHECK:   %[[T:.+]] = linalg.transpose ins(%[[A]] : tensor<2x3x4xf32>)
//  CHECK-SAME:     permutation = [1, 2, 0]
//   CHECK-NOT:   linalg.transpose
//       CHECK:   return %[[T]]

// -----

// A slice of an NCHW view (a stride-2 shortcut's crop) becomes the slice of
// the NHWC value, and the transposes around it cancel.
func.func @slice(%a: tensor<1x6x6x8xf32>) -> tensor<1x5x5x8xf32> {
  %e = tensor.empty() : tensor<1x8x6x6xf32>
  %t = linalg.transpose ins(%a : tensor<1x6x6x8xf32>) outs(%e : tensor<1x8x6x6xf32>) permutation = [0, 3, 1, 2]
  %s = tensor.extract_slice %t[0, 0, 0, 0] [1, 8, 5, 5] [1, 1, 1, 1] : tensor<1x8x6x6xf32> to tensor<1x8x5x5xf32>
  %eb = tensor.empty() : tensor<1x5x5x8xf32>
  %back = linalg.transpose ins(%s : tensor<1x8x5x5xf32>) outs(%eb : tensor<1x5x5x8xf32>) permutation = [0, 2, 3, 1]
  return %back : tensor<1x5x5x8xf32>
}
// CHECK-LABEL: func.func @slice(
//  CHECK-SAME:     %[[A:[a-zA-Z0-9]+]]: tensor<1x6x6x8xf32>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   %[[S:.+]] = tensor.extract_slice %[[A]][0, 0, 0, 0] [1, 5, 5, 8] [1, 1, 1, 1]
//   CHECK-NOT:   linalg.transpose
//       CHECK:   return %[[S]]

// -----

// A rank-reducing slice: left alone.
func.func @rank_reducing_slice(%a: tensor<1x6x8xf32>) -> tensor<8x6xf32> {
  %e = tensor.empty() : tensor<1x8x6xf32>
  %t = linalg.transpose ins(%a : tensor<1x6x8xf32>) outs(%e : tensor<1x8x6xf32>) permutation = [0, 2, 1]
  %s = tensor.extract_slice %t[0, 0, 0] [1, 8, 6] [1, 1, 1] : tensor<1x8x6xf32> to tensor<8x6xf32>
  return %s : tensor<8x6xf32>
}
// CHECK-LABEL: func.func @rank_reducing_slice(
//       CHECK:   %[[T:.+]] = linalg.transpose
//       CHECK:   tensor.extract_slice %[[T]]
