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

// -----

util.func public @transposed_rhs(%a: tensor<4x8xf32>, %bt: tensor<16x8xf32>, %init: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %b = linalg.transpose ins(%bt : tensor<16x8xf32>) outs(%e : tensor<8x16xf32>) permutation = [1, 0]
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  util.return %mm : tensor<4x16xf32>
}
// The alias captures need the aliases printed (no local scope).
//   CHECK-DAG: #[[$RHS:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: util.func public @transposed_rhs
//       CHECK:   linalg.matmul indexing_maps = [#{{.+}}, #[[$RHS]], #{{.+}}]
