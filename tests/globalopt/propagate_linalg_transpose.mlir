// RUN: dispatchlab-opt %s --split-input-file --mlir-print-local-scope --pass-pipeline='builtin.module(func.func(dispatchlab-propagate-linalg-transpose))' | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file --mlir-print-local-scope --pass-pipeline='builtin.module(func.func(dispatchlab-propagate-linalg-transpose{aggressive-transpose-propagation=true}))' | FileCheck %s --check-prefix=AGGR
// RUN: dispatchlab-opt %s --split-input-file --mlir-print-local-scope --pass-pipeline='builtin.module(func.func(dispatchlab-propagate-linalg-transpose{edge-reshape-propagation=true}))' | FileCheck %s --check-prefix=EDGE

// One case per rule of PropagateLinalgTranspose (IREE's GlobalOptimization
// pass of that name; aggressive-transpose-propagation and
// edge-reshape-propagation are its enable-aggressive-propagation and
// enable-edge-reshape-propagation), and cases where a rule must not fire.

// Specialization: a copy generic through two permutation maps is a
// linalg.transpose (output dim i reads input dim perm[i]).
func.func @specialize(%x: tensor<4x8x2xf32>) -> tensor<2x4x8xf32> {
  %e = tensor.empty() : tensor<2x4x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (b, c, a)>, affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<4x8x2xf32>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<2x4x8xf32>
  return %t : tensor<2x4x8xf32>
}
// CHECK-LABEL: func.func @specialize(
//       CHECK:   %[[T:.+]] = linalg.transpose
//  CHECK-SAME:     permutation = [2, 0, 1]
//       CHECK:   return %[[T]]

// -----

// Specialization must not fire: the body computes, so it is no copy.
func.func @no_specialize_computing(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(a, b) -> (b, a)>, affine_map<(a, b) -> (a, b)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}
// CHECK-LABEL: func.func @no_specialize_computing(
//   CHECK-NOT:   linalg.transpose
//       CHECK:   arith.negf

// -----

// ComposeTransposes: two transposes that undo each other vanish.
func.func @compose_inverse(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %e1 = tensor.empty() : tensor<3x4x2xf32>
  %t1 = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%e1 : tensor<3x4x2xf32>) permutation = [1, 2, 0]
  %e2 = tensor.empty() : tensor<2x3x4xf32>
  %t2 = linalg.transpose ins(%t1 : tensor<3x4x2xf32>) outs(%e2 : tensor<2x3x4xf32>) permutation = [2, 0, 1]
  return %t2 : tensor<2x3x4xf32>
}
// CHECK-LABEL: func.func @compose_inverse(
//  CHECK-SAME:     %[[X:[a-zA-Z0-9]+]]: tensor<2x3x4xf32>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   return %[[X]]

// -----

// ComposeTransposes: two transposes become one, the composed permutation.
func.func @compose(%x: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  %e1 = tensor.empty() : tensor<3x2x4xf32>
  %t1 = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%e1 : tensor<3x2x4xf32>) permutation = [1, 0, 2]
  %e2 = tensor.empty() : tensor<4x3x2xf32>
  %t2 = linalg.transpose ins(%t1 : tensor<3x2x4xf32>) outs(%e2 : tensor<4x3x2xf32>) permutation = [2, 0, 1]
  return %t2 : tensor<4x3x2xf32>
}
// CHECK-LABEL: func.func @compose(
//  CHECK-SAME:     %[[X:[a-zA-Z0-9]+]]: tensor<2x3x4xf32>
//       CHECK:   %[[T:.+]] = linalg.transpose ins(%[[X]] : tensor<2x3x4xf32>)
//  CHECK-SAME:     permutation = [2, 1, 0]
//   CHECK-NOT:   linalg.transpose
//       CHECK:   return %[[T]]

// -----

