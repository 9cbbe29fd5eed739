// Contractions whose extents the host's 16x16x1 tiles do not divide, for
// the data-tiled codegen: a Linear layer (20 rows: one padded row tile;
// 40 outputs: two whole column tiles and a rest of 8) reading its weight
// transposed, with a ReLU fused after it, and a batch matmul of 5x24 by
// 24x7 (narrow tiles of 8 rows and 8 columns).
func.func @main(%x: tensor<20x24xf32>,
                %w: tensor<40x24xf32> {dispatchlab.parameter = "linear.weight"},
                %y: tensor<3x5x24xf32>, %z: tensor<3x24x7xf32>)
    -> (tensor<20x40xf32>, tensor<3x5x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x40xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<20x40xf32>) -> tensor<20x40xf32>
  %mm = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<20x24xf32>, tensor<40x24xf32>) outs(%f : tensor<20x40xf32>) -> tensor<20x40xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<20x40xf32>) outs(%e : tensor<20x40xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<20x40xf32>
  %eb = tensor.empty() : tensor<3x5x7xf32>
  %fb = linalg.fill ins(%zero : f32) outs(%eb : tensor<3x5x7xf32>) -> tensor<3x5x7xf32>
  %bmm = linalg.batch_matmul ins(%y, %z : tensor<3x5x24xf32>, tensor<3x24x7xf32>)
      outs(%fb : tensor<3x5x7xf32>) -> tensor<3x5x7xf32>
  return %relu, %bmm : tensor<20x40xf32>, tensor<3x5x7xf32>
}
