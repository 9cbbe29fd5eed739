// Form dispatch regions, then dispatchlab-clone-producers-into-dispatch-regions
// (spec section 5): cheap producers (fills, empties, small constants,
// bit-extends, slices) are cloned into every dispatch reading them, dead
// originals are dropped, and every linalg.generic still outside a dispatch
// gets one of its own. The seed cases mirror shared/seeds 000, 002 and 004.
//
// Prefixes: CHECK = default knobs (aggressive-fusion off) and aggressive;
// AGGR = aggressive only; SMALLCST = inline-constant-bytes=16; PR8723 =
// dispatch-formation=pr8723.
//
// RUN: dispatchlab-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions,dispatchlab-clone-producers-into-dispatch-regions),util.func(dispatchlab-form-dispatch-regions,dispatchlab-clone-producers-into-dispatch-regions))' \
// RUN:   | FileCheck %s --check-prefix=CHECK
// RUN: dispatchlab-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions{aggressive-fusion=true},dispatchlab-clone-producers-into-dispatch-regions{aggressive-fusion=true}),util.func(dispatchlab-form-dispatch-regions{aggressive-fusion=true},dispatchlab-clone-producers-into-dispatch-regions{aggressive-fusion=true}))' \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AGGR
// RUN: dispatchlab-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions{inline-constant-bytes=16},dispatchlab-clone-producers-into-dispatch-regions{inline-constant-bytes=16}))' \
// RUN:   | FileCheck %s --check-prefix=SMALLCST
// RUN: dispatchlab-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions{dispatch-formation=pr8723},dispatchlab-clone-producers-into-dispatch-regions{dispatch-formation=pr8723}))' \
// RUN:   | FileCheck %s --check-prefix=PR8723

// Seed 000 walkthrough, elementwise ops pre-fused as the seed shows, in
// IREE's util.func spelling: one dispatch {matmul, bias+ReLU}; the zero, the
// empty and the fill (E, Z, F) are cloned in and nothing stays outside.

