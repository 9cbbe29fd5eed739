// A model as IREE's GlobalOptimization leaves it: the weight's scaling
// hoisted by IREE into a util.initializer that stores it in a global. The
// loader computes it again in the function that loads it, so `full` sees
// the program as it was before the hoisting (two dispatches), and
// `--pipeline=iree` hoists it again, into our initializer (one dispatch);
// both run and match the reference.
//
// RUN: dispatchlab compile %s --emit=dispatch-ir | FileCheck %s --check-prefix=FULL
// RUN: dispatchlab compile %s --pipeline=iree --emit=dispatch-ir | FileCheck %s --check-prefix=IREE
// RUN: dispatchlab run %s --pipeline=iree --emit=json | FileCheck %s --check-prefix=RAN --implicit-check-not='"passed": false'
//
// FULL-NOT:  util.
// FULL:      func.func public @main(%{{.+}}: tensor<4x16xf32>, %{{.+}}: tensor<16x8xf32> {dispatchlab.parameter = "weight"})
// FULL:        dispatch.region
// FULL:          arith.mulf
// FULL:        dispatch.region
// FULL:          linalg.matmul
// IREE:      util.func private @main_initializer(
// IREE:        arith.mulf
// IREE:      func.func public @main(
// IREE-COUNT-1: dispatch.region
// IREE-NOT:  dispatch.region
// RAN: "passed": true
// RAN: "dispatches": 1,

util.global private @weight {noinline} = #util.byte_pattern<1> : tensor<16x8xf32>
util.global private @__hoisted_tensor_16x8xf32 : tensor<16x8xf32>
util.initializer {
  %w = util.global.load immutable @weight : tensor<16x8xf32>
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %half : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  util.global.store %t, @__hoisted_tensor_16x8xf32 : tensor<16x8xf32>
  util.return
}
util.func public @main(%x: tensor<4x16xf32>) -> tensor<4x8xf32> {
  %t = util.global.load immutable @__hoisted_tensor_16x8xf32 : tensor<16x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mm = linalg.matmul ins(%x, %t : tensor<4x16xf32>, tensor<16x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  util.return %mm : tensor<4x8xf32>
}
