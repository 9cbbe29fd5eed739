// Weights IREE's importers keep in a parameter archive
// (`#flow.parameter.named<"scope"::"key">`): the loader makes each such
// global a weight argument named after the global, as it does a global
// without a value, so the model compiles, run fills the weights with
// seeded values (the archive is not read) and matches the reference.
//
// RUN: dispatchlab compile %s --emit=dispatch-ir | FileCheck %s --check-prefix=IR
// RUN: dispatchlab run %s --emit=json | FileCheck %s --check-prefix=RAN --implicit-check-not='"passed": false'
//
// IR-NOT:  util.global
// IR-NOT:  flow.parameter
// IR:      func.func public @main(%{{.+}}: tensor<4x16xf32>, %{{.+}}: tensor<16x8xf32> {dispatchlab.parameter = "weight"}, %{{.+}}: tensor<8xf32> {dispatchlab.parameter = "bias"})
// IR:        linalg.matmul
// RAN: "passed": true

util.global private @weight = #flow.parameter.named<"model"::"fc.weight"> : tensor<16x8xf32>
util.global private @bias = #flow.parameter.named<"fc.bias"> : tensor<8xf32>
util.func public @main(%x: tensor<4x16xf32>) -> tensor<4x8xf32> {
  %w = util.global.load immutable @weight : tensor<16x8xf32>
  %b = util.global.load immutable @bias : tensor<8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x16xf32>, tensor<16x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%m: f32, %c: f32, %o: f32):
    %s = arith.addf %m, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  util.return %out : tensor<4x8xf32>
}
