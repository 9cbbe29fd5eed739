// Faithfulness tests for dispatchlab-form-dispatch-regions against the IREE
// dispatch-creation spec (shared/design/iree-dispatch-creation-spec.md). One
// split-input-file case per rule; the comment of each case names the spec section
// and, where one exists, the IREE lit test (spec section 10) it mirrors.
//
// Prefixes: CHECK = every run with default knobs except aggressive-fusion;
// DEFAULT = aggressive-fusion=false; AGGR = aggressive-fusion=true;
// NOMULTI = aggressive + fuse-multi-use=false (IREE's NO-MULTI-USE);
// EAGER = truncate-ordering=eager; NOFUSE = dispatch-fusion=false;
// LIMIT = max-operands=4; PADP / PADC = fuse-pad-with-producers /
// fuse-pad-with-consumers.
//
// RUN: dispatchlab-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions))' \
// RUN:   | FileCheck %s --check-prefixes=CHECK,DEFAULT
// RUN: dispatchlab-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions{aggressive-fusion=true}))' \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AGGR
// RUN: dispatchlab-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions{aggressive-fusion=true fuse-multi-use=false}))' \
// RUN:   | FileCheck %s --check-prefix=NOMULTI
// RUN: dispatchlab-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions{truncate-ordering=eager}))' \
// RUN:   | FileCheck %s --check-prefix=EAGER
// RUN: dispatchlab-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions{dispatch-fusion=false}))' \
// RUN:   | FileCheck %s --check-prefix=NOFUSE
// RUN: dispatchlab-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions{max-operands=4}))' \
// RUN:   | FileCheck %s --check-prefix=LIMIT
// RUN: dispatchlab-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions{fuse-pad-with-producers=true}))' \
// RUN:   | FileCheck %s --check-prefix=PADP
// RUN: dispatchlab-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions{fuse-pad-with-consumers=true}))' \
// RUN:   | FileCheck %s --check-prefix=PADC

// Seed 000 after elementwise fusion: the matmul is a root (1.3), its fill is
// cloneable so producer fusion skips it (3.3), and the bias+ReLU generic is
// its only consumer (3.1): one dispatch. Each group root is tagged.

