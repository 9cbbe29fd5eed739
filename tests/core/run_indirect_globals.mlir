// IREE's older spelling of weights (its e2e MNIST of 2022): globals read
// through references, util.global.address then util.global.load.indirect.
// The loader makes each such load the direct load of the global, then as
// for tests/core/run_util_globals.mlir: a global without a value becomes
// the weight argument named after it, one of elements a constant. run
// fills the weights with seeded values and matches the reference.
//
// RUN: dispatchlab compile %s --emit=dispatch-ir | FileCheck %s --check-prefix=IR
// RUN: dispatchlab run %s --emit=json | FileCheck %s --check-prefix=RAN --implicit-check-not='"passed": false'
//
// IR-NOT:  util.global
// IR:      func.func public @main(%{{.+}}: tensor<1x784xf32>, %{{.+}}: tensor<784x10xf32> {dispatchlab.parameter = "dense.kernel"})
// IR:        dispatch.region
// IR:          linalg.matmul
// RAN: "passed": true

util.global private @"dense.kernel" : tensor<784x10xf32>
util.global private @"dense.bias" = dense<0.5> : tensor<10xf32>
util.func public @main(%x: tensor<1x784xf32>) -> tensor<1x10xf32> {
  %kernel_ref = util.global.address @"dense.kernel" : !util.ptr<tensor<784x10xf32>>
  %bias_ref = util.global.address @"dense.bias" : !util.ptr<tensor<10xf32>>
  %kernel = util.global.load.indirect %kernel_ref : !util.ptr<tensor<784x10xf32>> -> tensor<784x10xf32>
  %bias = util.global.load.indirect %bias_ref : !util.ptr<tensor<10xf32>> -> tensor<10xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x10xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x10xf32>) -> tensor<1x10xf32>
  %mm = linalg.matmul ins(%x, %kernel : tensor<1x784xf32>, tensor<784x10xf32>) outs(%acc : tensor<1x10xf32>) -> tensor<1x10xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<1x10xf32>, tensor<10xf32>) outs(%e : tensor<1x10xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<1x10xf32>
  util.return %out : tensor<1x10xf32>
}
