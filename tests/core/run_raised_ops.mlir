// `dispatchlab run --pipeline=iree` on a rotary projection spelled the way
// exporters write it: rotate-half as slices, a negation and a concat, the
// weight transposed by a generic before a matmul, and the result inserted
// into a constant border. RaiseSpecialOps makes the rotation one generic,
// folds the transpose into the matmul's maps and the insert into a pad
// (fused into the matmul's dispatch): 2 dispatches instead of 4, and the
// outputs match the reference, which does not raise (pipeline=full).
//
// RUN: dispatchlab compile %s --pipeline=iree --emit=dispatch-ir | FileCheck %s --check-prefix=IR
// RUN: dispatchlab run %s --pipeline=iree --emit=json | FileCheck %s --check-prefix=RAISED --implicit-check-not='"passed": false'
// RUN: dispatchlab run %s --pipeline=iree --raise-special-ops=false --emit=json | FileCheck %s --check-prefix=UNRAISED --implicit-check-not='"passed": false'
//
// IR:      tensor.expand_shape %arg0
// IR:      dispatch.region
// IR:        arith.negf
// IR:        arith.select
// IR:      dispatch.region
// IR:        linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
// IR-SAME:     ins(%collapsed, %arg1
// IR:        tensor.insert_slice
// IR-NOT:  dispatch.region
// RAISED: "passed": true
// RAISED: "dispatches": 2,
// UNRAISED: "passed": true
// UNRAISED: "dispatches": 4,

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @rotary_projection(%x: tensor<4x16xf32>, %w: tensor<8x16xf32>) -> tensor<6x8xf32> {
  %a = tensor.extract_slice %x[0, 0] [4, 8] [1, 1] : tensor<4x16xf32> to tensor<4x8xf32>
  %b = tensor.extract_slice %x[0, 8] [4, 8] [1, 1] : tensor<4x16xf32> to tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %nb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4x8xf32>
  %rot = tensor.concat dim(1) %nb, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  %et = tensor.empty() : tensor<16x8xf32>
  %wt = linalg.generic {indexing_maps = [#id, #tr], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<8x16xf32>) outs(%et : tensor<16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<16x8xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%rot, %wt : tensor<4x16xf32>, tensor<16x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %border = arith.constant dense<-2.0> : tensor<6x8xf32>
  %p = tensor.insert_slice %m into %border[1, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<6x8xf32>
  return %p : tensor<6x8xf32>
}
