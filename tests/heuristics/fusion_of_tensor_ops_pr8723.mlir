// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-elementwise-op-fusion{mode=pr8723-base}))' | FileCheck %s --check-prefixes=CHECK,BASE
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-elementwise-op-fusion{mode=pr8723-v1}))' | FileCheck %s --check-prefixes=CHECK,V1
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-elementwise-op-fusion{mode=pr8723-v2}))' | FileCheck %s --check-prefixes=CHECK,V2

// Seed 003's elementwise-fusion history: IREE's control function before PR
// #8723 (base), the PR's first version (v1) and the one that landed (v2).

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// Before the PR nothing fused into a reduction (IREE #5611); the PR lets the
// single-use producer join its reduction consumer.
// CHECK-LABEL: func.func @into_reduction
// BASE-COUNT-2:  linalg.generic
// V1-COUNT-1:    linalg.generic
// V1-NOT:        linalg.generic
// V2-COUNT-1:    linalg.generic
// V2-NOT:        linalg.generic
// CHECK:         return
func.func @into_reduction(%a: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%0 : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

#vec = affine_map<(d0) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// A one-dimensional producer read by two two-dimensional consumers: v1 fuses
// it into both, recomputing it in each; base and v2 never fuse a computing
// producer with two users.
// CHECK-LABEL: func.func @lower_dimensional_producer
// BASE-COUNT-3:  linalg.generic
// V1-COUNT-2:    linalg.generic
// V1-NOT:        linalg.generic
// V2-COUNT-3:    linalg.generic
// CHECK:         return
func.func @lower_dimensional_producer(%a: tensor<8xf32>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e1 = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#col, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %b : tensor<8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %2 = linalg.generic {indexing_maps = [#col, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %b : tensor<8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.subf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// A broadcasting copy also read by a named op: base fuses only when every
// user is a generic (the named op computes it anyway); the PR fuses a pure
// copy into its generic user regardless.
// CHECK-LABEL: func.func @copy_with_named_user
// CHECK:         linalg.generic
// BASE:          linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x8xf32>, tensor<8x8xf32>)
// V1:            linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8xf32>, tensor<8x8xf32>)
// V2:            linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8xf32>, tensor<8x8xf32>)
// CHECK:         linalg.matmul
func.func @copy_with_named_user(%a: tensor<8xf32>, %b: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %e = tensor.empty() : tensor<8x8xf32>
  %0 = linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<8x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %2 = linalg.matmul ins(%0, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// A computing producer of the same rank as its two users fuses into neither,
// in every version.
// CHECK-LABEL: func.func @multi_use_producer
// CHECK-COUNT-3: linalg.generic
func.func @multi_use_producer(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.subf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}
