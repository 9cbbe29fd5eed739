// Dispatch formation on IREE's compat ops (compat/): where barriers, bitcasts,
// encodings and control flow land. One case per rule, named after the IREE
// function that decides it.
//
// Prefixes: CHECK = default knobs and aggressive-fusion (the rules hold
// under both);
// CLONE = form dispatch regions, then clone producers into them.
//
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions))' \
// RUN:   | FileCheck %s --check-prefix=CHECK
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions{aggressive-fusion=true}))' \
// RUN:   | FileCheck %s --check-prefix=CHECK
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions,dispatchlab-clone-producers-into-dispatch-regions))' \
// RUN:   | FileCheck %s --check-prefix=CLONE

// util.optimization_barrier is no fusion op (isFusableWithProducer needs
// LinalgFusionOpInterface on both sides): the reduction root does not take
// the exp behind the barrier, which in aggressive mode it would take
// through its input.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @optimization_barrier_blocks_fusion(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = math.exp %a : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %b = util.optimization_barrier %exp : tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%b : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %sum : tensor<4xf32>
}
// CHECK-LABEL: func.func @optimization_barrier_blocks_fusion(
//       CHECK:   %[[EXP:.+]] = dispatch.region
//       CHECK:     math.exp
//       CHECK:   %[[B:.+]] = util.optimization_barrier %[[EXP]]
//       CHECK:   dispatch.region
//       CHECK:     linalg.generic {{.*}} ins(%[[B]] :
//       CHECK:   return

// -----

// The compute barrier is no fusion op either: the transpose behind
// compute_barrier.start gets its own dispatch, the matmul another.

func.func @compute_barrier_blocks_fusion(%a: tensor<128x64xf32>, %b: tensor<128x64xf32>)
    -> tensor<128x128xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<128x64xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<64x128xf32>
  %barrier = iree_tensor_ext.compute_barrier.start %t : tensor<64x128xf32> -> tensor<64x128xf32>
  %e1 = tensor.empty() : tensor<128x128xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e1 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %mm = linalg.matmul ins(%a, %barrier : tensor<128x64xf32>, tensor<64x128xf32>)
      outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %mm : tensor<128x128xf32>
}
// CHECK-LABEL: func.func @compute_barrier_blocks_fusion(
//       CHECK:   %[[T:.+]] = dispatch.region
//       CHECK:     linalg.generic
//       CHECK:   %[[B:.+]] = iree_tensor_ext.compute_barrier.start %[[T]]
//       CHECK:   dispatch.region
//       CHECK:     linalg.matmul {{.*}}ins(%{{.+}}, %[[B]] :
//       CHECK:   return

// -----

// A bitcast is not cloneable (IREE's isUncloneableOp: not one of the
// cloneable dialects) and no fusion op: it reads the dispatch's result.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @bitcast_stays_outside(%x: tensor<4x32xf32>) -> tensor<4x32xi32> {
  %e = tensor.empty() : tensor<4x32xf32>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x32xf32>) outs(%e : tensor<4x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.negf %a : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %cast = iree_tensor_ext.bitcast %neg : tensor<4x32xf32> -> tensor<4x32xi32>
  return %cast : tensor<4x32xi32>
}
// CHECK-LABEL: func.func @bitcast_stays_outside(
//       CHECK:   %[[D:.+]] = dispatch.region
//       CHECK:     arith.negf
//       CHECK:     dispatch.return
//       CHECK:   iree_tensor_ext.bitcast %[[D]]
//       CHECK:   return

// -----

// set_encoding is pack-like (IREE's isPackLikeOp): it joins the dispatch of
// a Linalg producer whose result map is the identity.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @set_encoding_joins_producer(%x: tensor<4x8xf32>)
    -> tensor<4x8xf32, #iree_encoding.testing<>> {
  %e = tensor.empty() : tensor<4x8xf32>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.negf %a : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %enc = iree_encoding.set_encoding %neg : tensor<4x8xf32> -> tensor<4x8xf32, #iree_encoding.testing<>>
  return %enc : tensor<4x8xf32, #iree_encoding.testing<>>
}
// CHECK-LABEL: func.func @set_encoding_joins_producer(
//       CHECK:   %[[D:.+]] = dispatch.region
//       CHECK:     %[[NEG:.+]] = linalg.generic
//       CHECK:     %[[ENC:.+]] = iree_encoding.set_encoding %[[NEG]]
//       CHECK:     dispatch.return %[[ENC]]
//       CHECK:   return %[[D]]

