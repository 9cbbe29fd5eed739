// FormSplitReductionDispatches (IREE's FormSplitReductionDispatches): an op
// marked `iree_linalg_ext.split_reduction` becomes a partial-reduction
// scf.forall in a dispatch of its own; the merge op stays outside.
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-form-split-reduction-dispatches))' | FileCheck %s

// One reduction loop split by 128: the forall steps over the reduction in
// 128-element chunks, each writing one column of the partial results, which
// a linalg.reduce outside the dispatch merges into the original init.
// CHECK-LABEL: func.func @split_1d
// CHECK:         %[[FILL:.+]] = linalg.fill {{.*}} -> tensor<?xf32>
// CHECK:         %[[PARTIAL:.+]] = dispatch.region -> (tensor<?x1024xf32>)
// CHECK:           scf.forall (%{{.+}}) = (0) to (131072) step (128)
// CHECK:             linalg.generic
// CHECK-SAME:          iterator_types = ["parallel", "reduction"]
// CHECK-SAME:          ins(%{{.+}} : tensor<?x128xf32>)
// CHECK:             tensor.parallel_insert_slice
// CHECK:         } {dispatchlab.root}
// CHECK:         linalg.reduce ins(%[[PARTIAL]] : tensor<?x1024xf32>) outs(%[[FILL]] : tensor<?xf32>) dimensions = [1]
// CHECK-NOT:     iree_linalg_ext.split_reduction
func.func @split_1d(%arg0: tensor<?x131072xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %d0 = tensor.dim %arg0, %c0 : tensor<?x131072xf32>
  %empty = tensor.empty(%d0) : tensor<?xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"],
      iree_linalg_ext.split_reduction = [128]}
      ins(%arg0 : tensor<?x131072xf32>) outs(%fill : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %add = arith.addf %in, %out : f32
    linalg.yield %add : f32
  } -> tensor<?xf32>
  return %sum : tensor<?xf32>
}

// -----

// One size per reduction loop: both loops of a 2-D reduction are split and
// the partial results keep one dimension per split loop.
// CHECK-LABEL: func.func @split_2d
// CHECK:         %[[PARTIAL:.+]] = dispatch.region -> (tensor<8x16x2xf32>)
// CHECK:           scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (2048, 128) step (128, 64)
// CHECK:         linalg.reduce ins(%[[PARTIAL]] : tensor<8x16x2xf32>) {{.*}} dimensions = [1, 2]
func.func @split_2d(%arg0: tensor<8x2048x128xf32>) -> tensor<8xf32> {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>],
      iterator_types = ["parallel", "reduction", "reduction"],
      iree_linalg_ext.split_reduction = [128, 64]}
      ins(%arg0 : tensor<8x2048x128xf32>) outs(%fill : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %add = arith.addf %in, %out : f32
    linalg.yield %add : f32
  } -> tensor<8xf32>
  return %sum : tensor<8xf32>
}

// -----

// IREE's fusion control: a bit-extend feeding an input is fused into the
// loop (it is computed per chunk); any other producer of an input stays
// outside the dispatch.
// CHECK-LABEL: func.func @fuse_extend_not_elementwise
// CHECK:         %[[EXP:.+]] = linalg.generic {{.*}} ins(%{{.+}} : tensor<4x1024xf32>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      math.exp
// CHECK:         dispatch.region
// CHECK:           scf.forall
// CHECK:             %[[EXT:.+]] = linalg.generic {{.*}} ins(%{{.+}} : tensor<4x128xf16>)
// CHECK:               arith.extf
// CHECK:             linalg.generic {{.*}} ins(%[[EXT]], %{{.+}} : tensor<4x128xf32>, tensor<4x128xf32>)
// CHECK-NOT:     arith.extf
// CHECK:         linalg.reduce
func.func @fuse_extend_not_elementwise(%a: tensor<4x1024xf16>, %b: tensor<4x1024xf32>) -> tensor<4xf32> {
  %cst = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4x1024xf32>
  %ext = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x1024xf16>) outs(%e2 : tensor<4x1024xf32>) {
  ^bb0(%in: f16, %out: f32):
    %w = arith.extf %in : f16 to f32
    linalg.yield %w : f32
  } -> tensor<4x1024xf32>
  %exp = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<4x1024xf32>) outs(%e2 : tensor<4x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<4x1024xf32>
  %empty = tensor.empty() : tensor<4xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<4xf32>) -> tensor<4xf32>
  %dot = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"],
      iree_linalg_ext.split_reduction = [128]}
      ins(%ext, %exp : tensor<4x1024xf32>, tensor<4x1024xf32>) outs(%fill : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %out : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %dot : tensor<4xf32>
}

// -----

// Without the attribute nothing is split.
// CHECK-LABEL: func.func @unmarked
// CHECK-NOT:     dispatch.region
// CHECK-NOT:     scf.forall
// CHECK:         linalg.generic
// CHECK-NOT:     linalg.reduce
func.func @unmarked(%arg0: tensor<4x1024xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %sum = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%arg0 : tensor<4x1024xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %add = arith.addf %in, %out : f32
    linalg.yield %add : f32
  } -> tensor<4xf32>
  return %sum : tensor<4xf32>
}
