// A matmul whose 282 columns have no divisor near the 32-column tile: it is
// split into 8 tiles of 32 and a remainder of 26, split again into 16 and
// 10 (TileAndFuseDispatches; BERT's 30522-word vocabulary is the same
// case). run_parameters.test checks that the weight is still packed into
// panels, every part reading its columns of them.
func.func @main(%x: tensor<16x64xf32>,
                %w: tensor<64x282xf32> {dispatchlab.parameter = "w"})
    -> tensor<16x282xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x282xf32>
  %init = linalg.fill ins(%zero : f32)
      outs(%empty : tensor<16x282xf32>) -> tensor<16x282xf32>
  %y = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x282xf32>)
      outs(%init : tensor<16x282xf32>) -> tensor<16x282xf32>
  return %y : tensor<16x282xf32>
}
