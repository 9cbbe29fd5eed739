// An initializer reading the global it stores.

util.global private @g : tensor<4xf32>
util.initializer {
  %0 = util.global.load immutable @g : tensor<4xf32>
  util.global.store %0, @g : tensor<4xf32>
  util.return
}
util.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = util.global.load immutable @g : tensor<4xf32>
  util.return %s : tensor<4xf32>
}
