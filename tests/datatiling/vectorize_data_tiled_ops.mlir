// dispatchlab-vectorize-dispatches on the tiles of data-tiled dispatches:
// an mmt4d tile, generalized and without its unit dims, is one
// vector.contract of a 16x16 accumulator over K1 (LHS read K-major, as an
// outer product wants it); pack and unpack tiles are vector reads,
// transposes and writes.
//
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-vectorize-dispatches,canonicalize,cse))' \
// RUN:   | FileCheck %s

// CHECK-DAG: #[[LHS:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[RHS:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @mmt4d_tile
//   CHECK-NOT:   linalg.
//       CHECK:   vector.contract {indexing_maps = [#[[LHS]], #[[RHS]], {{.+}}], iterator_types = ["reduction", "parallel", "parallel"]{{.*}} : vector<16x16xf32>, vector<16x16xf32> into vector<16x16xf32>
func.func @mmt4d_tile(%a: tensor<1x16x16x1xf32>, %b: tensor<1x16x16x1xf32>, %c: tensor<1x1x16x16xf32>) -> tensor<1x1x16x16xf32> attributes {dispatchlab.dispatch} {
  %r = linalg.mmt4d ins(%a, %b : tensor<1x16x16x1xf32>, tensor<1x16x16x1xf32>) outs(%c : tensor<1x1x16x16xf32>) -> tensor<1x1x16x16xf32>
  return %r : tensor<1x1x16x16xf32>
}

// -----

// CHECK-LABEL: func.func @pack_tile
//   CHECK-NOT:   linalg.pack
//       CHECK:   vector.transfer_read {{.+}} vector<16x16xf32>
//       CHECK:   vector.transpose {{.+}} [0, 2, 1, 3]
//       CHECK:   vector.transfer_write
func.func @pack_tile(%x: tensor<16x16xf32>, %d: tensor<1x16x16x1xf32>) -> tensor<1x16x16x1xf32> attributes {dispatchlab.dispatch} {
  %p = linalg.pack %x outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %d : tensor<16x16xf32> -> tensor<1x16x16x1xf32>
  return %p : tensor<1x16x16x1xf32>
}

// -----

// CHECK-LABEL: func.func @unpack_tile
//   CHECK-NOT:   linalg.unpack
//       CHECK:   vector.transfer_read {{.+}} vector<1x1x16x16xf32>
//       CHECK:   vector.transfer_write {{.+}} vector<16x16xf32>
func.func @unpack_tile(%x: tensor<1x1x16x16xf32>, %d: tensor<16x16xf32>) -> tensor<16x16xf32> attributes {dispatchlab.dispatch} {
  %u = linalg.unpack %x inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %d : tensor<1x1x16x16xf32> -> tensor<16x16xf32>
  return %u : tensor<16x16xf32>
}
