// Zero-size tensors: a [0, 0] weight (random weights are scaled by their
// fan-in, elements over the largest dim: 0 / 0) and a matmul with an empty
// reduction, whose result is its fill.
func.func @main(%x: tensor<2x0xf32>, %w: tensor<0x0xf32> {dispatchlab.parameter = "w"},
                %v: tensor<0x5xf32> {dispatchlab.parameter = "v"}) -> (tensor<2x0xf32>, tensor<2x5xf32>) {
  %c = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x0xf32>
  %f0 = linalg.fill ins(%c : f32) outs(%e0 : tensor<2x0xf32>) -> tensor<2x0xf32>
  %m0 = linalg.matmul ins(%x, %w : tensor<2x0xf32>, tensor<0x0xf32>) outs(%f0 : tensor<2x0xf32>) -> tensor<2x0xf32>
  %e1 = tensor.empty() : tensor<2x5xf32>
  %f1 = linalg.fill ins(%c : f32) outs(%e1 : tensor<2x5xf32>) -> tensor<2x5xf32>
  %m1 = linalg.matmul ins(%x, %v : tensor<2x0xf32>, tensor<0x5xf32>) outs(%f1 : tensor<2x5xf32>) -> tensor<2x5xf32>
  return %m0, %m1 : tensor<2x0xf32>, tensor<2x5xf32>
}
