// A dispatch whose tiles read and write their output buffer (y += x, in
// place): running any tile twice changes the result. 32 x 24 tiles of 8x32,
// a shape that made upstream async-parallel-for run trailing blocks over the
// whole iteration space again (LinearizeTileLoops); 2.4 MB, so that its tiles
// do go to the thread pool (SerializeSmallTileLoops).
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @accumulate(%x: tensor<256x768xf32>, %y: tensor<256x768xf32>) -> tensor<256x768xf32> {
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<256x768xf32>) outs(%y : tensor<256x768xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<256x768xf32>
  return %r : tensor<256x768xf32>
}