#id = affine_map<(m, n) -> (m, n)>
#col = affine_map<(m, n) -> (n)>
func.func @matmul_bias_relu(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>,
                            %bias: tensor<16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x16xf32>)
      outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  %g = linalg.generic {indexing_maps = [#id, #col, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<4x16xf32>, tensor<16xf32>)
      outs(%empty : tensor<4x16xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  return %g : tensor<4x16xf32>
}
// CHECK-LABEL: func.func @matmul_bias_relu(
//       CHECK:   %[[FILL:.+]] = linalg.fill
//       CHECK:   %[[D:.+]] = dispatch.region -> (tensor<4x16xf32>)
//  CHECK-NEXT:     %[[MM:.+]] = linalg.matmul {dispatchlab.root} ins({{.*}}) outs(%[[FILL]]
//  CHECK-NEXT:     %[[G:.+]] = linalg.generic
//  CHECK-SAME:       ins(%[[MM]],
//       CHECK:     dispatch.return %[[G]]
//   CHECK-NOT:   dispatch.region
//       CHECK:   return %[[D]]
// NOFUSE-LABEL: func.func @matmul_bias_relu(
//       NOFUSE:   %[[D0:.+]] = dispatch.region
//  NOFUSE-NEXT:     linalg.matmul {dispatchlab.root}
//  NOFUSE-NEXT:     dispatch.return
//       NOFUSE:   %[[D1:.+]] = dispatch.region
//  NOFUSE-NEXT:     linalg.generic {{.*}}dispatchlab.root
//       NOFUSE:     dispatch.return
//       NOFUSE:   return %[[D1]]

// -----

// Seed 004 (dot + exp): fill -> matmul -> exp generic. One dispatch.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @dot_exp(%lhs: tensor<33x16xf32>, %rhs: tensor<16x49xf32>) -> tensor<33x49xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x49xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<33x49xf32>) -> tensor<33x49xf32>
  %mm = linalg.matmul ins(%lhs, %rhs : tensor<33x16xf32>, tensor<16x49xf32>)
      outs(%f : tensor<33x49xf32>) -> tensor<33x49xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<33x49xf32>) outs(%e : tensor<33x49xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<33x49xf32>
  return %exp : tensor<33x49xf32>
}
// CHECK-LABEL: func.func @dot_exp(
//       CHECK:   %[[D:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.matmul
//  CHECK-NEXT:     linalg.generic
//       CHECK:       math.exp
//       CHECK:     dispatch.return
//   CHECK-NOT:   dispatch.region
//       CHECK:   return %[[D]]

// -----

// Truncate ordering (4.3, IREE place_truncf_in_producer_dispatch): the
// truncf reads matmul R and is the init of matmul C. Deferred (IREE), C's
// first producer pass skips the truncate, R claims it as a consumer, so the
// narrow type crosses the boundary. Eager, C (visited first in the reverse
// sweep) pulls the truncate through its init before R is even a root.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @truncate_ordering(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>,
                             %c: tensor<4x8xf16>, %d: tensor<8x4xf16>) -> tensor<4x4xf16> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)
      outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e16 = tensor.empty() : tensor<4x4xf16>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<4x4xf32>) outs(%e16 : tensor<4x4xf16>) {
  ^bb0(%x: f32, %o: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<4x4xf16>
  %cc = linalg.matmul ins(%c, %d : tensor<4x8xf16>, tensor<8x4xf16>)
      outs(%t : tensor<4x4xf16>) -> tensor<4x4xf16>
  return %cc : tensor<4x4xf16>
}
// CHECK-LABEL: func.func @truncate_ordering(
//       CHECK:   %[[D0:.+]] = dispatch.region -> (tensor<4x4xf16>)
//  CHECK-NEXT:     linalg.matmul {dispatchlab.root} {{.*}}tensor<4x8xf32>
//  CHECK-NEXT:     linalg.generic
//       CHECK:       arith.truncf
//       CHECK:     dispatch.return
//       CHECK:   %[[D1:.+]] = dispatch.region -> (tensor<4x4xf16>)
//  CHECK-NEXT:     linalg.matmul {dispatchlab.root} {{.*}}outs(%[[D0]]
//  CHECK-NEXT:     dispatch.return
//       CHECK:   return %[[D1]]
// EAGER-LABEL: func.func @truncate_ordering(
//       EAGER:   %[[D0:.+]] = dispatch.region -> (tensor<4x4xf32>)
//  EAGER-NEXT:     linalg.matmul {dispatchlab.root} {{.*}}tensor<4x8xf32>
//  EAGER-NEXT:     dispatch.return
//       EAGER:   %[[D1:.+]] = dispatch.region -> (tensor<4x4xf16>)
//  EAGER-NEXT:     %[[T:.+]] = linalg.generic {{.*}} ins(%[[D0]]
//       EAGER:       arith.truncf
//       EAGER:     linalg.matmul {dispatchlab.root} {{.*}}outs(%[[T]]
//  EAGER-NEXT:     dispatch.return
//       EAGER:   return %[[D1]]

// -----

// Cycle guard (2.5, IREE avoid_use_def_violation_on_consumer_fusion): C uses
// root A directly and through B, which stays outside, so C may not join A.
// A has two users, so default mode never even considers C; aggressive mode
// considers it and the transitive-dependency check rejects it.

#red_in = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>
func.func @diamond_cycle(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %cst = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %a = linalg.generic {indexing_maps = [#red_in, #scalar], iterator_types = ["reduction"]}
      ins(%x : tensor<8xf32>) outs(%f0 : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %b = "test.barrier"(%a) : (tensor<f32>) -> tensor<f32>
  %e = tensor.empty() : tensor<8xf32>
  %c = linalg.generic {indexing_maps = [#scalar, #scalar, #red_in, #red_in],
                       iterator_types = ["parallel"]}
      ins(%a, %b, %y : tensor<f32>, tensor<f32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %v: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %m, %v : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %c : tensor<8xf32>
}
// CHECK-LABEL: func.func @diamond_cycle(
//       CHECK:   %[[A:.+]] = dispatch.region -> (tensor<f32>)
//  CHECK-NEXT:     linalg.generic {{.*}}iterator_types = ["reduction"]
//       CHECK:     dispatch.return
//       CHECK:   %[[B:.+]] = "test.barrier"(%[[A]])
//       CHECK:   %[[C:.+]] = dispatch.region -> (tensor<8xf32>)
//  CHECK-NEXT:     linalg.generic {{.*}} ins(%[[A]], %[[B]], %{{.+}} :
//       CHECK:     dispatch.return
//       CHECK:   return %[[C]]

// -----

// Contrast to the diamond (IREE fuse_scalar_reduction): without the outside
// op, the same consumer joins the scalar reduction (a root with 0 parallel
// dims passes the loop-map test, 2.3).

#red_in = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>
func.func @scalar_reduction_consumer(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %cst = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %a = linalg.generic {indexing_maps = [#red_in, #scalar], iterator_types = ["reduction"]}
      ins(%x : tensor<8xf32>) outs(%f0 : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %e = tensor.empty() : tensor<8xf32>
  %c = linalg.generic {indexing_maps = [#scalar, #red_in, #red_in], iterator_types = ["parallel"]}
      ins(%a, %y : tensor<f32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %v: f32, %o: f32):
    %s = arith.addf %p, %v : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %c : tensor<8xf32>
}
// CHECK-LABEL: func.func @scalar_reduction_consumer(
//       CHECK:   %[[D:.+]] = dispatch.region -> (tensor<8xf32>)
//  CHECK-NEXT:     linalg.generic {{.*}}iterator_types = ["reduction"]
//       CHECK:     linalg.generic {{.*}}iterator_types = ["parallel"]
//       CHECK:     dispatch.return
//   CHECK-NOT:   dispatch.region
//       CHECK:   return %[[D]]

// -----

// Multi-use producer (3.3, IREE producer_fusion_with_movable_external_use):
// `sub` feeds `neg` and `mul`. In aggressive mode the fallback root `mul`
// pulls `sub` in through `ins`, and `neg` (a user before the root) moves
// after the new dispatch: 2 dispatches. Default mode only fuses producers
// through the init, and with fuse-multi-use=false `sub` has two
// uses: 3 dispatches either way.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @multi_use_producer(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %sub = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.subf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sub : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.negf %p : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %mul = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sub, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.mulf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %neg, %mul : tensor<4x8xf32>, tensor<4x8xf32>
}
// AGGR-LABEL: func.func @multi_use_producer(
//       AGGR:   %[[D0:.+]]:2 = dispatch.region -> (tensor<4x8xf32>, tensor<4x8xf32>)
//  AGGR-NEXT:     linalg.generic
//       AGGR:       arith.subf
//       AGGR:     linalg.generic {{.*}}dispatchlab.root
//       AGGR:       arith.mulf
//       AGGR:     dispatch.return
//       AGGR:   %[[D1:.+]] = dispatch.region
//  AGGR-NEXT:     linalg.generic {{.*}} ins(%[[D0]]#0 :
//       AGGR:       arith.negf
//       AGGR:     dispatch.return
//   AGGR-NOT:   dispatch.region
//       AGGR:   return %[[D1]], %[[D0]]#1
// DEFAULT-LABEL: func.func @multi_use_producer(
// DEFAULT-COUNT-3: dispatch.region
//   DEFAULT-NOT:   dispatch.region
//       DEFAULT:   return
// NOMULTI-LABEL: func.func @multi_use_producer(
// NOMULTI-COUNT-3: dispatch.region
//   NOMULTI-NOT:   dispatch.region
//       NOMULTI:   return

// -----

// Producer with an external user before the root (2.6). Movable: the user
// (an opaque op) does not feed the group, so in aggressive mode `mul` takes
// `sub` and the user moves after the dispatch.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @external_user_movable(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %sub = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.subf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %use = "test.use"(%sub) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %mul = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sub, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.mulf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %use, %mul : tensor<4x8xf32>, tensor<4x8xf32>
}
// AGGR-LABEL: func.func @external_user_movable(
//       AGGR:   %[[D:.+]]:2 = dispatch.region
//  AGGR-NEXT:     linalg.generic
//       AGGR:       arith.subf
//       AGGR:     linalg.generic {{.*}}dispatchlab.root
//       AGGR:       arith.mulf
//       AGGR:     dispatch.return
//  AGGR-NEXT:   }
//  AGGR-NEXT:   %[[U:.+]] = "test.use"(%[[D]]#0)
//   AGGR-NOT:   dispatch.region
//       AGGR:   return %[[U]], %[[D]]#1
// DEFAULT-LABEL: func.func @external_user_movable(
// DEFAULT-COUNT-2: dispatch.region
//   DEFAULT-NOT:   dispatch.region
//       DEFAULT:   return
// NOMULTI-LABEL: func.func @external_user_movable(
// NOMULTI-COUNT-2: dispatch.region
//   NOMULTI-NOT:   dispatch.region
//       NOMULTI:   return

// -----

// Blocked: the external user feeds the root, so moving it after the
// dispatch would break dominance (2.6): `sub` keeps its own dispatch in
// every mode.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @external_user_blocking(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %sub = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.subf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %use = "test.use"(%sub) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %mul = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sub, %use : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.mulf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %mul : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @external_user_blocking(
//       CHECK:   %[[S:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.generic
//       CHECK:       arith.subf
//       CHECK:     dispatch.return
//       CHECK:   %[[U:.+]] = "test.use"(%[[S]])
//       CHECK:   %[[M:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.generic {{.*}} ins(%[[S]], %[[U]] :
//       CHECK:       arith.mulf
//       CHECK:     dispatch.return
//       CHECK:   return %[[M]]

// -----

// DPS-init-only producers (3.2 step 7, IREE fuse_matmul_with_generic_op):
// a generic producing the matmul's init fuses in every mode.

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @init_producer(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>,
                         %bias: tensor<16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %bcast = linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%p: f32, %o: f32):
    linalg.yield %p : f32
  } -> tensor<4x16xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
      outs(%bcast : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %mm : tensor<4x16xf32>
}
// CHECK-LABEL: func.func @init_producer(
//       CHECK:   %[[D:.+]] = dispatch.region
//  CHECK-NEXT:     %[[B:.+]] = linalg.generic
//       CHECK:     linalg.matmul {dispatchlab.root} {{.*}}outs(%[[B]]
//  CHECK-NEXT:     dispatch.return
//   CHECK-NOT:   dispatch.region
//       CHECK:   return %[[D]]

// -----

// ... while a producer feeding `ins` of a reduction root only fuses in
// aggressive mode (the producer covers the root's parallel dim, so 2.3
// allows it): default 2 dispatches, aggressive 1.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @ins_producer(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %add = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %red = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%add : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%p: f32, %acc: f32):
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %red : tensor<4xf32>
}
// DEFAULT-LABEL: func.func @ins_producer(
//       DEFAULT:   %[[P:.+]] = dispatch.region
//  DEFAULT-NEXT:     linalg.generic {{.*}}dispatchlab.root
//       DEFAULT:       arith.addf
//       DEFAULT:     dispatch.return
//       DEFAULT:   %[[R:.+]] = dispatch.region
//  DEFAULT-NEXT:     linalg.generic {{.*}} ins(%[[P]] :
//       DEFAULT:     dispatch.return
//       DEFAULT:   return %[[R]]
// AGGR-LABEL: func.func @ins_producer(
//       AGGR:   %[[D:.+]] = dispatch.region
//  AGGR-NEXT:     %[[P:.+]] = linalg.generic
//       AGGR:     linalg.generic {{.*}} ins(%[[P]] :
//       AGGR:     dispatch.return
//   AGGR-NOT:   dispatch.region
//       AGGR:   return %[[D]]

// -----

// Single-consumer rule (2.1, IREE fuse_reduction_with_two_consumers): a
// reduction with two elementwise consumers. Default mode needs exactly one
// distinct user to grow, so each consumer gets a fallback dispatch (3);
// aggressive mode fuses both (1 dispatch, 2 results).

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
func.func @reduction_two_consumers(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %cst = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %red = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%p: f32, %acc: f32):
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %c1 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%red : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %c2 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%red : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.negf %p : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %c1, %c2 : tensor<4xf32>, tensor<4xf32>
}
// DEFAULT-LABEL: func.func @reduction_two_consumers(
// DEFAULT-COUNT-3: dispatch.region
//   DEFAULT-NOT:   dispatch.region
//       DEFAULT:   return
// AGGR-LABEL: func.func @reduction_two_consumers(
//       AGGR:   %[[D:.+]]:2 = dispatch.region -> (tensor<4xf32>, tensor<4xf32>)
//  AGGR-NEXT:     linalg.generic {{.*}}dispatchlab.root
//       AGGR:     math.exp
//       AGGR:     arith.negf
//       AGGR:     dispatch.return
//   AGGR-NOT:   dispatch.region
//       AGGR:   return %[[D]]#0, %[[D]]#1

// -----

// Operand limit (2.2): the consumer reads two more outside-defined tensors.
// {matmul, consumer} needs 4 distinct outside defining ops + 1 result = 5:
// fine under IREE's 16, over max-operands=4 (2 dispatches).

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @operand_limit() -> tensor<4x4xf32> {
  %cst = arith.constant 0.0 : f32
  %a = "test.src"() : () -> tensor<4x8xf32>
  %b = "test.src"() : () -> tensor<8x4xf32>
  %c = "test.src"() : () -> tensor<4x4xf32>
  %d = "test.src"() : () -> tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)
      outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %c, %d : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>)
      outs(%e : tensor<4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    %t = arith.addf %s, %r : f32
    linalg.yield %t : f32
  } -> tensor<4x4xf32>
  return %g : tensor<4x4xf32>
}
// CHECK-LABEL: func.func @operand_limit(
//       CHECK:   %[[D:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.matmul
//  CHECK-NEXT:     linalg.generic
//       CHECK:     dispatch.return
//   CHECK-NOT:   dispatch.region
//       CHECK:   return %[[D]]
// LIMIT-LABEL: func.func @operand_limit(
//       LIMIT:   %[[D0:.+]] = dispatch.region
//  LIMIT-NEXT:     linalg.matmul
//  LIMIT-NEXT:     dispatch.return
//       LIMIT:   %[[D1:.+]] = dispatch.region
//  LIMIT-NEXT:     linalg.generic {{.*}} ins(%[[D0]],
//       LIMIT:     dispatch.return
//       LIMIT:   return %[[D1]]

// -----

// Operand limit under the default 16: a consumer reading 16 distinct
// outside-defined tensors besides the matmul result (2 + 16 operands + 1
// result = 19 > 16) stays out of the matmul's dispatch.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @operand_limit_default() -> tensor<4x4xf32> {
  %cst = arith.constant 0.0 : f32
  %a = "test.src"() : () -> tensor<4x8xf32>
  %b = "test.src"() : () -> tensor<8x4xf32>
  %s0 = "test.src"() : () -> tensor<4x4xf32>
  %s1 = "test.src"() : () -> tensor<4x4xf32>
  %s2 = "test.src"() : () -> tensor<4x4xf32>
  %s3 = "test.src"() : () -> tensor<4x4xf32>
  %s4 = "test.src"() : () -> tensor<4x4xf32>
  %s5 = "test.src"() : () -> tensor<4x4xf32>
  %s6 = "test.src"() : () -> tensor<4x4xf32>
  %s7 = "test.src"() : () -> tensor<4x4xf32>
  %s8 = "test.src"() : () -> tensor<4x4xf32>
  %s9 = "test.src"() : () -> tensor<4x4xf32>
  %s10 = "test.src"() : () -> tensor<4x4xf32>
  %s11 = "test.src"() : () -> tensor<4x4xf32>
  %s12 = "test.src"() : () -> tensor<4x4xf32>
  %s13 = "test.src"() : () -> tensor<4x4xf32>
  %s14 = "test.src"() : () -> tensor<4x4xf32>
  %s15 = "test.src"() : () -> tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)
      outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %s0, %s1, %s2, %s3, %s4, %s5, %s6, %s7, %s8, %s9, %s10, %s11, %s12, %s13, %s14, %s15 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>)
      outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %a5: f32, %a6: f32, %a7: f32, %a8: f32, %a9: f32, %a10: f32, %a11: f32, %a12: f32, %a13: f32, %a14: f32, %a15: f32, %a16: f32, %a17: f32):
    %t1 = arith.addf %a0, %a1 : f32
    %t2 = arith.addf %t1, %a2 : f32
    %t3 = arith.addf %t2, %a3 : f32
    %t4 = arith.addf %t3, %a4 : f32
    %t5 = arith.addf %t4, %a5 : f32
    %t6 = arith.addf %t5, %a6 : f32
    %t7 = arith.addf %t6, %a7 : f32
    %t8 = arith.addf %t7, %a8 : f32
    %t9 = arith.addf %t8, %a9 : f32
    %t10 = arith.addf %t9, %a10 : f32
    %t11 = arith.addf %t10, %a11 : f32
    %t12 = arith.addf %t11, %a12 : f32
    %t13 = arith.addf %t12, %a13 : f32
    %t14 = arith.addf %t13, %a14 : f32
    %t15 = arith.addf %t14, %a15 : f32
    %t16 = arith.addf %t15, %a16 : f32
    linalg.yield %t16 : f32
  } -> tensor<4x4xf32>
  return %g : tensor<4x4xf32>
}
// CHECK-LABEL: func.func @operand_limit_default(
//       CHECK:   %[[M:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.matmul
//  CHECK-NEXT:     dispatch.return
//       CHECK:   %[[G:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.generic {{.*}} ins(%[[M]],
//       CHECK:     dispatch.return
//       CHECK:   return %[[G]]

