// A reference passed in, not taken of a util.global: nothing to load.
util.global private @w = dense<[1.0, 2.0]> : tensor<2xf32>
util.func public @main(%ref: !util.ptr<tensor<2xf32>>) -> tensor<2xf32> {
  %0 = util.global.load.indirect %ref : !util.ptr<tensor<2xf32>> -> tensor<2xf32>
  util.return %0 : tensor<2xf32>
}
