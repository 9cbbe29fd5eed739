// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-linearize-tile-loops,canonicalize))' | FileCheck %s

// The 2-D tile loop (16 column tiles x 8 row tiles) becomes one loop over
// 128 linear tile indices, the row tile varying fastest: tile k is row tile
// k mod 8 of column tile k div 8.
// CHECK-LABEL: func.func @tiles_2d
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[C128:.+]] = arith.constant 128 : index
// CHECK:         scf.parallel (%[[K:.+]]) = (%{{.+}}) to (%[[C128]]) step (%{{.+}}) {
// CHECK:           %[[ROW:.+]] = arith.remsi %[[K]], %[[C8]]
// CHECK:           %[[COL:.+]] = arith.divsi %[[K]], %[[C8]]
// CHECK:           memref.store %{{.+}}, %{{.+}}[%[[ROW]], %[[COL]]]
// CHECK-NOT:     scf.parallel
func.func @tiles_2d(%out: memref<8x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %v = arith.constant 1.0 : f32
  scf.parallel (%col, %row) = (%c0, %c0) to (%c16, %c8) step (%c1, %c1) {
    memref.store %v, %out[%row, %col] : memref<8x16xf32>
    scf.reduce
  }
  return
}

// -----

// A 1-D loop is left as it is.
// CHECK-LABEL: func.func @tiles_1d
// CHECK:         scf.parallel (%[[I:.+]]) = (%c0) to (%c16) step (%c1) {
// CHECK-NEXT:      memref.store %{{.+}}, %{{.+}}[%[[I]]]
func.func @tiles_1d(%out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %v = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    memref.store %v, %out[%i] : memref<16xf32>
    scf.reduce
  }
  return
}
