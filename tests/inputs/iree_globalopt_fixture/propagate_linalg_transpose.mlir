// RUN: iree-opt --pass-pipeline="builtin.module(util.func(iree-global-opt-propagate-linalg-transpose))" --split-input-file %s | FileCheck %s
// RUN: iree-opt --pass-pipeline="builtin.module(util.func(iree-global-opt-propagate-linalg-transpose{enable-aggressive-propagation=true}))" --split-input-file %s | FileCheck %s --check-prefix=APROP
// Our own stand-in for IREE's file of this name (compare_iree_globalopt.test).

util.func public @cancelling_transposes(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e1 = tensor.empty() : tensor<3x2xf32>
  %t1 = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%e1 : tensor<3x2xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<2x3xf32>
  %t2 = linalg.transpose ins(%t1 : tensor<3x2xf32>) outs(%e2 : tensor<2x3xf32>) permutation = [1, 0]
  util.return %t2 : tensor<2x3xf32>
}
// CHECK-LABEL: util.func public @cancelling_transposes
//   CHECK-NOT:   linalg.transpose
// APROP-LABEL: util.func public @cancelling_transposes
//   APROP-NOT:   linalg.transpose
