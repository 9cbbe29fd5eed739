// A transformer block in small, for the late data-tiling route: each
// dispatch shape formation gives it once the contractions are packed.
// LayerNorm-like rows feed a Linear (its pack joins the normalizing
// dispatch), a Linear with bias and tanh feeds another Linear (unpack,
// elementwise and the next pack in one dispatch), a residual add follows
// the unpack of the last one, and two activations meet in a batch matmul.
// 20 rows and 40 columns are not multiples of the tiles.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
func.func @main(%x: tensor<20x24xf32>,
                %w1: tensor<24x40xf32> {dispatchlab.parameter = "fc1.weight"},
                %b1: tensor<40xf32> {dispatchlab.parameter = "fc1.bias"},
                %w2: tensor<40x24xf32> {dispatchlab.parameter = "fc2.weight"},
                %q: tensor<3x5x24xf32>, %k: tensor<3x24x7xf32>)
    -> (tensor<20x24xf32>, tensor<3x5x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 24.0 : f32
  %er = tensor.empty() : tensor<20xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<20xf32>) -> tensor<20xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<20x24xf32>) outs(%fr : tensor<20xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<20xf32>
  %e = tensor.empty() : tensor<20x24xf32>
  %centered = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<20x24xf32>, tensor<20xf32>) outs(%e : tensor<20x24xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %mean = arith.divf %s, %n : f32
    %c = arith.subf %in, %mean : f32
    linalg.yield %c : f32
  } -> tensor<20x24xf32>
  %e1 = tensor.empty() : tensor<20x40xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<20x40xf32>) -> tensor<20x40xf32>
  %mm1 = linalg.matmul ins(%centered, %w1 : tensor<20x24xf32>, tensor<24x40xf32>)
      outs(%f1 : tensor<20x40xf32>) -> tensor<20x40xf32>
  %act = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm1, %b1 : tensor<20x40xf32>, tensor<40xf32>) outs(%e1 : tensor<20x40xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %a = arith.addf %in, %b : f32
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<20x40xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e : tensor<20x24xf32>) -> tensor<20x24xf32>
  %mm2 = linalg.matmul ins(%act, %w2 : tensor<20x40xf32>, tensor<40x24xf32>)
      outs(%f2 : tensor<20x24xf32>) -> tensor<20x24xf32>
  %res = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm2, %x : tensor<20x24xf32>, tensor<20x24xf32>) outs(%e : tensor<20x24xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<20x24xf32>
  %eb = tensor.empty() : tensor<3x5x7xf32>
  %fb = linalg.fill ins(%zero : f32) outs(%eb : tensor<3x5x7xf32>) -> tensor<3x5x7xf32>
  %bmm = linalg.batch_matmul ins(%q, %k : tensor<3x5x24xf32>, tensor<3x24x7xf32>)
      outs(%fb : tensor<3x5x7xf32>) -> tensor<3x5x7xf32>
  return %res, %bmm : tensor<20x24xf32>, tensor<3x5x7xf32>
}
