// The full pipeline generalizes named convolutions, as IREE's
// GlobalOptimization does (GeneralizeLinalgNamedOps), unless
// generalize-named-ops=false, which keeps them named (IR that starts at
// IREE's DispatchCreation, as its pipeline lit tests do); tensor arith
// becomes linalg either way.
// RUN: dispatchlab compile %s --emit=dispatch-ir | FileCheck %s --check-prefix=GENERAL
// RUN: dispatchlab compile %s --emit=dispatch-ir --generalize-named-ops=false | FileCheck %s --check-prefix=NAMED
// Codegen lowers the named convolution: the run matches the no-fusion
// reference.
// RUN: dispatchlab run %s --generalize-named-ops=false --repetitions=1 | FileCheck %s --check-prefix=EXEC
// EXEC: "against": "no-fusion",
// EXEC: "passed": true,

// GENERAL:     dispatch.region
// GENERAL-NOT:   linalg.conv_2d_nhwc_hwcf
// GENERAL:       linalg.generic
// GENERAL-NOT:   arith.addf {{.*}} : tensor

// NAMED:       dispatch.region
// NAMED:         linalg.conv_2d_nhwc_hwcf
// NAMED:         linalg.generic
// NAMED-NOT:     arith.addf {{.*}} : tensor

func.func @conv_bias(%in: tensor<1x10x10x4xf32>, %f: tensor<3x3x4x8xf32>, %b: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x10x10x4xf32>, tensor<3x3x4x8xf32>) outs(%acc : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %sum = arith.addf %conv, %b : tensor<1x8x8x8xf32>
  return %sum : tensor<1x8x8x8xf32>
}
