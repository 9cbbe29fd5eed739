// Compute peak for scripts/measure_peaks.py: C = A * W, 1024^3 f32, 2^31
// FLOPs. W is a weight (`dispatchlab.parameter`), so the runner packs it
// into panels once, as it does a model's weights; a runtime input would be
// read unpacked on every call and measure less than the machine can do.
func.func @main(%a: tensor<1024x1024xf32>,
                %w: tensor<1024x1024xf32> {dispatchlab.parameter = "w"})
    -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1024x1024xf32>
  %init = linalg.fill ins(%zero : f32)
      outs(%empty : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %c = linalg.matmul ins(%a, %w : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
      outs(%init : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %c : tensor<1024x1024xf32>
}
