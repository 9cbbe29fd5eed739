// The whole DispatchCreation pipeline runs by name, its options the preset
// and the knobs as HeuristicKnobs.def spells them.
// RUN: dispatchlab-opt %s --pass-pipeline='builtin.module(dispatchlab-dispatch-creation)' | FileCheck %s --check-prefix=DEFAULT
// RUN: dispatchlab-opt %s --pass-pipeline='builtin.module(dispatchlab-dispatch-creation{preset=no-fusion})' | FileCheck %s --check-prefix=NOFUSION
// RUN: dispatchlab-opt %s --pass-pipeline='builtin.module(dispatchlab-dispatch-creation{preset=no-fusion dispatch-fusion=true})' | FileCheck %s --check-prefix=REFUSED
// RUN: not dispatchlab-opt %s --pass-pipeline='builtin.module(dispatchlab-dispatch-creation{truncate-ordering=late})' 2>&1 | FileCheck %s --check-prefix=BADVALUE
// RUN: not dispatchlab-opt %s --pass-pipeline='builtin.module(dispatchlab-dispatch-creation{preset=O3})' 2>&1 | FileCheck %s --check-prefix=BADPRESET

// iree-O0: the matmul with its bias + ReLU epilogue in one dispatch.
// DEFAULT-COUNT-1: dispatch.region
// DEFAULT-NOT:     dispatch.region

// no-fusion: the matmul and each elementwise op a dispatch of its own.
// NOFUSION-COUNT-3: dispatch.region
// NOFUSION-NOT:     dispatch.region

// A knob after the preset overrides it: producers and consumers fuse again
// (elementwise fusion stays off, so the epilogue ops are two generics).
// REFUSED-COUNT-1: dispatch.region
// REFUSED-NOT:     dispatch.region

// BADVALUE: option 'truncate-ordering' expects deferred or eager, got 'late'
// BADPRESET: unknown preset 'O3'

#map = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @mlp(%x: tensor<16x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<16x64xf32>) -> tensor<16x64xf32>
  %add = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<16x64xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%m: f32, %v: f32, %o: f32):
    %s = arith.addf %m, %v : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  %relu = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%add : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<16x64xf32>
  return %relu : tensor<16x64xf32>
}
