// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-raise-special-ops,canonicalize))' | FileCheck %s

// One case per rule of RaiseSpecialOps' softmax raising
// (globalopt/RaiseSoftmax.cpp, after IREE's RaiseSpecialOps): the root's two
// normalizations, both broadcast forms, both max bodies, and the chains it
// must leave.

// exp * reciprocal(sum), the form ONNX Softmax imports to through TOSA,
// with -lowest as the max's init (TOSA's).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @softmax_reciprocal(
//  CHECK-SAME:     %[[X:.+]]: tensor<2x4xf32>
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<2x4xf32>
//       CHECK:   %[[S:.+]] = linalg.softmax dimension(1) ins(%[[X]] : tensor<2x4xf32>) outs(%[[E]] : tensor<2x4xf32>) -> tensor<2x4xf32>
//  CHECK-NEXT:   return %[[S]]
func.func @softmax_reciprocal(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e1 = tensor.empty() : tensor<2xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %minit = arith.constant -3.40282347E+38 : f32
  %mfill = linalg.fill ins(%minit : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x4xf32>) outs(%mfill : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  %sub = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<2x4xf32>, tensor<2xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sub : tensor<2x4xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<2x4xf32>
  %zero = arith.constant 0.0 : f32
  %sfill = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<2x4xf32>) outs(%sfill : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  %rcp = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum : tensor<2xf32>) outs(%e1 : tensor<2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %r = arith.divf %one, %a : f32
    linalg.yield %r : f32
  } -> tensor<2xf32>
  %root = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %rcp : tensor<2x4xf32>, tensor<2xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  return %root : tensor<2x4xf32>
}

// -----

