// A tensor constant of neither elements nor a parameter.

util.func public @main() -> tensor<2xf32> {
  %0 = flow.tensor.constant #util.byte_pattern<1> : tensor<2xf32>
  util.return %0 : tensor<2xf32>
}
