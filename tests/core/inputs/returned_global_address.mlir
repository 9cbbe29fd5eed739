// A reference that leaves the function: no load to read it as.
util.global private @w = dense<[1.0, 2.0]> : tensor<2xf32>
util.func public @main() -> !util.ptr<tensor<2xf32>> {
  %ref = util.global.address @w : !util.ptr<tensor<2xf32>>
  util.return %ref : !util.ptr<tensor<2xf32>>
}
