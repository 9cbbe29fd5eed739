// dispatchlab-place-encoding-packs: a pack between dispatches runs where
// IREE runs an encode op. A weight's moves into the host's initializer
// (const-expr hoisting); any other gets a dispatch of its own, with its
// destination and padding value.
//
// RUN: dispatchlab-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(dispatchlab-place-encoding-packs)' \
// RUN:   | FileCheck %s

// The weight's pack is computed by the initializer, which returns it; the
// host takes the packed weight as an argument after its own and reads it.
// CHECK-LABEL: func.func @main_initializer(
//  CHECK-SAME:     %[[IW:.+]]: tensor<8x16xf32> {dispatchlab.host_argument = 1 : i64}
//       CHECK:   %[[P:.+]] = linalg.pack %[[IW]] outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 1]
//       CHECK:   return %[[P]]
// CHECK-LABEL: func.func @main(
//  CHECK-SAME:     %{{.+}}: tensor<4x8xf32>, %{{.+}}: tensor<8x16xf32> {dispatchlab.parameter = "w"}, %[[PW:.+]]: tensor<1x8x16x1xf32> {{{.*}}dispatchlab.packed = 0 : i64}
//   CHECK-NOT:   linalg.pack
//       CHECK:   "test.use"(%[[PW]])
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x16xf32> {dispatchlab.parameter = "w"}) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<1x8x16x1xf32>
  %p = linalg.pack %w outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 1] into %e : tensor<8x16xf32> -> tensor<1x8x16x1xf32>
  %r = "test.use"(%p) : (tensor<1x8x16x1xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// An activation's pack (here of an input, zero-padded) becomes a dispatch
// with its destination and padding value inside; nothing is left outside.
// CHECK-LABEL: func.func @main(
//       CHECK:   %[[R:.+]] = dispatch.region -> (tensor<1x8x16x1xf32>) {
//   CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
//   CHECK-DAG:     %[[E:.+]] = tensor.empty() : tensor<1x8x16x1xf32>
//       CHECK:     %[[P:.+]] = linalg.pack %arg0 padding_value(%[[ZERO]] : f32) {{.+}} into %[[E]]
//       CHECK:     dispatch.return %[[P]]
//       CHECK:   } {dispatchlab.encoding_dispatch}
//       CHECK:   "test.use"(%[[R]])
//   CHECK-NOT:   main_initializer
func.func @main(%x: tensor<12x8xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x16x1xf32>
  %p = linalg.pack %x padding_value(%zero : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %e : tensor<12x8xf32> -> tensor<1x8x16x1xf32>
  %r = "test.use"(%p) : (tensor<1x8x16x1xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
