// RUN: dispatchlab-opt %s --split-input-file --dispatchlab-instrument-dispatch-calls --verify-diagnostics | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file --dispatchlab-instrument-dispatch-calls --dispatchlab-deduplicate-dispatches --verify-diagnostics | FileCheck %s --check-prefix=DEDUP

// Every dispatch call is wrapped in begin/end hooks whose argument is the
// call site's index in program order; the module names each index's callee
// (a name, not a symbol reference: deduplication erases some callees).
// Calls of functions that are no dispatch are left alone.
// CHECK-LABEL: module attributes {dispatchlab.dispatch_calls = ["host_dispatch_0", "host_dispatch_1", "host_dispatch_2"]}
// CHECK-LABEL: func.func @host
// CHECK:         %[[I0:.+]] = arith.constant 0 : i64
// CHECK-NEXT:    call @dispatchlab_dispatch_begin(%[[I0]]) : (i64) -> ()
// CHECK-NEXT:    %[[A:.+]] = call @host_dispatch_0(%arg0)
// CHECK-NEXT:    call @dispatchlab_dispatch_end(%[[I0]]) : (i64) -> ()
// CHECK-NEXT:    %[[H:.+]] = call @helper(%[[A]])
// CHECK-NEXT:    %[[I1:.+]] = arith.constant 1 : i64
// CHECK-NEXT:    call @dispatchlab_dispatch_begin(%[[I1]])
// CHECK-NEXT:    %[[B:.+]] = call @host_dispatch_1(%[[H]])
// CHECK-NEXT:    call @dispatchlab_dispatch_end(%[[I1]])
// CHECK-NEXT:    %[[I2:.+]] = arith.constant 2 : i64
// CHECK-NEXT:    call @dispatchlab_dispatch_begin(%[[I2]])
// CHECK-NEXT:    %[[C:.+]] = call @host_dispatch_2(%[[B]])
// CHECK-NEXT:    call @dispatchlab_dispatch_end(%[[I2]])
// CHECK-NEXT:    return %[[C]]
// CHECK:       func.func private @dispatchlab_dispatch_begin(i64)
// CHECK-NEXT:  func.func private @dispatchlab_dispatch_end(i64)

// Deduplication after instrumentation: host_dispatch_1 is gone and its call
// goes to host_dispatch_0, but keeps its own index 1 (and the module still
// names it host_dispatch_1), so the profile stays per call site.
// DEDUP-LABEL: module attributes {dispatchlab.dispatch_calls = ["host_dispatch_0", "host_dispatch_1", "host_dispatch_2"]}
// DEDUP-NOT:   func.func private @host_dispatch_1
// DEDUP-LABEL: func.func @host
// DEDUP:         %[[I0:.+]] = arith.constant 0 : i64
// DEDUP-NEXT:    call @dispatchlab_dispatch_begin(%[[I0]])
// DEDUP-NEXT:    call @host_dispatch_0(%arg0)
// DEDUP-NEXT:    call @dispatchlab_dispatch_end(%[[I0]])
// DEDUP:         %[[I1:.+]] = arith.constant 1 : i64
// DEDUP-NEXT:    call @dispatchlab_dispatch_begin(%[[I1]])
// DEDUP-NEXT:    call @host_dispatch_0(
// DEDUP-NEXT:    call @dispatchlab_dispatch_end(%[[I1]])
// DEDUP-NEXT:    %[[I2:.+]] = arith.constant 2 : i64
// DEDUP-NEXT:    call @dispatchlab_dispatch_begin(%[[I2]])
// DEDUP-NEXT:    call @host_dispatch_2(
// DEDUP-NEXT:    call @dispatchlab_dispatch_end(%[[I2]])
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
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @host(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = call @host_dispatch_0(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %h = call @helper(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %b = call @host_dispatch_1(%h) : (tensor<4xf32>) -> tensor<4xf32>
  %c = call @host_dispatch_2(%b) : (tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// Dispatches called from two host functions are counted over the module,
// in function order; calls inside a dispatch are not instrumented.
// CHECK-LABEL: module attributes {dispatchlab.dispatch_calls = ["f_dispatch_0", "g_dispatch_0"]}
// CHECK-LABEL: func.func private @f_dispatch_0
// CHECK-NOT:     dispatchlab_dispatch_begin
// CHECK:         call @g_dispatch_0
// CHECK-NOT:     dispatchlab_dispatch_begin
// CHECK-LABEL: func.func @f
// CHECK:         %[[I0:.+]] = arith.constant 0 : i64
// CHECK-NEXT:    call @dispatchlab_dispatch_begin(%[[I0]])
// CHECK-NEXT:    call @f_dispatch_0
// CHECK-NEXT:    call @dispatchlab_dispatch_end(%[[I0]])
// CHECK-LABEL: func.func @g
// CHECK:         %[[I1:.+]] = arith.constant 1 : i64
// CHECK-NEXT:    call @dispatchlab_dispatch_begin(%[[I1]])
// CHECK-NEXT:    call @g_dispatch_0
// CHECK-NEXT:    call @dispatchlab_dispatch_end(%[[I1]])
func.func private @g_dispatch_0(%x: tensor<4xf32>) -> tensor<4xf32> attributes {dispatchlab.dispatch} {
  return %x : tensor<4xf32>
}
func.func private @f_dispatch_0(%x: tensor<4xf32>) -> tensor<4xf32> attributes {dispatchlab.dispatch} {
  %y = call @g_dispatch_0(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = call @f_dispatch_0(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = call @g_dispatch_0(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// A symbol of the hooks' name with another type is an error rather than a
// call with the wrong signature.
func.func private @dispatchlab_dispatch_begin(i32)
// expected-error@-1 {{is not the declaration '(i64) -> ()' that dispatch profiling calls}}
