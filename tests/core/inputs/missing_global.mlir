// A load of a global the module does not define.
util.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = util.global.load @nowhere : tensor<4xf32>
  util.return %s : tensor<4xf32>
}
