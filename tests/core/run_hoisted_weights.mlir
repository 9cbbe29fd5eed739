// `dispatchlab run --pipeline=iree` on a projection whose weight is scaled
// before the matmul (as a folded normalization would leave it). The scaling
// reads only the weight, so HoistIntoGlobals moves it into the host's
// initializer, which run calls once before the timed calls: one dispatch
// instead of two, and the outputs match the reference, which computes the
// scaling in the program (pipeline=full).
//
// RUN: dispatchlab compile %s --pipeline=iree --emit=dispatch-ir | FileCheck %s --check-prefix=IR
// RUN: dispatchlab run %s --pipeline=iree --emit=json | FileCheck %s --check-prefix=HOISTED --implicit-check-not='"passed": false'
// RUN: dispatchlab run %s --pipeline=iree --const-expr-hoisting=false --emit=json | FileCheck %s --check-prefix=KEPT --implicit-check-not='"passed": false'
//
// IR:      util.func private @projection_initializer(%{{.+}}: tensor<16x32xf32> {dispatchlab.host_argument = 1 : i64}) -> tensor<16x32xf32>
// IR:        arith.mulf
// IR:      func.func @projection({{.+}}, %[[SCALED:.+]]: tensor<16x32xf32> {dispatchlab.packed = 0 : i64})
// IR:        dispatch.region
// IR:          linalg.matmul {dispatchlab.root} ins(%{{.+}}, %[[SCALED]] :
// IR-NOT:  dispatch.region
// HOISTED: "passed": true
// HOISTED: "dispatches": 1,
// KEPT:    "passed": true
// KEPT:    "dispatches": 2,

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @projection(%x: tensor<8x16xf32>,
                      %w: tensor<16x32xf32> {dispatchlab.parameter = "w"},
                      %b: tensor<32xf32> {dispatchlab.parameter = "b"}) -> tensor<8x32xf32> {
  %half = arith.constant 0.5 : f32
  %ew = tensor.empty() : tensor<16x32xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<16x32xf32>) outs(%ew : tensor<16x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %half : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %mm = linalg.matmul ins(%x, %scaled : tensor<8x16xf32>, tensor<16x32xf32>)
      outs(%acc : tensor<8x32xf32>) -> tensor<8x32xf32>
  %out = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<8x32xf32>, tensor<32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %out : tensor<8x32xf32>
}
