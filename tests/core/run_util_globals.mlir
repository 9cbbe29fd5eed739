// A model spelled the IREE way, its weights in util.globals: the loader
// turns a global holding elements into a constant and any other (here a
// byte pattern, IREE's placeholder weights) into an argument tagged as that
// weight, as the ONNX importer gives weights. Then the transpose of the
// weight reads only a weight, so `--pipeline=iree` hoists it into the
// initializer; run fills the weight with seeded values, calls the
// initializer once, and matches the reference.
//
// RUN: dispatchlab compile %s --pipeline=iree --emit=dispatch-ir | FileCheck %s --check-prefix=IR
// RUN: dispatchlab run %s --pipeline=iree --emit=json | FileCheck %s --check-prefix=RAN --implicit-check-not='"passed": false'
//
// IR-NOT:  util.global
// IR:      util.func private @main_initializer(%{{.+}}: tensor<16x8xf32> {dispatchlab.host_argument = 1 : i64}) -> tensor<16x8xf32>
// IR:        arith.mulf
// IR:      func.func public @main(%{{.+}}: tensor<4x16xf32>, %{{.+}}: tensor<16x8xf32> {dispatchlab.parameter = "weight"}, %[[T:.+]]: tensor<16x8xf32> {dispatchlab.packed = 0 : i64})
// IR:        dispatch.region
// IR:          arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00]> : tensor<8xf32>
// IR:          linalg.matmul {dispatchlab.root} ins(%{{.+}}, %[[T]] :
// IR-NOT:  dispatch.region
// RAN: "passed": true
// RAN: "dispatches": 1,

util.global private @weight {noinline} = #util.byte_pattern<1> : tensor<16x8xf32>
util.global private @bias = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
util.func public @main(%x: tensor<4x16xf32>) -> tensor<4x8xf32> {
  %w = util.global.load immutable @weight : tensor<16x8xf32>
  %b = util.global.load @bias : tensor<8xf32>
  %half = arith.constant 0.5 : f32
  %et = tensor.empty() : tensor<16x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<16x8xf32>) outs(%et : tensor<16x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %half : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mm = linalg.matmul ins(%x, %t : tensor<4x16xf32>, tensor<16x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  util.return %out : tensor<4x8xf32>
}
