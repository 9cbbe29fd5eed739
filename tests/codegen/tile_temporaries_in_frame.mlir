// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-promote-tile-temporaries-to-stack,buffer-loop-hoisting))' | FileCheck %s

// The lowering's placement of a tile's stack buffer (CodegenPipeline runs
// buffer-loop-hoisting before convert-scf-to-cf). convert-scf-to-cf would
// leave an alloca of the loop body inside the loop, where LLVM allocates it
// anew every iteration; out of a sequential tile loop it is made once, in
// the entry block.
// CHECK-LABEL: func.func @sequential_tiles
// CHECK:         %[[TMP:.+]] = memref.alloca() {alignment = 64 : i64} : memref<8x32xf32>
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      linalg.fill ins(%{{.+}} : f32) outs(%[[TMP]] : memref<8x32xf32>)
func.func @sequential_tiles(%out: memref<64x32xf32>) attributes {dispatchlab.dispatch} {
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

// Each iteration of a parallel tile loop keeps its own buffer: hoisted, the
// threads would share it.
// CHECK-LABEL: func.func @parallel_tiles
// CHECK:         scf.parallel
// CHECK-NEXT:      memref.alloca() : memref<4xf32>
func.func @parallel_tiles(%out: memref<16x4xf32>) attributes {dispatchlab.dispatch} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    %a = memref.alloc() : memref<4xf32>
    %row = memref.subview %out[%i, 0] [1, 4] [1, 1] : memref<16x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    memref.copy %a, %row : memref<4xf32> to memref<4xf32, strided<[1], offset: ?>>
    scf.reduce
  }
  return
}
