// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(dispatchlab-eliminate-empty-tensors)' | FileCheck %s

// A split dispatch writing a padded tensor's interior: the head is inserted
// into a whole-result empty, which is inserted into the argument. Upstream's
// one run leaves the head writing a slice of that empty (a temporary copied
// into place after bufferization); the second round gives it its slice of
// the argument.
// CHECK-LABEL: func.func @split_into_padded
// CHECK-SAME:    (%[[PADDED:.+]]: tensor<10x10xf32>,
// CHECK:         %[[INTERIOR:.+]] = tensor.extract_slice %[[PADDED]][1, 1] [8, 8] [1, 1]
// CHECK:         %[[HEAD_OUT:.+]] = tensor.extract_slice %[[INTERIOR]][0, 0] [8, 4] [1, 1]
// CHECK:         %[[HEAD:.+]] = linalg.generic {{.+}} outs(%[[HEAD_OUT]] : tensor<8x4xf32>)
// CHECK:         %[[WITH_HEAD:.+]] = tensor.insert_slice %[[HEAD]] into %[[INTERIOR]][0, 0] [8, 4] [1, 1]
// CHECK:         %[[TAIL_OUT:.+]] = tensor.extract_slice %[[WITH_HEAD]][0, 4] [8, 4] [1, 1]
// CHECK:         linalg.generic {{.+}} outs(%[[TAIL_OUT]] : tensor<8x4xf32>)
// CHECK:         tensor.insert_slice %{{.+}} into %[[PADDED]][1, 1] [8, 8] [1, 1]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @split_into_padded(%padded: tensor<10x10xf32>, %x: tensor<8x8xf32>) -> tensor<10x10xf32> {
  %whole = tensor.empty() : tensor<8x8xf32>
  %head_init = tensor.empty() : tensor<8x4xf32>
  %head_in = tensor.extract_slice %x[0, 0] [8, 4] [1, 1] : tensor<8x8xf32> to tensor<8x4xf32>
  %head = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%head_in : tensor<8x4xf32>) outs(%head_init : tensor<8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<8x4xf32>
  %with_head = tensor.insert_slice %head into %whole[0, 0] [8, 4] [1, 1] : tensor<8x4xf32> into tensor<8x8xf32>
  %tail_in = tensor.extract_slice %x[0, 4] [8, 4] [1, 1] : tensor<8x8xf32> to tensor<8x4xf32>
  %tail_init = tensor.extract_slice %with_head[0, 4] [8, 4] [1, 1] : tensor<8x8xf32> to tensor<8x4xf32>
  %tail = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%tail_in : tensor<8x4xf32>) outs(%tail_init : tensor<8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<8x4xf32>
  %with_tail = tensor.insert_slice %tail into %with_head[0, 4] [8, 4] [1, 1] : tensor<8x4xf32> into tensor<8x8xf32>
  %result = tensor.insert_slice %with_tail into %padded[1, 1] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<10x10xf32>
  return %result : tensor<10x10xf32>
}

// -----

// An empty no insertion reaches (a fill returned whole) stays an empty.
// CHECK-LABEL: func.func @not_inserted
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<4x4xf32>
// CHECK:         linalg.fill {{.+}} outs(%[[EMPTY]] : tensor<4x4xf32>)
func.func @not_inserted() -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x4xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %fill : tensor<4x4xf32>
}