// -----

// The operand set holds defining ops (2.2): the same 16 tensors as results
// of ONE op count once (3 operands + 1 result): the consumer fuses.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @operand_limit_one_def() -> tensor<4x4xf32> {
  %cst = arith.constant 0.0 : f32
  %a = "test.src"() : () -> tensor<4x8xf32>
  %b = "test.src"() : () -> tensor<8x4xf32>
  %s:16 = "test.src16"() : () -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>)
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)
      outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %s#0, %s#1, %s#2, %s#3, %s#4, %s#5, %s#6, %s#7, %s#8, %s#9, %s#10, %s#11, %s#12, %s#13, %s#14, %s#15 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>)
      outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %a5: f32, %a6: f32, %a7: f32, %a8: f32, %a9: f32, %a10: f32, %a11: f32, %a12: f32, %a13: f32, %a14: f32, %a15: f32, %a16: f32, %a17: f32):
    %t1 = arith.addf %a0, %a1 : f32
    %t2 = arith.addf %t1, %a2 : f32
    %t3 = arith.addf %t2, %a3 : f32
    %t4 = arith.addf %t3, %a4 : f32
    %t5 = arith.addf %t4, %a5 : f32
    %t6 = arith.addf %t5, %a6 : f32
    %t7 = arith.addf %t6, %a7 : f32
    %t8 = arith.addf %t7, %a8 : f32
    %t9 = arith.addf %t8, %a9 : f32
    %t10 = arith.addf %t9, %a10 : f32
    %t11 = arith.addf %t10, %a11 : f32
    %t12 = arith.addf %t11, %a12 : f32
    %t13 = arith.addf %t12, %a13 : f32
    %t14 = arith.addf %t13, %a14 : f32
    %t15 = arith.addf %t14, %a15 : f32
    %t16 = arith.addf %t15, %a16 : f32
    linalg.yield %t16 : f32
  } -> tensor<4x4xf32>
  return %g : tensor<4x4xf32>
}
// CHECK-LABEL: func.func @operand_limit_one_def(
//       CHECK:   %[[D:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.matmul
//  CHECK-NEXT:     linalg.generic
//       CHECK:     dispatch.return
//   CHECK-NOT:   dispatch.region
//       CHECK:   return %[[D]]

