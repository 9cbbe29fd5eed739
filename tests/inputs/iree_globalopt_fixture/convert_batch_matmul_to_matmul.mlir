// RUN: iree-opt --split-input-file --mlir-print-local-scope -iree-global-opt-convert-batch-matmul-to-matmul %s | FileCheck %s
// Our own stand-in for IREE's file of this name (compare_iree_globalopt.test).

util.func public @broadcast_weight(%act: tensor<4x10x8xf32>, %weight: tensor<8x6xf32>, %init: tensor<4x10x6xf32>) -> tensor<4x10x6xf32> {
  %eb = tensor.empty() : tensor<4x8x6xf32>
  %b = linalg.broadcast ins(%weight : tensor<8x6xf32>) outs(%eb : tensor<4x8x6xf32>) dimensions = [0]
  %r = linalg.batch_matmul ins(%act, %b : tensor<4x10x8xf32>, tensor<4x8x6xf32>) outs(%init : tensor<4x10x6xf32>) -> tensor<4x10x6xf32>
  util.return %r : tensor<4x10x6xf32>
}
// CHECK-LABEL: util.func public @broadcast_weight
//       CHECK:   linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<40x8xf32>, tensor<8x6xf32>)
//       CHECK:   tensor.expand_shape