#id = affine_map<(m, n) -> (m, n)>
#col = affine_map<(m, n) -> (n)>
util.func public @matmul_bias_relu(%a: tensor<4x8xf32>, %w: tensor<16x8xf32>,
                                   %bias: tensor<16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm = linalg.matmul indexing_maps = [
      affine_map<(m, n, k) -> (m, k)>,
      affine_map<(m, n, k) -> (n, k)>,
      affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %w : tensor<4x8xf32>, tensor<16x8xf32>)
      outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  %result = linalg.generic {indexing_maps = [#id, #col, #id],
                            iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<4x16xf32>, tensor<16xf32>)
      outs(%empty : tensor<4x16xf32>) {
  ^bb0(%x: f32, %b: f32, %unused: f32):
    %sum = arith.addf %x, %b : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<4x16xf32>
  util.return %result : tensor<4x16xf32>
}
// CHECK-LABEL: util.func public @matmul_bias_relu(
//  CHECK-NEXT:   %[[D:.+]] = dispatch.region -> (tensor<4x16xf32>)
//   CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
//   CHECK-DAG:     %[[E:.+]] = tensor.empty() : tensor<4x16xf32>
//       CHECK:     %[[F:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] :
//       CHECK:     %[[MM:.+]] = linalg.matmul {{.*}}{dispatchlab.root} {{.*}}outs(%[[F]] :
//       CHECK:     %[[G:.+]] = linalg.generic {{.*}} ins(%[[MM]], %{{.+}} : {{.*}}) outs(%[[E]] :
//       CHECK:       arith.maximumf %{{.+}}, %[[ZERO]]
//       CHECK:     dispatch.return %[[G]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   util.return %[[D]]

// -----

// Seed 002: two matmuls on extract_slices of one (small, dense) constant.
// The slices, the fills and the 32-byte constant are cloned into each of
// the two dispatches; nothing is shared across them. With a 16-byte inline
// limit the constant stays outside and is captured, the slices still move.

#lhs = affine_map<(m, n, k) -> (m, k)>
#rhs = affine_map<(m, n, k) -> (n, k)>
#out = affine_map<(m, n, k) -> (m, n)>
func.func @matmuls_on_slices(%b0: tensor<2x2xf32>, %b1: tensor<2x2xf32>)
    -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %s0 = tensor.extract_slice %w[0, 0] [2, 2] [1, 1] : tensor<4x2xf32> to tensor<2x2xf32>
  %s1 = tensor.extract_slice %w[2, 0] [2, 2] [1, 1] : tensor<4x2xf32> to tensor<2x2xf32>
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x2xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r0 = linalg.matmul indexing_maps = [#lhs, #rhs, #out]
      ins(%s0, %b0 : tensor<2x2xf32>, tensor<2x2xf32>) outs(%f0 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %e1 = tensor.empty() : tensor<2x2xf32>
  %f1 = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r1 = linalg.matmul indexing_maps = [#lhs, #rhs, #out]
      ins(%s1, %b1 : tensor<2x2xf32>, tensor<2x2xf32>) outs(%f1 : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r0, %r1 : tensor<2x2xf32>, tensor<2x2xf32>
}
// CHECK-LABEL: func.func @matmuls_on_slices(
//  CHECK-SAME:     %[[B0:[a-zA-Z0-9]+]]: tensor<2x2xf32>, %[[B1:[a-zA-Z0-9]+]]: tensor<2x2xf32>
//  CHECK-NEXT:   %[[D0:.+]] = dispatch.region
//   CHECK-DAG:     %[[W0:.+]] = arith.constant dense<{{.*}}> : tensor<4x2xf32>
//   CHECK-DAG:     %[[S0:.+]] = tensor.extract_slice %[[W0]][0, 0] [2, 2] [1, 1]
//   CHECK-DAG:     %[[F0:.+]] = linalg.fill
//       CHECK:     linalg.matmul {{.*}} ins(%[[S0]], %[[B0]] : {{.*}}) outs(%[[F0]] :
//  CHECK-NEXT:     dispatch.return
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[D1:.+]] = dispatch.region
//   CHECK-DAG:     %[[W1:.+]] = arith.constant dense<{{.*}}> : tensor<4x2xf32>
//   CHECK-DAG:     %[[S1:.+]] = tensor.extract_slice %[[W1]][2, 0] [2, 2] [1, 1]
//   CHECK-DAG:     %[[F1:.+]] = linalg.fill
//       CHECK:     linalg.matmul {{.*}} ins(%[[S1]], %[[B1]] : {{.*}}) outs(%[[F1]] :
//  CHECK-NEXT:     dispatch.return
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[D0]], %[[D1]]
// SMALLCST-LABEL: func.func @matmuls_on_slices(
//  SMALLCST-NEXT:   %[[W:.+]] = arith.constant dense<{{.*}}> : tensor<4x2xf32>
//  SMALLCST-NEXT:   %[[D0:.+]] = dispatch.region
//       SMALLCST:     tensor.extract_slice %[[W]][0, 0] [2, 2] [1, 1]
//   SMALLCST-NOT:     arith.constant dense
//       SMALLCST:     linalg.matmul
//       SMALLCST:   %[[D1:.+]] = dispatch.region
//       SMALLCST:     tensor.extract_slice %[[W]][2, 0] [2, 2] [1, 1]
//   SMALLCST-NOT:     arith.constant dense
//       SMALLCST:     linalg.matmul
//       SMALLCST:   return %[[D0]], %[[D1]]

// -----

// Seed 004 (dot_33x16x49_exp): splat operands, fill, matmul, exp. One
// dispatch; splat constants are cloned whatever their size.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @dot_exp() -> tensor<33x49xf32> {
  %cst = arith.constant 0.0 : f32
  %lhs = arith.constant dense<1.0> : tensor<33x16xf32>
  %rhs = arith.constant dense<1.0> : tensor<16x49xf32>
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
//  CHECK-NEXT:   %[[D:.+]] = dispatch.region
//   CHECK-DAG:     arith.constant dense<1.0{{.*}}> : tensor<33x16xf32>
//   CHECK-DAG:     arith.constant dense<1.0{{.*}}> : tensor<16x49xf32>
//   CHECK-DAG:     linalg.fill
//       CHECK:     linalg.matmul
//  CHECK-NEXT:     linalg.generic
//       CHECK:       math.exp
//       CHECK:     dispatch.return
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[D]]

// -----

// Bit-extend (1.2 step 4, IREE pipeline_tests @grouped_quantized_matmul): the
// dequantization is not fused by formation but cloned into the reduction's
// dispatch: 1 dispatch, nothing left outside.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @dequant_cloned(%w: tensor<4x8xi8>, %scale: tensor<4xf32>) -> tensor<4xf32> {
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
// CHECK-LABEL: func.func @dequant_cloned(
//  CHECK-NEXT:   %[[D:.+]] = dispatch.region
//       CHECK:     %[[DEQ:.+]] = linalg.generic
//       CHECK:       arith.sitofp
//       CHECK:     linalg.generic {{.*}} ins(%[[DEQ]] :
//       CHECK:     dispatch.return
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[D]]

// -----

// A bit-extend that is also returned (spec 5 step 3): it is cloned into the
// reduction's dispatch, and the original, still live, is a left-over generic
// that gets a dispatch of its own: 2 dispatches.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @dequant_also_returned(%w: tensor<4x8xi8>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %deq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<4x8xi8>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%p: i8, %o: f32):
    %c = arith.sitofp %p : i8 to f32
    linalg.yield %c : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %red = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%deq : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%p: f32, %acc: f32):
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %deq, %red : tensor<4x8xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @dequant_also_returned(
//       CHECK:   %[[X:.+]] = dispatch.region -> (tensor<4x8xf32>)
//       CHECK:     linalg.generic
//       CHECK:       arith.sitofp
//       CHECK:     dispatch.return
//       CHECK:   %[[R:.+]] = dispatch.region -> (tensor<4xf32>)
//       CHECK:     %[[DEQ:.+]] = linalg.generic
//       CHECK:       arith.sitofp
//       CHECK:     linalg.generic {{.*}} ins(%[[DEQ]] :
//       CHECK:     dispatch.return
//   CHECK-NOT:   dispatch.region
//       CHECK:   return %[[X]], %[[R]]

// -----

// A fill read by nothing but the return stays a fill (a DMA fill), never a
// dispatch, before or after cloning.

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

// A fill shared by two matmuls is cloned into both dispatches (no dispatch
// owns it), then the dead original is dropped.

func.func @shared_fill(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<8x4xf32>)
    -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)
      outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m1 = linalg.matmul ins(%a, %c : tensor<4x8xf32>, tensor<8x4xf32>)
      outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m0, %m1 : tensor<4x4xf32>, tensor<4x4xf32>
}
// CHECK-LABEL: func.func @shared_fill(
//  CHECK-NEXT:   dispatch.region
//       CHECK:     linalg.fill
//  CHECK-NEXT:     linalg.matmul
//       CHECK:   dispatch.region
//       CHECK:     linalg.fill
//  CHECK-NEXT:     linalg.matmul
//   CHECK-NOT:   linalg.fill
//       CHECK:   return

