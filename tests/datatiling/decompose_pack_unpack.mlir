// dispatchlab-decompose-pack-unpack (upstream's lowerPack and lowerUnPack):
// packs and unpacks no tile vectorized become plain tensor ops that
// bufferize and lower to loops.
//
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-decompose-pack-unpack))' \
// RUN:   | FileCheck %s

// A zero-padded pack: pad to whole tiles, split each tiled dim, move the
// inner tiles innermost.
// CHECK-LABEL: func.func @pack
//   CHECK-NOT:   linalg.pack
//       CHECK:   tensor.pad %arg0 low[0, 0] high[0, 12]
//       CHECK:   tensor.expand_shape {{.+}} : tensor<8x32xf32> into tensor<8x1x2x16xf32>
//       CHECK:   linalg.transpose {{.+}} outs(%{{.+}} : tensor<2x8x16x1xf32>) permutation = [2, 0, 3, 1]
func.func @pack(%w: tensor<8x20xf32>) -> tensor<2x8x16x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x16x1xf32>
  %p = linalg.pack %w padding_value(%zero : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 1] into %e : tensor<8x20xf32> -> tensor<2x8x16x1xf32>
  return %p : tensor<2x8x16x1xf32>
}

// -----

// An unpack: inner tiles back beside their outer dims, merged, and the
// padding sliced off.
// CHECK-LABEL: func.func @unpack
//   CHECK-NOT:   linalg.unpack
//       CHECK:   linalg.transpose {{.+}} permutation = [0, 2, 1, 3]
//       CHECK:   tensor.collapse_shape {{.+}} into tensor<16x32xf32>
//       CHECK:   tensor.extract_slice {{.+}}[0, 0] [16, 20] [1, 1]
func.func @unpack(%x: tensor<1x2x16x16xf32>) -> tensor<16x20xf32> {
  %d = tensor.empty() : tensor<16x20xf32>
  %u = linalg.unpack %x inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %d : tensor<1x2x16x16xf32> -> tensor<16x20xf32>
  return %u : tensor<16x20xf32>
}