// -----

// ... but not one whose result map transposes: the CPU backend cannot
// handle a transpose between the fused ops.

func.func @set_encoding_refuses_transposed_producer(%x: tensor<8x4xf32>)
    -> tensor<4x8xf32, #iree_encoding.testing<>> {
  %e = tensor.empty() : tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4x8xf32>
  %enc = iree_encoding.set_encoding %t : tensor<4x8xf32> -> tensor<4x8xf32, #iree_encoding.testing<>>
  return %enc : tensor<4x8xf32, #iree_encoding.testing<>>
}
// CHECK-LABEL: func.func @set_encoding_refuses_transposed_producer(
//       CHECK:   %[[D:.+]] = dispatch.region
//       CHECK:     linalg.generic
//   CHECK-NOT:     iree_encoding.set_encoding
//       CHECK:     dispatch.return
//       CHECK:   iree_encoding.set_encoding %[[D]]

// -----

// A pad root takes its set_encoding consumer (pad-like producers always fuse
// with a pack-like consumer).

func.func @set_encoding_joins_pad(%x: tensor<3x5xf32>)
    -> tensor<4x8xf32, #iree_encoding.testing<>> {
  %cst = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0] high[1, 3] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<3x5xf32> to tensor<4x8xf32>
  %enc = iree_encoding.set_encoding %pad : tensor<4x8xf32> -> tensor<4x8xf32, #iree_encoding.testing<>>
  return %enc : tensor<4x8xf32, #iree_encoding.testing<>>
}
// CHECK-LABEL: func.func @set_encoding_joins_pad(
//       CHECK:   %[[D:.+]] = dispatch.region
//       CHECK:     %[[PAD:.+]] = tensor.pad
//       CHECK:     %[[ENC:.+]] = iree_encoding.set_encoding %[[PAD]]
//       CHECK:     dispatch.return %[[ENC]]
//       CHECK:   return %[[D]]

// -----

// unset_encoding is cloneable (IREE's isCloneableIntoDispatchOp): formation
// leaves it outside, and each consumer dispatch gets its own copy.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @unset_encoding_cloned_into_consumers(
    %x: tensor<4x8xf32, #iree_encoding.testing<>>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %dec = iree_encoding.unset_encoding %x : tensor<4x8xf32, #iree_encoding.testing<>> -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dec : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.negf %a : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dec : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = math.exp %a : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %neg, %exp : tensor<4x8xf32>, tensor<4x8xf32>
}
// CHECK-LABEL: func.func @unset_encoding_cloned_into_consumers(
//       CHECK:   iree_encoding.unset_encoding
//       CHECK:   dispatch.region
//   CHECK-NOT:     iree_encoding.unset_encoding
//       CHECK:     arith.negf
// CLONE-LABEL: func.func @unset_encoding_cloned_into_consumers(
//   CLONE-NOT:   iree_encoding.unset_encoding
//       CLONE:   dispatch.region
//       CLONE:     %[[DEC0:.+]] = iree_encoding.unset_encoding
//       CLONE:     linalg.generic {{.*}} ins(%[[DEC0]] :
//       CLONE:   dispatch.region
//       CLONE:     %[[DEC1:.+]] = iree_encoding.unset_encoding
//       CLONE:     linalg.generic {{.*}} ins(%[[DEC1]] :
//       CLONE:   return

// -----

