// A mutable global: IREE keeps state in it; dispatchlab refuses it.

util.global private mutable @state : tensor<4xf32>
util.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = util.global.load @state : tensor<4xf32>
  util.return %s : tensor<4xf32>
}