// -----

// Fallback sweep (4.2): a standalone elementwise op gets its own dispatch.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @standalone_elementwise(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @standalone_elementwise(
//       CHECK:   %[[D:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.generic {{.*}}dispatchlab.root
//       CHECK:     dispatch.return
//   CHECK-NOT:   dispatch.region
//       CHECK:   return %[[D]]

// -----

// Fallback sweep (4.2): every left-over op becomes a root before consumer
// fusion, so two chained elementwise ops merge only by producer fusion
// through `ins`: default 2 dispatches, aggressive 1.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @elementwise_chain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %g0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %g1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.negf %p : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %g1 : tensor<4x8xf32>
}
// DEFAULT-LABEL: func.func @elementwise_chain(
//       DEFAULT:   %[[D0:.+]] = dispatch.region
//  DEFAULT-NEXT:     linalg.generic {{.*}}dispatchlab.root
//       DEFAULT:       math.exp
//       DEFAULT:   %[[D1:.+]] = dispatch.region
//  DEFAULT-NEXT:     linalg.generic {{.*}} ins(%[[D0]] :
//       DEFAULT:       arith.negf
//       DEFAULT:   return %[[D1]]
// AGGR-LABEL: func.func @elementwise_chain(
//       AGGR:   %[[D:.+]] = dispatch.region
//  AGGR-NEXT:     linalg.generic
//       AGGR:       math.exp
//       AGGR:     linalg.generic {{.*}}dispatchlab.root
//       AGGR:       arith.negf
//   AGGR-NOT:   dispatch.region
//       AGGR:   return %[[D]]

// -----

// A fill is cloneable (1.2): never a root, never a fallback root, never a
// consumer (3.1 step 1). Alone it stays outside any dispatch (a DMA fill).

