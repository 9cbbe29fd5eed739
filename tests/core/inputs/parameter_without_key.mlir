// A parameter reference without its key.

util.global private @w = #flow.parameter.named<"model"::> : tensor<2xf32>
util.func public @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  util.return %x : tensor<2xf32>
}
