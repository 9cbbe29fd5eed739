// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-fusion-of-tensor-ops-pr8723{mode=pr8723-base}))' | FileCheck %s --check-prefixes=CHECK,BASE
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-fusion-of-tensor-ops-pr8723{mode=pr8723-v1}))' | FileCheck %s --check-prefixes=CHECK,V1
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-fusion-of-tensor-ops-pr8723{mode=pr8723-v2}))' | FileCheck %s --check-prefixes=CHECK,V2

// Seed 003's elementwise-fusion history: IREE's FusionOfTensorOps before PR
// #8723 (base), the PR's first version (v1) and the one that landed (v2):
// first the control functions of elementwise fusion, then the reshape rules.

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

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#vec = affine_map<(d0) -> (d0)>
// Fold by expansion of a collapse_shape of a Linalg op's result: every
// version reads the matmul directly, expanding the consumer to its rank.
// Base then linearizes the unit-dim reshapes left around it into its maps:
// it reads the bias and writes the result without them.
// CHECK-LABEL: func.func @collapse_of_linalg_result
// CHECK:         %[[MM:.+]] = linalg.matmul
// BASE:          linalg.generic {{.*}} ins(%[[MM]], %arg2 : tensor<1x8xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<8xf32>)
// V2:            %[[G:.+]] = linalg.generic {{.*}} ins(%[[MM]], %{{.*}} : tensor<1x8xf32>, tensor<1x8xf32>) outs(%{{.*}} : tensor<1x8xf32>)
// V2:            tensor.collapse_shape %[[G]]
func.func @collapse_of_linalg_result(%a: tensor<1x4xf32>, %b: tensor<4x8xf32>, %bias: tensor<8xf32>) -> tensor<8xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<1x4xf32>, tensor<4x8xf32>) outs(%f : tensor<1x8xf32>) -> tensor<1x8xf32>
  %c = tensor.collapse_shape %mm [[0, 1]] : tensor<1x8xf32> into tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [#vec, #vec, #vec], iterator_types = ["parallel"]}
      ins(%c, %bias : tensor<8xf32>, tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

#vec = affine_map<(d0) -> (d0)>
// A collapse_shape of a function argument: base folded only reshapes of
// Linalg results, the PR folds every one.
// CHECK-LABEL: func.func @collapse_of_argument
// BASE:          tensor.collapse_shape
// BASE:          linalg.generic {{.*}} ins(%{{.*}} : tensor<8xf32>)
// V1-NOT:        tensor.collapse_shape %arg0
// V1:            linalg.generic {{.*}} ins(%arg0 : tensor<2x4xf32>)
// V2-NOT:        tensor.collapse_shape %arg0
// V2:            linalg.generic {{.*}} ins(%arg0 : tensor<2x4xf32>)
func.func @collapse_of_argument(%a: tensor<2x4xf32>) -> tensor<8xf32> {
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
      ins(%c : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

#vec = affine_map<(d0) -> (d0)>
#red = affine_map<(d0) -> ()>
// Upstream expanded only all-parallel generics in 2022: a reduction keeps
// reading the collapse_shape in every version.
// CHECK-LABEL: func.func @reduction_not_expanded
// CHECK:         %[[C:.+]] = tensor.collapse_shape
// CHECK:         linalg.generic {{.*}} ins(%[[C]] : tensor<8xf32>)
func.func @reduction_not_expanded(%a: tensor<1x8xf32>, %b: tensor<1x8xf32>, %init: tensor<f32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<1x8xf32>
  %m = linalg.mul ins(%a, %b : tensor<1x8xf32>, tensor<1x8xf32>) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  %c = tensor.collapse_shape %m [[0, 1]] : tensor<1x8xf32> into tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [#vec, #red], iterator_types = ["reduction"]}
      ins(%c : tensor<8xf32>) outs(%init : tensor<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// Base linearizes a unit-dim expand_shape into its reader's indexing map
// (the unit dim's expression dropped); the PR folds the expand_shape by
// collapsing the reader instead, as no input of it fuses by tile and fuse.
// CHECK-LABEL: func.func @unit_dim_expand_reader
// BASE-NOT:      tensor.expand_shape
// BASE:          linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<8xf32>) outs(%{{.*}} : tensor<1x8xf32>)
// BASE-NOT:      tensor.expand_shape
// V2:            %[[G:.+]] = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%arg0 : tensor<8xf32>)
// V2:            tensor.expand_shape %[[G]]
func.func @unit_dim_expand_reader(%a: tensor<8xf32>) -> tensor<1x8xf32> {
  %x = tensor.expand_shape %a [[0, 1]] output_shape [1, 8] : tensor<8xf32> into tensor<1x8xf32>
  %e = tensor.empty() : tensor<1x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<1x8xf32>) outs(%e : tensor<1x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = math.exp %v : f32
    linalg.yield %s : f32
  } -> tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// The PR folds an expand_shape by collapsing only when no input of its
// reader fuses by tile and fuse: here the reader also reads a matmul with
// the identity map, so the expand_shape stays.
// CHECK-LABEL: func.func @expand_beside_tile_and_fuse_input
// V2:            %[[X:.+]] = tensor.expand_shape %arg0
// V2:            linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[X]], %{{.*}} : tensor<1x8xf32>, tensor<1x8xf32>)
func.func @expand_beside_tile_and_fuse_input(%a: tensor<8xf32>, %l: tensor<1x4xf32>, %r: tensor<4x8xf32>) -> tensor<1x8xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  %mm = linalg.matmul ins(%l, %r : tensor<1x4xf32>, tensor<4x8xf32>) outs(%f : tensor<1x8xf32>) -> tensor<1x8xf32>
  %x = tensor.expand_shape %a [[0, 1]] output_shape [1, 8] : tensor<8xf32> into tensor<1x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mm : tensor<1x8xf32>, tensor<1x8xf32>) outs(%e : tensor<1x8xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.addf %v, %w : f32
    linalg.yield %s : f32
  } -> tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#vec = affine_map<(d0) -> (d0)>
#red = affine_map<(d0) -> ()>
// Base linearizes a unit-dim collapse_shape of a generic's result into a
// copy of the generic writing the collapsed shape; the original stays for
// its other user. The PR leaves the collapse_shape.
// CHECK-LABEL: func.func @unit_dim_collapse_writer
// BASE:          linalg.generic {{.*}} outs(%{{.*}} : tensor<1x8xf32>)
// BASE:          %[[COPY:.+]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<8xf32>)
// BASE:          linalg.generic {{.*}} ins(%[[COPY]] : tensor<8xf32>)
// V2:            %[[G:.+]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x8xf32>)
// V2:            tensor.collapse_shape %[[G]]
func.func @unit_dim_collapse_writer(%a: tensor<1x8xf32>, %init: tensor<f32>) -> (tensor<1x8xf32>, tensor<f32>) {
  %e = tensor.empty() : tensor<1x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<1x8xf32>) outs(%e : tensor<1x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = math.exp %v : f32
    linalg.yield %s : f32
  } -> tensor<1x8xf32>
  %c = tensor.collapse_shape %0 [[0, 1]] : tensor<1x8xf32> into tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [#vec, #red], iterator_types = ["reduction"]}
      ins(%c : tensor<8xf32>) outs(%init : tensor<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %0, %1 : tensor<1x8xf32>, tensor<f32>
}
