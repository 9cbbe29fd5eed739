// dispatchlab-hoist-encoding-ops (IREE's HoistEncodingOps, its hoisting
// half): a set_encoding leaves its dispatch when what it encodes comes from
// outside; with encoding-hoist-slices (IREE PR 21181) it may take a chain of
// contiguous slices and constants along.
//
// RUN: dispatchlab-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-hoist-encoding-ops))' \
// RUN:   | FileCheck %s --check-prefixes=CHECK,STAY
// RUN: dispatchlab-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-hoist-encoding-ops{encoding-hoist-slices=true}))' \
// RUN:   | FileCheck %s --check-prefixes=CHECK,HOIST

// The source is captured from above: the set_encoding moves before the
// dispatch, which now captures the encoded tensor. The unset_encoding stays.
// CHECK-LABEL: func.func @captured_source
//       CHECK:   %[[E:.+]] = iree_encoding.set_encoding %arg0
//       CHECK:   dispatch.region
//   CHECK-NOT:     iree_encoding.set_encoding
//       CHECK:     "test.use"(%[[E]])
//       CHECK:     iree_encoding.unset_encoding
#enc = #iree_encoding.testing<>
func.func @captured_source(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = dispatch.region -> (tensor<4x8xf32>) {
    %e = iree_encoding.set_encoding %a : tensor<4x8xf32> -> tensor<4x8xf32, #enc>
    %u = "test.use"(%e) : (tensor<4x8xf32, #enc>) -> tensor<4x8xf32, #enc>
    %d = iree_encoding.unset_encoding %u : tensor<4x8xf32, #enc> -> tensor<4x8xf32>
    dispatch.return %d : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// Seed 002: the source is a slice cloned into the dispatch. By default the
// set_encoding stays with it; with hoist-slices both leave, in order.
// CHECK-LABEL: func.func @cloned_slice
//   HOIST:       %[[S:.+]] = tensor.extract_slice %arg0[8, 0] [8, 8] [1, 1]
//   HOIST-NEXT:  %[[E:.+]] = iree_encoding.set_encoding %[[S]]
//   HOIST-NEXT:  dispatch.region
//   STAY:        dispatch.region
//   STAY-NEXT:     %[[S:.+]] = tensor.extract_slice %arg0[8, 0] [8, 8] [1, 1]
//   STAY-NEXT:     %[[E:.+]] = iree_encoding.set_encoding %[[S]]
//       CHECK:     "test.use"(%[[E]])
#enc = #iree_encoding.testing<>
func.func @cloned_slice(%w: tensor<16x8xf32>) -> tensor<8x8xf32, #enc> {
  %r = dispatch.region -> (tensor<8x8xf32, #enc>) {
    %s = tensor.extract_slice %w[8, 0] [8, 8] [1, 1] : tensor<16x8xf32> to tensor<8x8xf32>
    %e = iree_encoding.set_encoding %s : tensor<8x8xf32> -> tensor<8x8xf32, #enc>
    %u = "test.use"(%e) : (tensor<8x8xf32, #enc>) -> tensor<8x8xf32, #enc>
    dispatch.return %u : tensor<8x8xf32, #enc>
  }
  return %r : tensor<8x8xf32, #enc>
}

// -----

// A constant cloned in with its slice: the whole chain leaves under
// hoist-slices; another use of the constant in the dispatch now captures it.
// CHECK-LABEL: func.func @cloned_constant_chain
//   HOIST:       %[[C:.+]] = arith.constant dense<1.0
//   HOIST-NEXT:  %[[S:.+]] = tensor.extract_slice %[[C]][0, 0]
//   HOIST-NEXT:  iree_encoding.set_encoding %[[S]]
//   HOIST-NEXT:  dispatch.region
//   HOIST:         "test.use"(%{{.+}}, %[[C]])
//   STAY:        dispatch.region
//   STAY-NEXT:     arith.constant
//   STAY-NEXT:     tensor.extract_slice
//   STAY-NEXT:     iree_encoding.set_encoding
#enc = #iree_encoding.testing<>
func.func @cloned_constant_chain() -> (tensor<8x8xf32, #enc>, tensor<16x8xf32>) {
  %r:2 = dispatch.region -> (tensor<8x8xf32, #enc>, tensor<16x8xf32>) {
    %c = arith.constant dense<1.0> : tensor<16x8xf32>
    %s = tensor.extract_slice %c[0, 0] [8, 8] [1, 1] : tensor<16x8xf32> to tensor<8x8xf32>
    %e = iree_encoding.set_encoding %s : tensor<8x8xf32> -> tensor<8x8xf32, #enc>
    %u = "test.use"(%e, %c) : (tensor<8x8xf32, #enc>, tensor<16x8xf32>) -> tensor<8x8xf32, #enc>
    dispatch.return %u, %c : tensor<8x8xf32, #enc>, tensor<16x8xf32>
  }
  return %r#0, %r#1 : tensor<8x8xf32, #enc>, tensor<16x8xf32>
}

// -----

// Never hoisted: a strided slice (not one contiguous range: IREE would need
// a dispatch for it) and a source computed by another op of the dispatch.
// CHECK-LABEL: func.func @not_hoistable
//       CHECK:   dispatch.region
//  CHECK-NEXT:     tensor.extract_slice %arg0[0, 0] [8, 4] [1, 1]
//  CHECK-NEXT:     iree_encoding.set_encoding
//       CHECK:     "test.op"
//  CHECK-NEXT:     iree_encoding.set_encoding
#enc = #iree_encoding.testing<>
func.func @not_hoistable(%w: tensor<16x8xf32>) -> (tensor<8x4xf32, #enc>, tensor<4x4xf32, #enc>) {
  %r:2 = dispatch.region -> (tensor<8x4xf32, #enc>, tensor<4x4xf32, #enc>) {
    %s = tensor.extract_slice %w[0, 0] [8, 4] [1, 1] : tensor<16x8xf32> to tensor<8x4xf32>
    %e = iree_encoding.set_encoding %s : tensor<8x4xf32> -> tensor<8x4xf32, #enc>
    %t = "test.op"() : () -> tensor<4x4xf32>
    %f = iree_encoding.set_encoding %t : tensor<4x4xf32> -> tensor<4x4xf32, #enc>
    dispatch.return %e, %f : tensor<8x4xf32, #enc>, tensor<4x4xf32, #enc>
  }
  return %r#0, %r#1 : tensor<8x4xf32, #enc>, tensor<4x4xf32, #enc>
}
