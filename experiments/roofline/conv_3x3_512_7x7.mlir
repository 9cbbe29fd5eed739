// ResNet-50's last 3x3 convolution alone (docs/codegen.md, tile order): 9x9x512
// padded input, 7x7x512 output, 9.4 MB of weights packed once as a model's are.
func.func @main(%a: tensor<1x9x9x512xf32>,
                %w: tensor<3x3x512x512xf32> {dispatchlab.parameter = "w"})
    -> tensor<1x7x7x512xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x7x7x512xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%a, %w : tensor<1x9x9x512xf32>, tensor<3x3x512x512xf32>)
      outs(%init : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
  return %c : tensor<1x7x7x512xf32>
}
