// A mixed-precision residual block: an f32 projection is narrowed to f16 and
// becomes the accumulator of an f16 matmul (out = narrow(x @ w1) + h @ w2),
// then a bias in f16. Where the truncate goes decides whether the 128x256
// residual crosses between dispatches as f16 (64 KiB, with its producer) or
// as f32 (128 KiB, with its consumer): the model the truncate-ordering sweep
// is about (the zoo is all f32).
#id = affine_map<(m, n) -> (m, n)>
#col = affine_map<(m, n) -> (n)>
func.func @mixed_precision_block(%x: tensor<128x256xf32>,
                                 %w1: tensor<256x256xf32>,
                                 %h: tensor<128x512xf16>,
                                 %w2: tensor<512x256xf16>,
                                 %b2: tensor<256xf16>) -> tensor<128x256xf16> {
  %zero = arith.constant 0.0 : f32
  %e32 = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e32 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %proj = linalg.matmul ins(%x, %w1 : tensor<128x256xf32>, tensor<256x256xf32>)
      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  %e16 = tensor.empty() : tensor<128x256xf16>
  %residual = linalg.generic {indexing_maps = [#id, #id],
                              iterator_types = ["parallel", "parallel"]}
      ins(%proj : tensor<128x256xf32>) outs(%e16 : tensor<128x256xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<128x256xf16>
  %mixed = linalg.matmul ins(%h, %w2 : tensor<128x512xf16>, tensor<512x256xf16>)
      outs(%residual : tensor<128x256xf16>) -> tensor<128x256xf16>
  %out = linalg.generic {indexing_maps = [#id, #col, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mixed, %b2 : tensor<128x256xf16>, tensor<256xf16>)
      outs(%e16 : tensor<128x256xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<128x256xf16>
  return %out : tensor<128x256xf16>
}
