// Malformed on purpose: the matmul's result type is missing.
func.func @broken(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>,
                  %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)
      outs(%c : tensor<4x4xf32>) ->
  return %mm : tensor<4x4xf32>
}
