// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-fold-unit-extent-dims))' | FileCheck %s

// A generic's unit loops are dropped: its operands are collapsed, its
// result expanded back (upstream's DropUnitDims, reassociative reshapes).
// CHECK-LABEL: func.func @generic_unit_loops
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<1x4x8xf32> into tensor<4x8xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      outs(%{{.*}} : tensor<4x8xf32>)
// CHECK:         tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [1, 4, 8] : tensor<4x8xf32> into tensor<1x4x8xf32>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @generic_unit_loops(%a: tensor<1x4x8xf32>) -> tensor<1x4x8xf32> {
  %e = tensor.empty() : tensor<1x4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<1x4x8xf32>) outs(%e : tensor<1x4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<1x4x8xf32>
  return %0 : tensor<1x4x8xf32>
}

// -----

// A unit reduction loop is dropped too: the reduction disappears.
// CHECK-LABEL: func.func @unit_reduction
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel"]
// CHECK-NOT:     "reduction"
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @unit_reduction(%a: tensor<4x1xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x1xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A tensor.pad's unpadded unit dims are dropped (upstream's pad rule).
// CHECK-LABEL: func.func @pad_unit_dim
// CHECK:         tensor.collapse_shape %{{.*}} : tensor<1x4xf32> into tensor<4xf32>
// CHECK:         tensor.pad %{{.*}} low[1] high[1]
// CHECK:         : tensor<4xf32> to tensor<6xf32>
func.func @pad_unit_dim(%a: tensor<1x4xf32>) -> tensor<1x6xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = tensor.pad %a low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<1x4xf32> to tensor<1x6xf32>
  return %0 : tensor<1x6xf32>
}

// -----

// An elementwise generic reading its init gets that init as an input and
// an empty init (upstream's MoveInitOperandsToInput, which IREE adds).
// CHECK-LABEL: func.func @init_read_as_input
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<4xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>)
// CHECK-SAME:      outs(%[[EMPTY]] : tensor<4xf32>)
#id1 = affine_map<(d0) -> (d0)>
func.func @init_read_as_input(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Ops already inside a dispatch keep their unit dims (IREE's control
// function skips them).
// CHECK-LABEL: func.func @inside_dispatch
// CHECK:         dispatch.region
// CHECK-NOT:       tensor.collapse_shape
// CHECK:           linalg.generic
// CHECK-SAME:        outs(%{{.*}} : tensor<1x4xf32>)
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @inside_dispatch(%a: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %r = dispatch.region -> (tensor<1x4xf32>) {
    %e = tensor.empty() : tensor<1x4xf32>
    %0 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %n = arith.negf %x : f32
      linalg.yield %n : f32
    } -> tensor<1x4xf32>
    dispatch.return %0 : tensor<1x4xf32>
  }
  return %r : tensor<1x4xf32>
}
