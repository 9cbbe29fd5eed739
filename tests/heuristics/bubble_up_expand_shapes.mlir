// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-bubble-up-expand-shapes))' | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-bubble-up-expand-shapes{aggressive-reshape-movement=true}))' | FileCheck %s --check-prefix=AGGR

#id = affine_map<(d0, d1) -> (d0, d1)>
// The expand_shape moves above the elementwise producer, which now runs in
// the expanded 3-D space.
// CHECK-LABEL: func.func @through_elementwise
// CHECK:         %[[X:.+]] = tensor.expand_shape %{{.+}} {{\[\[}}0], [1, 2]]
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[X]] : tensor<4x2x4xf32>)
// CHECK-NOT:     tensor.expand_shape
// CHECK:         return
func.func @through_elementwise(%a: tensor<4x8xf32>) -> tensor<4x2x4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = tensor.expand_shape %0 [[0], [1, 2]] output_shape [4, 2, 4] : tensor<4x8xf32> into tensor<4x2x4xf32>
  return %1 : tensor<4x2x4xf32>
}

// -----

// Reductions are not crossed unless aggressive-reshape-movement is set.
// CHECK-LABEL: func.func @through_reduction
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK:         tensor.expand_shape
// AGGR-LABEL: func.func @through_reduction
// AGGR:         tensor.expand_shape
// AGGR:         linalg.generic
// AGGR-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// AGGR-NOT:     tensor.expand_shape
// AGGR:         return
func.func @through_reduction(%a: tensor<8x16xf32>, %init: tensor<8xf32>) -> tensor<2x4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<8x16xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %1 = tensor.expand_shape %0 [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}

// -----

// Named ops are never crossed.
// CHECK-LABEL: func.func @named_op
// CHECK:         linalg.matmul
// CHECK:         tensor.expand_shape
func.func @named_op(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %acc: tensor<4x16xf32>) -> tensor<4x2x8xf32> {
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = tensor.expand_shape %mm [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  return %1 : tensor<4x2x8xf32>
}

// -----

// A collapse_shape sinks below an elementwise generic always, below a
// reduction generic only with aggressive-reshape-movement (IREE's control
// function checks the consumer as it checks the producer).
// CHECK-LABEL: func.func @collapse_into_reduction
// CHECK:         tensor.collapse_shape
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// AGGR-LABEL: func.func @collapse_into_reduction
// AGGR-NOT:     tensor.collapse_shape
// AGGR:         linalg.generic
// AGGR-SAME:      iterator_types = ["parallel", "reduction", "reduction"]
// AGGR-SAME:      ins(%{{.+}} : tensor<3x6x8xf32>)
func.func @collapse_into_reduction(%a: tensor<3x6x8xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %c = tensor.collapse_shape %a [[0, 1], [2]] : tensor<3x6x8xf32> into tensor<18x8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%c : tensor<18x8xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
