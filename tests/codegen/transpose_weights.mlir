// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-transpose-weights))' | FileCheck %s

// A matmul reading its rhs as [n, k] (k, a reduction dim, innermost) reads
// a transposed copy [k, n] instead, marked as a weight transpose, with the
// indexing map permuted to match.
// CHECK-DAG:   #[[KN:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-LABEL: func.func private @host_dispatch_0
// CHECK-SAME:    (%[[A:.+]]: tensor<8x16xf32>, %[[B:.+]]: tensor<32x16xf32>)
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<16x32xf32>
// CHECK:         %[[T:.+]] = linalg.transpose ins(%[[B]] : tensor<32x16xf32>) outs(%[[EMPTY]] : tensor<16x32xf32>) permutation = [1, 0] {{ *}}{dispatchlab.weight_transpose}
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #[[KN]], #{{.+}}]
// CHECK-SAME:      ins(%[[A]], %[[T]] : tensor<8x16xf32>, tensor<16x32xf32>)
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func private @host_dispatch_0(%a: tensor<8x16xf32>, %b: tensor<32x16xf32>) -> tensor<8x32xf32> attributes {dispatchlab.dispatch} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %r = linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<8x16xf32>, tensor<32x16xf32>) outs(%f : tensor<8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// An rhs already [k, n] is read as it is.
// CHECK-LABEL: func.func private @host_dispatch_0
// CHECK-NOT:     linalg.transpose
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func private @host_dispatch_0(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> attributes {dispatchlab.dispatch} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %r = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// An [n, k] operand that the dispatch also returns is written tile by tile
// by the tile loop: no transposed copy of it.
// CHECK-LABEL: func.func private @host_dispatch_0
// CHECK-NOT:     linalg.transpose
#id = affine_map<(n, k) -> (n, k)>
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func private @host_dispatch_0(%a: tensor<8x16xf32>, %b: tensor<32x16xf32>) -> (tensor<8x32xf32>, tensor<32x16xf32>) attributes {dispatchlab.dispatch} {
  %z = arith.constant 0.0 : f32
  %eb = tensor.empty() : tensor<32x16xf32>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<32x16xf32>) outs(%eb : tensor<32x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<32x16xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %r = linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %neg : tensor<8x16xf32>, tensor<32x16xf32>) outs(%f : tensor<8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %r, %neg : tensor<8x32xf32>, tensor<32x16xf32>
}

// -----

// A row reduction (a LayerNorm's mean, a softmax's max) has no weight: its
// one input is read as it is, its rows reduced along their contiguous
// columns, rather than transposed whole on every call.
// CHECK-LABEL: func.func private @host_dispatch_0
// CHECK-NOT:     linalg.transpose
#rows = affine_map<(r, c) -> (r, c)>
#row = affine_map<(r, c) -> (r)>
func.func private @host_dispatch_0(%x: tensor<128x768xf32>) -> tensor<128xf32> attributes {dispatchlab.dispatch} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  %s = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<128x768xf32>) outs(%f : tensor<128xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<128xf32>
  return %s : tensor<128xf32>
}