func.func @fill_only() -> tensor<4x8xf32> {
  %cst = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @fill_only(
//   CHECK-NOT:   dispatch.region
//       CHECK:   %[[F:.+]] = linalg.fill
//   CHECK-NOT:   dispatch.region
//       CHECK:   return %[[F]]

// -----

// Bit-extend (1.1, 1.2, IREE no_dequantization_fusion): an i8 x f32-scale
// dequantization feeding a reduction through `ins` is not a root and is
// cloneable, so it stays out of the group even in aggressive mode (the clone
// pass copies it in later): 1 dispatch.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @dequant_not_fused(%w: tensor<4x8xi8>, %scale: tensor<4xf32>) -> tensor<4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %deq = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w, %scale : tensor<4x8xi8>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%p: i8, %s: f32, %o: f32):
    %c = arith.sitofp %p : i8 to f32
    %m = arith.mulf %c, %s : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %red = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%deq : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%p: f32, %acc: f32):
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %red : tensor<4xf32>
}
// CHECK-LABEL: func.func @dequant_not_fused(
//       CHECK:   %[[DEQ:.+]] = linalg.generic
//       CHECK:     arith.sitofp
//       CHECK:   %[[D:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.generic {{.*}} ins(%[[DEQ]] :
//       CHECK:     dispatch.return
//   CHECK-NOT:   dispatch.region
//       CHECK:   return %[[D]]

// -----

// Non-unit-dims rule (3.1 step 12, IREE reduction_broadcast_no_fusion): the
// elementwise op on the reduced [16] joins the reduction, but the broadcast
// to [4,6,16] has 3 non-unit loops against the root's 2 and is refused in
// both modes (in default mode the raw loop-count rule refuses it too).

#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
#bin = affine_map<(d0, d1, d2) -> (d2)>
#bout = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @reduction_broadcast(%x: tensor<16x8xf32>) -> tensor<4x6x16xf32> {
  %cst = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %red = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x8xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%p: f32, %acc: f32):
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %ew = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%red : tensor<16xf32>) outs(%e1 : tensor<16xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.sqrt %p : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %e3 = tensor.empty() : tensor<4x6x16xf32>
  %b = linalg.generic {indexing_maps = [#bin, #bout], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ew : tensor<16xf32>) outs(%e3 : tensor<4x6x16xf32>) {
  ^bb0(%p: f32, %o: f32):
    linalg.yield %p : f32
  } -> tensor<4x6x16xf32>
  return %b : tensor<4x6x16xf32>
}
// CHECK-LABEL: func.func @reduction_broadcast(
//       CHECK:   %[[D0:.+]] = dispatch.region -> (tensor<16xf32>)
//  CHECK-NEXT:     linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
//       CHECK:     math.sqrt
//       CHECK:     dispatch.return
//       CHECK:   %[[D1:.+]] = dispatch.region -> (tensor<4x6x16xf32>)
//  CHECK-NEXT:     linalg.generic {{.*}} ins(%[[D0]] :
//       CHECK:     dispatch.return
//       CHECK:   return %[[D1]]

// -----

// Raw loop-count rule (3.1 step 11, IREE
// custom_op_consumer_fusion_larger_consumer_loop_count): the consumer has 3
// loops against the reduction's 2, but only 2 non-unit ones. Default mode
// refuses it (2 dispatches); aggressive mode skips the rule (1 dispatch).

#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
#bin = affine_map<(d0, d1, d2) -> (d0)>
#bx = affine_map<(d0, d1, d2) -> (d1, d2)>
#bout = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @raw_loop_count(%x: tensor<4x8xf32>, %y: tensor<1x8xf32>) -> tensor<4x1x8xf32> {
  %cst = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %red = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%p: f32, %acc: f32):
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %e3 = tensor.empty() : tensor<4x1x8xf32>
  %b = linalg.generic {indexing_maps = [#bin, #bx, #bout], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%red, %y : tensor<4xf32>, tensor<1x8xf32>) outs(%e3 : tensor<4x1x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.mulf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x1x8xf32>
  return %b : tensor<4x1x8xf32>
}
// DEFAULT-LABEL: func.func @raw_loop_count(
// DEFAULT-COUNT-2: dispatch.region
//   DEFAULT-NOT:   dispatch.region
//       DEFAULT:   return
// AGGR-LABEL: func.func @raw_loop_count(
//       AGGR:   %[[D:.+]] = dispatch.region -> (tensor<4x1x8xf32>)
//  AGGR-NEXT:     linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
//       AGGR:     linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]
//       AGGR:     dispatch.return
//   AGGR-NOT:   dispatch.region
//       AGGR:   return %[[D]]

// -----

// Producer less parallel than the root (2.3, IREE
// keep_separate_dispatches_for_producer): an elementwise producer of the
// matmul LHS (m,k) misses the root's n dim, so even aggressive mode keeps it
// in its own dispatch: 2 dispatches.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @producer_less_parallel(%x: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %lhs = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm = linalg.matmul ins(%lhs, %b : tensor<4x8xf32>, tensor<8x16xf32>)
      outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %mm : tensor<4x16xf32>
}
// CHECK-LABEL: func.func @producer_less_parallel(
//       CHECK:   %[[P:.+]] = dispatch.region -> (tensor<4x8xf32>)
//  CHECK-NEXT:     linalg.generic
//       CHECK:       math.exp
//       CHECK:     dispatch.return
//       CHECK:   %[[M:.+]] = dispatch.region -> (tensor<4x16xf32>)
//  CHECK-NEXT:     linalg.matmul {{.*}} ins(%[[P]],
//  CHECK-NEXT:     dispatch.return
//       CHECK:   return %[[M]]

// -----

