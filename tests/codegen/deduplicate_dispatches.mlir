// RUN: dispatchlab-opt %s --dispatchlab-deduplicate-dispatches | FileCheck %s

// Two dispatches with the same body (up to SSA names) are one executable:
// the host calls the first twice and the copy is gone. A dispatch that
// differs in one constant, and the host function itself, stay.
// CHECK-LABEL: func.func private @host_dispatch_0
// CHECK-NOT:   func.func private @host_dispatch_1
// CHECK-LABEL: func.func private @host_dispatch_2
// CHECK:         arith.constant dense<2.000000e+00>
// CHECK-LABEL: func.func @host
// CHECK:         %[[A:.+]] = call @host_dispatch_0(%arg0)
// CHECK:         %[[B:.+]] = call @host_dispatch_0(%[[A]])
// CHECK:         call @host_dispatch_2(%[[B]])
func.func private @host_dispatch_0(%x: tensor<4xf32>) -> tensor<4xf32> attributes {dispatchlab.dispatch} {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %y = arith.addf %x, %c : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func private @host_dispatch_1(%input: tensor<4xf32>) -> tensor<4xf32> attributes {dispatchlab.dispatch} {
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %sum = arith.addf %input, %one : tensor<4xf32>
  return %sum : tensor<4xf32>
}
func.func private @host_dispatch_2(%x: tensor<4xf32>) -> tensor<4xf32> attributes {dispatchlab.dispatch} {
  %c = arith.constant dense<2.0> : tensor<4xf32>
  %y = arith.addf %x, %c : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @host(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = call @host_dispatch_0(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = call @host_dispatch_1(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %c = call @host_dispatch_2(%b) : (tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}
