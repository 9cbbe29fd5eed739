// Dispatch formation on IREE's iree_linalg_ext ops (compat/): which are
// roots, what fuses into attention, scatter and custom_op, and what is cloned
// instead. One case per rule, written for dispatchlab.
//
// Prefixes: CHECK = both knob settings; DEFAULT = aggressive-fusion off;
// AGGR = aggressive-fusion on; CLONE = aggressive formation followed by
// dispatchlab-clone-producers-into-dispatch-regions.
//
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions))' \
// RUN:   | FileCheck %s --check-prefixes=CHECK,DEFAULT
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions{aggressive-fusion=true}))' \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AGGR
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions{aggressive-fusion=true},dispatchlab-clone-producers-into-dispatch-regions{aggressive-fusion=true}))' \
// RUN:   | FileCheck %s --check-prefix=CLONE

// Rule: IREE's LinalgExt ops but gather are roots (isRootLikeOp).
func.func @linalg_ext_roots(%a: tensor<3x5xi32>, %v: tensor<2x10xf32>, %ov: tensor<2x3xf32>, %oi: tensor<2x3xi32>, %s: index, %r: tensor<4x8xf32>, %i: tensor<4x8xf32>) -> (tensor<3x5xi32>, tensor<2x3xf32>, tensor<4x8xf32>) {
  %sorted = iree_linalg_ext.sort dimension(1) outs(%a : tensor<3x5xi32>) {
  ^bb0(%x: i32, %y: i32):
    %c = arith.cmpi sgt, %x, %y : i32
    iree_linalg_ext.yield %c : i1
  } -> tensor<3x5xi32>
  %top:2 = iree_linalg_ext.topk dimension(1) ins(%v : tensor<2x10xf32>)
      outs(%ov, %oi : tensor<2x3xf32>, tensor<2x3xi32>) {
  ^bb0(%x: f32, %y: f32):
    %c = arith.cmpf ogt, %x, %y : f32
    iree_linalg_ext.yield %c : i1
  } -> tensor<2x3xf32>, tensor<2x3xi32>
  %fft:2 = iree_linalg_ext.fft ins(%s : index)
      outs(%r, %i : tensor<4x8xf32>, tensor<4x8xf32>) : tensor<4x8xf32>, tensor<4x8xf32>
  return %sorted, %top#0, %fft#0 : tensor<3x5xi32>, tensor<2x3xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: func.func @linalg_ext_roots
//       CHECK:   dispatch.region
//  CHECK-NEXT:     iree_linalg_ext.sort
//       CHECK:   dispatch.region
//  CHECK-NEXT:     iree_linalg_ext.topk
//       CHECK:   dispatch.region
//  CHECK-NEXT:     iree_linalg_ext.fft

// -----


// Rule: a gather is no root; the clone pass copies it into the dispatch
// reading it (isCloneableIntoDispatchOp).
func.func @gather_cloned_into_consumer(%src: tensor<20x8xf32>, %idx: tensor<6x1xi32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6x8xf32>
  %g = iree_linalg_ext.gather dimension_map = [0]
      ins(%src, %idx : tensor<20x8xf32>, tensor<6x1xi32>)
      outs(%e : tensor<6x8xf32>) -> tensor<6x8xf32>
  %cst = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<6xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e1 : tensor<6xf32>) -> tensor<6xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%g : tensor<6x8xf32>) outs(%f : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %add = arith.addf %in, %out : f32
    linalg.yield %add : f32
  } -> tensor<6xf32>
  return %sum : tensor<6xf32>
}

// CHECK-LABEL: func.func @gather_cloned_into_consumer
//       CHECK:   %[[G:.+]] = iree_linalg_ext.gather
//       CHECK:   dispatch.region
//       CHECK:     linalg.generic {{.*}} ins(%[[G]] :
// CLONE-LABEL: func.func @gather_cloned_into_consumer
//   CLONE-NOT:   iree_linalg_ext.gather
//       CLONE:   dispatch.region
//       CLONE:     %[[G:.+]] = iree_linalg_ext.gather
//       CLONE:     linalg.generic {{.*}} ins(%[[G]] :
//       CLONE:     dispatch.return
//  CLONE-NEXT:   }
//  CLONE-NEXT:   return

// -----


// Rule: a gather no dispatch reads gets a dispatch of its own, like a
// leftover generic (CloneProducersIntoDispatchRegions).
func.func @lone_gather(%src: tensor<20x8xf32>, %idx: tensor<6x1xi32>) -> tensor<6x8xf32> {
  %e = tensor.empty() : tensor<6x8xf32>
  %g = iree_linalg_ext.gather dimension_map = [0]
      ins(%src, %idx : tensor<20x8xf32>, tensor<6x1xi32>)
      outs(%e : tensor<6x8xf32>) -> tensor<6x8xf32>
  return %g : tensor<6x8xf32>
}

