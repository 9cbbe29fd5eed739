// A model with one op dispatchlab does not know, between two matmuls.
func.func @mystery(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>,
                   %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)
      outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %odd = "mystery.op"(%mm) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm2 = linalg.matmul ins(%odd, %odd : tensor<4x4xf32>, tensor<4x4xf32>)
      outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %mm2 : tensor<4x4xf32>
}
