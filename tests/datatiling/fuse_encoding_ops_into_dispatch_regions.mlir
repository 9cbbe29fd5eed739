// dispatchlab-fuse-encoding-ops-into-dispatch-regions (IREE's
// FuseEncodingOpsIntoDispatchRegions): a set_encoding between dispatches
// moves into the dispatch computing what it encodes, when that dispatch
// only maps elements.
//
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-fuse-encoding-ops-into-dispatch-regions))' \
// RUN:   | FileCheck %s

// An elementwise producer: it returns the encoded tensor, and its plain
// result, read by nothing else, is no longer returned.
// CHECK-LABEL: func.func @elementwise_producer
//       CHECK:   %[[R:.+]] = dispatch.region -> (tensor<4x8xf32, #{{.+}}>)
//       CHECK:     %[[ADD:.+]] = linalg.generic
//       CHECK:     %[[E:.+]] = iree_encoding.set_encoding %[[ADD]]
//       CHECK:     dispatch.return %[[E]] : tensor<4x8xf32, #{{.+}}>
//       CHECK:   return %[[R]]
#map = affine_map<(d0, d1) -> (d0, d1)>
#enc = #iree_encoding.testing<>
func.func @elementwise_producer(%a: tensor<4x8xf32>) -> tensor<4x8xf32, #enc> {
  %empty = tensor.empty() : tensor<4x8xf32>
  %r = dispatch.region -> (tensor<4x8xf32>) {
    %add = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<4x8xf32>) outs(%empty : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %in, %in : f32
      linalg.yield %s : f32
    } -> tensor<4x8xf32>
    dispatch.return %add : tensor<4x8xf32>
  }
  %e = iree_encoding.set_encoding %r : tensor<4x8xf32> -> tensor<4x8xf32, #enc>
  return %e : tensor<4x8xf32, #enc>
}

// -----

// The plain result is read elsewhere too: the dispatch returns both.
// CHECK-LABEL: func.func @plain_result_still_read
//       CHECK:   %[[R:.+]]:2 = dispatch.region -> (tensor<4x8xf32>, tensor<4x8xf32, #{{.+}}>)
//       CHECK:     dispatch.return %[[ADD:.+]], %{{.+}} : tensor<4x8xf32>, tensor<4x8xf32, #{{.+}}>
//       CHECK:   return %[[R]]#1, %[[R]]#0
#map = affine_map<(d0, d1) -> (d0, d1)>
#enc = #iree_encoding.testing<>
func.func @plain_result_still_read(%a: tensor<4x8xf32>) -> (tensor<4x8xf32, #enc>, tensor<4x8xf32>) {
  %empty = tensor.empty() : tensor<4x8xf32>
  %r = dispatch.region -> (tensor<4x8xf32>) {
    %add = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<4x8xf32>) outs(%empty : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %in, %in : f32
      linalg.yield %s : f32
    } -> tensor<4x8xf32>
    dispatch.return %add : tensor<4x8xf32>
  }
  %e = iree_encoding.set_encoding %r : tensor<4x8xf32> -> tensor<4x8xf32, #enc>
  return %e, %r : tensor<4x8xf32, #enc>, tensor<4x8xf32>
}

// -----

// A producer dispatch with a reduction (a matmul's) keeps its layout: the
// set_encoding stays between the dispatches.
// CHECK-LABEL: func.func @reduction_producer
//       CHECK:   %[[R:.+]] = dispatch.region -> (tensor<4x8xf32>)
//       CHECK:     linalg.matmul
//       CHECK:     dispatch.return
//       CHECK:   iree_encoding.set_encoding %[[R]]
#enc = #iree_encoding.testing<>
func.func @reduction_producer(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32, #enc> {
  %r = dispatch.region -> (tensor<4x8xf32>) {
    %mm = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
    dispatch.return %mm : tensor<4x8xf32>
  }
  %e = iree_encoding.set_encoding %r : tensor<4x8xf32> -> tensor<4x8xf32, #enc>
  return %e : tensor<4x8xf32, #enc>
}

// -----

// Nothing to fuse with: a function argument, and a dispatch result that
// is a value captured from above rather than computed inside.
// CHECK-LABEL: func.func @no_producer_op
//       CHECK:   iree_encoding.set_encoding %arg0
//       CHECK:   %[[R:.+]] = dispatch.region -> (tensor<4x8xf32>)
//   CHECK-NOT:     iree_encoding.set_encoding
//       CHECK:     dispatch.return %arg1
//       CHECK:   iree_encoding.set_encoding %[[R]]
#enc = #iree_encoding.testing<>
func.func @no_producer_op(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32, #enc>, tensor<4x8xf32, #enc>) {
  %e0 = iree_encoding.set_encoding %a : tensor<4x8xf32> -> tensor<4x8xf32, #enc>
  %r = dispatch.region -> (tensor<4x8xf32>) {
    dispatch.return %b : tensor<4x8xf32>
  }
  %e1 = iree_encoding.set_encoding %r : tensor<4x8xf32> -> tensor<4x8xf32, #enc>
  return %e0, %e1 : tensor<4x8xf32, #enc>, tensor<4x8xf32, #enc>
}

// -----

// Two set_encodings of one value in one layout are merged first, so the
// producer returns one encoded tensor.
// CHECK-LABEL: func.func @common_encodings_merged
//       CHECK:   %[[R:.+]] = dispatch.region -> (tensor<4x8xf32, #{{.+}}>)
//       CHECK:     iree_encoding.set_encoding
//   CHECK-NOT:     iree_encoding.set_encoding
//       CHECK:     dispatch.return
//       CHECK:   return %[[R]], %[[R]]
#map = affine_map<(d0, d1) -> (d0, d1)>
#enc = #iree_encoding.testing<>
func.func @common_encodings_merged(%a: tensor<4x8xf32>) -> (tensor<4x8xf32, #enc>, tensor<4x8xf32, #enc>) {
  %empty = tensor.empty() : tensor<4x8xf32>
  %r = dispatch.region -> (tensor<4x8xf32>) {
    %add = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<4x8xf32>) outs(%empty : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %in, %in : f32
      linalg.yield %s : f32
    } -> tensor<4x8xf32>
    dispatch.return %add : tensor<4x8xf32>
  }
  %e0 = iree_encoding.set_encoding %r : tensor<4x8xf32> -> tensor<4x8xf32, #enc>
  %e1 = iree_encoding.set_encoding %r : tensor<4x8xf32> -> tensor<4x8xf32, #enc>
  return %e0, %e1 : tensor<4x8xf32, #enc>, tensor<4x8xf32, #enc>
}
