// dispatchlab-materialize-encoding-for-host (IREE's CPU encoding
// materialization): a matmul's encoded operands are packed into the host's
// tiles (M0 = N0 = vector-width, K0 = 1), the contraction becomes mmt4d and
// unset_encoding an unpack. Encodings it cannot lay out are dropped.
//
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(dispatchlab-materialize-encoding-for-host{vector-width=16})' \
// RUN:   | FileCheck %s

// A plain matmul: [M, K] packs to [M1, K1, 16, 1], [K, N] (N inner) to
// [N1, K1, 16, 1], the filled result is a packed empty; the dispatch
// returns the unpacked [M, N].
// CHECK-LABEL: func.func @matmul
//   CHECK-NOT:   iree_encoding
//       CHECK:   %[[A:.+]] = linalg.pack %arg0 outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %{{.+}} : tensor<32x8xf32> -> tensor<2x8x16x1xf32>
//       CHECK:   %[[B:.+]] = linalg.pack %arg1 outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 1] into %{{.+}} : tensor<8x48xf32> -> tensor<3x8x16x1xf32>
//       CHECK:   dispatch.region -> (tensor<32x48xf32>)
//       CHECK:     %[[E:.+]] = tensor.empty() : tensor<2x3x16x16xf32>
//       CHECK:     %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<2x3x16x16xf32>)
//       CHECK:     %[[MM:.+]] = linalg.mmt4d ins(%[[A]], %[[B]] : tensor<2x8x16x1xf32>, tensor<3x8x16x1xf32>) outs(%[[F]] : tensor<2x3x16x16xf32>)
//       CHECK:     %[[U:.+]] = linalg.unpack %[[MM]] outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %{{.+}} : tensor<2x3x16x16xf32> -> tensor<32x48xf32>
//       CHECK:     dispatch.return %[[U]] : tensor<32x48xf32>
#maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
#a = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = #maps, iteration_sizes = [32, 48, 8]>
#b = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = #maps, iteration_sizes = [32, 48, 8]>
#c = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = #maps, iteration_sizes = [32, 48, 8]>
func.func @matmul(%a: tensor<32x8xf32>, %b: tensor<8x48xf32>) -> tensor<32x48xf32> {
  %ea = iree_encoding.set_encoding %a : tensor<32x8xf32> -> tensor<32x8xf32, #a>
  %eb = iree_encoding.set_encoding %b : tensor<8x48xf32> -> tensor<8x48xf32, #b>
  %r = dispatch.region -> (tensor<32x48xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<32x48xf32, #c>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x48xf32, #c>) -> tensor<32x48xf32, #c>
    %mm = linalg.matmul ins(%ea, %eb : tensor<32x8xf32, #a>, tensor<8x48xf32, #b>)
        outs(%f : tensor<32x48xf32, #c>) -> tensor<32x48xf32, #c>
    %u = iree_encoding.unset_encoding %mm : tensor<32x48xf32, #c> -> tensor<32x48xf32>
    dispatch.return %u : tensor<32x48xf32>
  }
  return %r : tensor<32x48xf32>
}

// -----

// A weight read transposed ([N, K], a torch Linear's) packs without a
// transpose of its outer dims; a small M (2) takes tiles of 2 rows.
// CHECK-LABEL: func.func @narrow_m_transposed_rhs
//       CHECK:   linalg.pack %arg0 outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [2, 1] {{.+}} : tensor<2x8xf32> -> tensor<1x8x2x1xf32>
//       CHECK:   linalg.pack %arg1 outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 1] {{.+}} : tensor<32x8xf32> -> tensor<2x8x16x1xf32>
//       CHECK:   linalg.mmt4d {{.+}} outs(%{{.+}} : tensor<1x2x2x16xf32>)
//       CHECK:   linalg.unpack {{.+}} inner_tiles = [2, 16] {{.+}} : tensor<1x2x2x16xf32> -> tensor<2x32xf32>
#maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
#a = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = #maps, iteration_sizes = [2, 32, 8]>
#b = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = #maps, iteration_sizes = [2, 32, 8]>
#c = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = #maps, iteration_sizes = [2, 32, 8]>
func.func @narrow_m_transposed_rhs(%a: tensor<2x8xf32>, %b: tensor<32x8xf32>, %c: tensor<2x32xf32>) -> tensor<2x32xf32> {
  %ea = iree_encoding.set_encoding %a : tensor<2x8xf32> -> tensor<2x8xf32, #a>
  %eb = iree_encoding.set_encoding %b : tensor<32x8xf32> -> tensor<32x8xf32, #b>
  %ec = iree_encoding.set_encoding %c : tensor<2x32xf32> -> tensor<2x32xf32, #c>
  %mm = linalg.matmul indexing_maps = #maps ins(%ea, %eb : tensor<2x8xf32, #a>, tensor<32x8xf32, #b>)
      outs(%ec : tensor<2x32xf32, #c>) -> tensor<2x32xf32, #c>
  %u = iree_encoding.unset_encoding %mm : tensor<2x32xf32, #c> -> tensor<2x32xf32>
  return %u : tensor<2x32xf32>
}

// -----

// An extent the tile does not divide (N = 20) is zero-padded.
// CHECK-LABEL: func.func @padded
//       CHECK:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
//       CHECK:   linalg.pack %arg1 padding_value(%[[ZERO]] : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 1] {{.+}} : tensor<8x20xf32> -> tensor<2x8x16x1xf32>
//       CHECK:   linalg.unpack {{.+}} : tensor<1x2x16x16xf32> -> tensor<16x20xf32>
#maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
#a = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = #maps, iteration_sizes = [16, 20, 8]>
#b = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = #maps, iteration_sizes = [16, 20, 8]>
#c = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = #maps, iteration_sizes = [16, 20, 8]>
func.func @padded(%a: tensor<16x8xf32>, %b: tensor<8x20xf32>, %c: tensor<16x20xf32>) -> tensor<16x20xf32> {
  %ea = iree_encoding.set_encoding %a : tensor<16x8xf32> -> tensor<16x8xf32, #a>
  %eb = iree_encoding.set_encoding %b : tensor<8x20xf32> -> tensor<8x20xf32, #b>
  %ec = iree_encoding.set_encoding %c : tensor<16x20xf32> -> tensor<16x20xf32, #c>
  %mm = linalg.matmul ins(%ea, %eb : tensor<16x8xf32, #a>, tensor<8x20xf32, #b>)
      outs(%ec : tensor<16x20xf32, #c>) -> tensor<16x20xf32, #c>
  %u = iree_encoding.unset_encoding %mm : tensor<16x20xf32, #c> -> tensor<16x20xf32>
  return %u : tensor<16x20xf32>
}

// -----

// A batch loop stays outermost: batch_mmt4d.
// CHECK-LABEL: func.func @batch_matmul
//       CHECK:   linalg.pack %arg0 outer_dims_perm = [0, 1, 2] inner_dims_pos = [1, 2] inner_tiles = [16, 1] {{.+}} -> tensor<3x1x8x16x1xf32>
//       CHECK:   linalg.pack %arg1 outer_dims_perm = [0, 2, 1] inner_dims_pos = [2, 1] inner_tiles = [16, 1] {{.+}} -> tensor<3x1x8x16x1xf32>
//       CHECK:   linalg.batch_mmt4d {{.+}} -> tensor<3x1x1x16x16xf32>
//       CHECK:   linalg.unpack {{.+}} outer_dims_perm = [0, 1, 2] inner_dims_pos = [1, 2] inner_tiles = [16, 16] {{.+}} -> tensor<3x16x16xf32>
#maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
#a = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = #maps, iteration_sizes = [3, 16, 16, 8]>
#b = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = #maps, iteration_sizes = [3, 16, 16, 8]>
#c = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = #maps, iteration_sizes = [3, 16, 16, 8]>
func.func @batch_matmul(%a: tensor<3x16x8xf32>, %b: tensor<3x8x16xf32>, %c: tensor<3x16x16xf32>) -> tensor<3x16x16xf32> {
  %ea = iree_encoding.set_encoding %a : tensor<3x16x8xf32> -> tensor<3x16x8xf32, #a>
  %eb = iree_encoding.set_encoding %b : tensor<3x8x16xf32> -> tensor<3x8x16xf32, #b>
  %ec = iree_encoding.set_encoding %c : tensor<3x16x16xf32> -> tensor<3x16x16xf32, #c>
  %mm = linalg.batch_matmul ins(%ea, %eb : tensor<3x16x8xf32, #a>, tensor<3x8x16xf32, #b>)
      outs(%ec : tensor<3x16x16xf32, #c>) -> tensor<3x16x16xf32, #c>
  %u = iree_encoding.unset_encoding %mm : tensor<3x16x16xf32, #c> -> tensor<3x16x16xf32>
  return %u : tensor<3x16x16xf32>
}

// -----

// An encoding without maps (or with integer operands, or a testing one) is
// dropped: set_encoding and unset_encoding forward their source and the
// matmul computes on plain tensors.
// CHECK-LABEL: func.func @dropped
//   CHECK-NOT:   iree_encoding
//   CHECK-NOT:   linalg.pack
//       CHECK:   %[[MM:.+]] = linalg.matmul ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%{{.+}} : tensor<4x16xf32>)
//       CHECK:   %[[I:.+]] = linalg.matmul ins(%arg3, %arg4 : tensor<4x8xi8>, tensor<8x16xi8>) outs(%{{.+}} : tensor<4x16xi32>)
//       CHECK:   return %[[MM]], %[[I]], %arg0
#a = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32]>
#b = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32]>
#c = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32]>
#maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
#ia = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = #maps, iteration_sizes = [4, 16, 8]>
#ib = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = #maps, iteration_sizes = [4, 16, 8]>
#ic = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = #maps, iteration_sizes = [4, 16, 8]>
#t = #iree_encoding.testing<>
func.func @dropped(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>,
                   %ia: tensor<4x8xi8>, %ib: tensor<8x16xi8>, %ic: tensor<4x16xi32>)
    -> (tensor<4x16xf32>, tensor<4x16xi32>, tensor<4x8xf32>) {
  %ea = iree_encoding.set_encoding %a : tensor<4x8xf32> -> tensor<4x8xf32, #a>
  %eb = iree_encoding.set_encoding %b : tensor<8x16xf32> -> tensor<8x16xf32, #b>
  %ec = iree_encoding.set_encoding %c : tensor<4x16xf32> -> tensor<4x16xf32, #c>
  %mm = linalg.matmul ins(%ea, %eb : tensor<4x8xf32, #a>, tensor<8x16xf32, #b>)
      outs(%ec : tensor<4x16xf32, #c>) -> tensor<4x16xf32, #c>
  %u = iree_encoding.unset_encoding %mm : tensor<4x16xf32, #c> -> tensor<4x16xf32>
  %eia = iree_encoding.set_encoding %ia : tensor<4x8xi8> -> tensor<4x8xi8, #ia>
  %eib = iree_encoding.set_encoding %ib : tensor<8x16xi8> -> tensor<8x16xi8, #ib>
  %eic = iree_encoding.set_encoding %ic : tensor<4x16xi32> -> tensor<4x16xi32, #ic>
  %imm = linalg.matmul ins(%eia, %eib : tensor<4x8xi8, #ia>, tensor<8x16xi8, #ib>)
      outs(%eic : tensor<4x16xi32, #ic>) -> tensor<4x16xi32, #ic>
  %iu = iree_encoding.unset_encoding %imm : tensor<4x16xi32, #ic> -> tensor<4x16xi32>
  %t = iree_encoding.set_encoding %a : tensor<4x8xf32> -> tensor<4x8xf32, #t>
  %tu = iree_encoding.unset_encoding %t : tensor<4x8xf32, #t> -> tensor<4x8xf32>
  return %u, %iu, %tu : tensor<4x16xf32>, tensor<4x16xi32>, tensor<4x8xf32>
}
