// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(dispatchlab-hoist-into-globals)' | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(dispatchlab-hoist-into-globals{max-size-increase-threshold=0})' | FileCheck %s --check-prefix=THRESHOLD

// One case per rule of HoistIntoGlobals and the ConstExprAnalysis and
// ConstExprHoistingPolicy behind it (IREE's Util passes of those names).

// A transpose of a constant escapes into a matmul: it moves into the host's
// initializer, and the host reads it through a new argument tagged with the
// initializer result it binds to. The constant root itself is not hoisted.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @constant_transpose(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %t = linalg.transpose ins(%w : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) permutation = [1, 0]
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%x, %t : tensor<2x2xf32>, tensor<2x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m : tensor<2x2xf32>
}
// CHECK-LABEL: util.func private @constant_transpose_initializer()
//  CHECK-SAME:     -> tensor<2x2xf32> attributes {dispatchlab.initializer_of = @constant_transpose}
//       CHECK:   %[[W:.+]] = arith.constant dense<{{.+}}> : tensor<2x2xf32>
//       CHECK:   %[[T:.+]] = linalg.transpose ins(%[[W]]
//       CHECK:   util.return %[[T]]
// CHECK-LABEL: func.func @constant_transpose(
//  CHECK-SAME:     %[[X:.+]]: tensor<2x2xf32>, %[[HOISTED:.+]]: tensor<2x2xf32> {dispatchlab.packed = 0 : i64})
//   CHECK-NOT:   linalg.transpose
//       CHECK:   %[[FILL:.+]] = linalg.fill
//       CHECK:   linalg.matmul ins(%[[X]], %[[HOISTED]] : {{.+}}) outs(%[[FILL]]

// -----

// A weight argument is a root as IREE's immutable globals are: its truncation
// is hoisted, and the initializer takes the weight as an argument naming the
// host argument it binds to. The truncation of the input stays.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @weight_truncation(%x: tensor<2x4xf32>, %w: tensor<4x3xf32> {dispatchlab.parameter = "w"}) -> (tensor<2x4xf16>, tensor<4x3xf16>) {
  %e = tensor.empty() : tensor<4x3xf16>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<4x3xf32>) outs(%e : tensor<4x3xf16>) {
  ^bb0(%a: f32, %o: f16):
    %c = arith.truncf %a : f32 to f16
    linalg.yield %c : f16
  } -> tensor<4x3xf16>
  %e2 = tensor.empty() : tensor<2x4xf16>
  %tx = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x4xf32>) outs(%e2 : tensor<2x4xf16>) {
  ^bb0(%a: f32, %o: f16):
    %c = arith.truncf %a : f32 to f16
    linalg.yield %c : f16
  } -> tensor<2x4xf16>
  return %tx, %t : tensor<2x4xf16>, tensor<4x3xf16>
}
// CHECK-LABEL: util.func private @weight_truncation_initializer(
//  CHECK-SAME:     %[[W:.+]]: tensor<4x3xf32> {dispatchlab.host_argument = 1 : i64}) -> tensor<4x3xf16>
//       CHECK:   %[[T:.+]] = linalg.generic {{.+}} ins(%[[W]] : tensor<4x3xf32>)
//       CHECK:   util.return %[[T]]
// CHECK-LABEL: func.func @weight_truncation(
//  CHECK-SAME:     %[[X:[a-z0-9]+]]: tensor<2x4xf32>, %{{.+}}: tensor<4x3xf32> {dispatchlab.parameter = "w"}, %[[HOISTED:.+]]: tensor<4x3xf16> {dispatchlab.packed = 0 : i64})
//       CHECK:   %[[TX:.+]] = linalg.generic {{.+}} ins(%[[X]] : tensor<2x4xf32>)
//       CHECK:   return %[[TX]], %[[HOISTED]]

// -----

