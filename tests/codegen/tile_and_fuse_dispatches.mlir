// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-tile-and-fuse-dispatches,canonicalize,cse))' | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-tile-and-fuse-dispatches,canonicalize,cse,dispatchlab-vectorize-dispatches,canonicalize,cse))' | FileCheck %s --check-prefix=VEC

// Seed 004's dispatch: exp is tiled 3x7 (largest divisors of 33 and 49 not
// above 8 and 32), the matmul and its fill are fused into the tile loop and
// work on a tile-sized tensor.empty, not on slices of the full-size one.
// CHECK-LABEL: func.func @dot_exp_dispatch
// CHECK:         %[[FULL:.+]] = tensor.empty() : tensor<33x49xf32>
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %c3 iter_args(%[[A:.+]] = %[[FULL]])
// CHECK:           scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %c7 iter_args(%[[B:.+]] = %[[A]])
// CHECK-NOT:         tensor.extract_slice %[[FULL]]
// CHECK:             %[[TILE:.+]] = tensor.empty() : tensor<3x7xf32>
// CHECK:             %[[FILL:.+]] = linalg.fill {{.+}} outs(%[[TILE]] : tensor<3x7xf32>)
// CHECK:             %[[MM:.+]] = linalg.matmul {{.+}} outs(%[[FILL]] : tensor<3x7xf32>)
// CHECK:             %[[OUT:.+]] = tensor.extract_slice %[[B]][%[[I]], %[[J]]] [3, 7]
// CHECK:             %[[EXP:.+]] = linalg.generic {{.+}} ins(%[[MM]] : tensor<3x7xf32>) outs(%[[OUT]] : tensor<3x7xf32>)
// CHECK:             tensor.insert_slice %[[EXP]] into %[[B]][%[[I]], %[[J]]] [3, 7]
// Vectorized, the tile never touches memory between matmul and exp.
// VEC-LABEL: func.func @dot_exp_dispatch
// VEC-NOT:     linalg.
// VEC:         vector.contract {{.+}} : vector<3x16xf32>, vector<16x7xf32> into vector<3x7xf32>
// VEC-NEXT:    tensor.extract_slice
// VEC-NEXT:    math.exp %{{.+}} : vector<3x7xf32>
// VEC-NEXT:    vector.transfer_write
// VEC-NOT:     linalg.
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @dot_exp_dispatch(%lhs: tensor<33x16xf32>, %rhs: tensor<16x49xf32>) -> tensor<33x49xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<33x49xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<33x49xf32>) -> tensor<33x49xf32>
  %mm = linalg.matmul ins(%lhs, %rhs : tensor<33x16xf32>, tensor<16x49xf32>) outs(%fill : tensor<33x49xf32>) -> tensor<33x49xf32>
  %exp = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<33x49xf32>) outs(%empty : tensor<33x49xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<33x49xf32>
  return %exp : tensor<33x49xf32>
}

// -----

// A long reduction is tiled too (784 = 49 x 16), accumulating in place; the
// host function (no dispatchlab.dispatch) is left alone.
// CHECK-LABEL: func.func @gemv_dispatch
// VEC-LABEL:   func.func @gemv_dispatch
// CHECK:         scf.for {{.+}} step %c32
// CHECK:           linalg.fill
// CHECK:           scf.for {{.+}} = %c0 to %c784 step %c16 iter_args
// CHECK:             linalg.matmul ins({{.+}} : tensor<1x16xf32>, tensor<16x32xf32>) outs({{.+}} : tensor<1x32xf32>)
// CHECK-LABEL: func.func @host
// CHECK-NOT:     scf.for
// CHECK:         linalg.matmul ins({{.+}} : tensor<1x784xf32>, tensor<784x128xf32>)
func.func @gemv_dispatch(%x: tensor<1x784xf32>, %w: tensor<784x128xf32>) -> tensor<1x128xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x128xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<1x128xf32>) -> tensor<1x128xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<1x784xf32>, tensor<784x128xf32>) outs(%fill : tensor<1x128xf32>) -> tensor<1x128xf32>
  return %mm : tensor<1x128xf32>
}
func.func @host(%x: tensor<1x784xf32>, %w: tensor<784x128xf32>) -> tensor<1x128xf32> {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x128xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<1x128xf32>) -> tensor<1x128xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<1x784xf32>, tensor<784x128xf32>) outs(%fill : tensor<1x128xf32>) -> tensor<1x128xf32>
  return %mm : tensor<1x128xf32>
}

// -----

// A result inserted into a captured tensor (the next layer's padding): the
// inserted value's producer is tiled, the insert stays outside the loops.
// CHECK-LABEL: func.func @padded_result_dispatch
// CHECK:         %[[LOOP:.+]] = scf.for
// CHECK:           linalg.generic
// CHECK:         tensor.insert_slice %[[LOOP]] into %{{.+}}[0, 1] [4, 64] [1, 1]
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @padded_result_dispatch(%x: tensor<4x64xf32>, %padded: tensor<6x66xf32>) -> tensor<6x66xf32> attributes {dispatchlab.dispatch} {
  %empty = tensor.empty() : tensor<4x64xf32>
  %neg = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x64xf32>) outs(%empty : tensor<4x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4x64xf32>
  %inserted = tensor.insert_slice %neg into %padded[0, 1] [4, 64] [1, 1] : tensor<4x64xf32> into tensor<6x66xf32>
  return %inserted : tensor<6x66xf32>
}
