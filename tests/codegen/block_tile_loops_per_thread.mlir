// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-block-tile-loops-per-thread{threads=2},canonicalize))' | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-block-tile-loops-per-thread{threads=1}))' | FileCheck %s --check-prefix=ONE

// 7 tiles on 2 threads: block b is tiles [4b, min(4b + 4, 7)), its counter
// starting at 4b, on a 128-byte line of its own. Thread t claims chunks of
// ceil(4 / 32) = 1 tile from its own block's counter, then from the other's,
// so thread 0 runs tiles 0-3 in order unless thread 1 finishes first.
// CHECK-LABEL: func.func @seven_tiles
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[C7:.+]] = arith.constant 7 : index
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK-DAG:     %[[FOUR:.+]] = arith.constant 4 : i64
// CHECK-DAG:     %[[CHUNK:.+]] = arith.constant 1 : i64
// CHECK:         %[[COUNTERS:.+]] = memref.alloca() : memref<2x16xi64>
// CHECK:         memref.store %[[ZERO]], %[[COUNTERS]][%[[C0]], %[[C0]]]
// CHECK:         memref.store %[[FOUR]], %[[COUNTERS]][%[[C1]], %[[C0]]]
// CHECK:         scf.parallel (%[[T:.+]]) = (%[[C0]]) to (%[[C2]]) step (%[[C1]]) {
// CHECK:           scf.for %[[V:.+]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK:             %[[SUM:.+]] = arith.addi %[[T]], %[[V]]
// CHECK:             %[[B:.+]] = arith.remui %[[SUM]], %[[C2]]
// CHECK:             %[[NEXT:.+]] = arith.addi %[[B]], %[[C1]]
// CHECK:             %[[BOUND:.+]] = arith.muli %[[NEXT]], %[[C4]]
// CHECK:             %[[END:.+]] = arith.minsi %[[BOUND]], %[[C7]]
// CHECK:             scf.while
// CHECK:               %[[OLD:.+]] = memref.atomic_rmw addi %[[CHUNK]], %[[COUNTERS]][%[[B]], %[[C0]]]
// CHECK:               %[[K:.+]] = arith.index_cast %[[OLD]] : i64 to index
// CHECK:               %[[MORE:.+]] = arith.cmpi slt, %[[K]], %[[END]]
// CHECK:               scf.condition(%[[MORE]]) %[[K]]
// CHECK:             ^bb0(%[[FIRST:.+]]: index):
// CHECK:               %[[STOP:.+]] = arith.addi %[[FIRST]], %[[C1]]
// CHECK:               %[[LAST:.+]] = arith.minsi %[[STOP]], %[[END]]
// CHECK:               scf.for %[[I:.+]] = %[[FIRST]] to %[[LAST]] step %[[C1]]
// CHECK-NEXT:            memref.store %{{.+}}, %{{.+}}[%[[I]]]
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

// 100 tiles: blocks of 50, claimed 2 at a time (ceil(50 / 32)).
// CHECK-LABEL: func.func @hundred_tiles
// CHECK-DAG:     %[[FIFTY:.+]] = arith.constant 50 : i64
// CHECK-DAG:     %[[CHUNK:.+]] = arith.constant 2 : i64
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK:         %[[COUNTERS:.+]] = memref.alloca() : memref<2x16xi64>
// CHECK:         memref.store %[[FIFTY]], %[[COUNTERS]]
// CHECK:         memref.atomic_rmw addi %[[CHUNK]], %[[COUNTERS]]
// CHECK:         ^bb0(%[[FIRST:.+]]: index):
// CHECK:           arith.addi %[[FIRST]], %[[C2]]
func.func @hundred_tiles(%out: memref<100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %v = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c100) step (%c1) {
    memref.store %v, %out[%i] : memref<100xf32>
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
// CHECK:           scf.while
// CHECK:             scf.for %[[K:.+]] =
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
