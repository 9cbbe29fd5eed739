// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-simplify-pack-unpack))' | FileCheck %s

// One case per rule of SimplifyPackUnpack (IREE's pass of that name in the
// late data-tiling route: upstream's populateSimplifyPackAndUnpackPatterns).

// A pack that only splits unit outer dims off (the LHS of a matmul with one
// row, tiled 1x1) moves no element: it becomes an expand_shape.
func.func @pack_of_unit_tiles(%x: tensor<1x24xf32>) -> tensor<1x24x1x1xf32> {
  %e = tensor.empty() : tensor<1x24x1x1xf32>
  %p = linalg.pack %x outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [1, 1] into %e : tensor<1x24xf32> -> tensor<1x24x1x1xf32>
  return %p : tensor<1x24x1x1xf32>
}
// CHECK-LABEL: func.func @pack_of_unit_tiles(
//  CHECK-SAME:     %[[X:[a-zA-Z0-9]+]]: tensor<1x24xf32>
//       CHECK:   %[[E:.+]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2, 3]] output_shape [1, 24, 1, 1]
//   CHECK-NOT:   linalg.pack
//       CHECK:   return %[[E]]

// -----

// A pack of the innermost dim into one whole tile is an expand_shape too.
func.func @pack_innermost_whole_tile(%x: tensor<4x16xf32>) -> tensor<4x1x16xf32> {
  %e = tensor.empty() : tensor<4x1x16xf32>
  %p = linalg.pack %x inner_dims_pos = [1] inner_tiles = [16] into %e : tensor<4x16xf32> -> tensor<4x1x16xf32>
  return %p : tensor<4x1x16xf32>
}
// CHECK-LABEL: func.func @pack_innermost_whole_tile(
//       CHECK:   tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2]] output_shape [4, 1, 16]
//   CHECK-NOT:   linalg.pack

// -----

// The unpack of such a layout is a collapse_shape.
func.func @unpack_innermost_whole_tile(%x: tensor<4x1x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %u = linalg.unpack %x inner_dims_pos = [1] inner_tiles = [16] into %e : tensor<4x1x16xf32> -> tensor<4x16xf32>
  return %u : tensor<4x16xf32>
}
// CHECK-LABEL: func.func @unpack_innermost_whole_tile(
//       CHECK:   tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2]] : tensor<4x1x16xf32> into tensor<4x16xf32>
//   CHECK-NOT:   linalg.unpack

// -----

// Negative: the RHS layout of mmt4d transposes its tiles; the pack stays.
func.func @transposing_pack(%x: tensor<24x16xf32>) -> tensor<1x24x16x1xf32> {
  %e = tensor.empty() : tensor<1x24x16x1xf32>
  %p = linalg.pack %x outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 1] into %e : tensor<24x16xf32> -> tensor<1x24x16x1xf32>
  return %p : tensor<1x24x16x1xf32>
}
// CHECK-LABEL: func.func @transposing_pack(
//       CHECK:   linalg.pack
//   CHECK-NOT:   tensor.expand_shape

// -----

// Negative: a pack that pads, and an unpack that drops the padding of a
// partial tile (40 columns in tiles of 16), move elements; both stay.
func.func @padding(%x: tensor<4x12xf32>, %y: tensor<1x3x1x16xf32>) -> (tensor<4x1x16xf32>, tensor<1x40xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x1x16xf32>
  %p = linalg.pack %x padding_value(%z : f32) inner_dims_pos = [1] inner_tiles = [16] into %e : tensor<4x12xf32> -> tensor<4x1x16xf32>
  %f = tensor.empty() : tensor<1x40xf32>
  %u = linalg.unpack %y outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [1, 16] into %f : tensor<1x3x1x16xf32> -> tensor<1x40xf32>
  return %p, %u : tensor<4x1x16xf32>, tensor<1x40xf32>
}
// CHECK-LABEL: func.func @padding(
//       CHECK:   linalg.pack
//       CHECK:   linalg.unpack
//   CHECK-NOT:   tensor.expand_shape
//   CHECK-NOT:   tensor.collapse_shape