// NamedOpConversion: a transposed matmul RHS becomes matmul_transpose_b
// (matmul with the transposed-B maps), a transposed LHS matmul_transpose_a.
func.func @matmul_transpose_b(%a: tensor<4x8xf32>, %bt: tensor<16x8xf32>, %init: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %b = linalg.transpose ins(%bt : tensor<16x8xf32>) outs(%e : tensor<8x16xf32>) permutation = [1, 0]
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %mm : tensor<4x16xf32>
}
// CHECK-LABEL: func.func @matmul_transpose_b(
//  CHECK-SAME:     %[[A:[a-zA-Z0-9]+]]: tensor<4x8xf32>, %[[BT:[a-zA-Z0-9]+]]: tensor<16x8xf32>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
//  CHECK-SAME:     ins(%[[A]], %[[BT]] :

// -----

// NamedOpConversion on batch_matmul: a transposed LHS (inner dims) becomes
// batch_matmul_transpose_a.
func.func @batch_matmul_transpose_a(%at: tensor<2x8x4xf32>, %b: tensor<2x8x16xf32>, %init: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  %e = tensor.empty() : tensor<2x4x8xf32>
  %a = linalg.transpose ins(%at : tensor<2x8x4xf32>) outs(%e : tensor<2x4x8xf32>) permutation = [0, 2, 1]
  %mm = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%init : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %mm : tensor<2x4x16xf32>
}
// CHECK-LABEL: func.func @batch_matmul_transpose_a(
//  CHECK-SAME:     %[[AT:[a-zA-Z0-9]+]]: tensor<2x8x4xf32>, %[[B:[a-zA-Z0-9]+]]: tensor<2x8x16xf32>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
//  CHECK-SAME:     ins(%[[AT]], %[[B]] :

// -----

// NamedOpConversion must not fire: a batch-dim transpose is no transpose_a;
// without aggressive propagation the batch_matmul is not generalized, so the
// transpose stays. With it, the contraction reads the untransposed LHS.
func.func @batch_matmul_batch_transpose(%at: tensor<4x2x8xf32>, %b: tensor<2x8x16xf32>, %init: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  %e = tensor.empty() : tensor<2x4x8xf32>
  %a = linalg.transpose ins(%at : tensor<4x2x8xf32>) outs(%e : tensor<2x4x8xf32>) permutation = [1, 0, 2]
  %mm = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%init : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %mm : tensor<2x4x16xf32>
}
// CHECK-LABEL: func.func @batch_matmul_batch_transpose(
//       CHECK:   linalg.transpose
//  CHECK-SAME:     permutation = [1, 0, 2]
//       CHECK:   linalg.batch_matmul ins
// AGGR-LABEL: func.func @batch_matmul_batch_transpose(
//  AGGR-SAME:     %[[AT:[a-zA-Z0-9]+]]: tensor<4x2x8xf32>
//   AGGR-NOT:   linalg.transpose
//       AGGR:   linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>
//  AGGR-SAME:     ins(%[[AT]],

// -----

// FuseTransposeThroughGenericReduction (IREE's successor of
// FuseTransposeThroughGenericContraction): a generic batch matmul reads its
// inner-dims-transposed RHS through a permuted map, in loop order
// (b, n, k), even though the transpose has a second use.
#lhs = affine_map<(b, m, n, k) -> (b, m, k)>
#rhs = affine_map<(b, m, n, k) -> (b, k, n)>
#out = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @generic_contraction(%a: tensor<2x4x8xf32>, %bt: tensor<2x16x8xf32>, %init: tensor<2x4x16xf32>) -> (tensor<2x4x16xf32>, tensor<2x8x16xf32>) {
  %e = tensor.empty() : tensor<2x8x16xf32>
  %b = linalg.transpose ins(%bt : tensor<2x16x8xf32>) outs(%e : tensor<2x8x16xf32>) permutation = [0, 2, 1]
  %mm = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%init : tensor<2x4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x4x16xf32>
  return %mm, %b : tensor<2x4x16xf32>, tensor<2x8x16xf32>
}
// CHECK-LABEL: func.func @generic_contraction(
//  CHECK-SAME:     %[[A:[a-zA-Z0-9]+]]: tensor<2x4x8xf32>, %[[BT:[a-zA-Z0-9]+]]: tensor<2x16x8xf32>
//       CHECK:   %[[T:.+]] = linalg.transpose
//       CHECK:   %[[MM:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
//  CHECK-SAME:     ins(%[[A]], %[[BT]] :
//       CHECK:   return %[[MM]], %[[T]]

