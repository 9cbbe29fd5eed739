// RUN: iree-opt --iree-global-opt-raise-special-ops --canonicalize --split-input-file %s | FileCheck %s
// Our own stand-in for IREE's file of this name (compare_iree_globalopt.test).

// Agrees: nothing to raise, and the check says so.
util.func public @plain_add(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %a : tensor<4xf32>
  util.return %0 : tensor<4xf32>
}
// CHECK-LABEL: util.func public @plain_add
//       CHECK:   arith.addf

// -----

// Differs: expects a raising that does not happen.
util.func public @not_a_softmax(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.exp %a : tensor<4xf32>
  util.return %0 : tensor<4xf32>
}
// CHECK-LABEL: util.func public @not_a_softmax
//       CHECK:   linalg.softmax

// -----

// Unsupported: an op nothing here defines.
util.func public @unknown_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "iree_linalg_ext.nosuch"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  util.return %0 : tensor<4xf32>
}
// CHECK-LABEL: util.func public @unknown_op
