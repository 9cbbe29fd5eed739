// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-sink-reshapes))' | FileCheck %s

// An expand_shape between a matmul and its elementwise consumer is folded
// into the consumer, which now reads the matmul result directly.
// CHECK-LABEL: func.func @sink_past_elementwise
// CHECK:         %[[MM:.+]] = linalg.matmul
// CHECK-NOT:     tensor.expand_shape %[[MM]]
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[MM]]
// CHECK:         tensor.expand_shape
func.func @sink_past_elementwise(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %acc: tensor<4x16xf32>) -> tensor<4x2x8xf32> {
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
  %x = tensor.expand_shape %mm [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  %e = tensor.empty() : tensor<4x2x8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<4x2x8xf32>) outs(%e : tensor<4x2x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = math.exp %v : f32
    linalg.yield %s : f32
  } -> tensor<4x2x8xf32>
  return %0 : tensor<4x2x8xf32>
}

// -----

// The expand_shape stays when the consumer already has a single-use Linalg
// producer with as many parallel loops.
// CHECK-LABEL: func.func @keep_for_other_producer
// CHECK:         %[[X:.+]] = tensor.expand_shape
// CHECK:         linalg.generic {{.*}} ins(%[[X]], %
func.func @keep_for_other_producer(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %acc: tensor<4x16xf32>, %c: tensor<4x2x8xf32>) -> tensor<4x2x8xf32> {
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
  %x = tensor.expand_shape %mm [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  %e = tensor.empty() : tensor<4x2x8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : tensor<4x2x8xf32>) outs(%e : tensor<4x2x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.negf %v : f32
    linalg.yield %s : f32
  } -> tensor<4x2x8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %p : tensor<4x2x8xf32>, tensor<4x2x8xf32>) outs(%e : tensor<4x2x8xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.addf %v, %w : f32
    linalg.yield %s : f32
  } -> tensor<4x2x8xf32>
  return %0 : tensor<4x2x8xf32>
}
