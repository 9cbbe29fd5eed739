// With encoding-unhoisted-error, a set_encoding that stays in its dispatch
// is the error IREE gave before PR 21181 (seed 002); a hoistable one is not.
//
// RUN: dispatchlab-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-hoist-encoding-ops{encoding-unhoisted-error=true}))'

#enc = #iree_encoding.testing<>
func.func @cloned_slice(%w: tensor<16x8xf32>) -> tensor<8x8xf32, #enc> {
  %r = dispatch.region -> (tensor<8x8xf32, #enc>) {
    %s = tensor.extract_slice %w[8, 0] [8, 8] [1, 1] : tensor<16x8xf32> to tensor<8x8xf32>
    // expected-error @+1 {{'iree_encoding.set_encoding' op failed to hoist the op out of dispatch}}
    %e = iree_encoding.set_encoding %s : tensor<8x8xf32> -> tensor<8x8xf32, #enc>
    dispatch.return %e : tensor<8x8xf32, #enc>
  }
  return %r : tensor<8x8xf32, #enc>
}

// -----

#enc = #iree_encoding.testing<>
func.func @captured_source(%a: tensor<4x8xf32>) -> tensor<4x8xf32, #enc> {
  %r = dispatch.region -> (tensor<4x8xf32, #enc>) {
    %e = iree_encoding.set_encoding %a : tensor<4x8xf32> -> tensor<4x8xf32, #enc>
    dispatch.return %e : tensor<4x8xf32, #enc>
  }
  return %r : tensor<4x8xf32, #enc>
}
