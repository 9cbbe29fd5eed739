// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-data-layout-propagation))' | FileCheck %s

// One case per rule of DataLayoutPropagation (IREE's pass of that name in
// the late data-tiling route: upstream's propagation patterns, under IREE's
// control function that lets only reshapes move).

// A pack of a collapse_shape's result packs the source instead; the packed
// tensor is collapsed after.
func.func @pack_of_collapse(%x: tensor<2x16x24xf32>) -> tensor<2x24x16x1xf32> {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x16x24xf32> into tensor<32x24xf32>
  %e = tensor.empty() : tensor<2x24x16x1xf32>
  %p = linalg.pack %c outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %e : tensor<32x24xf32> -> tensor<2x24x16x1xf32>
  return %p : tensor<2x24x16x1xf32>
}
// CHECK-LABEL: func.func @pack_of_collapse(
//  CHECK-SAME:     %[[X:[a-zA-Z0-9]+]]: tensor<2x16x24xf32>
//       CHECK:   %[[P:.+]] = linalg.pack %[[X]] outer_dims_perm = [0, 1, 2] inner_dims_pos = [1, 2] inner_tiles = [16, 1] into %{{.+}} : tensor<2x16x24xf32> -> tensor<2x1x24x16x1xf32>
//       CHECK:   %[[C:.+]] = tensor.collapse_shape %[[P]] {{\[}}[0, 1], [2], [3], [4]] : tensor<2x1x24x16x1xf32> into tensor<2x24x16x1xf32>
//       CHECK:   return %[[C]]

// -----

// An unpack read by an expand_shape: the packed tensor is expanded first
// and unpacked to the expanded shape.
func.func @unpack_then_expand(%x: tensor<2x3x16x16xf32>) -> tensor<32x3x16xf32> {
  %e = tensor.empty() : tensor<32x48xf32>
  %u = linalg.unpack %x outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %e : tensor<2x3x16x16xf32> -> tensor<32x48xf32>
  %r = tensor.expand_shape %u [[0], [1, 2]] output_shape [32, 3, 16] : tensor<32x48xf32> into tensor<32x3x16xf32>
  return %r : tensor<32x3x16xf32>
}
// CHECK-LABEL: func.func @unpack_then_expand(
//  CHECK-SAME:     %[[X:[a-zA-Z0-9]+]]: tensor<2x3x16x16xf32>
//       CHECK:   %[[E:.+]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2], [3], [4]] output_shape [2, 3, 1, 16, 16]
//       CHECK:   %[[U:.+]] = linalg.unpack %[[E]] outer_dims_perm = [0, 1, 2] inner_dims_pos = [0, 2] inner_tiles = [16, 16] into %{{.+}} : tensor<2x3x1x16x16xf32> -> tensor<32x3x16xf32>
//       CHECK:   return %[[U]]

// -----

// Negative: the reverse directions are not IREE's; a pack of an
// expand_shape and a collapse_shape of an unpack stay.
func.func @reshapes_the_other_way(%x: tensor<32x24xf32>, %y: tensor<1x2x3x16x16xf32>) -> (tensor<1x2x24x16x1xf32>, tensor<32x48xf32>) {
  %x3 = tensor.expand_shape %x [[0, 1], [2]] output_shape [1, 32, 24] : tensor<32x24xf32> into tensor<1x32x24xf32>
  %e = tensor.empty() : tensor<1x2x24x16x1xf32>
  %p = linalg.pack %x3 outer_dims_perm = [0, 1, 2] inner_dims_pos = [1, 2] inner_tiles = [16, 1] into %e : tensor<1x32x24xf32> -> tensor<1x2x24x16x1xf32>
  %f = tensor.empty() : tensor<1x32x48xf32>
  %u = linalg.unpack %y outer_dims_perm = [0, 1, 2] inner_dims_pos = [1, 2] inner_tiles = [16, 16] into %f : tensor<1x2x3x16x16xf32> -> tensor<1x32x48xf32>
  %c = tensor.collapse_shape %u [[0, 1], [2]] : tensor<1x32x48xf32> into tensor<32x48xf32>
  return %p, %c : tensor<1x2x24x16x1xf32>, tensor<32x48xf32>
}
// CHECK-LABEL: func.func @reshapes_the_other_way(
//       CHECK:   %[[X3:.+]] = tensor.expand_shape
//       CHECK:   linalg.pack %[[X3]]
//       CHECK:   %[[U:.+]] = linalg.unpack
//       CHECK:   tensor.collapse_shape %[[U]]

// -----

// Negative: upstream would move the pack above the elementwise generic and
// the unpack below its consumer; IREE's control function keeps both.
#id = affine_map<(i, j) -> (i, j)>
func.func @elementwise_neighbours(%x: tensor<32x24xf32>, %y: tensor<2x3x16x16xf32>) -> (tensor<2x24x16x1xf32>, tensor<32x48xf32>) {
  %e0 = tensor.empty() : tensor<32x24xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<32x24xf32>) outs(%e0 : tensor<32x24xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<32x24xf32>
  %e = tensor.empty() : tensor<2x24x16x1xf32>
  %p = linalg.pack %g outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %e : tensor<32x24xf32> -> tensor<2x24x16x1xf32>
  %f = tensor.empty() : tensor<32x48xf32>
  %u = linalg.unpack %y outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %f : tensor<2x3x16x16xf32> -> tensor<32x48xf32>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%u : tensor<32x48xf32>) outs(%f : tensor<32x48xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<32x48xf32>
  return %p, %h : tensor<2x24x16x1xf32>, tensor<32x48xf32>
}
// CHECK-LABEL: func.func @elementwise_neighbours(
//  CHECK-SAME:     %[[X:[a-zA-Z0-9]+]]: tensor<32x24xf32>
//       CHECK:   %[[G:.+]] = linalg.generic {{.+}} ins(%[[X]] : tensor<32x24xf32>)
//       CHECK:   linalg.pack %[[G]]
//       CHECK:   %[[U:.+]] = linalg.unpack
//       CHECK:   linalg.generic {{.+}} ins(%[[U]] : tensor<32x48xf32>)
