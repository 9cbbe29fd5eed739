// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-promote-tile-temporaries-to-stack))' | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-promote-tile-temporaries-to-stack{max-bytes=512}))' | FileCheck %s --check-prefix=SMALL

// A tile's 8x32 intermediate (1 KiB) becomes a stack buffer in the tile
// body, an automatic allocation scope. With max-bytes=512 it stays on the
// heap.
// CHECK-LABEL: func.func @tile_temporary
// CHECK:         scf.for
// CHECK-NEXT:      %[[TMP:.+]] = memref.alloca() {alignment = 64 : i64} : memref<8x32xf32>
// CHECK-NEXT:      linalg.fill ins(%{{.+}} : f32) outs(%[[TMP]] : memref<8x32xf32>)
// CHECK-NEXT:      memref.subview %{{.+}}[%{{.+}}, 0] [8, 32] [1, 1]
// CHECK-NEXT:      memref.copy %[[TMP]],
// CHECK-NEXT:    }
// CHECK-NOT:     memref.alloc()
// SMALL-LABEL: func.func @tile_temporary
// SMALL-NOT:     memref.alloca
// SMALL:         memref.alloc() {alignment = 64 : i64} : memref<8x32xf32>
// SMALL-NOT:     memref.alloca
// SMALL-LABEL: func.func @two_temporaries
func.func @tile_temporary(%out: memref<64x32xf32>) attributes {dispatchlab.dispatch} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c64 step %c8 {
    %tmp = memref.alloc() {alignment = 64 : i64} : memref<8x32xf32>
    linalg.fill ins(%zero : f32) outs(%tmp : memref<8x32xf32>)
    %tile = memref.subview %out[%i, 0] [8, 32] [1, 1] : memref<64x32xf32> to memref<8x32xf32, strided<[32, 1], offset: ?>>
    memref.copy %tmp, %tile : memref<8x32xf32> to memref<8x32xf32, strided<[32, 1], offset: ?>>
  }
  return
}

// -----

// The body of a parallel loop (a tile loop on several threads) too: each
// iteration gets its own buffers.
// CHECK-LABEL: func.func @two_temporaries
// CHECK:         scf.parallel
// CHECK-NEXT:      memref.alloca() : memref<4xf32>
// CHECK-NEXT:      memref.alloca() : memref<4xf32>
// CHECK-NOT:     memref.alloc()
func.func @two_temporaries(%out: memref<16x4xf32>) attributes {dispatchlab.dispatch} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    %a = memref.alloc() : memref<4xf32>
    %b = memref.alloc() : memref<4xf32>
    memref.copy %a, %b : memref<4xf32> to memref<4xf32>
    %row = memref.subview %out[%i, 0] [1, 4] [1, 1] : memref<16x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    memref.copy %b, %row : memref<4xf32> to memref<4xf32, strided<[1], offset: ?>>
    scf.reduce
  }
  return
}

// -----

// Left on the heap: a buffer outside any loop, one of a dynamic shape, one
// a call may keep, and any buffer of a function that is no dispatch.
// CHECK-LABEL: func.func @not_temporaries
// CHECK-NOT:     memref.alloca
// CHECK-LABEL: func.func @host_function
// CHECK-NOT:     memref.alloca
func.func private @keep(memref<4xf32>) -> memref<4xf32>
func.func @not_temporaries(%n: index) attributes {dispatchlab.dispatch} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %outside = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %dynamic = memref.alloc(%n) : memref<?xf32>
    %kept = memref.alloc() : memref<4xf32>
    %r = func.call @keep(%kept) : (memref<4xf32>) -> memref<4xf32>
  }
  return
}
func.func @host_function() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %tmp = memref.alloc() : memref<4xf32>
  }
  return
}
