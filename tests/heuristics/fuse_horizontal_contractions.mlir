// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-fuse-horizontal-contractions))' | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-fuse-horizontal-contractions{fusion-limit=2}))' | FileCheck %s --check-prefix=LIMIT2

// Two matmuls reading the same LHS become one two-result generic: the LHS
// map once, one RHS and one output map per matmul, both bodies in one block.
// CHECK-DAG:   #[[LHS:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[RHS:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[OUT:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @shared_lhs
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<16x32xf32>, %[[B1:[a-z0-9]+]]: tensor<32x64xf32>, %[[B2:[a-z0-9]+]]: tensor<32x64xf32>
// CHECK:         %[[FILL:.+]] = linalg.fill
// CHECK:         %[[F:.+]]:2 = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[LHS]], #[[RHS]], #[[RHS]], #[[OUT]], #[[OUT]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[A]], %[[B1]], %[[B2]] :
// CHECK-SAME:      outs(%[[FILL]], %[[FILL]] :
// CHECK:           %[[M1:.+]] = arith.mulf %[[IN:.+]], %[[IN1:.+]] : f32
// CHECK:           %[[S1:.+]] = arith.addf %{{.+}}, %[[M1]] : f32
// CHECK:           %[[M2:.+]] = arith.mulf %[[IN]], %{{.+}} : f32
// CHECK:           %[[S2:.+]] = arith.addf %{{.+}}, %[[M2]] : f32
// CHECK:           linalg.yield %[[S1]], %[[S2]] : f32, f32
// CHECK-NOT:     linalg.matmul
// CHECK:         return %[[F]]#0, %[[F]]#1
func.func @shared_lhs(%a: tensor<16x32xf32>, %b1: tensor<32x64xf32>, %b2: tensor<32x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m1 = linalg.matmul ins(%a, %b1 : tensor<16x32xf32>, tensor<32x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m2 = linalg.matmul ins(%a, %b2 : tensor<16x32xf32>, tensor<32x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %m1, %m2 : tensor<16x64xf32>, tensor<16x64xf32>
}

// -----

// fusion-limit: at most that many contractions per merged op. With the
// default (3) four matmuls give a three-result generic and a leftover matmul;
// with 2, two two-result generics.
// CHECK-LABEL: func.func @fusion_limit
// CHECK:         %[[F:.+]]:3 = linalg.generic
// CHECK:         %[[M4:.+]] = linalg.matmul
// CHECK:         return %[[F]]#0, %[[F]]#1, %[[F]]#2, %[[M4]]
// LIMIT2-LABEL: func.func @fusion_limit
// LIMIT2:         %[[F:.+]]:2 = linalg.generic
// LIMIT2:         %[[G:.+]]:2 = linalg.generic
// LIMIT2-NOT:     linalg.matmul
// LIMIT2:         return %[[F]]#0, %[[F]]#1, %[[G]]#0, %[[G]]#1
func.func @fusion_limit(%a: tensor<16x32xf32>, %b: tensor<32x64xf32>, %acc: tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>) {
  %m1 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m2 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m3 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m4 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %m1, %m2, %m3, %m4 : tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>
}

// -----

// Different LHS values: nothing is shared, so nothing is merged.
// CHECK-LABEL: func.func @different_lhs
// CHECK:         linalg.matmul
// CHECK:         linalg.matmul
// CHECK-NOT:     linalg.generic
func.func @different_lhs(%a1: tensor<16x32xf32>, %a2: tensor<16x32xf32>, %b: tensor<32x64xf32>, %acc: tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %m1 = linalg.matmul ins(%a1, %b : tensor<16x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m2 = linalg.matmul ins(%a2, %b : tensor<16x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %m1, %m2 : tensor<16x64xf32>, tensor<16x64xf32>
}

// -----

// The second matmul reads the first one's result as its RHS: they depend on
// each other (IREE's isHorizontalToGroup), so they stay apart.
// CHECK-LABEL: func.func @dependent
// CHECK:         %[[M1:.+]] = linalg.matmul
// CHECK:         linalg.matmul ins(%{{.+}}, %[[M1]] :
// CHECK-NOT:     linalg.generic
func.func @dependent(%a: tensor<32x32xf32>, %b: tensor<32x32xf32>, %acc: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %m1 = linalg.matmul ins(%a, %b : tensor<32x32xf32>, tensor<32x32xf32>) outs(%acc : tensor<32x32xf32>) -> tensor<32x32xf32>
  %m2 = linalg.matmul ins(%a, %m1 : tensor<32x32xf32>, tensor<32x32xf32>) outs(%acc : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %m2 : tensor<32x32xf32>
}

// -----

// The dependence may be indirect, through an op between the two.
// CHECK-LABEL: func.func @dependent_through_op
// CHECK:         linalg.matmul
// CHECK:         linalg.generic
// CHECK:         linalg.matmul
// CHECK-NOT:     -> (tensor
func.func @dependent_through_op(%a: tensor<32x32xf32>, %b: tensor<32x32xf32>, %acc: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %m1 = linalg.matmul ins(%a, %b : tensor<32x32xf32>, tensor<32x32xf32>) outs(%acc : tensor<32x32xf32>) -> tensor<32x32xf32>
  %e = tensor.empty() : tensor<32x32xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m1 : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<32x32xf32>
  %m2 = linalg.matmul ins(%a, %x : tensor<32x32xf32>, tensor<32x32xf32>) outs(%acc : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %m2 : tensor<32x32xf32>
}

// -----

// An independent producer of the second RHS that sits between the two
// matmuls is moved above the merged op.
// CHECK-LABEL: func.func @operand_defined_between
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<16x32xf32>, %[[B1:[a-z0-9]+]]: tensor<32x64xf32>, %[[B2:[a-z0-9]+]]: tensor<32x64xf32>
// CHECK:         %[[NEG:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[B2]] :
// CHECK:         %[[F:.+]]:2 = linalg.generic
// CHECK-SAME:      ins(%[[A]], %[[B1]], %[[NEG]] :
// CHECK:         return %[[F]]#0, %[[F]]#1
func.func @operand_defined_between(%a: tensor<16x32xf32>, %b1: tensor<32x64xf32>, %b2: tensor<32x64xf32>, %acc: tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %m1 = linalg.matmul ins(%a, %b1 : tensor<16x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<16x64xf32>) -> tensor<16x64xf32>
  %e = tensor.empty() : tensor<32x64xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%b2 : tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<32x64xf32>
  %m2 = linalg.matmul ins(%a, %neg : tensor<16x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %m1, %m2 : tensor<16x64xf32>, tensor<16x64xf32>
}

// -----

// The product of the M dims is 8 < 16 (IREE's guard for small fused
// matmuls), so nothing is merged.
// CHECK-LABEL: func.func @small_m
// CHECK:         linalg.matmul
// CHECK:         linalg.matmul
// CHECK-NOT:     linalg.generic
func.func @small_m(%a: tensor<8x32xf32>, %b1: tensor<32x64xf32>, %b2: tensor<32x64xf32>, %acc: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %m1 = linalg.matmul ins(%a, %b1 : tensor<8x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<8x64xf32>) -> tensor<8x64xf32>
  %m2 = linalg.matmul ins(%a, %b2 : tensor<8x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %m1, %m2 : tensor<8x64xf32>, tensor<8x64xf32>
}

// -----

// A dynamic M size counts as too small, as in IREE.
// CHECK-LABEL: func.func @dynamic_m
// CHECK:         linalg.matmul
// CHECK:         linalg.matmul
// CHECK-NOT:     linalg.generic
func.func @dynamic_m(%a: tensor<?x32xf32>, %b1: tensor<32x64xf32>, %b2: tensor<32x64xf32>, %acc: tensor<?x64xf32>) -> (tensor<?x64xf32>, tensor<?x64xf32>) {
  %m1 = linalg.matmul ins(%a, %b1 : tensor<?x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<?x64xf32>) -> tensor<?x64xf32>
  %m2 = linalg.matmul ins(%a, %b2 : tensor<?x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %m1, %m2 : tensor<?x64xf32>, tensor<?x64xf32>
}

// -----

// N sizes differ (64 and 128): the results would not share an iteration
// space.
// CHECK-LABEL: func.func @different_n
// CHECK:         linalg.matmul
// CHECK:         linalg.matmul
// CHECK-NOT:     linalg.generic
func.func @different_n(%a: tensor<16x32xf32>, %b1: tensor<32x64xf32>, %b2: tensor<32x128xf32>, %acc1: tensor<16x64xf32>, %acc2: tensor<16x128xf32>) -> (tensor<16x64xf32>, tensor<16x128xf32>) {
  %m1 = linalg.matmul ins(%a, %b1 : tensor<16x32xf32>, tensor<32x64xf32>) outs(%acc1 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m2 = linalg.matmul ins(%a, %b2 : tensor<16x32xf32>, tensor<32x128xf32>) outs(%acc2 : tensor<16x128xf32>) -> tensor<16x128xf32>
  return %m1, %m2 : tensor<16x64xf32>, tensor<16x128xf32>
}

// -----

// A dynamic N size is refused even when both are the same value.
// CHECK-LABEL: func.func @dynamic_n
// CHECK:         linalg.matmul
// CHECK:         linalg.matmul
// CHECK-NOT:     linalg.generic
func.func @dynamic_n(%a: tensor<16x32xf32>, %b: tensor<32x?xf32>, %acc: tensor<16x?xf32>) -> (tensor<16x?xf32>, tensor<16x?xf32>) {
  %m1 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x?xf32>) outs(%acc : tensor<16x?xf32>) -> tensor<16x?xf32>
  %m2 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x?xf32>) outs(%acc : tensor<16x?xf32>) -> tensor<16x?xf32>
  return %m1, %m2 : tensor<16x?xf32>, tensor<16x?xf32>
}

// -----

// The outputs have different element types (f32 and f16): refused by the
// rank/element-type rule (the bodies, typed by the operands, differ too).
// CHECK-LABEL: func.func @different_output_type
// CHECK:         linalg.matmul
// CHECK:         linalg.matmul
// CHECK-NOT:     linalg.generic
func.func @different_output_type(%a: tensor<16x32xf16>, %b: tensor<32x64xf16>, %acc1: tensor<16x64xf32>, %acc2: tensor<16x64xf16>) -> (tensor<16x64xf32>, tensor<16x64xf16>) {
  %m1 = linalg.matmul ins(%a, %b : tensor<16x32xf16>, tensor<32x64xf16>) outs(%acc1 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m2 = linalg.matmul ins(%a, %b : tensor<16x32xf16>, tensor<32x64xf16>) outs(%acc2 : tensor<16x64xf16>) -> tensor<16x64xf16>
  return %m1, %m2 : tensor<16x64xf32>, tensor<16x64xf16>
}

// -----

// Same maps and types, but the bodies differ (fast-math flags on the add):
// the regions are not equivalent, so they stay apart.
#lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @different_bodies
// CHECK:         arith.addf %{{.+}}, %{{.+}} fastmath<fast> : f32
// CHECK:         } -> tensor<16x64xf32>
// CHECK:         arith.addf %{{.+}}, %{{.+}} : f32
// CHECK:         } -> tensor<16x64xf32>
func.func @different_bodies(%a: tensor<16x32xf32>, %b: tensor<32x64xf32>, %acc: tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %m1 = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %o, %m fastmath<fast> : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  %m2 = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %m1, %m2 : tensor<16x64xf32>, tensor<16x64xf32>
}

// -----

// The second contraction numbers its loops differently (M is d1, N is d0).
// Swapping d0 and d1 aligns its LHS map with the seed's, after which the
// contraction dims, N sizes and iterator types match: merged, with the
// second RHS and output maps renamed accordingly.
#lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs_t = affine_map<(d0, d1, d2) -> (d1, d2)>
#rhs_t = affine_map<(d0, d1, d2) -> (d2, d0)>
#out_t = affine_map<(d0, d1, d2) -> (d1, d0)>
// CHECK-DAG:   #[[LHS:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[RHS:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[OUT:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @renamed_loops
// CHECK:         %[[F:.+]]:2 = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[LHS]], #[[RHS]], #[[RHS]], #[[OUT]], #[[OUT]]]
// CHECK:         return %[[F]]#0, %[[F]]#1
func.func @renamed_loops(%a: tensor<16x32xf32>, %b: tensor<32x64xf32>, %acc: tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %m1 = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  %m2 = linalg.generic {indexing_maps = [#lhs_t, #rhs_t, #out_t], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %m1, %m2 : tensor<16x64xf32>, tensor<16x64xf32>
}