// -----

// FuseTransposeWithLinalgOpConsumer: a reduction reads the untransposed
// tensor through a permuted input map.
func.func @fuse_into_consumer(%x: tensor<8x4xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %t = linalg.transpose ins(%x : tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) permutation = [1, 0]
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%t : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @fuse_into_consumer(
//  CHECK-SAME:     %[[X:[a-zA-Z0-9]+]]: tensor<8x4xf32>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>]
//  CHECK-SAME:     ins(%[[X]] : tensor<8x4xf32>)

// -----

// Neither FuseTransposeWithLinalgOpConsumer (the transpose has a second
// use, which would keep it alive anyway) nor the reduction rule (the
// permuted map (d1, d0) would read out of loop order) fires.
func.func @no_fuse_multi_use(%x: tensor<8x4xf32>, %init: tensor<4xf32>) -> (tensor<4xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %t = linalg.transpose ins(%x : tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) permutation = [1, 0]
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%t : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r, %t : tensor<4xf32>, tensor<4x8xf32>
}
// CHECK-LABEL: func.func @no_fuse_multi_use(
//       CHECK:   %[[T:.+]] = linalg.transpose
//       CHECK:   linalg.generic {{.*}} ins(%[[T]] :

// -----

// FuseTransposeWithProducerLinalgOp: a reduction writes its result
// transposed; its loops are interchanged so the result is written in order.
// Its fill init is transposed too (the fill folds the transpose away).
func.func @fuse_into_producer(%x: tensor<4x8x16xf32>) -> tensor<8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ei = tensor.empty() : tensor<4x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%ei : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<4x8x16xf32>) outs(%init : tensor<4x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%r : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  return %t : tensor<8x4xf32>
}
// CHECK-LABEL: func.func @fuse_into_producer(
//  CHECK-SAME:     %[[X:[a-zA-Z0-9]+]]: tensor<4x8x16xf32>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   %[[F:.+]] = linalg.fill {{.*}} -> tensor<8x4xf32>
//       CHECK:   %[[R:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
//  CHECK-SAME:     ins(%[[X]] : tensor<4x8x16xf32>) outs(%[[F]] : tensor<8x4xf32>)
//       CHECK:   return %[[R]]

// -----

// FuseTransposeWithProducerLinalgOp must not fire on a named contraction
// without aggressive propagation (no transpose_c variant exists); with it,
// the matmul is generalized and writes its result transposed.
func.func @no_fuse_into_matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<16x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ei = tensor.empty() : tensor<4x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%ei : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e = tensor.empty() : tensor<16x4xf32>
  %t = linalg.transpose ins(%mm : tensor<4x16xf32>) outs(%e : tensor<16x4xf32>) permutation = [1, 0]
  return %t : tensor<16x4xf32>
}
// CHECK-LABEL: func.func @no_fuse_into_matmul(
//       CHECK:   linalg.matmul
//       CHECK:   linalg.transpose
// AGGR-LABEL: func.func @no_fuse_into_matmul(
//   AGGR-NOT:   linalg.transpose
//       AGGR:   linalg.generic
//  AGGR-SAME:     outs(%{{.+}} : tensor<16x4xf32>)

// -----

// BubbleTransposeThroughUnaryElementwiseDpsInit: the transpose of an
// elementwise result moves onto its one reordered input, the reduction's
// result, and then fuses into the reduction (producer rule); the broadcast
// bias absorbs the permutation in its map.
func.func @bubble_through_elementwise(%x: tensor<4x8x16xf32>, %bias: tensor<8xf32>) -> tensor<8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ei = tensor.empty() : tensor<4x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%ei : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<4x8x16xf32>) outs(%init : tensor<4x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %add = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%r, %bias : tensor<4x8xf32>, tensor<8xf32>) outs(%ei : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %et = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%add : tensor<4x8xf32>) outs(%et : tensor<8x4xf32>) permutation = [1, 0]
  return %t : tensor<8x4xf32>
}
// CHECK-LABEL: func.func @bubble_through_elementwise(
//  CHECK-SAME:     %[[X:[a-zA-Z0-9]+]]: tensor<4x8x16xf32>, %[[BIAS:[a-zA-Z0-9]+]]: tensor<8xf32>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   %[[R:.+]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x8x16xf32>) outs(%{{.+}} : tensor<8x4xf32>)
//       CHECK:   %[[ADD:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]
//  CHECK-SAME:     ins(%[[R]], %[[BIAS]] : tensor<8x4xf32>, tensor<8xf32>)
//       CHECK:   return %[[ADD]]

