// RUN: iree-opt --split-input-file --iree-global-opt-detach-elementwise-from-named-ops %s | FileCheck %s
// Our own stand-in for IREE's file of this name (compare_iree_globalopt.test).

util.func public @splat_init(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %init = arith.constant dense<0.0> : tensor<4x16xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  util.return %0 : tensor<4x16xf32>
}
// CHECK-LABEL: util.func public @splat_init
//       CHECK:   linalg.fill
//       CHECK:   linalg.matmul
