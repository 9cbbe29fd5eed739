// Seed 004 (iree-org/iree#8303): a 33x16 * 16x49 matmul feeding exp, one
// dispatch after formation. 33 and 49 are not multiples of a vector width,
// so tiling leaves partial tiles; the fused dispatch must not materialize the
// full 33x49 matmul result as a temporary. The constants of the original
// (behind util.do_not_optimize) are arguments here, so nothing folds.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @dot_33x16x49_exp(%lhs: tensor<33x16xf32>,
                              %rhs: tensor<16x49xf32>) -> tensor<33x49xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %empty = tensor.empty() : tensor<33x49xf32>
    %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<33x49xf32>) -> tensor<33x49xf32>
    %mm = linalg.matmul ins(%lhs, %rhs : tensor<33x16xf32>, tensor<16x49xf32>)
      outs(%fill : tensor<33x49xf32>) -> tensor<33x49xf32>
    %exp = linalg.generic {indexing_maps = [#map, #map],
                           iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<33x49xf32>) outs(%empty : tensor<33x49xf32>) {
    ^bb0(%in: f32, %out: f32):
      %e = math.exp %in : f32
      linalg.yield %e : f32
    } -> tensor<33x49xf32>
    return %exp : tensor<33x49xf32>
  }
}
