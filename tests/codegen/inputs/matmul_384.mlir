// A matmul whose call lasts milliseconds: long enough that a competitor on
// the same core slows every call it overlaps.
func.func @matmul(%a: tensor<384x384xf32>, %b: tensor<384x384xf32>) -> tensor<384x384xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<384x384xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<384x384xf32>) -> tensor<384x384xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<384x384xf32>, tensor<384x384xf32>) outs(%init : tensor<384x384xf32>) -> tensor<384x384xf32>
  return %mm : tensor<384x384xf32>
}