// Conflicting maps (2.3, IREE dont_fuse_use_transpose_and_identity): the
// consumer reads the matmul result both as (i,j) and as (j,i); the merged
// loop map conflicts: 2 dispatches.

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @transpose_and_identity(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)
      outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %g = linalg.generic {indexing_maps = [#id, #tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %mm : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %g : tensor<4x4xf32>
}
// CHECK-LABEL: func.func @transpose_and_identity(
//       CHECK:   %[[M:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.matmul
//  CHECK-NEXT:     dispatch.return
//       CHECK:   %[[G:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.generic {{.*}} ins(%[[M]], %[[M]] :
//       CHECK:     dispatch.return
//       CHECK:   return %[[G]]

// -----

// ... while reading it transposed twice is consistent (IREE
// fuse_both_uses_transposed), and one consumer using the value twice is one
// distinct consumer in default mode (IREE
// single_result_two_uses_same_consumer_default): 1 dispatch.

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @both_transposed(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)
      outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %g = linalg.generic {indexing_maps = [#tr, #tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %mm : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.mulf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %g : tensor<4x4xf32>
}
// CHECK-LABEL: func.func @both_transposed(
//       CHECK:   %[[D:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.matmul
//  CHECK-NEXT:     linalg.generic
//       CHECK:     dispatch.return
//   CHECK-NOT:   dispatch.region
//       CHECK:   return %[[D]]

// -----

// Nested regions (4.1, IREE scf_nested_dispatch): decideFusableLinalgOps
// recurses into scf ops, so the generic in the scf.if gets its dispatch
// inside the branch.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scf_nested(%cond: i1, %x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = scf.if %cond -> tensor<4x8xf32> {
    %e = tensor.empty() : tensor<4x8xf32>
    %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%p: f32, %o: f32):
      %s = math.exp %p : f32
      linalg.yield %s : f32
    } -> tensor<4x8xf32>
    scf.yield %g : tensor<4x8xf32>
  } else {
    scf.yield %x : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @scf_nested(
//   CHECK-NOT:   dispatch.region
//       CHECK:   scf.if
//       CHECK:     %[[D:.+]] = dispatch.region
//  CHECK-NEXT:       linalg.generic
//       CHECK:       dispatch.return
//       CHECK:     scf.yield %[[D]]
//       CHECK:   } else {

// -----

// Conv buffer-reuse rule (3.1 step 14, IREE mixed_conv): the f32 conv result
// feeds a truncf whose f16 init cannot hold it. Default mode refuses the
// consumer (2 dispatches); aggressive mode skips the rule (1 dispatch).

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_truncf(%in: tensor<1x6x6x2xf32>, %flt: tensor<3x3x2x4xf32>) -> tensor<1x4x4x4xf16> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %flt : tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>)
      outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %e16 = tensor.empty() : tensor<1x4x4x4xf16>
  %t = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv : tensor<1x4x4x4xf32>) outs(%e16 : tensor<1x4x4x4xf16>) {
  ^bb0(%p: f32, %o: f16):
    %s = arith.truncf %p : f32 to f16
    linalg.yield %s : f16
  } -> tensor<1x4x4x4xf16>
  return %t : tensor<1x4x4x4xf16>
}
// DEFAULT-LABEL: func.func @conv_truncf(
//       DEFAULT:   %[[C:.+]] = dispatch.region
//  DEFAULT-NEXT:     linalg.conv_2d_nhwc_hwcf
//       DEFAULT:     dispatch.return
//       DEFAULT:   %[[T:.+]] = dispatch.region
//  DEFAULT-NEXT:     linalg.generic {{.*}} ins(%[[C]] :
//       DEFAULT:     dispatch.return
//       DEFAULT:   return %[[T]]
// AGGR-LABEL: func.func @conv_truncf(
//       AGGR:   %[[D:.+]] = dispatch.region
//  AGGR-NEXT:     linalg.conv_2d_nhwc_hwcf
//       AGGR:     linalg.generic
//       AGGR:     dispatch.return
//   AGGR-NOT:   dispatch.region
//       AGGR:   return %[[D]]

// -----

// ... while an epilogue whose input can reuse its same-typed, same-map,
// unread init fuses with the conv in default mode too: 1 dispatch.

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_relu(%in: tensor<1x6x6x2xf32>, %flt: tensor<3x3x2x4xf32>) -> tensor<1x4x4x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %flt : tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>)
      outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv : tensor<1x4x4x4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.maximumf %p, %cst : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}
// CHECK-LABEL: func.func @conv_relu(
//       CHECK:   %[[D:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.conv_2d_nhwc_hwcf
//       CHECK:     linalg.generic
//       CHECK:     dispatch.return
//   CHECK-NOT:   dispatch.region
//       CHECK:   return %[[D]]

// -----

// Pad with its producer (3.1 step 4): only with fuse-pad-with-producers does
// the pad join the matmul; otherwise it becomes a fallback root (4.2).

func.func @pad_after_matmul(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<6x6xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)
      outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %p = tensor.pad %mm low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  return %p : tensor<6x6xf32>
}
// CHECK-LABEL: func.func @pad_after_matmul(
//       CHECK:   %[[M:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.matmul
//  CHECK-NEXT:     dispatch.return
//       CHECK:   %[[P:.+]] = dispatch.region
//  CHECK-NEXT:     tensor.pad %[[M]]
//       CHECK:     dispatch.return
//       CHECK:   return %[[P]]
// PADP-LABEL: func.func @pad_after_matmul(
//       PADP:   %[[D:.+]] = dispatch.region
//  PADP-NEXT:     linalg.matmul
//  PADP-NEXT:     tensor.pad
//       PADP:     dispatch.return
//   PADP-NOT:   dispatch.region
//       PADP:   return %[[D]]

// -----

// Pad with its consumer (3.2 step 3): only with fuse-pad-with-consumers does
// a pad join the convolution reading it (even through `ins`, in default
// mode); otherwise it becomes a fallback root.

func.func @pad_before_conv(%in: tensor<1x4x4x2xf32>, %flt: tensor<3x3x2x4xf32>) -> tensor<1x4x4x4xf32> {
  %cst = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %cst : f32
  } : tensor<1x4x4x2xf32> to tensor<1x6x6x2xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %flt : tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>)
      outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %conv : tensor<1x4x4x4xf32>
}
// CHECK-LABEL: func.func @pad_before_conv(
//       CHECK:   %[[P:.+]] = dispatch.region
//  CHECK-NEXT:     tensor.pad
//       CHECK:     dispatch.return
//       CHECK:   %[[C:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[P]],
//       CHECK:     dispatch.return
//       CHECK:   return %[[C]]
// PADC-LABEL: func.func @pad_before_conv(
//       PADC:   %[[D:.+]] = dispatch.region
//  PADC-NEXT:     tensor.pad
//       PADC:     linalg.conv_2d_nhwc_hwcf
//       PADC:     dispatch.return
//   PADC-NOT:   dispatch.region
//       PADC:   return %[[D]]

// -----

// linalg.softmax is a root with identity maps (0, 1.3; IREE
// dispatch_linalg_on_tensors_default @softmax): its truncf consumer joins: 1
// dispatch.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @softmax_truncf(%x: tensor<4x8xf32>) -> tensor<4x8xf16> {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e16 = tensor.empty() : tensor<4x8xf16>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<4x8xf32>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%p: f32, %o: f16):
    %y = arith.truncf %p : f32 to f16
    linalg.yield %y : f16
  } -> tensor<4x8xf16>
  return %t : tensor<4x8xf16>
}
// CHECK-LABEL: func.func @softmax_truncf(
//       CHECK:   %[[D:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.softmax
//  CHECK-NEXT:     linalg.generic
//       CHECK:     dispatch.return
//   CHECK-NOT:   dispatch.region
//       CHECK:   return %[[D]]

// -----