// CHECK-LABEL: func.func @lone_gather
//   CHECK-NOT:   dispatch.region
//       CHECK:   return
// CLONE-LABEL: func.func @lone_gather
//       CLONE:   dispatch.region
//       CLONE:     iree_linalg_ext.gather
//       CLONE:     dispatch.return

// -----


// Rule: under aggressive fusion an attention mask generator is cloned into
// the attention's dispatch, not given one (isAttentionMaskGenerator).
func.func @attention_mask_cloned(%q: tensor<4x16xf16>, %k: tensor<8x16xf16>, %v: tensor<8x32xf16>) -> tensor<4x32xf16> {
  %scale = arith.constant 1.0 : f16
  %false = arith.constant false
  %true = arith.constant true
  %me = tensor.empty() : tensor<4x8xi1>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%me : tensor<4x8xi1>) {
  ^bb0(%out: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ge = arith.cmpi sge, %i, %j : index
    %m = arith.select %ge, %false, %true : i1
    linalg.yield %m : i1
  } -> tensor<4x8xi1>
  %o = tensor.empty() : tensor<4x32xf16>
  %att = iree_linalg_ext.attention {
      indexing_maps = [affine_map<(m, n, k2, k1) -> (m, k1)>,
                       affine_map<(m, n, k2, k1) -> (k2, k1)>,
                       affine_map<(m, n, k2, k1) -> (k2, n)>,
                       affine_map<(m, n, k2, k1) -> ()>,
                       affine_map<(m, n, k2, k1) -> (m, k2)>,
                       affine_map<(m, n, k2, k1) -> (m, n)>]}
      ins(%q, %k, %v, %scale, %mask : tensor<4x16xf16>, tensor<8x16xf16>, tensor<8x32xf16>, f16, tensor<4x8xi1>)
      outs(%o : tensor<4x32xf16>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<4x32xf16>
  return %att : tensor<4x32xf16>
}

// CHECK-LABEL: func.func @attention_mask_cloned
//     DEFAULT:   %[[MASK:.+]] = dispatch.region
//     DEFAULT:     linalg.generic
//     DEFAULT:   dispatch.region
//     DEFAULT:     iree_linalg_ext.attention {{.*}} ins({{.*}}, %[[MASK]] :
//    AGGR-NOT:   dispatch.region
//        AGGR:   %[[MASK:.+]] = linalg.generic
//        AGGR:   dispatch.region
//        AGGR:     iree_linalg_ext.attention {{.*}} ins({{.*}}, %[[MASK]] :
// CLONE-LABEL: func.func @attention_mask_cloned
//   CLONE-NOT:   linalg.generic
//       CLONE:   dispatch.region
//       CLONE:     %[[MASK:.+]] = linalg.generic
//       CLONE:     iree_linalg_ext.attention {{.*}} ins({{.*}}, %[[MASK]] :
//       CLONE:     dispatch.return
//  CLONE-NEXT:   }
//  CLONE-NEXT:   return

// -----


// Rule: attention takes no producers, even under aggressive fusion
// (isFusableWithProducer); its elementwise consumer joins it.
func.func @attention_producer_and_consumer(%q: tensor<4x16xf16>, %k: tensor<8x16xf16>, %v: tensor<8x32xf16>, %scale: f16) -> tensor<4x32xf16> {
  %qe = tensor.empty() : tensor<4x16xf16>
  %qn = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%q : tensor<4x16xf16>) outs(%qe : tensor<4x16xf16>) {
  ^bb0(%in: f16, %out: f16):
    %n = arith.negf %in : f16
    linalg.yield %n : f16
  } -> tensor<4x16xf16>
  %o = tensor.empty() : tensor<4x32xf16>
  %att = iree_linalg_ext.attention {
      indexing_maps = [affine_map<(m, n, k2, k1) -> (m, k1)>,
                       affine_map<(m, n, k2, k1) -> (k2, k1)>,
                       affine_map<(m, n, k2, k1) -> (k2, n)>,
                       affine_map<(m, n, k2, k1) -> ()>,
                       affine_map<(m, n, k2, k1) -> (m, n)>]}
      ins(%qn, %k, %v, %scale : tensor<4x16xf16>, tensor<8x16xf16>, tensor<8x32xf16>, f16)
      outs(%o : tensor<4x32xf16>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<4x32xf16>
  %ce = tensor.empty() : tensor<4x32xf16>
  %abs = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%att : tensor<4x32xf16>) outs(%ce : tensor<4x32xf16>) {
  ^bb0(%in: f16, %out: f16):
    %a = math.absf %in : f16
    linalg.yield %a : f16
  } -> tensor<4x32xf16>
  return %abs : tensor<4x32xf16>
}

