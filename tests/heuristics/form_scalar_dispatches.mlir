// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-form-scalar-dispatches))' | FileCheck %s

#s = affine_map<() -> ()>
// Two dependent 0-d generics share one scalar dispatch.
// CHECK-LABEL: func.func @scalar_chain
// CHECK:         %[[R:.+]] = dispatch.region -> (tensor<f32>) {
// CHECK:           linalg.generic
// CHECK:             arith.addf
// CHECK:           linalg.generic
// CHECK:             arith.mulf
// CHECK:           dispatch.return
// CHECK:         } {dispatchlab.kind = "scalar"}
// CHECK:         return %[[R]]
func.func @scalar_chain(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<f32>
  %0 = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
      ins(%a, %b : tensor<f32>, tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %1 = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
      ins(%0, %b : tensor<f32>, tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.mulf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

#id = affine_map<(d0) -> (d0)>
// Ops on more than one element, and cloneable ops such as fills, stay out.
// CHECK-LABEL: func.func @not_scalar
// CHECK-NOT:     dispatch.region
// CHECK:         linalg.fill
// CHECK:         linalg.generic
// CHECK-NOT:     dispatch.region
func.func @not_scalar(%a: tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>) {
  %cst = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%cst : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %f, %0 : tensor<f32>, tensor<4xf32>
}

// -----

#s = affine_map<() -> ()>
#id = affine_map<(d0) -> (d0)>
// A big op between two independent scalar ops that uses the first one stops
// horizontal fusion: two scalar dispatches.
// CHECK-LABEL: func.func @horizontal_fusion_blocked
// CHECK:         dispatch.region
// CHECK:         } {dispatchlab.kind = "scalar"}
// CHECK:         linalg.generic {{.*}}["parallel"]
// CHECK:         dispatch.region
// CHECK:         } {dispatchlab.kind = "scalar"}
func.func @horizontal_fusion_blocked(%a: tensor<f32>, %v: tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>) {
  %e = tensor.empty() : tensor<f32>
  %0 = linalg.generic {indexing_maps = [#s, #s], iterator_types = []}
      ins(%a : tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %e4 = tensor.empty() : tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [#id, affine_map<(d0) -> ()>, #id], iterator_types = ["parallel"]}
      ins(%v, %0 : tensor<4xf32>, tensor<f32>) outs(%e4 : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.mulf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#s, #s], iterator_types = []}
      ins(%a : tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.log %x : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %1, %2 : tensor<4xf32>, tensor<f32>
}

// -----

#s = affine_map<() -> ()>
// Independent adjacent scalar ops are fused horizontally.
// CHECK-LABEL: func.func @horizontal_fusion
// CHECK:         %[[R:.+]]:2 = dispatch.region -> (tensor<f32>, tensor<f32>) {
// CHECK:           math.exp
// CHECK:           math.log
// CHECK:         } {dispatchlab.kind = "scalar"}
// CHECK-NOT:     dispatch.region
func.func @horizontal_fusion(%a: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %e = tensor.empty() : tensor<f32>
  %0 = linalg.generic {indexing_maps = [#s, #s], iterator_types = []}
      ins(%a : tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %1 = linalg.generic {indexing_maps = [#s, #s], iterator_types = []}
      ins(%a : tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.log %x : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}
