// RUN: dispatchlab-opt %s --pass-pipeline='builtin.module(func.func(dispatchlab-tile-and-fuse-dispatches),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},func.func(scf-forall-to-parallel,dispatchlab-linearize-tile-loops,dispatchlab-block-tile-loops-per-thread{threads=2},dispatchlab-promote-tile-temporaries-to-stack),buffer-deallocation-pipeline,async-parallel-for{num-workers=2 min-task-size=1},async-to-async-runtime,async-runtime-ref-counting,async-runtime-ref-counting-opt,convert-async-to-llvm)' | FileCheck %s --implicit-check-not=aligned_loops
// RUN: dispatchlab-opt %s --pass-pipeline='builtin.module(func.func(dispatchlab-tile-and-fuse-dispatches),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},func.func(scf-forall-to-for,dispatchlab-promote-tile-temporaries-to-stack),buffer-deallocation-pipeline)' | FileCheck %s --check-prefix=SEQUENTIAL

// The tile loop lowerings of CodegenPipeline (`run --threads N`; the CLI
// side is in run_threads.test). With 2 threads the dispatch's scf.forall
// becomes one block of tiles per thread, submitted to the MLIR async
// runtime and awaited before the dispatch returns; with 1 thread a plain
// loop nest. The tile loop reaches async-parallel-for as one dim, so it
// makes no block-aligned variant (LinearizeTileLoops says why).
// CHECK-LABEL: func.func @exp_dispatch
// CHECK:         %[[GROUP:.+]] = func.call @mlirAsyncRuntimeCreateGroup
// CHECK:         func.call @async_dispatch_fn(%[[GROUP]],
// CHECK:         func.call @mlirAsyncRuntimeAwaitAllInGroup(%[[GROUP]])
// CHECK:       func.func private @parallel_compute_fn
// CHECK:         math.exp
// CHECK:       func.func private @async_dispatch_fn
// CHECK:         call @mlirAsyncRuntimeExecute
// SEQUENTIAL-LABEL: func.func @exp_dispatch
// SEQUENTIAL-NOT:   scf.forall
// SEQUENTIAL:       scf.for %{{.+}} = %c0 to %c64 step %c8
// SEQUENTIAL:         scf.for %{{.+}} = %c0 to %c64 step %c32
// SEQUENTIAL:           math.exp
// SEQUENTIAL-NOT:   async
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @exp_dispatch(%x: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {dispatchlab.dispatch} {
  %empty = tensor.empty() : tensor<64x64xf32>
  %exp = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x64xf32>) outs(%empty : tensor<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<64x64xf32>
  return %exp : tensor<64x64xf32>
}
