// RUN: iree-opt --split-input-file --pass-pipeline="builtin.module(util.func(iree-global-opt-decompose-concat, cse))" %s | FileCheck %s
// RUN: iree-opt --split-input-file --pass-pipeline="builtin.module(util.func(iree-global-opt-decompose-concat{enable-concat-transposition=true}, cse))" %s | FileCheck %s --check-prefix=OUTER
// Our own stand-in for IREE's file of this name (compare_iree_globalopt.test).

util.func public @inner_concat(%a: tensor<2x4xf32>, %b: tensor<2x6xf32>) -> tensor<2x10xf32> {
  %0 = tensor.concat dim(1) %a, %b : (tensor<2x4xf32>, tensor<2x6xf32>) -> tensor<2x10xf32>
  util.return %0 : tensor<2x10xf32>
}
// CHECK-LABEL: util.func public @inner_concat
//       CHECK:   tensor.insert_slice
// OUTER-LABEL: util.func public @inner_concat
//       OUTER:   linalg.transpose
