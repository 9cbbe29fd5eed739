// RUN: dispatchlab-opt %s --split-input-file --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(dispatchlab-hoist-static-allocas))' | FileCheck %s

// A static stack buffer of a loop body gets one place in the frame: it
// moves to the entry block instead of being allocated every iteration.
// CHECK-LABEL: func.func @loop_body
// CHECK-NEXT:    %[[TMP:.+]] = memref.alloca() {alignment = 64 : i64} : memref<8x32xf32>
// CHECK:         scf.for
// CHECK-NEXT:      linalg.fill ins(%{{.+}} : f32) outs(%[[TMP]] : memref<8x32xf32>)
func.func @loop_body(%out: memref<64x32xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c64 step %c8 {
    %tmp = memref.alloca() {alignment = 64 : i64} : memref<8x32xf32>
    linalg.fill ins(%zero : f32) outs(%tmp : memref<8x32xf32>)
    %tile = memref.subview %out[%i, 0] [8, 32] [1, 1] : memref<64x32xf32> to memref<8x32xf32, strided<[32, 1], offset: ?>>
    memref.copy %tmp, %tile : memref<8x32xf32> to memref<8x32xf32, strided<[32, 1], offset: ?>>
  }
  return
}

// -----

// Under nested sequential control flow (a loop nest, a branch, a scope)
// too.
// CHECK-LABEL: func.func @nested
// CHECK-NEXT:    memref.alloca() : memref<16xf32>
// CHECK-NEXT:    memref.alloca() : memref<4xf32>
// CHECK-NOT:     memref.alloca(
func.func @nested(%cond: i1, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      scf.if %cond {
        %a = memref.alloca() : memref<16xf32>
        "test.use"(%a) : (memref<16xf32>) -> ()
      }
      memref.alloca_scope {
        %b = memref.alloca() : memref<4xf32>
        "test.use"(%b) : (memref<4xf32>) -> ()
      }
    }
  }
  return
}

// -----

// Left in place: a buffer of each parallel iteration (hoisted, the threads
// would share it) and one of a dynamic size.
// CHECK-LABEL: func.func @stays
// CHECK:         scf.parallel
// CHECK-NEXT:      memref.alloca() : memref<4xf32>
// CHECK:         scf.for
// CHECK-NEXT:      memref.alloca(%{{.+}}) : memref<?xf32>
func.func @stays(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %a = memref.alloca() : memref<4xf32>
    "test.use"(%a) : (memref<4xf32>) -> ()
    scf.reduce
  }
  scf.for %i = %c0 to %n step %c1 {
    %b = memref.alloca(%i) : memref<?xf32>
    "test.use"(%b) : (memref<?xf32>) -> ()
  }
  return
}
