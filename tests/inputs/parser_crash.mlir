// A non-integer permutation, on which MLIR 22's linalg.transpose parser
// stores a null attribute and crashes after its diagnostic.
func.func @f(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 1e308]
  return %t : tensor<8x4xf32>
}
