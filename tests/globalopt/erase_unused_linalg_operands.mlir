// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-erase-unused-linalg-operands))' | FileCheck %s

// One case per rule of EraseUnusedLinalgOperands (IREE's pass of that name:
// upstream's populateEraseUnusedOperandsAndResultsPatterns).

// An input the body never reads is dropped, and with it the generic's tie
// to that input's producer.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @unread_input(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @unread_input(
//  CHECK-SAME:     %[[A:[a-zA-Z0-9]+]]: tensor<4x8xf32>
//       CHECK:   linalg.generic
//  CHECK-SAME:     ins(%[[A]] : tensor<4x8xf32>)

// -----

// A result nobody uses is dropped with its init.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @unused_result(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %g:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e, %e : tensor<4x8xf32>, tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32, %p: f32):
    %n = arith.negf %x : f32
    %m = math.exp %x : f32
    linalg.yield %n, %m : f32, f32
  } -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return %g#1 : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @unused_result(
//       CHECK:   %[[G:.+]] = linalg.generic
//   CHECK-NOT:     arith.negf
//       CHECK:     math.exp
//       CHECK:   } -> tensor<4x8xf32>
//       CHECK:   return %[[G]]

// -----

// An input passed twice with the same map is read once.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @duplicate_input(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @duplicate_input(
//  CHECK-SAME:     %[[A:[a-zA-Z0-9]+]]: tensor<4x8xf32>
//       CHECK:   linalg.generic
//  CHECK-SAME:     ins(%[[A]] : tensor<4x8xf32>)
//       CHECK:   ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
//       CHECK:     arith.mulf %[[X]], %[[X]] : f32

// -----

// Operands the body reads stay.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @keep_read_operands(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @keep_read_operands(
//  CHECK-SAME:     %[[A:[a-zA-Z0-9]+]]: tensor<4x8xf32>, %[[B:[a-zA-Z0-9]+]]: tensor<4x8xf32>)
//   CHECK-NOT:   tensor.empty
//       CHECK:   linalg.generic
//  CHECK-SAME:     ins(%[[A]] : tensor<4x8xf32>) outs(%[[B]] : tensor<4x8xf32>)