// Producers fuse only within their block (fuseRootsWithProducers): after a
// cf.br the reduction root cannot take the exp of the entry block.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @no_fusion_across_cf_br(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = math.exp %a : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  cf.br ^bb1
^bb1:
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %sum : tensor<4xf32>
}
// CHECK-LABEL: func.func @no_fusion_across_cf_br(
//       CHECK:   %[[EXP:.+]] = dispatch.region
//       CHECK:     math.exp
//       CHECK:   cf.br ^bb1
//       CHECK: ^bb1:
//       CHECK:   dispatch.region
//       CHECK:     linalg.generic {{.*}} ins(%[[EXP]] :
//       CHECK:   return

// -----

// flow.tensor.update and flow.tensor.dynamic_constant are no fusion ops and
// not cloneable (IREE's isUncloneableOp): the update sits between the
// dispatch of its producer and that of its consumer, and the dynamic
// constant stays outside the matmul's dispatch.

#id = affine_map<(d0) -> (d0)>
func.func @flow_tensor_ops_stay_outside(%x: tensor<4xf32>, %t: tensor<8xf32>, %i: index,
                                        %a: tensor<?x3xf32>) -> (tensor<8xf32>, tensor<?x?xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.negf %v : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %up = flow.tensor.update %neg, %t[%i] : tensor<4xf32> -> %t as tensor<8xf32>
  %e8 = tensor.empty() : tensor<8xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%up : tensor<8xf32>) outs(%e8 : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = math.exp %v : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %c = flow.tensor.dynamic_constant dense<1.0> : tensor<3x5xf32> -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x3xf32>
  %n = tensor.dim %c, %c1 : tensor<?x?xf32>
  %em = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%cst : f32) outs(%em : tensor<?x?xf32>) -> tensor<?x?xf32>
  %mm = linalg.matmul ins(%a, %c : tensor<?x3xf32>, tensor<?x?xf32>)
      outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %exp, %mm : tensor<8xf32>, tensor<?x?xf32>
}
// CHECK-LABEL: func.func @flow_tensor_ops_stay_outside(
//       CHECK:   %[[NEG:.+]] = dispatch.region
//       CHECK:     arith.negf
//       CHECK:   %[[UP:.+]] = flow.tensor.update %[[NEG]]
//       CHECK:   dispatch.region
//       CHECK:     linalg.generic {{.*}} ins(%[[UP]] :
//       CHECK:   %[[C:.+]] = flow.tensor.dynamic_constant
//       CHECK:   dispatch.region
//       CHECK:     linalg.matmul {{.*}}ins(%{{.+}}, %[[C]] :
//       CHECK:   return

// -----

// check.expect_almost_eq has unknown effects and is no fusion op: it reads
// the dispatch's result from outside, and is kept though it has no result.

#id = affine_map<(d0) -> (d0)>
func.func @expect_almost_eq_stays_outside(%x: tensor<4xf32>, %want: tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.negf %v : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  check.expect_almost_eq(%neg, %want) : tensor<4xf32>
  return
}
// CHECK-LABEL: func.func @expect_almost_eq_stays_outside(
//       CHECK:   %[[D:.+]] = dispatch.region
//       CHECK:     arith.negf
//       CHECK:   check.expect_almost_eq(%[[D]],
//       CHECK:   return

// -----

// hal.tensor.import/export/barrier are no fusion ops: the dispatch reads the
// imported tensor and the barrier and export read its result, all outside.

#id = affine_map<(d0) -> (d0)>
func.func @hal_ops_stay_outside(%bv: !hal.buffer_view, %f: !hal.fence) -> !hal.buffer_view {
  %x = hal.tensor.import wait(%f) => %bv : !hal.buffer_view -> tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.negf %v : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %j = hal.tensor.barrier join(%neg : tensor<4xf32>) => %f : !hal.fence
  %r = hal.tensor.export %j : tensor<4xf32> -> !hal.buffer_view
  return %r : !hal.buffer_view
}
// CHECK-LABEL: func.func @hal_ops_stay_outside(
//       CHECK:   %[[X:.+]] = hal.tensor.import
//       CHECK:   %[[D:.+]] = dispatch.region
//       CHECK:     linalg.generic {{.*}} ins(%[[X]] :
//       CHECK:   %[[J:.+]] = hal.tensor.barrier join(%[[D]] :
//       CHECK:   hal.tensor.export %[[J]]
