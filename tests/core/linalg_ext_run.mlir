// `dispatchlab run` on a model holding an iree_linalg_ext op: one error line
// naming the op, exit 1, no crash. `compile` forms its dispatch.
//
// RUN: not dispatchlab run %s 2>&1 | FileCheck %s --check-prefix=ERR
// ERR-NOT: Stack dump
// ERR: linalg_ext_run.mlir:[[@LINE+8]]:8: error: 'iree_linalg_ext.scatter' op has no lowering in dispatchlab's codegen: `dispatchlab run` cannot execute it (`dispatchlab compile` can)
// ERR-NOT: error
// ERR-NOT: Stack dump
//
// RUN: dispatchlab compile %s --emit=stats | FileCheck %s --check-prefix=COMPILE
// COMPILE: "dispatches": 1

func.func @main(%u: tensor<4x8xf32>, %i: tensor<4x1xi32>, %o: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true)
      ins(%u, %i : tensor<4x8xf32>, tensor<4x1xi32>) outs(%o : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    iree_linalg_ext.yield %a : f32
  } -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
