// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-block-tile-loops-per-thread{threads=2},canonicalize))' | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-block-tile-loops-per-thread{threads=1}))' | FileCheck %s --check-prefix=ONE

// 7 tiles on 2 threads: block t runs tiles [4t, min(4t + 4, 7)) in order,
// so thread 0 gets tiles 0-3 and thread 1 tiles 4-6.
// CHECK-LABEL: func.func @seven_tiles
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[C7:.+]] = arith.constant 7 : index
// CHECK:         scf.parallel (%[[T:.+]]) = (%{{.+}}) to (%[[C2]]) step (%{{.+}}) {
// CHECK:           %[[FIRST:.+]] = arith.muli %[[T]], %[[C4]]
// CHECK:           %[[END:.+]] = arith.addi %[[FIRST]], %[[C4]]
// CHECK:           %[[LAST:.+]] = arith.minsi %[[END]], %[[C7]]
// CHECK:           scf.for %[[K:.+]] = %[[FIRST]] to %[[LAST]] step
// CHECK-NEXT:        memref.store %{{.+}}, %{{.+}}[%[[K]]]
// ONE-LABEL:   func.func @seven_tiles
// ONE:           scf.parallel (%[[I:.+]]) = (%c0) to (%c7) step (%c1) {
// ONE-NEXT:        memref.store %{{.+}}, %{{.+}}[%[[I]]]
func.func @seven_tiles(%out: memref<7xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %v = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c7) step (%c1) {
    memref.store %v, %out[%i] : memref<7xf32>
    scf.reduce
  }
  return
}

// -----

// A loop with a lower bound and step other than 0 and 1 keeps its indices:
// tile k of the block is lb + k * step.
// CHECK-LABEL: func.func @offset_tiles
// CHECK-SAME:    (%[[OUT:.+]]: memref<64xf32>, %[[LB:.+]]: index)
// CHECK:         scf.parallel
// CHECK:           scf.for %[[K:.+]] =
// CHECK:             %[[SCALED:.+]] = arith.muli %[[K]], %c8
// CHECK:             %[[I:.+]] = arith.addi %[[LB]], %[[SCALED]]
// CHECK:             memref.store %{{.+}}, %[[OUT]][%[[I]]]
func.func @offset_tiles(%out: memref<64xf32>, %lb: index) {
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %v = arith.constant 1.0 : f32
  scf.parallel (%i) = (%lb) to (%c64) step (%c8) {
    memref.store %v, %out[%i] : memref<64xf32>
    scf.reduce
  }
  return
}

// -----

// A reducing scf.parallel is not a tile loop: left alone.
// CHECK-LABEL: func.func @reducing_loop
// CHECK:         scf.parallel (%{{.+}}) = (%c0) to (%c16) step (%c1) init
// CHECK-NOT:     scf.for
func.func @reducing_loop(%in: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.parallel (%i) = (%c0) to (%c16) step (%c1) init (%zero) -> f32 {
    %x = memref.load %in[%i] : memref<16xf32>
    scf.reduce(%x : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  return %sum : f32
}
