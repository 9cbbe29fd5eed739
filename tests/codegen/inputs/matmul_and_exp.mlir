// Two independent dispatches, a matmul and an elementwise exp:
// run_cache_parts.test swaps the exp for a tanh, and the matmul's object is
// shared.
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_and_exp(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %x: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<16x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<16x8xf32>) -> tensor<16x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%fill : tensor<16x8xf32>) -> tensor<16x8xf32>
  %e = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x8xf32>) outs(%init : tensor<16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<16x8xf32>
  return %m, %e : tensor<16x8xf32>, tensor<16x8xf32>
}
