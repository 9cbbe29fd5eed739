// Bandwidth peak for scripts/measure_peaks.py: y = 2 x over 2^24 f32, 64 MB
// read and 64 MB written, far beyond any cache. A multiply rather than a
// plain copy, so that nothing folds it into a buffer alias. One-dimensional,
// so that the figure does not depend on a tile shape.
func.func @main(%x: tensor<16777216xf32>) -> tensor<16777216xf32> {
  %empty = tensor.empty() : tensor<16777216xf32>
  %y = linalg.generic {
      indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]}
      ins(%x : tensor<16777216xf32>) outs(%empty : tensor<16777216xf32>) {
  ^bb0(%in: f32, %out: f32):
    %two = arith.constant 2.0 : f32
    %scaled = arith.mulf %in, %two : f32
    linalg.yield %scaled : f32
  } -> tensor<16777216xf32>
  return %y : tensor<16777216xf32>
}