// -----

// A consumer IREE leaves outside at materialization (4.4 step 4; see
// @consumer_left_outside in form_dispatch_regions.mlir) is a left-over
// generic and gets its own dispatch here. Aggressive: 2 dispatches.

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
//       AGGR:     linalg.matmul
//       AGGR:   "test.use"
//       AGGR:   %[[G:.+]] = dispatch.region
//       AGGR:     linalg.generic
//       AGGR:       arith.addf
//   AGGR-NOT:   dispatch.region
//       AGGR:   return %[[G]]

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// A slice read through a reshape: today's rules clone neither (a reshape is
// not cloneable, and the slice's user is then outside), so the slice stays a
// copy outside; 2022's DispatchLinalgOnTensors cloned reshapes too, taking
// both into the dispatch.
// CHECK-LABEL: func.func @slice_through_reshape(
//       CHECK:   tensor.extract_slice
//       CHECK:   tensor.expand_shape
//       CHECK:   dispatch.region
// PR8723-LABEL: func.func @slice_through_reshape(
//  PR8723-NOT:   tensor.extract_slice
//       PR8723:   dispatch.region
//       PR8723:     tensor.extract_slice
//       PR8723:     tensor.expand_shape
//       PR8723:     linalg.matmul
func.func @slice_through_reshape(%x: tensor<28x64xf32>, %h: tensor<1x64xf32>, %w: tensor<64x64xf32>) -> tensor<1x64xf32> {
  %cst = arith.constant 0.0 : f32
  %row = tensor.extract_slice %x[3, 0] [1, 64] [1, 1] : tensor<28x64xf32> to tensor<64xf32>
  %r = tensor.expand_shape %row [[0, 1]] output_shape [1, 64] : tensor<64xf32> into tensor<1x64xf32>
  %e = tensor.empty() : tensor<1x64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %mm = linalg.matmul ins(%h, %w : tensor<1x64xf32>, tensor<64x64xf32>)
      outs(%f : tensor<1x64xf32>) -> tensor<1x64xf32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %r : tensor<1x64xf32>, tensor<1x64xf32>) outs(%e : tensor<1x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<1x64xf32>
  return %g : tensor<1x64xf32>
}
