// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-serialize-small-tile-loops))' | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-serialize-small-tile-loops{max-flops=100 max-bytes=100}))' | FileCheck %s --check-prefix=LOW

// A dispatch below both thresholds: its tile loop runs on the calling
// thread, as a plain loop nest.
// CHECK-LABEL: func.func @small_dispatch
// CHECK-NOT:     scf.forall
// CHECK:         scf.for %{{.+}} = %c0{{.*}} to %c64{{.*}} step %c8
// CHECK:           scf.for %{{.+}} = %c0{{.*}} to %c64{{.*}} step %c32
// CHECK:             math.exp
// With lower thresholds it is no longer small: the tiles stay parallel.
// LOW-LABEL:   func.func @small_dispatch
// LOW:           scf.forall
func.func @small_dispatch(%x: memref<64x64xf32>, %y: memref<64x64xf32>) attributes {dispatchlab.dispatch, dispatchlab.flops = 4096 : i64, dispatchlab.bytes = 32768 : i64} {
  scf.forall (%i, %j) = (0, 0) to (64, 64) step (8, 32) {
    %v = memref.load %x[%i, %j] : memref<64x64xf32>
    %e = math.exp %v : f32
    memref.store %e, %y[%i, %j] : memref<64x64xf32>
  }
  return
}

// -----

// Many FLOPs, few bytes (a matmul on small operands): parallel.
// CHECK-LABEL: func.func @many_flops_dispatch
// CHECK:         scf.forall
func.func @many_flops_dispatch(%x: memref<64x64xf32>) attributes {dispatchlab.dispatch, dispatchlab.flops = 100000000 : i64, dispatchlab.bytes = 32768 : i64} {
  scf.forall (%i) = (0) to (64) step (8) {
    %v = memref.load %x[%i, %i] : memref<64x64xf32>
    memref.store %v, %x[%i, %i] : memref<64x64xf32>
  }
  return
}

// -----

// 4.8 MFLOP over 250 KB, MobileNetV2's 14x14 1x1 projection: parallel (it
// took 24 us on one thread and 15 us on two on the AMD EPYC host).
// CHECK-LABEL: func.func @mid_flops_dispatch
// CHECK:         scf.forall
func.func @mid_flops_dispatch(%x: memref<64x64xf32>) attributes {dispatchlab.dispatch, dispatchlab.flops = 4816896 : i64, dispatchlab.bytes = 250112 : i64} {
  scf.forall (%i) = (0) to (64) step (8) {
    %v = memref.load %x[%i, %i] : memref<64x64xf32>
    memref.store %v, %x[%i, %i] : memref<64x64xf32>
  }
  return
}

// -----

// Few FLOPs, many bytes (a large copy): parallel.
// CHECK-LABEL: func.func @many_bytes_dispatch
// CHECK:         scf.forall
func.func @many_bytes_dispatch(%x: memref<64x64xf32>) attributes {dispatchlab.dispatch, dispatchlab.flops = 0 : i64, dispatchlab.bytes = 67108864 : i64} {
  scf.forall (%i) = (0) to (64) step (8) {
    %v = memref.load %x[%i, %i] : memref<64x64xf32>
    memref.store %v, %x[%i, %i] : memref<64x64xf32>
  }
  return
}

// -----

// No recorded work (not outlined by OutlineDispatchRegions), or not a
// dispatch: left alone.
// CHECK-LABEL: func.func @unmeasured_dispatch
// CHECK:         scf.forall
// CHECK-LABEL: func.func @host
// CHECK:         scf.forall
func.func @unmeasured_dispatch(%x: memref<64x64xf32>) attributes {dispatchlab.dispatch} {
  scf.forall (%i) = (0) to (64) step (8) {
    %v = memref.load %x[%i, %i] : memref<64x64xf32>
    memref.store %v, %x[%i, %i] : memref<64x64xf32>
  }
  return
}
func.func @host(%x: memref<64x64xf32>) attributes {dispatchlab.flops = 0 : i64, dispatchlab.bytes = 0 : i64} {
  scf.forall (%i) = (0) to (64) step (8) {
    %v = memref.load %x[%i, %i] : memref<64x64xf32>
    memref.store %v, %x[%i, %i] : memref<64x64xf32>
  }
  return
}

// -----

// A split dispatch (a 33-column matmul split at column 32): each tile loop
// counts for its share of the points the loops cover. The 32 columns hold
// 32/33 of 50 MFLOP and stay parallel; the one-column remainder's 1/33 is
// below the thresholds and runs on the calling thread.
// CHECK-LABEL: func.func @split_dispatch
// CHECK:         scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (64, 32) step (8, 8)
// CHECK-NOT:     scf.forall
// CHECK:         scf.for %{{.+}} = %c0{{.*}} to %c64{{.*}} step %c8
// LOW-LABEL:   func.func @split_dispatch
// LOW-COUNT-2:   scf.forall
func.func @split_dispatch(%x: memref<64x33xf32>) attributes {dispatchlab.dispatch, dispatchlab.flops = 50000000 : i64, dispatchlab.bytes = 8448 : i64} {
  scf.forall (%i, %j) = (0, 0) to (64, 32) step (8, 8) {
    %v = memref.load %x[%i, %j] : memref<64x33xf32>
    memref.store %v, %x[%i, %j] : memref<64x33xf32>
  }
  scf.forall (%i) = (0) to (64) step (8) {
    %c32 = arith.constant 32 : index
    %v = memref.load %x[%i, %c32] : memref<64x33xf32>
    memref.store %v, %x[%i, %c32] : memref<64x33xf32>
  }
  return
}
