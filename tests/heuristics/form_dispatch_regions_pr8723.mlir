// dispatch-formation=pr8723: the grouping of IREE's DispatchLinalgOnTensors of
// mid-2022 (heuristics/FusionPlannerPr8723.cpp), one case per rule. The
// second run, with today's rules (IREE's FormDispatchRegions), shows where the
// two differ.
//
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions{dispatch-formation=pr8723}))' \
// RUN:   | FileCheck %s --check-prefixes=CHECK,PR8723
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-form-dispatch-regions))' \
// RUN:   | FileCheck %s --check-prefixes=CHECK,TODAY

// A root takes the all-parallel op writing its init (a broadcast bias) and
// its chain of single-use identity consumers: one dispatch either way.

#id = affine_map<(m, n) -> (m, n)>
#col = affine_map<(m, n) -> (n)>
// CHECK-LABEL: func.func @init_producer_and_consumer_chain
// CHECK:         dispatch.region
// CHECK:           linalg.generic
// CHECK:           linalg.matmul {dispatchlab.root}
// CHECK:           arith.addf
// CHECK:           arith.maximumf
// CHECK:           dispatch.return
// CHECK-NOT:     dispatch.region
func.func @init_producer_and_consumer_chain(%a: tensor<4x8xf32>,
    %w: tensor<8x16xf32>, %bias: tensor<16xf32>, %s: tensor<4x16xf32>)
    -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x16xf32>
  %init = linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<16xf32>) outs(%empty : tensor<4x16xf32>) {
  ^bb0(%b: f32, %o: f32):
    linalg.yield %b : f32
  } -> tensor<4x16xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x16xf32>)
      outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  %add = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %s : tensor<4x16xf32>, tensor<4x16xf32>) outs(%empty : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%add : tensor<4x16xf32>) outs(%empty : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  return %relu : tensor<4x16xf32>
}

// -----

// A consumer reading the root twice: two uses, so 2022's rule (the root has
// one use) leaves it a dispatch of its own; today one consumer is enough.

#id = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: func.func @root_read_twice
// PR8723:        dispatch.region
// PR8723:          linalg.matmul {dispatchlab.root}
// PR8723-NEXT:     dispatch.return
// PR8723:        dispatch.region
// PR8723:          arith.mulf
// TODAY:         dispatch.region
// TODAY:           linalg.matmul {dispatchlab.root}
// TODAY:           arith.mulf
// TODAY-NOT:     dispatch.region
func.func @root_read_twice(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>,
                           %init: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %empty = tensor.empty() : tensor<4x16xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x16xf32>)
      outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %mm : tensor<4x16xf32>, tensor<4x16xf32>) outs(%empty : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.mulf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  return %sq : tensor<4x16xf32>
}

// -----

// A consumer that reads the root through a broadcast (not the identity map)
// stays out in 2022; today it joins the reduction's dispatch.

#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
// CHECK-LABEL: func.func @broadcast_consumer
// PR8723:        dispatch.region
// PR8723:          arith.addf
// PR8723-NEXT:     linalg.yield
// PR8723:          dispatch.return
// PR8723:        dispatch.region
// PR8723:          arith.subf
// TODAY:         dispatch.region
// TODAY:           arith.addf
// TODAY:           arith.subf
// TODAY-NOT:     dispatch.region
func.func @broadcast_consumer(%a: tensor<4x8xf32>, %acc: tensor<4xf32>)
    -> tensor<4x8xf32> {
  %empty = tensor.empty() : tensor<4x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %centered = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %sum : tensor<4x8xf32>, tensor<4xf32>) outs(%empty : tensor<4x8xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %r = arith.subf %x, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %centered : tensor<4x8xf32>
}

// -----

// A consumer writing a transposed init stays out in 2022 (its inits must be
// identity).

#id = affine_map<(m, n) -> (m, n)>
#tr = affine_map<(m, n) -> (n, m)>
// CHECK-LABEL: func.func @transposing_consumer
// PR8723:        dispatch.region
// PR8723:          linalg.matmul {dispatchlab.root}
// PR8723-NEXT:     dispatch.return
// PR8723:        dispatch.region
// PR8723:          arith.negf
// TODAY:         dispatch.region
// TODAY:           linalg.matmul {dispatchlab.root}
// TODAY:           arith.negf
// TODAY-NOT:     dispatch.region
func.func @transposing_consumer(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>,
                                %init: tensor<4x16xf32>) -> tensor<16x4xf32> {
  %empty = tensor.empty() : tensor<16x4xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x16xf32>)
      outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  %t = linalg.generic {indexing_maps = [#id, #tr], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<4x16xf32>) outs(%empty : tensor<16x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  } -> tensor<16x4xf32>
  return %t : tensor<16x4xf32>
}

// -----

// Producers never join through `ins`, and a left-over Linalg op is a
// dispatch of its own: two chained elementwise ops before a matmul make three
// dispatches. (Today's fallback sweep gives the same here: it roots the negf
// first, and producers join a non-aggressive group only through its init.)

#id = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: func.func @leftover_chain
// CHECK:         dispatch.region
// CHECK:           math.exp
// CHECK-NEXT:      linalg.yield
// CHECK:           dispatch.return
// CHECK:         dispatch.region
// CHECK:           arith.negf
// CHECK-NEXT:      linalg.yield
// CHECK:           dispatch.return
// CHECK:         dispatch.region
// CHECK:           linalg.matmul {dispatchlab.root}
func.func @leftover_chain(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>,
                          %init: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %empty = tensor.empty() : tensor<4x8xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%empty : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%e : tensor<4x8xf32>) outs(%empty : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %mm = linalg.matmul ins(%n, %w : tensor<4x8xf32>, tensor<8x16xf32>)
      outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %mm : tensor<4x16xf32>
}

// -----

// A pad read only by a root joins its dispatch (2022 cloned pad producers
// into the dispatch); today a pad is a dispatch of its own unless
// fuse-pad-with-consumers is set.

// CHECK-LABEL: func.func @pad_into_root
// PR8723:        dispatch.region
// PR8723:          tensor.pad
// PR8723:          linalg.matmul {dispatchlab.root}
// PR8723-NOT:    dispatch.region
// TODAY:         dispatch.region
// TODAY:           tensor.pad
// TODAY:           dispatch.return
// TODAY:         dispatch.region
// TODAY:           linalg.matmul {dispatchlab.root}
func.func @pad_into_root(%a: tensor<4x6xf32>, %w: tensor<8x16xf32>,
                         %init: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %a low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x6xf32> to tensor<4x8xf32>
  %mm = linalg.matmul ins(%p, %w : tensor<4x8xf32>, tensor<8x16xf32>)
      outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %mm : tensor<4x16xf32>
}