// -----

// SinkTransposeThroughUnaryElementwiseInput: a transposed identity-mapped
// input is read untransposed and the result is transposed instead, where
// it composes with the transpose after it.
func.func @sink_through_elementwise(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.negf %a : f32
    linalg.yield %v : f32
  } -> tensor<8x4xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %back = linalg.transpose ins(%n : tensor<8x4xf32>) outs(%e2 : tensor<4x8xf32>) permutation = [1, 0]
  return %back : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @sink_through_elementwise(
//  CHECK-SAME:     %[[X:[a-zA-Z0-9]+]]: tensor<4x8xf32>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   %[[N:.+]] = linalg.generic
//  CHECK-SAME:     ins(%[[X]] : tensor<4x8xf32>)
//       CHECK:   return %[[N]]

// -----

// SinkTransposeThroughExtractSlice: a slice contiguous in the untransposed
// tensor is taken there; only the slice is transposed.
func.func @sink_through_slice(%x: tensor<1x64x32xf32>) -> tensor<1x32x16xf32> {
  %e = tensor.empty() : tensor<1x32x64xf32>
  %t = linalg.transpose ins(%x : tensor<1x64x32xf32>) outs(%e : tensor<1x32x64xf32>) permutation = [0, 2, 1]
  %s = tensor.extract_slice %t[0, 0, 16] [1, 32, 16] [1, 1, 1] : tensor<1x32x64xf32> to tensor<1x32x16xf32>
  return %s : tensor<1x32x16xf32>
}
// CHECK-LABEL: func.func @sink_through_slice(
//  CHECK-SAME:     %[[X:[a-zA-Z0-9]+]]: tensor<1x64x32xf32>
//       CHECK:   %[[S:.+]] = tensor.extract_slice %[[X]][0, 16, 0] [1, 16, 32] [1, 1, 1] : tensor<1x64x32xf32> to tensor<1x16x32xf32>
//       CHECK:   %[[T:.+]] = linalg.transpose ins(%[[S]] : tensor<1x16x32xf32>)
//  CHECK-SAME:     permutation = [0, 2, 1]
//       CHECK:   return %[[T]]

// -----

// SinkTransposeThroughExtractSlice, rank-reducing: the dropped unit dim
// leaves the transpose's permutation.
func.func @sink_through_rank_reducing_slice(%x: tensor<64x1x32xf32>) -> tensor<32x16xf32> {
  %e = tensor.empty() : tensor<1x32x64xf32>
  %t = linalg.transpose ins(%x : tensor<64x1x32xf32>) outs(%e : tensor<1x32x64xf32>) permutation = [1, 2, 0]
  %s = tensor.extract_slice %t[0, 0, 0] [1, 32, 16] [1, 1, 1] : tensor<1x32x64xf32> to tensor<32x16xf32>
  return %s : tensor<32x16xf32>
}
// CHECK-LABEL: func.func @sink_through_rank_reducing_slice(
//  CHECK-SAME:     %[[X:[a-zA-Z0-9]+]]: tensor<64x1x32xf32>
//       CHECK:   %[[S:.+]] = tensor.extract_slice %[[X]][0, 0, 0] [16, 1, 32] [1, 1, 1] : tensor<64x1x32xf32> to tensor<16x32xf32>
//       CHECK:   %[[T:.+]] = linalg.transpose ins(%[[S]] : tensor<16x32xf32>)
//  CHECK-SAME:     permutation = [1, 0]
//       CHECK:   return %[[T]]

// -----

// SinkTransposeThroughExtractSlice must not fire: the slice is strided in
// the untransposed tensor (a column block of rows), so it stays after the
// transpose.
func.func @no_sink_through_strided_slice(%x: tensor<64x32xf32>) -> tensor<16x64xf32> {
  %e = tensor.empty() : tensor<32x64xf32>
  %t = linalg.transpose ins(%x : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  %s = tensor.extract_slice %t[8, 0] [16, 64] [1, 1] : tensor<32x64xf32> to tensor<16x64xf32>
  return %s : tensor<16x64xf32>
}
// CHECK-LABEL: func.func @no_sink_through_strided_slice(
//       CHECK:   %[[T:.+]] = linalg.transpose
//       CHECK:   tensor.extract_slice %[[T]]

// -----

// SinkTransposeThroughExpandShape: the untransposed tensor is expanded
// group-wise and the expanded dims transposed. By default (IREE's too) it
// must not fire here, at the program's edge: the expand_shape keeps no two
// Linalg or tensor ops apart.
func.func @sink_through_expand(%x: tensor<64x12xf32>) -> tensor<3x4x64xf32> {
  %e = tensor.empty() : tensor<12x64xf32>
  %t = linalg.transpose ins(%x : tensor<64x12xf32>) outs(%e : tensor<12x64xf32>) permutation = [1, 0]
  %x2 = tensor.expand_shape %t [[0, 1], [2]] output_shape [3, 4, 64] : tensor<12x64xf32> into tensor<3x4x64xf32>
  return %x2 : tensor<3x4x64xf32>
}
// CHECK-LABEL: func.func @sink_through_expand(
//       CHECK:   %[[T:.+]] = linalg.transpose
//       CHECK:   tensor.expand_shape %[[T]]
// EDGE-LABEL: func.func @sink_through_expand(
//  EDGE-SAME:     %[[X:[a-zA-Z0-9]+]]: tensor<64x12xf32>
//       EDGE:   %[[E:.+]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [64, 3, 4] : tensor<64x12xf32> into tensor<64x3x4xf32>
//       EDGE:   %[[T:.+]] = linalg.transpose ins(%[[E]] : tensor<64x3x4xf32>)
//  EDGE-SAME:     permutation = [1, 2, 0]
//       EDGE:   return %[[T]]

// -----

// SinkTransposeThroughExpandShape where the expand_shape keeps the
// transpose from a reduction: the transpose sinks below it, then fuses
// into the reduction's input map (consumer rule).
func.func @sink_through_expand_into_reduction(%x: tensor<64x12xf32>, %init: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %e = tensor.empty() : tensor<12x64xf32>
  %t = linalg.transpose ins(%x : tensor<64x12xf32>) outs(%e : tensor<12x64xf32>) permutation = [1, 0]
  %x2 = tensor.expand_shape %t [[0, 1], [2]] output_shape [3, 4, 64] : tensor<12x64xf32> into tensor<3x4x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x2 : tensor<3x4x64xf32>) outs(%init : tensor<3x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
// CHECK-LABEL: func.func @sink_through_expand_into_reduction(
//  CHECK-SAME:     %[[X:[a-zA-Z0-9]+]]: tensor<64x12xf32>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   %[[E:.+]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [64, 3, 4] : tensor<64x12xf32> into tensor<64x3x4xf32>
//       CHECK:   linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
//  CHECK-SAME:     ins(%[[E]] : tensor<64x3x4xf32>)

// -----

// BubbleTransposeThroughCollapseShape: transposing collapsed groups is
// transposing the uncollapsed dims group-wise before the collapse. Not by
// default here, at the program's edge (as above).
func.func @bubble_through_collapse(%x: tensor<3x4x64xf32>) -> tensor<64x12xf32> {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<3x4x64xf32> into tensor<12x64xf32>
  %e = tensor.empty() : tensor<64x12xf32>
  %t = linalg.transpose ins(%c : tensor<12x64xf32>) outs(%e : tensor<64x12xf32>) permutation = [1, 0]
  return %t : tensor<64x12xf32>
}
// CHECK-LABEL: func.func @bubble_through_collapse(
//       CHECK:   %[[C:.+]] = tensor.collapse_shape
//       CHECK:   linalg.transpose ins(%[[C]]
// EDGE-LABEL: func.func @bubble_through_collapse(
//  EDGE-SAME:     %[[X:[a-zA-Z0-9]+]]: tensor<3x4x64xf32>
//       EDGE:   %[[T:.+]] = linalg.transpose ins(%[[X]] : tensor<3x4x64xf32>)
//  EDGE-SAME:     permutation = [2, 0, 1]
//       EDGE:   %[[C:.+]] = tensor.collapse_shape %[[T]] {{\[}}[0], [1, 2]] : tensor<64x3x4xf32> into tensor<64x12xf32>
//       EDGE:   return %[[C]]

// -----

// Attention heads: the bias add's result is split into heads
// (expand_shape) and the heads moved to the front (transpose [1, 0, 2]).
// The expand_shape moves up through the add and the transpose bubbles
// through the add onto the matmul result, where it stops (the matmul is
// named and not generalized by default); the last phase sinks it back below
// the add (unary elementwise rule). Net: the reshape moved, the transpose
// stays, as in IREE.
func.func @attention_heads(%a: tensor<128x64xf32>, %w: tensor<64x64xf32>, %bias: tensor<64xf32>) -> tensor<4x128x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ei = tensor.empty() : tensor<128x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%ei : tensor<128x64xf32>) -> tensor<128x64xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<128x64xf32>, tensor<64x64xf32>) outs(%init : tensor<128x64xf32>) -> tensor<128x64xf32>
  %e = tensor.empty() : tensor<128x64xf32>
  %add = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<128x64xf32>, tensor<64xf32>) outs(%e : tensor<128x64xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    linalg.yield %s : f32
  } -> tensor<128x64xf32>
  %heads = tensor.expand_shape %add [[0], [1, 2]] output_shape [128, 4, 16] : tensor<128x64xf32> into tensor<128x4x16xf32>
  %et = tensor.empty() : tensor<4x128x16xf32>
  %t = linalg.transpose ins(%heads : tensor<128x4x16xf32>) outs(%et : tensor<4x128x16xf32>) permutation = [1, 0, 2]
  return %t : tensor<4x128x16xf32>
}
// CHECK-LABEL: func.func @attention_heads(
//       CHECK:   %[[MM:.+]] = linalg.matmul
//       CHECK:   %[[X:.+]] = tensor.expand_shape %[[MM]]
//       CHECK:   %[[ADD:.+]] = linalg.generic
//  CHECK-SAME:     ins(%[[X]], %{{.+}} : tensor<128x4x16xf32>, tensor<4x16xf32>)
//       CHECK:   %[[T:.+]] = linalg.transpose ins(%[[ADD]] : tensor<128x4x16xf32>)
//       CHECK:   return %[[T]]
// With aggressive propagation the matmul is generalized and the transpose
// fuses into it: it writes its result heads-first.
// AGGR-LABEL: func.func @attention_heads(
//   AGGR-NOT:   linalg.transpose
//       AGGR:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
//  AGGR-SAME:     outs(%{{.+}} : tensor<4x128x16xf32>)
//       AGGR:   return

// -----

// No rule fires inside a pre-formed dispatch.
func.func @inside_dispatch(%a: tensor<4x8xf32>, %bt: tensor<16x8xf32>, %init: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = dispatch.region -> (tensor<4x16xf32>) {
    %e = tensor.empty() : tensor<8x16xf32>
    %b = linalg.transpose ins(%bt : tensor<16x8xf32>) outs(%e : tensor<8x16xf32>) permutation = [1, 0]
    %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
    dispatch.return %mm : tensor<4x16xf32>
  }
  return %r : tensor<4x16xf32>
}
// CHECK-LABEL: func.func @inside_dispatch(
//       CHECK:   dispatch.region
//       CHECK:     linalg.transpose
//       CHECK:     linalg.matmul ins
