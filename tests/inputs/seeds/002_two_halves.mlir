// Seed 002 (iree-org/iree "Failed to hoist out of dispatch in DT-fusion"),
// our version of its scenario: two matmuls whose left operands are the two
// halves of one packed weight constant. The constant (512 bytes) is too big
// to clone into a dispatch, the extract_slices are cloned: under
// data-tiling=fusion each set_encoding on a slice sits in the matmul's
// dispatch with its source (tests/datatiling/seed002.test).
#lhs = affine_map<(m, n, k) -> (m, k)>
#rhs = affine_map<(m, n, k) -> (n, k)>
#out = affine_map<(m, n, k) -> (m, n)>
func.func @two_halves(%x0: tensor<8x8xf32>, %x1: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %packed = arith.constant dense_resource<packed_halves> : tensor<16x8xf32>
  %top = tensor.extract_slice %packed[0, 0] [8, 8] [1, 1] : tensor<16x8xf32> to tensor<8x8xf32>
  %bottom = tensor.extract_slice %packed[8, 0] [8, 8] [1, 1] : tensor<16x8xf32> to tensor<8x8xf32>
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8x8xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r0 = linalg.matmul indexing_maps = [#lhs, #rhs, #out]
      ins(%top, %x0 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e1 = tensor.empty() : tensor<8x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r1 = linalg.matmul indexing_maps = [#lhs, #rhs, #out]
      ins(%bottom, %x1 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f1 : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r0, %r1 : tensor<8x8xf32>, tensor<8x8xf32>
}

{-#
  dialect_resources: {
    builtin: {
      packed_halves: "0x04000000CDCC0CBFCDCC4CBE9A99193E0000003F9A9999BECDCC4C3DCDCCCC3ECDCCCCBECDCC4CBD9A99993E000000BF9A9919BECDCC4C3ECDCC0C3F000080BECDCCCC3D6666E63E3333B3BE000000003333B33E6666E6BECDCCCCBD0000803ECDCC0CBFCDCC4CBE9A99193E0000003F9A9999BECDCC4C3DCDCCCC3ECDCCCCBECDCC4CBD9A99993E000000BF9A9919BECDCC4C3ECDCC0C3F000080BECDCCCC3D6666E63E3333B3BE000000003333B33E6666E6BECDCCCCBD0000803ECDCC0CBFCDCC4CBE9A99193E0000003F9A9999BECDCC4C3DCDCCCC3ECDCCCCBECDCC4CBD9A99993E000000BF9A9919BECDCC4C3ECDCC0C3F000080BECDCCCC3D6666E63E3333B3BE000000003333B33E6666E6BECDCCCCBD0000803ECDCC0CBFCDCC4CBE9A99193E0000003F9A9999BECDCC4C3DCDCCCC3ECDCCCCBECDCC4CBD9A99993E000000BF9A9919BECDCC4C3ECDCC0C3F000080BECDCCCC3D6666E63E3333B3BE000000003333B33E6666E6BECDCCCCBD0000803ECDCC0CBFCDCC4CBE9A99193E0000003F9A9999BECDCC4C3DCDCCCC3ECDCCCCBECDCC4CBD9A99993E000000BF9A9919BECDCC4C3ECDCC0C3F000080BECDCCCC3D6666E63E3333B3BE000000003333B33E6666E6BECDCCCCBD0000803ECDCC0CBFCDCC4CBE9A99193E0000003F9A9999BECDCC4C3DCDCCCC3ECDCCCCBECDCC4CBD9A99993E000000BF9A9919BECDCC4C3E"
    }
  }
#-}
