// dispatchlab-tile-data-tiled-dispatches (IREE's CPU tiling of data-tiled
// dispatches): the op computing a packed dispatch's result is tiled in
// whole inner tiles with its producers fused, and each mmt4d's K1 loop like
// a reduction.
//
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-tile-data-tiled-dispatches{vector-width=16 reduction-tile-size=16}))' \
// RUN:   | FileCheck %s

// An unpack root takes one 16x16 inner tile per step, so the fused mmt4d
// computes one 1x1 outer tile; its K1 loop of 64 goes 16 at a time.
// CHECK-LABEL: func.func @unpack_root
//       CHECK:   scf.forall (%[[I:.+]], %[[J:.+]]) = (0, 0) to (32, 48) step (16, 16)
//       CHECK:     linalg.fill {{.+}} -> tensor<1x1x16x16xf32>
//       CHECK:     scf.for %{{.+}} = %c0 to %c64 step %c16
//       CHECK:       linalg.mmt4d ins(%{{.+}}, %{{.+}} : tensor<1x16x16x1xf32>, tensor<1x16x16x1xf32>) outs(%{{.+}} : tensor<1x1x16x16xf32>)
//       CHECK:     linalg.unpack {{.+}} : tensor<1x1x16x16xf32> -> tensor<16x16xf32>
func.func @unpack_root(%a: tensor<2x64x16x1xf32>, %b: tensor<3x64x16x1xf32>) -> tensor<32x48xf32> attributes {dispatchlab.dispatch} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x16x16xf32>) -> tensor<2x3x16x16xf32>
  %mm = linalg.mmt4d ins(%a, %b : tensor<2x64x16x1xf32>, tensor<3x64x16x1xf32>) outs(%f : tensor<2x3x16x16xf32>) -> tensor<2x3x16x16xf32>
  %d = tensor.empty() : tensor<32x48xf32>
  %u = linalg.unpack %mm outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %d : tensor<2x3x16x16xf32> -> tensor<32x48xf32>
  return %u : tensor<32x48xf32>
}

// -----

// An elementwise root reading the unpack through a transpose takes the
// unpack's tiles through its maps; a K1 loop within the target stays whole.
// CHECK-LABEL: func.func @transposed_consumer
//       CHECK:   scf.forall {{.+}} = (0, 0) to (48, 32) step (16, 16)
//   CHECK-NOT:     scf.for
//       CHECK:     linalg.mmt4d {{.+}} outs(%{{.+}} : tensor<1x1x16x16xf32>)
//       CHECK:     linalg.unpack
//       CHECK:     linalg.generic {{.+}} outs(%{{.+}} : tensor<16x16xf32>)
func.func @transposed_consumer(%a: tensor<2x8x16x1xf32>, %b: tensor<3x8x16x1xf32>) -> tensor<48x32xf32> attributes {dispatchlab.dispatch} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x16x16xf32>) -> tensor<2x3x16x16xf32>
  %mm = linalg.mmt4d ins(%a, %b : tensor<2x8x16x1xf32>, tensor<3x8x16x1xf32>) outs(%f : tensor<2x3x16x16xf32>) -> tensor<2x3x16x16xf32>
  %d = tensor.empty() : tensor<32x48xf32>
  %u = linalg.unpack %mm outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %d : tensor<2x3x16x16xf32> -> tensor<32x48xf32>
  %t = tensor.empty() : tensor<48x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%u : tensor<32x48xf32>) outs(%t : tensor<48x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<48x32xf32>
  return %r : tensor<48x32xf32>
}

// -----

// A pack root: 1 in the outer dims but the innermost, which takes 16.
// CHECK-LABEL: func.func @pack_root
//       CHECK:   scf.forall {{.+}} = (0, 0) to (2, 64) step (1, 16)
//       CHECK:     linalg.pack {{.+}} : tensor<16x16xf32> -> tensor<1x16x16x1xf32>
func.func @pack_root(%x: tensor<32x64xf32>) -> tensor<2x64x16x1xf32> attributes {dispatchlab.dispatch} {
  %e = tensor.empty() : tensor<2x64x16x1xf32>
  %p = linalg.pack %x outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %e : tensor<32x64xf32> -> tensor<2x64x16x1xf32>
  return %p : tensor<2x64x16x1xf32>
}

// -----

// An mmt4d root (the late route: IREE fuses no consumer into an mmt4d)
// takes one 1x1 outer tile per step, its fill fused; K1 goes 16 at a time.
// CHECK-LABEL: func.func @mmt4d_root
//       CHECK:   scf.forall (%{{.+}}, %{{.+}}) in (2, 3)
//       CHECK:     linalg.fill {{.+}} -> tensor<1x1x16x16xf32>
//       CHECK:     scf.for %{{.+}} = %c0 to %c64 step %c16
//       CHECK:       linalg.mmt4d ins(%{{.+}}, %{{.+}} : tensor<1x16x16x1xf32>, tensor<1x16x16x1xf32>) outs(%{{.+}} : tensor<1x1x16x16xf32>)
func.func @mmt4d_root(%a: tensor<2x64x16x1xf32>, %b: tensor<3x64x16x1xf32>) -> tensor<2x3x16x16xf32> attributes {dispatchlab.dispatch} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x16x16xf32>) -> tensor<2x3x16x16xf32>
  %mm = linalg.mmt4d ins(%a, %b : tensor<2x64x16x1xf32>, tensor<3x64x16x1xf32>) outs(%f : tensor<2x3x16x16xf32>) -> tensor<2x3x16x16xf32>
  return %mm : tensor<2x3x16x16xf32>
}