// Producer fusion after consumer fusion (2.3, IREE
// multi_producer_consumer_fusion): `pa` feeds the matmul LHS (missing n) and
// the epilogue (identity). Alone it is less parallel than the root; once the
// epilogue joined, the final producer pass merges both uses into a map that
// covers every root dim. Aggressive: 1 dispatch. Default (init-only
// producers): 2.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @multi_producer_consumer(%x: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %pa = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm = linalg.matmul ins(%pa, %b : tensor<4x4xf32>, tensor<4x4xf32>)
      outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %pa : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %g : tensor<4x4xf32>
}
// AGGR-LABEL: func.func @multi_producer_consumer(
//       AGGR:   %[[D:.+]] = dispatch.region
//  AGGR-NEXT:     %[[PA:.+]] = linalg.generic
//       AGGR:       math.exp
//       AGGR:     %[[MM:.+]] = linalg.matmul {dispatchlab.root} ins(%[[PA]],
//  AGGR-NEXT:     linalg.generic {{.*}} ins(%[[MM]], %[[PA]] :
//       AGGR:     dispatch.return
//   AGGR-NOT:   dispatch.region
//       AGGR:   return %[[D]]
// DEFAULT-LABEL: func.func @multi_producer_consumer(
//       DEFAULT:   %[[PA:.+]] = dispatch.region
//  DEFAULT-NEXT:     linalg.generic
//       DEFAULT:       math.exp
//       DEFAULT:   %[[D:.+]] = dispatch.region
//  DEFAULT-NEXT:     %[[MM:.+]] = linalg.matmul {dispatchlab.root} ins(%[[PA]],
//  DEFAULT-NEXT:     linalg.generic {{.*}} ins(%[[MM]], %[[PA]] :
//       DEFAULT:     dispatch.return
//       DEFAULT:   return %[[D]]

// -----

// Materialization (4.4 step 4): as above, but `pa` also feeds an opaque op
// whose result the epilogue reads. The epilogue was accepted before `pa`
// joined; once `pa` is inside, the opaque op depends on the dispatch and
// cannot move above it, so IREE leaves the epilogue outside (with a
// warning) rather than failing. Aggressive: {pa, matmul} + epilogue left
// over. Default: {matmul, epilogue} + {pa}.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @consumer_left_outside(%x: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %pa = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm = linalg.matmul ins(%pa, %b : tensor<4x4xf32>, tensor<4x4xf32>)
      outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %u = "test.use"(%pa) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %pa, %u : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    %t = arith.addf %s, %r : f32
    linalg.yield %t : f32
  } -> tensor<4x4xf32>
  return %g : tensor<4x4xf32>
}
// AGGR-LABEL: func.func @consumer_left_outside(
//       AGGR:   %[[D:.+]]:2 = dispatch.region
//  AGGR-NEXT:     %[[PA:.+]] = linalg.generic
//       AGGR:       math.exp
//       AGGR:     linalg.matmul {dispatchlab.root} ins(%[[PA]],
//       AGGR:     dispatch.return
//       AGGR:   %[[U:.+]] = "test.use"(%[[D]]#{{[01]}})
//   AGGR-NOT:   dispatch.region
//       AGGR:   %[[G:.+]] = linalg.generic {{.*}} ins(%[[D]]#{{[01]}}, %[[D]]#{{[01]}}, %[[U]] :
//   AGGR-NOT:   dispatch.region
//       AGGR:   return %[[G]]
// DEFAULT-LABEL: func.func @consumer_left_outside(
// DEFAULT-COUNT-2: dispatch.region
//   DEFAULT-NOT:   dispatch.region
//       DEFAULT:   return

// -----

// Layer-norm-like chain (IREE softmax_like_fusion): f16->f32 extend, sum,
// mean, variance (reads the extend and the mean), normalize. Aggressive: the
// variance root pulls the mean and, through it, the sum (same root map,
// 2.4), and the normalize joins as consumer: 1 dispatch; the extend stays
// outside (cloned later). Default: {sum, mean} and {variance, normalize}.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
func.func @layer_norm_like(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %cst = arith.constant 0.0 : f32
  %n = arith.constant 8.0 : f32
  %e2 = tensor.empty() : tensor<4x8xf32>
  %ext = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf16>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%p: f16, %o: f32):
    %s = arith.extf %p : f16 to f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ext : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%p: f32, %acc: f32):
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %mean = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%sum : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.divf %p, %n : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %var = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ext, %mean : tensor<4x8xf32>, tensor<4xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%p: f32, %m: f32, %acc: f32):
    %d = arith.subf %p, %m : f32
    %sq = arith.mulf %d, %d : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %e16 = tensor.empty() : tensor<4x8xf16>
  %out = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ext, %mean, %var : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%p: f32, %m: f32, %vv: f32, %o: f16):
    %d = arith.subf %p, %m : f32
    %q = arith.divf %d, %vv : f32
    %t = arith.truncf %q : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  return %out : tensor<4x8xf16>
}
// AGGR-LABEL: func.func @layer_norm_like(
//       AGGR:   %[[EXT:.+]] = linalg.generic
//       AGGR:     arith.extf
//       AGGR:   %[[D:.+]] = dispatch.region -> (tensor<4x8xf16>)
//  AGGR-NEXT:     linalg.generic {{.*}} ins(%[[EXT]] :
//       AGGR:     linalg.generic
//       AGGR:       arith.divf
//       AGGR:     linalg.generic {{.*}}dispatchlab.root
//       AGGR:     linalg.generic
//       AGGR:       arith.truncf
//       AGGR:     dispatch.return
//   AGGR-NOT:   dispatch.region
//       AGGR:   return %[[D]]
// DEFAULT-LABEL: func.func @layer_norm_like(
//       DEFAULT:   %[[S:.+]] = dispatch.region -> (tensor<4xf32>)
//  DEFAULT-NEXT:     linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
//       DEFAULT:     linalg.generic
//       DEFAULT:       arith.divf
//       DEFAULT:     dispatch.return
//       DEFAULT:   %[[V:.+]] = dispatch.region -> (tensor<4x8xf16>)
//  DEFAULT-NEXT:     linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
//       DEFAULT:     linalg.generic
//       DEFAULT:       arith.truncf
//       DEFAULT:     dispatch.return
//   DEFAULT-NOT:   dispatch.region
//       DEFAULT:   return %[[V]]

// -----

// Pack consumer (3.1 step 3, IREE pack_fusion): reduction -> broadcast-add
// -> linalg.pack. The pack takes a producer whose result map is the
// identity: 1 dispatch in both modes.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @pack_fusion(%x: tensor<4x8xf32>) -> tensor<2x2x2x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %red = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%p: f32, %acc: f32):
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %add = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %red : tensor<4x8xf32>, tensor<4xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %e4 = tensor.empty() : tensor<2x2x2x4xf32>
  %pack = linalg.pack %add inner_dims_pos = [0, 1] inner_tiles = [2, 4] into %e4
      : tensor<4x8xf32> -> tensor<2x2x2x4xf32>
  return %pack : tensor<2x2x2x4xf32>
}
// CHECK-LABEL: func.func @pack_fusion(
//       CHECK:   %[[D:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.generic {{.*}}dispatchlab.root
//       CHECK:     linalg.generic
//       CHECK:     linalg.pack
//       CHECK:     dispatch.return
//   CHECK-NOT:   dispatch.region
//       CHECK:   return %[[D]]

