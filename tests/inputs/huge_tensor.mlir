// A tensor of 4e20 bytes crossing between two dispatches (under no-fusion):
// its byte count does not fit int64_t.
#id = affine_map<(a, b, c) -> (a, b, c)>
func.func @huge(%x: f32) -> tensor<1000000000x1000000000x100xf32> {
  %e = tensor.empty() : tensor<1000000000x1000000000x100xf32>
  %f = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<1000000000x1000000000x100xf32>) {
  ^bb0(%o: f32):
    linalg.yield %x : f32
  } -> tensor<1000000000x1000000000x100xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%f : tensor<1000000000x1000000000x100xf32>) outs(%e : tensor<1000000000x1000000000x100xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<1000000000x1000000000x100xf32>
  return %g : tensor<1000000000x1000000000x100xf32>
}