// CHECK-LABEL: func.func @attention_producer_and_consumer
//       CHECK:   %[[Q:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.generic
//       CHECK:   dispatch.region
//  CHECK-NEXT:     %[[ATT:.+]] = iree_linalg_ext.attention {{.*}} ins(%[[Q]],
//       CHECK:     linalg.generic {{.*}} ins(%[[ATT]] :
//       CHECK:     dispatch.return

// -----


// Rule: a gather-like generic read only by attention forms no dispatch of
// its own in dispatch formation (IREE's rope point fix).
func.func @rope_gather_like_outside(%table: tensor<4x16xf16>, %k: tensor<8x16xf16>, %v: tensor<8x32xf16>, %scale: f16) -> tensor<4x32xf16> {
  %qe = tensor.empty() : tensor<4x16xf16>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%qe : tensor<4x16xf16>) {
  ^bb0(%out: f16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %x = tensor.extract %table[%i, %j] : tensor<4x16xf16>
    linalg.yield %x : f16
  } -> tensor<4x16xf16>
  %o = tensor.empty() : tensor<4x32xf16>
  %att = iree_linalg_ext.attention {
      indexing_maps = [affine_map<(m, n, k2, k1) -> (m, k1)>,
                       affine_map<(m, n, k2, k1) -> (k2, k1)>,
                       affine_map<(m, n, k2, k1) -> (k2, n)>,
                       affine_map<(m, n, k2, k1) -> ()>,
                       affine_map<(m, n, k2, k1) -> (m, n)>]}
      ins(%q, %k, %v, %scale : tensor<4x16xf16>, tensor<8x16xf16>, tensor<8x32xf16>, f16)
      outs(%o : tensor<4x32xf16>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<4x32xf16>
  return %att : tensor<4x32xf16>
}

// CHECK-LABEL: func.func @rope_gather_like_outside
//   CHECK-NOT:   dispatch.region
//       CHECK:   %[[Q:.+]] = linalg.generic
//       CHECK:   dispatch.region
//  CHECK-NEXT:     iree_linalg_ext.attention {{.*}} ins(%[[Q]],

// -----


// Rule: a producer of scatter's updates fuses under aggressive fusion (its
// map composes with the updates' loops); a producer of `original`, which has
// no map, never does.
func.func @scatter_producers(%u: tensor<8x4xf32>, %idx: tensor<4x1xi32>, %orig: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %ue = tensor.empty() : tensor<4x8xf32>
  %un = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%u : tensor<8x4xf32>) outs(%ue : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4x8xf32>
  %oe = tensor.empty() : tensor<16x8xf32>
  %on = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%orig : tensor<16x8xf32>) outs(%oe : tensor<16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = math.absf %in : f32
    linalg.yield %a : f32
  } -> tensor<16x8xf32>
  %s = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true)
      ins(%un, %idx : tensor<4x8xf32>, tensor<4x1xi32>) outs(%on : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    iree_linalg_ext.yield %a : f32
  } -> tensor<16x8xf32>
  return %s : tensor<16x8xf32>
}

// CHECK-LABEL: func.func @scatter_producers
//     DEFAULT:   %[[U:.+]] = dispatch.region
//     DEFAULT:     linalg.generic
//     DEFAULT:   %[[O:.+]] = dispatch.region
//     DEFAULT:     linalg.generic
//     DEFAULT:   dispatch.region
//     DEFAULT:     iree_linalg_ext.scatter {{.*}} ins(%[[U]], %{{.*}}) outs(%[[O]] :
//        AGGR:   %[[O:.+]] = dispatch.region
//        AGGR:     linalg.generic
//        AGGR:   dispatch.region
//        AGGR:     %[[U:.+]] = linalg.generic
//        AGGR:     iree_linalg_ext.scatter {{.*}} ins(%[[U]], %{{.*}}) outs(%[[O]] :

// -----


// Rule: under aggressive fusion a scatter's index computation is cloned, not
// fused or given a dispatch (isScatterIndicesGenerator).
func.func @scatter_indices_cloned(%u: tensor<4x8xf32>, %idx: tensor<4x1xi64>, %orig: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %ie = tensor.empty() : tensor<4x1xi32>
  %i32 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<4x1xi64>) outs(%ie : tensor<4x1xi32>) {
  ^bb0(%in: i64, %out: i32):
    %t = arith.trunci %in : i64 to i32
    linalg.yield %t : i32
  } -> tensor<4x1xi32>
  %s = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true)
      ins(%u, %i32 : tensor<4x8xf32>, tensor<4x1xi32>) outs(%orig : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    iree_linalg_ext.yield %a : f32
  } -> tensor<16x8xf32>
  return %s : tensor<16x8xf32>
}

