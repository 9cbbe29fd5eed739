// `dispatchlab run` on IREE compat ops, which have no lowering, fails with
// one error line at the op naming it, exit 1, no crash.
// Control flow (cf) is lowered like any function body and runs, and so do
// encodings: codegen lays them out for the host or drops them
// (dispatchlab-materialize-encoding-for-host).
//
// RUN: split-file %s %t
// RUN: not dispatchlab run %t/barrier.mlir 2>&1 | FileCheck %s --check-prefix=BARRIER
// RUN: dispatchlab run %t/encoding.mlir 2>&1 | FileCheck %s --check-prefix=ENCODING
// RUN: not dispatchlab run %t/update.mlir 2>&1 | FileCheck %s --check-prefix=UPDATE
// RUN: not dispatchlab run %t/hal.mlir 2>&1 | FileCheck %s --check-prefix=HAL
// RUN: dispatchlab run %t/branch.mlir | FileCheck %s --check-prefix=BRANCH

// BARRIER: barrier.mlir:2:8: error: 'util.optimization_barrier' op has no lowering in dispatchlab's codegen: `dispatchlab run` cannot execute it (`dispatchlab compile` can)
// BARRIER-NOT: error
// BARRIER-NOT: Stack dump
// ENCODING: "passed": true
// ENCODING-NOT: Stack dump
// UPDATE: update.mlir:3:8: error: 'flow.tensor.update' op has no lowering in dispatchlab's codegen: `dispatchlab run` cannot execute it (`dispatchlab compile` can)
// HAL: hal.mlir:2:8: error: 'hal.tensor.import' op has no lowering in dispatchlab's codegen
// BRANCH: "dispatches": 1

//--- barrier.mlir
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %b = util.optimization_barrier %a : tensor<4xf32>
  %c = util.optimization_barrier %b : tensor<4xf32>
  return %c : tensor<4xf32>
}

//--- encoding.mlir
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %enc = iree_encoding.set_encoding %x : tensor<4x8xf32> -> tensor<4x8xf32, #iree_encoding.testing<>>
  %dec = iree_encoding.unset_encoding %enc : tensor<4x8xf32, #iree_encoding.testing<>> -> tensor<4x8xf32>
  return %dec : tensor<4x8xf32>
}

//--- update.mlir
func.func @f(%t: tensor<8xf32>, %u: tensor<2xf32>) -> tensor<8xf32> {
  %i = arith.constant 3 : index
  %0 = flow.tensor.update %u, %t[%i] : tensor<2xf32> -> %t as tensor<8xf32>
  return %0 : tensor<8xf32>
}

//--- hal.mlir
func.func @f(%bv: !hal.buffer_view) -> !hal.buffer_view {
  %t = hal.tensor.import %bv : !hal.buffer_view -> tensor<4xf32>
  %r = hal.tensor.export %t : tensor<4xf32> -> !hal.buffer_view
  return %r : !hal.buffer_view
}

//--- branch.mlir
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  cf.br ^bb1
^bb1:
  %neg = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.negf %a : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %neg : tensor<4x8xf32>
}
