// A chain of four dispatches under no-fusion, the intermediates of different
// sizes: a broadcasting exp (4x16 -> 2x4x16xf32, 512 B), a negation (512 B),
// a sum over the broadcast dim (4x16xf32, 256 B), a square root (the
// result, the caller's buffer).
func.func @chain(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<2x4x16xf32>
  %e2 = tensor.empty() : tensor<4x16xf32>
  %wide = linalg.generic {
      indexing_maps = [affine_map<(k, i, j) -> (i, j)>, affine_map<(k, i, j) -> (k, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<4x16xf32>) outs(%e3 : tensor<2x4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<2x4x16xf32>
  %neg = linalg.generic {
      indexing_maps = [affine_map<(k, i, j) -> (k, i, j)>, affine_map<(k, i, j) -> (k, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%wide : tensor<2x4x16xf32>) outs(%e3 : tensor<2x4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.negf %a : f32
    linalg.yield %v : f32
  } -> tensor<2x4x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(i, j, k) -> (k, i, j)>, affine_map<(i, j, k) -> (i, j)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%neg : tensor<2x4x16xf32>) outs(%init : tensor<4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.addf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<4x16xf32>
  %sqrt = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<4x16xf32>) outs(%e2 : tensor<4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    %v = math.sqrt %m : f32
    linalg.yield %v : f32
  } -> tensor<4x16xf32>
  return %sqrt : tensor<4x16xf32>
}
