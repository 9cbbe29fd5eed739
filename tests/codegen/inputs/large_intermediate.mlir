// A 1 GiB intermediate between two dispatches (no-fusion): the broadcast of
// one value to 16384x16384, then its sum.
func.func @main(%x: tensor<1xf32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<16384x16384xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (0)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1xf32>) outs(%e : tensor<16384x16384xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<16384x16384xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e2 : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%b : tensor<16384x16384xf32>) outs(%f : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
