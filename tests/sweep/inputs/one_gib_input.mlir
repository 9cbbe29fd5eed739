// exp of a 16384x16384 f32 input: 1 GiB for the input alone, more than a
// run job under a 700 MB address-space limit can allocate.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @exp_1gib(%x: tensor<16384x16384xf32>) -> tensor<16384x16384xf32> {
    %empty = tensor.empty() : tensor<16384x16384xf32>
    %exp = linalg.generic {indexing_maps = [#map, #map],
                           iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16384x16384xf32>) outs(%empty : tensor<16384x16384xf32>) {
    ^bb0(%in: f32, %out: f32):
      %e = math.exp %in : f32
      linalg.yield %e : f32
    } -> tensor<16384x16384xf32>
    return %exp : tensor<16384x16384xf32>
  }
}