// CHECK-LABEL: func.func @scatter_indices_cloned
//     DEFAULT:   %[[I:.+]] = dispatch.region
//     DEFAULT:     linalg.generic
//    AGGR-NOT:   dispatch.region
//        AGGR:   %[[I:.+]] = linalg.generic
//       CHECK:   dispatch.region
//  CHECK-NEXT:     iree_linalg_ext.scatter {{.*}} ins(%{{.*}}, %[[I]] :

// -----


// Rule: custom_op is a fusion op over its declared loops: its elementwise
// consumer joins its dispatch.
func.func @custom_op_consumer(%a: tensor<8x16xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %c = iree_linalg_ext.custom_op {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = [#iree_linalg_ext.iterator_type<parallel>, #iree_linalg_ext.iterator_type<reduction>]}
      ins(%a : tensor<8x16xf32>) outs(%b : tensor<8xf32>) {
  ^bb0(%x: tensor<8x16xf32>, %y: tensor<8xf32>):
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<8x16xf32>) outs(%y : tensor<8xf32>) {
    ^bb1(%in: f32, %out: f32):
      %s = arith.addf %in, %out : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>
    iree_linalg_ext.yield %r : tensor<8xf32>
  } -> tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%c : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %sq : tensor<8xf32>
}

// CHECK-LABEL: func.func @custom_op_consumer
//       CHECK:   dispatch.region
//  CHECK-NEXT:     %[[C:.+]] = iree_linalg_ext.custom_op
//       CHECK:     linalg.generic {{.*}} ins(%[[C]] :
//       CHECK:     dispatch.return
//   CHECK-NOT:   dispatch.region

// -----


// Rule: an operand a custom_op indexes through symbols has no loop mapping,
// so its producer stays in a dispatch of its own.
func.func @custom_op_symbol_map_producer(%a: tensor<8x16xf32>, %w: tensor<16x4xf32>, %acc: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.negf %in : f32
    linalg.yield %x : f32
  } -> tensor<8x16xf32>
  %c = iree_linalg_ext.custom_op {
      indexing_maps = [affine_map<(d0, d1)[s0] -> (d0, s0)>,
                       affine_map<(d0, d1)[s0] -> (s0, d1)>,
                       affine_map<(d0, d1)[s0] -> (d0, d1)>],
      iterator_types = [#iree_linalg_ext.iterator_type<parallel>, #iree_linalg_ext.iterator_type<parallel>]}
      ins(%n, %w : tensor<8x16xf32>, tensor<16x4xf32>) outs(%acc : tensor<8x4xf32>) {
  ^bb0(%x: tensor<8x16xf32>, %y: tensor<16x4xf32>, %z: tensor<8x4xf32>):
    %mm = linalg.matmul ins(%x, %y : tensor<8x16xf32>, tensor<16x4xf32>) outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
    iree_linalg_ext.yield %mm : tensor<8x4xf32>
  } -> tensor<8x4xf32>
  return %c : tensor<8x4xf32>
}

// CHECK-LABEL: func.func @custom_op_symbol_map_producer
//       CHECK:   %[[N:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.generic
//       CHECK:   dispatch.region
//  CHECK-NEXT:     iree_linalg_ext.custom_op{{.*}} ins(%[[N]],

// -----

// Rule: attention's loop sizes come from the query and the value only, so a
// key of one row leaves K2 dynamic (non-unit), and a consumer with four
// non-unit loops may join the four-loop root.
func.func @attention_loop_ranges(%q: tensor<?x16xf16>, %k: tensor<1x16xf16>, %v: tensor<?x32xf16>, %scale: f16, %o: tensor<?x32xf16>, %b: tensor<?x32x2x3xf16>) -> tensor<?x32x2x3xf16> {
  %att = iree_linalg_ext.attention {
      indexing_maps = [affine_map<(m, n, k2, k1) -> (m, k1)>,
                       affine_map<(m, n, k2, k1) -> (k2, k1)>,
                       affine_map<(m, n, k2, k1) -> (k2, n)>,
                       affine_map<(m, n, k2, k1) -> ()>,
                       affine_map<(m, n, k2, k1) -> (m, n)>]}
      ins(%q, %k, %v, %scale : tensor<?x16xf16>, tensor<1x16xf16>, tensor<?x32xf16>, f16)
      outs(%o : tensor<?x32xf16>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<?x32xf16>
  %bc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%att : tensor<?x32xf16>) outs(%b : tensor<?x32x2x3xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<?x32x2x3xf16>
  return %bc : tensor<?x32x2x3xf16>
}

// CHECK-LABEL: func.func @attention_loop_ranges
//       CHECK:   dispatch.region
//  CHECK-NEXT:     %[[ATT:.+]] = iree_linalg_ext.attention
//       CHECK:     linalg.generic {{.*}} ins(%[[ATT]] :
//       CHECK:     dispatch.return
//   CHECK-NOT:   dispatch.region
