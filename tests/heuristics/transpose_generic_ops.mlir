// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-transpose-generic-ops))' | FileCheck %s

// A reduction with a parallel loop after the reduction loop is interchanged
// so that both parallel loops lead.
// CHECK-LABEL: func.func @parallel_loops_first
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
func.func @parallel_loops_first(%a: tensor<4x8x16xf32>, %init: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>],
                       iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a : tensor<4x8x16xf32>) outs(%init : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// An elementwise op reading a single-use matmul transposed is interchanged:
// the matmul read becomes the identity and the output map is permuted.
// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[T:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @identity_read_of_matmul
// CHECK:         %[[MM:.+]] = linalg.matmul
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[T]]]
// CHECK-SAME:      ins(%[[MM]]
func.func @identity_read_of_matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %acc: tensor<4x16xf32>) -> tensor<16x4xf32> {
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e = tensor.empty() : tensor<16x4xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<4x16xf32>) outs(%e : tensor<16x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

// -----

// A transposed read of an elementwise producer is left alone.
// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[T:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @elementwise_producer
// CHECK:         linalg.generic
// CHECK:         linalg.generic {indexing_maps = [#[[T]], #[[ID]]]
func.func @elementwise_producer(%a: tensor<4x16xf32>) -> tensor<16x4xf32> {
  %e0 = tensor.empty() : tensor<4x16xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x16xf32>) outs(%e0 : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.negf %x : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %e = tensor.empty() : tensor<16x4xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<4x16xf32>) outs(%e : tensor<16x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}
