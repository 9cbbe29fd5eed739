// `dispatchlab run --pipeline=iree` on a softmax written as generics (the
// chain ONNX Softmax imports to): RaiseSpecialOps makes it one
// linalg.softmax dispatch with its scaling consumer, codegen decomposes it
// before tiling, and in both codegen modes the outputs match the no-fusion
// reference, in which the chain stays generics (pipeline=full).
//
// RUN: dispatchlab compile %s --pipeline=iree --emit=dispatch-ir | FileCheck %s --check-prefix=IR
// RUN: dispatchlab run %s --pipeline=iree --emit=json | FileCheck %s --check-prefix=RAISED --implicit-check-not='"passed": false'
// RUN: dispatchlab run %s --pipeline=iree --codegen=loops --emit=json | FileCheck %s --check-prefix=RAISED --implicit-check-not='"passed": false'
// RUN: dispatchlab run %s --pipeline=iree --raise-special-ops=false --emit=json | FileCheck %s --check-prefix=UNRAISED --implicit-check-not='"passed": false'
//
// IR:      dispatch.region
// IR:        linalg.softmax {{.*}}dimension(2) ins(%arg0
// IR-NEXT:   linalg.generic
// IR:          arith.mulf
// IR:        dispatch.return
// IR-NOT:  dispatch.region
// RAISED: "passed": true
// RAISED: "dispatches": 1,
// UNRAISED: "passed": true
// UNRAISED: "dispatches": 2,

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows = affine_map<(d0, d1, d2) -> (d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @scaled_softmax(%x: tensor<3x16x40xf32>) -> tensor<3x16x40xf32> {
  %lowest = arith.constant -3.40282347E+38 : f32
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<3x16xf32>
  %e3 = tensor.empty() : tensor<3x16x40xf32>
  %mfill = linalg.fill ins(%lowest : f32) outs(%e2 : tensor<3x16xf32>) -> tensor<3x16xf32>
  %max = linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<3x16x40xf32>) outs(%mfill : tensor<3x16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<3x16xf32>
  %sub = linalg.generic {indexing_maps = [#id, #rows, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max : tensor<3x16x40xf32>, tensor<3x16xf32>) outs(%e3 : tensor<3x16x40xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<3x16x40xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sub : tensor<3x16x40xf32>) outs(%e3 : tensor<3x16x40xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<3x16x40xf32>
  %sfill = linalg.fill ins(%zero : f32) outs(%e2 : tensor<3x16xf32>) -> tensor<3x16xf32>
  %sum = linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%exp : tensor<3x16x40xf32>) outs(%sfill : tensor<3x16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3x16xf32>
  %rcp = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<3x16xf32>) outs(%e2 : tensor<3x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %r = arith.divf %one, %a : f32
    linalg.yield %r : f32
  } -> tensor<3x16xf32>
  %soft = linalg.generic {indexing_maps = [#id, #rows, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%exp, %rcp : tensor<3x16x40xf32>, tensor<3x16xf32>) outs(%e3 : tensor<3x16x40xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<3x16x40xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%soft : tensor<3x16x40xf32>) outs(%e3 : tensor<3x16x40xf32>) {
  ^bb0(%a: f32, %o: f32):
    %two = arith.constant 3.0 : f32
    %r = arith.mulf %a, %two : f32
    linalg.yield %r : f32
  } -> tensor<3x16x40xf32>
  return %scaled : tensor<3x16x40xf32>
}