// -----

// Unpack producer (1.3 step 6, 3.1 step 2, IREE unpack_elementwise_fusion):
// the unpack is a root and takes its elementwise consumer: 1 dispatch.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @unpack_elementwise(%x: tensor<2x2x2x4xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %u = linalg.unpack %x inner_dims_pos = [0, 1] inner_tiles = [2, 4] into %e
      : tensor<2x2x2x4xf32> -> tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%u : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @unpack_elementwise(
//       CHECK:   %[[D:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.unpack {{.*}}dispatchlab.root
//       CHECK:     linalg.generic
//       CHECK:     dispatch.return
//   CHECK-NOT:   dispatch.region
//       CHECK:   return %[[D]]

// -----

// Unpack root with a chain of consumers (3.1 step 2, IREE
// unpack_multi_elementwise_fusion): the non-unit-loop rule compares a
// consumer with the root only when the root has loops of its own
// (LinalgFusionOpInterface), which an unpack has not; so the second,
// transposing consumer joins too: 1 dispatch.

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @unpack_consumer_chain(%x: tensor<2x2x4x4xf32>, %b: tensor<8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %u = linalg.unpack %x inner_dims_pos = [0, 1] inner_tiles = [4, 4] into %e
      : tensor<2x2x4x4xf32> -> tensor<8x8xf32>
  %g = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%u, %b : tensor<8x8xf32>, tensor<8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  %h = linalg.generic {indexing_maps = [#tr, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g, %b : tensor<8x8xf32>, tensor<8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.mulf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %h : tensor<8x8xf32>
}
// CHECK-LABEL: func.func @unpack_consumer_chain(
//       CHECK:   %[[D:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.unpack {{.*}}dispatchlab.root
//       CHECK:     arith.addf
//       CHECK:     arith.mulf
//       CHECK:     dispatch.return
//   CHECK-NOT:   dispatch.region
//       CHECK:   return %[[D]]

// -----

// insert_slice consumer (3.1 step 5): a pad rewritten to fill + insert_slice
// lands in its producer's dispatch when the source has one use and the
// destination is a fill: 1 dispatch.

func.func @insert_slice_into_fill(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<6x6xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)
      outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e6 = tensor.empty() : tensor<6x6xf32>
  %f6 = linalg.fill ins(%cst : f32) outs(%e6 : tensor<6x6xf32>) -> tensor<6x6xf32>
  %ins = tensor.insert_slice %mm into %f6[1, 1] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<6x6xf32>
  return %ins : tensor<6x6xf32>
}
// CHECK-LABEL: func.func @insert_slice_into_fill(
//       CHECK:   %[[D:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.matmul
//  CHECK-NEXT:     tensor.insert_slice
//       CHECK:     dispatch.return
//   CHECK-NOT:   dispatch.region
//       CHECK:   return %[[D]]

// -----

// Truncate pulled by its consumer root (4.3, IREE
// place_truncf_in_consumer_dispatch): a truncf of an argument is skipped by
// the first producer pass but, unclaimed, is taken by the final one (through
// the init, so also in default mode): 1 dispatch in every mode.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @truncate_into_consumer_root(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>,
                                       %acc: tensor<4x4xf32>) -> tensor<4x4xf16> {
  %e16 = tensor.empty() : tensor<4x4xf16>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : tensor<4x4xf32>) outs(%e16 : tensor<4x4xf16>) {
  ^bb0(%x: f32, %o: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<4x4xf16>
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x4xf16>)
      outs(%t : tensor<4x4xf16>) -> tensor<4x4xf16>
  return %mm : tensor<4x4xf16>
}
// CHECK-LABEL: func.func @truncate_into_consumer_root(
//       CHECK:   %[[D:.+]] = dispatch.region
//  CHECK-NEXT:     %[[T:.+]] = linalg.generic
//       CHECK:       arith.truncf
//       CHECK:     linalg.matmul {dispatchlab.root} {{.*}}outs(%[[T]] :
//  CHECK-NEXT:     dispatch.return
//   CHECK-NOT:   dispatch.region
//       CHECK:   return %[[D]]
// EAGER-LABEL: func.func @truncate_into_consumer_root(
//  EAGER-COUNT-1: dispatch.region
//   EAGER-NOT:   dispatch.region
//       EAGER:   return

// -----

// Truncate before a fallback root (4.2, 4.3): the fallback sweep makes every
// left-over op a root before the final producer pass, so the truncate the
// first pass skipped is already its own root when the truncate pass runs:
// 2 dispatches even in aggressive mode.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @truncate_before_fallback_root(%x: tensor<4x8xf32>) -> tensor<4x8xf16> {
  %e16 = tensor.empty() : tensor<4x8xf16>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%p: f32, %o: f16):
    %y = arith.truncf %p : f32 to f16
    linalg.yield %y : f16
  } -> tensor<4x8xf16>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<4x8xf16>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%p: f16, %o: f16):
    %y = arith.negf %p : f16
    linalg.yield %y : f16
  } -> tensor<4x8xf16>
  return %n : tensor<4x8xf16>
}
// CHECK-LABEL: func.func @truncate_before_fallback_root(
//       CHECK:   %[[T:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.generic
//       CHECK:       arith.truncf
//       CHECK:   %[[N:.+]] = dispatch.region
//  CHECK-NEXT:     linalg.generic {{.*}} ins(%[[T]] :
//       CHECK:       arith.negf
//       CHECK:   return %[[N]]

// -----

// Multi-use counts uses, not users (3.3): a producer read twice by the same
// reduction root fuses in aggressive mode, but not with
// fuse-multi-use=false.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @producer_used_twice(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = math.exp %a : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %red = linalg.generic {indexing_maps = [#id, #id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%p, %p : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %red : tensor<4xf32>
}
// AGGR-LABEL: func.func @producer_used_twice(
//  AGGR-COUNT-1: dispatch.region
//   AGGR-NOT:   dispatch.region
//       AGGR:   return
// NOMULTI-LABEL: func.func @producer_used_twice(
//  NOMULTI-COUNT-2: dispatch.region
//   NOMULTI-NOT:   dispatch.region
//       NOMULTI:   return
