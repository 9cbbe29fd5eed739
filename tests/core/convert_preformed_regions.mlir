// RUN: dispatchlab-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(dispatchlab-convert-preformed-regions)' | FileCheck %s

// A plain pre-formed region becomes ours, body and results unchanged.
// CHECK-LABEL: func.func @plain
// CHECK:         %[[R:.+]] = dispatch.region -> (tensor<4xf32>) {
// CHECK:           %[[N:.+]] = math.exp
// CHECK:           dispatch.return %[[N]] : tensor<4xf32>
// CHECK:         }
// CHECK:         return %[[R]]
// CHECK-NOT:     flow.
func.func @plain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = flow.dispatch.region -> (tensor<4xf32>) {
    %n = math.exp %x : tensor<4xf32>
    flow.return %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// IREE's workload (`[...]`) and result extents (`{...}`) are dropped: our
// regions read shapes from their bodies.
// CHECK-LABEL: func.func @workload_and_extents
// CHECK:         %[[R:.+]] = dispatch.region -> (tensor<?xf32>) {
// CHECK:           math.exp
// CHECK:           dispatch.return
// CHECK:         }
// CHECK:         return %[[R]]
// CHECK-NOT:     flow.
func.func @workload_and_extents(%x: tensor<?xf32>, %d: index) -> tensor<?xf32> {
  %r = flow.dispatch.region[%d] -> (tensor<?xf32>{%d}) {
    %n = math.exp %x : tensor<?xf32>
    flow.return %n : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// Dispatches do not nest: a pre-formed region inside another is refused.
func.func @nested(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = flow.dispatch.region -> (tensor<4xf32>) {
    // expected-error @below {{is nested in another dispatch}}
    %inner = flow.dispatch.region -> (tensor<4xf32>) {
      %n = math.exp %x : tensor<4xf32>
      flow.return %n : tensor<4xf32>
    }
    flow.return %inner : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