// An untagged argument is an input, not a constant: nothing is hoisted.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @input_not_constant(%w: tensor<4x3xf32>) -> tensor<4x3xf16> {
  %e = tensor.empty() : tensor<4x3xf16>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<4x3xf32>) outs(%e : tensor<4x3xf16>) {
  ^bb0(%a: f32, %o: f16):
    %c = arith.truncf %a : f32 to f16
    linalg.yield %c : f16
  } -> tensor<4x3xf16>
  return %t : tensor<4x3xf16>
}
// CHECK-NOT: util.func
// CHECK-LABEL: func.func @input_not_constant(%{{.+}}: tensor<4x3xf32>) -> tensor<4x3xf16>
//       CHECK:   linalg.generic

// -----

// Only the value that escapes is hoisted; what it is computed from is cloned
// with it (a transpose and then a truncation: one result). A value returned
// escapes too.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @escaping_value_only(%w: tensor<4x3xf32> {dispatchlab.parameter = "w"}) -> tensor<3x4xf16> {
  %e = tensor.empty() : tensor<3x4xf32>
  %t = linalg.transpose ins(%w : tensor<4x3xf32>) outs(%e : tensor<3x4xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<3x4xf16>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<3x4xf32>) outs(%e2 : tensor<3x4xf16>) {
  ^bb0(%a: f32, %o: f16):
    %c = arith.truncf %a : f32 to f16
    linalg.yield %c : f16
  } -> tensor<3x4xf16>
  return %h : tensor<3x4xf16>
}
// CHECK-LABEL: util.func private @escaping_value_only_initializer(
//  CHECK-SAME:     -> tensor<3x4xf16>
//       CHECK:   linalg.transpose
//       CHECK:   %[[H:.+]] = linalg.generic
//       CHECK:   util.return %[[H]] : tensor<3x4xf16>
// CHECK-LABEL: func.func @escaping_value_only(
//  CHECK-SAME:     %[[HOISTED:[a-z0-9]+]]: tensor<3x4xf16> {dispatchlab.packed = 0 : i64})
//  CHECK-NEXT:   return %[[HOISTED]]

// -----

// Reshapes, slices, fills and empties are never hoisted alone: a reshape of
// a weight stays, and the transpose it reads is hoisted instead.
func.func @reshape_not_a_leaf(%w: tensor<4x6xf32> {dispatchlab.parameter = "w"}) -> (tensor<24xf32>, tensor<2x3x4xf32>) {
  %flat = tensor.collapse_shape %w [[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  %t = linalg.transpose ins(%w : tensor<4x6xf32>) outs(%e : tensor<6x4xf32>) permutation = [1, 0]
  %x = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  return %flat, %x : tensor<24xf32>, tensor<2x3x4xf32>
}
// CHECK-LABEL: util.func private @reshape_not_a_leaf_initializer(
//  CHECK-SAME:     -> tensor<6x4xf32>
//       CHECK:   %[[T:.+]] = linalg.transpose
//       CHECK:   util.return %[[T]]
// CHECK-LABEL: func.func @reshape_not_a_leaf(
//  CHECK-SAME:     %[[W:[a-z0-9]+]]: tensor<4x6xf32> {dispatchlab.parameter = "w"}, %[[HOISTED:.+]]: tensor<6x4xf32> {dispatchlab.packed = 0 : i64})
//       CHECK:   %[[FLAT:.+]] = tensor.collapse_shape %[[W]]
//       CHECK:   %[[X:.+]] = tensor.expand_shape %[[HOISTED]]
//       CHECK:   return %[[FLAT]], %[[X]]

// -----

// A hoisted value that a larger hoisted tree absorbs is dropped: the
// transpose escaped only through the reshape, which the generic after it
// took into the initializer, so the host reads the generic alone.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @absorbed_value_dropped(%w: tensor<4x6xf32> {dispatchlab.parameter = "w"}) -> tensor<2x3x4xf16> {
  %e = tensor.empty() : tensor<6x4xf32>
  %t = linalg.transpose ins(%w : tensor<4x6xf32>) outs(%e : tensor<6x4xf32>) permutation = [1, 0]
  %x = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  %e2 = tensor.empty() : tensor<2x3x4xf16>
  %h = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x3x4xf32>) outs(%e2 : tensor<2x3x4xf16>) {
  ^bb0(%a: f32, %o: f16):
    %c = arith.truncf %a : f32 to f16
    linalg.yield %c : f16
  } -> tensor<2x3x4xf16>
  return %h : tensor<2x3x4xf16>
}
// CHECK-LABEL: util.func private @absorbed_value_dropped_initializer(
//  CHECK-SAME:     -> tensor<2x3x4xf16>
//       CHECK:   linalg.transpose
//       CHECK:   tensor.expand_shape
//       CHECK:   %[[H:.+]] = linalg.generic
//       CHECK:   util.return %[[H]] : tensor<2x3x4xf16>
// CHECK-LABEL: func.func @absorbed_value_dropped(
//  CHECK-SAME:     %{{.+}}: tensor<4x6xf32> {dispatchlab.parameter = "w"}, %[[HOISTED:.+]]: tensor<2x3x4xf16> {dispatchlab.packed = 0 : i64})
//  CHECK-NEXT:   return %[[HOISTED]]