// A rank-1 softmax (a classifier's head once FoldUnitExtentDims drops the
// batch dim): the reductions yield 0-d tensors and the maps that drop the
// innermost loop are (d0) -> (); IREE's IsProjected(-1) accepts them.
#v = affine_map<(d0) -> (d0)>
#s = affine_map<(d0) -> ()>
#scalar = affine_map<() -> ()>
// CHECK-LABEL: func.func @softmax_rank1(
//  CHECK-SAME:     %[[X:.+]]: tensor<10xf32>
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<10xf32>
//       CHECK:   %[[S:.+]] = linalg.softmax dimension(0) ins(%[[X]] : tensor<10xf32>) outs(%[[E]] : tensor<10xf32>) -> tensor<10xf32>
//  CHECK-NEXT:   return %[[S]]
func.func @softmax_rank1(%x: tensor<10xf32>) -> tensor<10xf32> {
  %e0 = tensor.empty() : tensor<f32>
  %e1 = tensor.empty() : tensor<10xf32>
  %one = arith.constant 1.0 : f32
  %minit = arith.constant -3.40282347E+38 : f32
  %mfill = linalg.fill ins(%minit : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %max = linalg.generic {indexing_maps = [#v, #s], iterator_types = ["reduction"]}
      ins(%x : tensor<10xf32>) outs(%mfill : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  %sub = linalg.generic {indexing_maps = [#v, #s, #v], iterator_types = ["parallel"]}
      ins(%x, %max : tensor<10xf32>, tensor<f32>) outs(%e1 : tensor<10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<10xf32>
  %exp = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%sub : tensor<10xf32>) outs(%e1 : tensor<10xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<10xf32>
  %zero = arith.constant 0.0 : f32
  %sfill = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [#v, #s], iterator_types = ["reduction"]}
      ins(%exp : tensor<10xf32>) outs(%sfill : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<f32>
  %rcp = linalg.generic {indexing_maps = [#scalar, #scalar], iterator_types = []}
      ins(%sum : tensor<f32>) outs(%e0 : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.divf %one, %a : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %root = linalg.generic {indexing_maps = [#v, #s, #v], iterator_types = ["parallel"]}
      ins(%exp, %rcp : tensor<10xf32>, tensor<f32>) outs(%e1 : tensor<10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<10xf32>
  return %root : tensor<10xf32>
}

// -----

// exp / sum with implicit broadcasts (the reduced operands' maps drop the
// innermost loop) and -inf as the max's init.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @softmax_divide(
//  CHECK-SAME:     %[[X:.+]]: tensor<2x4xf32>
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<2x4xf32>
//       CHECK:   %[[S:.+]] = linalg.softmax dimension(1) ins(%[[X]] : tensor<2x4xf32>) outs(%[[E]] : tensor<2x4xf32>) -> tensor<2x4xf32>
//  CHECK-NEXT:   return %[[S]]
func.func @softmax_divide(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e1 = tensor.empty() : tensor<2xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %minit = arith.constant 0xFF800000 : f32
  %mfill = linalg.fill ins(%minit : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x4xf32>) outs(%mfill : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  %sub = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<2x4xf32>, tensor<2xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sub : tensor<2x4xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<2x4xf32>
  %zero = arith.constant 0.0 : f32
  %sfill = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<2x4xf32>) outs(%sfill : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  %root = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<2x4xf32>, tensor<2xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  return %root : tensor<2x4xf32>
}

// -----

// Explicit broadcasts: pass-through generics carry max and sum to the rows.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @softmax_explicit_broadcast(
//  CHECK-SAME:     %[[X:.+]]: tensor<2x4xf32>
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<2x4xf32>
//       CHECK:   %[[S:.+]] = linalg.softmax dimension(1) ins(%[[X]] : tensor<2x4xf32>) outs(%[[E]] : tensor<2x4xf32>) -> tensor<2x4xf32>
//  CHECK-NEXT:   return %[[S]]
func.func @softmax_explicit_broadcast(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e1 = tensor.empty() : tensor<2xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %minit = arith.constant 0xFF800000 : f32
  %mfill = linalg.fill ins(%minit : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x4xf32>) outs(%mfill : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  %bmax = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%max : tensor<2xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x4xf32>
  %sub = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bmax : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sub : tensor<2x4xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<2x4xf32>
  %zero = arith.constant 0.0 : f32
  %sfill = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<2x4xf32>) outs(%sfill : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  %bsum = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<2xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x4xf32>
  %root = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %bsum : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  return %root : tensor<2x4xf32>
}

// -----

// arith.maxnumf (NaN-ignoring, what linalg.softmax decomposes to) as the
// stabilizing max.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @softmax_maxnumf(
//  CHECK-SAME:     %[[X:.+]]: tensor<2x4xf32>
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<2x4xf32>
//       CHECK:   %[[S:.+]] = linalg.softmax dimension(1) ins(%[[X]] : tensor<2x4xf32>) outs(%[[E]] : tensor<2x4xf32>) -> tensor<2x4xf32>
//  CHECK-NEXT:   return %[[S]]
func.func @softmax_maxnumf(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e1 = tensor.empty() : tensor<2xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %minit = arith.constant 0xFF800000 : f32
  %mfill = linalg.fill ins(%minit : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x4xf32>) outs(%mfill : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maxnumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  %sub = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<2x4xf32>, tensor<2xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sub : tensor<2x4xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<2x4xf32>
  %zero = arith.constant 0.0 : f32
  %sfill = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<2x4xf32>) outs(%sfill : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  %root = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<2x4xf32>, tensor<2xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  return %root : tensor<2x4xf32>
}

// -----

// Negative: the max starts from 0.0, which is no stabilizing max.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @not_softmax_zero_max_init(
//   CHECK-NOT:   linalg.softmax
//       CHECK:   return
func.func @not_softmax_zero_max_init(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e1 = tensor.empty() : tensor<2xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %minit = arith.constant 0.0 : f32
  %mfill = linalg.fill ins(%minit : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x4xf32>) outs(%mfill : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  %sub = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<2x4xf32>, tensor<2xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sub : tensor<2x4xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<2x4xf32>
  %zero = arith.constant 0.0 : f32
  %sfill = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<2x4xf32>) outs(%sfill : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  %root = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<2x4xf32>, tensor<2xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  return %root : tensor<2x4xf32>
}

// -----

// Negative: the max reduces another tensor than the subtraction reads.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @not_softmax_other_source(
//   CHECK-NOT:   linalg.softmax
//       CHECK:   return
func.func @not_softmax_other_source(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e1 = tensor.empty() : tensor<2xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %minit = arith.constant 0xFF800000 : f32
  %mfill = linalg.fill ins(%minit : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<2x4xf32>) outs(%mfill : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  %sub = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<2x4xf32>, tensor<2xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sub : tensor<2x4xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<2x4xf32>
  %zero = arith.constant 0.0 : f32
  %sfill = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<2x4xf32>) outs(%sfill : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  %root = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<2x4xf32>, tensor<2xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  return %root : tensor<2x4xf32>
}

// -----

// Negative: the normalizer sums another tensor than the exponentials.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @not_softmax_sum_of_other(
//   CHECK-NOT:   linalg.softmax
//       CHECK:   return
func.func @not_softmax_sum_of_other(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e1 = tensor.empty() : tensor<2xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %minit = arith.constant 0xFF800000 : f32
  %mfill = linalg.fill ins(%minit : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x4xf32>) outs(%mfill : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  %sub = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<2x4xf32>, tensor<2xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sub : tensor<2x4xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<2x4xf32>
  %zero = arith.constant 0.0 : f32
  %sfill = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x4xf32>) outs(%sfill : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  %root = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<2x4xf32>, tensor<2xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  return %root : tensor<2x4xf32>
}

// -----

// Negative: chains inside a dispatch stay (IREE's isNonNullAndOutsideDispatch).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @not_softmax_in_dispatch(
//   CHECK-NOT:   linalg.softmax
//       CHECK:   return
func.func @not_softmax_in_dispatch(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %d = dispatch.region -> (tensor<2x4xf32>) {
    %e1 = tensor.empty() : tensor<2xf32>
    %e2 = tensor.empty() : tensor<2x4xf32>
    %minit = arith.constant 0xFF800000 : f32
    %mfill = linalg.fill ins(%minit : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
    %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<2x4xf32>) outs(%mfill : tensor<2xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    } -> tensor<2xf32>
    %sub = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x, %max : tensor<2x4xf32>, tensor<2xf32>) outs(%e2 : tensor<2x4xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.subf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<2x4xf32>
    %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%sub : tensor<2x4xf32>) outs(%e2 : tensor<2x4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = math.exp %a : f32
      linalg.yield %v : f32
    } -> tensor<2x4xf32>
    %zero = arith.constant 0.0 : f32
    %sfill = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
    %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%exp : tensor<2x4xf32>) outs(%sfill : tensor<2xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    } -> tensor<2xf32>
    %root = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%exp, %sum : tensor<2x4xf32>, tensor<2xf32>) outs(%e2 : tensor<2x4xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %r = arith.divf %a, %b : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    dispatch.return %root : tensor<2x4xf32>
  }
  return %d : tensor<2x4xf32>
}
