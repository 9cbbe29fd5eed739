// RUN: dispatchlab-opt %s --split-input-file --dispatchlab-keep-dispatches-out-of-line | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file --convert-func-to-llvm --dispatchlab-keep-dispatches-out-of-line | FileCheck %s --check-prefix=FUNC

// A dispatch's body is never inlined into the host: the dispatch gets
// no_inline; the host function does not.
// CHECK-LABEL: llvm.func @host_dispatch_0
// CHECK-SAME:    no_inline
// CHECK-LABEL: llvm.func @host(
// CHECK-NOT:     no_inline
// CHECK:         llvm.call @host_dispatch_0
llvm.func @host_dispatch_0(%x: f32) -> f32 attributes {dispatchlab.dispatch} {
  %y = llvm.fadd %x, %x : f32
  llvm.return %y : f32
}
llvm.func @host(%x: f32) -> f32 {
  %y = llvm.call @host_dispatch_0(%x) : (f32) -> f32
  llvm.return %y : f32
}

// -----

// An external function that is no dispatch (a runtime hook) stays as it is.
// CHECK-LABEL: llvm.func @dispatchlab_dispatch_begin(i64)
// CHECK-NOT:     no_inline
llvm.func @dispatchlab_dispatch_begin(i64)

// -----

// The dispatch mark survives convert-func-to-llvm, the pipeline's order.
// FUNC-LABEL: llvm.func @host_dispatch_0
// FUNC-SAME:    no_inline
func.func private @host_dispatch_0(%x: f32) -> f32 attributes {dispatchlab.dispatch} {
  %y = arith.addf %x, %x : f32
  return %y : f32
}