// -----

// Broadcasts, extending casts and generics without tensor inputs fuse into
// their consumers: none is a leaf.
#row = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @cheap_ops_not_leaves(%b: tensor<3xf32> {dispatchlab.parameter = "b"}, %h: tensor<4x3xf16> {dispatchlab.parameter = "h"}) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) {
  %e = tensor.empty() : tensor<4x3xf32>
  %bcast = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<3xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4x3xf32>
  %ext = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<4x3xf16>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%a: f16, %o: f32):
    %c = arith.extf %a : f16 to f32
    linalg.yield %c : f32
  } -> tensor<4x3xf32>
  %one = arith.constant 1.0 : f32
  %scalar = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<4x3xf32>) {
  ^bb0(%o: f32):
    %c = arith.addf %one, %one : f32
    linalg.yield %c : f32
  } -> tensor<4x3xf32>
  return %bcast, %ext, %scalar : tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>
}
// CHECK-NOT: util.func
// CHECK-LABEL: func.func @cheap_ops_not_leaves(
//  CHECK-SAME:     -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>)
// CHECK-COUNT-3: linalg.generic

// -----

// Sub-byte integers are cast or packed by a successor: not hoisted.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @sub_byte_not_a_leaf(%w: tensor<4x3xi8> {dispatchlab.parameter = "w"}) -> tensor<4x3xi4> {
  %e = tensor.empty() : tensor<4x3xi4>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<4x3xi8>) outs(%e : tensor<4x3xi4>) {
  ^bb0(%a: i8, %o: i4):
    %c = arith.trunci %a : i8 to i4
    linalg.yield %c : i4
  } -> tensor<4x3xi4>
  return %t : tensor<4x3xi4>
}
// CHECK-NOT: util.func
// CHECK-LABEL: func.func @sub_byte_not_a_leaf(
//       CHECK:   arith.trunci

// -----

// An optimization barrier is no constant expression, so nothing after it is.
func.func @barrier_stops(%w: tensor<4x3xf32> {dispatchlab.parameter = "w"}) -> tensor<3x4xf32> {
  %b = util.optimization_barrier %w : tensor<4x3xf32>
  %e = tensor.empty() : tensor<3x4xf32>
  %t = linalg.transpose ins(%b : tensor<4x3xf32>) outs(%e : tensor<3x4xf32>) permutation = [1, 0]
  return %t : tensor<3x4xf32>
}
// CHECK-NOT: util.func
// CHECK-LABEL: func.func @barrier_stops(
//       CHECK:   linalg.transpose

// -----

// A value more than the threshold larger than the roots it comes from stays
// (IREE's doesHoistingIncreaseSizeSignificantly): with a threshold of 0, a
// concat of a weight with itself; by default it is hoisted.
func.func @size_increase(%w: tensor<4x3xf32> {dispatchlab.parameter = "w"}) -> tensor<8x3xf32> {
  %c = tensor.concat dim(0) %w, %w : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
  return %c : tensor<8x3xf32>
}
// CHECK-LABEL: util.func private @size_increase_initializer(
//       CHECK:   tensor.concat
// THRESHOLD-LABEL: func.func @size_increase(
//  THRESHOLD-SAME:     %{{.+}}: tensor<4x3xf32> {dispatchlab.parameter = "w"}) -> tensor<8x3xf32>
//       THRESHOLD:   tensor.concat