// -----

// A batch_mmt4d root takes one batch and one 1x1 outer tile per step.
// CHECK-LABEL: func.func @batch_mmt4d_root
//       CHECK:   scf.forall (%{{.+}}, %{{.+}}, %{{.+}}) in (4, 2, 3)
//       CHECK:     linalg.batch_mmt4d {{.+}} outs(%{{.+}} : tensor<1x1x1x16x16xf32>)
func.func @batch_mmt4d_root(%a: tensor<4x2x8x16x1xf32>, %b: tensor<4x3x8x16x1xf32>) -> tensor<4x2x3x16x16xf32> attributes {dispatchlab.dispatch} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2x3x16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2x3x16x16xf32>) -> tensor<4x2x3x16x16xf32>
  %mm = linalg.batch_mmt4d ins(%a, %b : tensor<4x2x8x16x1xf32>, tensor<4x3x8x16x1xf32>) outs(%f : tensor<4x2x3x16x16xf32>) -> tensor<4x2x3x16x16xf32>
  return %mm : tensor<4x2x3x16x16xf32>
}

// -----

// A pack fed by a reduction (a LayerNorm's or softmax's rows) takes whole
// rows per tile: each 16-row tile reduces its rows once, then packs them
// 16 columns at a time.
// CHECK-LABEL: func.func @pack_of_reduced_rows
//       CHECK:   scf.forall (%{{.+}}) in (2)
//       CHECK:     linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]{{.+}} ins(%{{.+}} : tensor<16x64xf32>)
//       CHECK:     %[[ROWS:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<16x64xf32>)
//       CHECK:     scf.for %{{.+}} = %c0 to %c64 step %c16
//       CHECK:       tensor.extract_slice %[[ROWS]]
//  CHECK-NEXT:       tensor.extract_slice
//  CHECK-NEXT:       linalg.pack {{.+}} : tensor<16x16xf32> -> tensor<1x16x16x1xf32>
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @pack_of_reduced_rows(%x: tensor<32x64xf32>) -> tensor<2x64x16x1xf32> attributes {dispatchlab.dispatch} {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<32xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x64xf32>) outs(%fr : tensor<32xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  %ex = tensor.empty() : tensor<32x64xf32>
  %n = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<32x64xf32>, tensor<32xf32>) outs(%ex : tensor<32x64xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %d = arith.divf %in, %s : f32
    linalg.yield %d : f32
  } -> tensor<32x64xf32>
  %e = tensor.empty() : tensor<2x64x16x1xf32>
  %p = linalg.pack %n outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %e : tensor<32x64xf32> -> tensor<2x64x16x1xf32>
  return %p : tensor<2x64x16x1xf32>
}

// -----

// 20 columns in tiles of 16: the whole tiles, then the remaining 4 from
// the second outer tile of the mmt4d, inserted at column 16.
// CHECK-LABEL: func.func @split_remainder
//       CHECK:   scf.forall {{.+}} = (0, 0) to (16, 16) step (16, 16)
//       CHECK:     linalg.mmt4d
//       CHECK:   tensor.insert_slice %{{.+}} into %{{.+}}[0, 0] [16, 16]
//       CHECK:   tensor.extract_slice %arg1[1, 0, 0, 0] [1, 8, 16, 1]
//       CHECK:   linalg.mmt4d
//       CHECK:   tensor.insert_slice %{{.+}} into %{{.+}}[0, 16] [16, 4]
func.func @split_remainder(%a: tensor<1x8x16x1xf32>, %b: tensor<2x8x16x1xf32>) -> tensor<16x20xf32> attributes {dispatchlab.dispatch} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32>
  %mm = linalg.mmt4d ins(%a, %b : tensor<1x8x16x1xf32>, tensor<2x8x16x1xf32>) outs(%f : tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32>
  %d = tensor.empty() : tensor<16x20xf32>
  %u = linalg.unpack %mm outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %d : tensor<1x2x16x16xf32> -> tensor<16x20xf32>
  return %u : tensor<16x20xf32>
}

// -----

// Several result ops: left untiled (correct, scalar).
// CHECK-LABEL: func.func @two_results
//   CHECK-NOT:   scf.forall
//   CHECK-NOT:   scf.for
//       CHECK:   return
func.func @two_results(%a: tensor<1x8x16x1xf32>, %b: tensor<1x8x16x1xf32>) -> (tensor<1x1x16x16xf32>, tensor<16x16xf32>) attributes {dispatchlab.dispatch} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x16x16xf32>) -> tensor<1x1x16x16xf32>
  %mm = linalg.mmt4d ins(%a, %b : tensor<1x8x16x1xf32>, tensor<1x8x16x1xf32>) outs(%f : tensor<1x1x16x16xf32>) -> tensor<1x1x16x16xf32>
  %d = tensor.empty() : tensor<16x16xf32>
  %u = linalg.unpack %mm inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %d : tensor<1x1x16x16xf32> -> tensor<16x16xf32>
  return %mm, %u : tensor<1x1x16x16xf32>, tensor<16x16xf32>
}
