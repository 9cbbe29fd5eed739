// A pad becomes a fill of the padded tensor plus a dispatch inserting the
// input into it (pad handling off); the exp reads the padded tensor.
func.func @pad_then_exp(%x: tensor<1x16x16x8xf32>) -> tensor<1x18x18x8xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x16x16x8xf32> to tensor<1x18x18x8xf32>
  %empty = tensor.empty() : tensor<1x18x18x8xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%padded : tensor<1x18x18x8xf32>) outs(%empty : tensor<1x18x18x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<1x18x18x8xf32>
  return %exp : tensor<1x18x18x8xf32>
}
