// Two projections of one activation (as Q/K/V projections are): both matmuls
// read %x.
func.func @shared_lhs(%x: tensor<16x32xf32>, %wq: tensor<32x64xf32>, %wk: tensor<32x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x64xf32>) -> tensor<16x64xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<16x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<16x64xf32>) -> tensor<16x64xf32>
  %k = linalg.matmul ins(%x, %wk : tensor<16x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %q, %k : tensor<16x64xf32>, tensor<16x64xf32>
}
