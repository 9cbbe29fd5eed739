// encoding-block-clone (seed 002's first fix) in
// dispatchlab-clone-producers-into-dispatch-regions: under data-tiling=fusion
// a producer feeding an input of a contraction that will be encoded is not
// cloned into its dispatch; everything else is cloned as before, and without
// either knob the slice is cloned.
//
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions,dispatchlab-clone-producers-into-dispatch-regions{data-tiling=fusion encoding-block-clone=true}))' \
// RUN:   | FileCheck %s --check-prefixes=CHECK,BLOCK
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions,dispatchlab-clone-producers-into-dispatch-regions{encoding-block-clone=true}))' \
// RUN:   | FileCheck %s --check-prefixes=CHECK,CLONE
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions,dispatchlab-clone-producers-into-dispatch-regions{data-tiling=fusion}))' \
// RUN:   | FileCheck %s --check-prefixes=CHECK,CLONE

#lhs = affine_map<(m, n, k) -> (m, k)>
#rhs = affine_map<(m, n, k) -> (n, k)>
#out = affine_map<(m, n, k) -> (m, n)>

// The slice feeding the matmul's LHS stays outside under block-clone; the
// fill feeding its init (folded into an encoded fill later) is cloned.
// CHECK-LABEL: func.func @slice_into_matmul
//   BLOCK:       %[[S:.+]] = tensor.extract_slice %arg0
//   BLOCK-NEXT:  dispatch.region
//   CLONE:       dispatch.region
//   CLONE:         %[[S:.+]] = tensor.extract_slice %arg0
//       CHECK:     linalg.fill
//  CHECK-NEXT:     linalg.matmul {{.+}} ins(%[[S]], %arg1
func.func @slice_into_matmul(%w: tensor<16x8xf32>, %x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = tensor.extract_slice %w[8, 0] [8, 8] [1, 1] : tensor<16x8xf32> to tensor<8x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = linalg.matmul indexing_maps = [#lhs, #rhs, #out]
      ins(%s, %x : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// A slice feeding an elementwise op is cloned in any case: nothing encodes
// it.
// CHECK-LABEL: func.func @slice_into_elementwise
//       CHECK:   dispatch.region
//       CHECK:     tensor.extract_slice %arg0
//       CHECK:     linalg.generic
func.func @slice_into_elementwise(%w: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %s = tensor.extract_slice %w[8, 0] [8, 8] [1, 1] : tensor<16x8xf32> to tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
