// Tensors from attributes inside a function, as IREE's torch importer
// spells the weights it keeps in a parameter archive: the loader
// makes `flow.tensor.constant` of a `#flow.parameter.named` a weight
// argument tagged with the parameter's key, and one of elements a constant;
// run fills the weight with seeded values and matches the reference.
//
// RUN: dispatchlab compile %s --emit=dispatch-ir | FileCheck %s --check-prefix=IR
// RUN: dispatchlab run %s --emit=json | FileCheck %s --check-prefix=RAN --implicit-check-not='"passed": false'
//
// IR-NOT:  flow.
// IR:      func.func public @main(%{{.+}}: tensor<4x16xf32>, %{{.+}}: tensor<16x8xf32> {dispatchlab.parameter = "fc.weight"})
// IR:        arith.constant 1.000000e+00 : f32
// IR:        linalg.matmul
// RAN: "passed": true

util.func public @main(%x: tensor<4x16xf32>) -> tensor<4x8xf32> {
  %w = flow.tensor.constant #flow.parameter.named<"model"::"fc.weight"> : tensor<16x8xf32>
  %b = flow.tensor.constant dense<1.0> : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x16xf32>, tensor<16x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%m: f32, %c: f32, %o: f32):
    %s = arith.addf %m, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  util.return %out : tensor<4x8xf32>
}
