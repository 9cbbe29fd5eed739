// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-fuse-dequantization-matmul,canonicalize))' --mlir-print-local-scope | FileCheck %s

// FuseDequantizationMatmul (globalopt/FuseDequantizationMatmul.cpp, after
// IREE's pass of that name): a matvec over (group, element) of weights
// dequantized per group becomes an i16 x i8 integer matmul and a
// reassociated dequantization.

// Scales and zero points one rank below the weights: the six generics.
// CHECK-LABEL: func.func @grouped_matvec(
//  CHECK-SAME:     %[[Q:[a-z0-9]+]]: tensor<6x4x8xi8>, %[[A:[a-z0-9]+]]: tensor<4x8xf32>, %[[S:[a-z0-9]+]]: tensor<6x4xf32>, %[[ZP:[a-z0-9]+]]: tensor<6x4xf32>
//   CHECK-DAG:   %[[RANGE:.+]] = arith.constant 3.276700e+04 : f32
//       CHECK:   %[[MAX:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[A]] :
//       CHECK:     math.absf
//       CHECK:     arith.maximumf
//       CHECK:   %[[AS:.+]] = linalg.generic {{.*}} ins(%[[MAX]] : tensor<4xf32>)
//       CHECK:     arith.divf %{{.+}}, %[[RANGE]]
//       CHECK:   %[[SUM:.+]] = linalg.generic {{.*}} ins(%[[A]] : tensor<4x8xf32>) outs(%{{.+}} : tensor<4xf32>)
//       CHECK:     arith.addf
//       CHECK:   %[[AQ:.+]] = linalg.generic {{.*}} ins(%[[A]], %[[AS]] : tensor<4x8xf32>, tensor<4xf32>) outs(%{{.+}} : tensor<4x8xi16>)
//       CHECK:     arith.fptosi %{{.+}} : f32 to i16
//       CHECK:   %[[I:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[AQ]], %[[Q]] : tensor<4x8xi16>, tensor<6x4x8xi8>) outs(%{{.+}} : tensor<6x4xi32>)
//       CHECK:     arith.extsi %{{.+}} : i16 to i32
//       CHECK:     arith.extui %{{.+}} : i8 to i32
//       CHECK:     arith.muli
//       CHECK:     arith.addi
//       CHECK:   %[[R:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[I]], %[[AS]], %[[SUM]], %[[S]], %[[ZP]] :
//       CHECK:     arith.sitofp
//       CHECK:     arith.subf
//       CHECK:     arith.addf
//       CHECK:   return %[[R]]
#q = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#g = affine_map<(d0, d1, d2) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d1, d2)>
#o = affine_map<(d0, d1, d2) -> (d0)>
func.func @grouped_matvec(%q: tensor<6x4x8xi8>, %a: tensor<4x8xf32>, %s: tensor<6x4xf32>, %zp: tensor<6x4xf32>) -> tensor<6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x4x8xf32>
  %w = linalg.generic {indexing_maps = [#q, #g, #g, #q], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %s, %zp : tensor<6x4x8xi8>, tensor<6x4xf32>, tensor<6x4xf32>) outs(%e : tensor<6x4x8xf32>) {
  ^bb0(%qi: i8, %si: f32, %zi: f32, %out: f32):
    %0 = arith.extui %qi : i8 to i32
    %1 = arith.uitofp %0 : i32 to f32
    %2 = arith.subf %1, %zi : f32
    %3 = arith.mulf %2, %si : f32
    linalg.yield %3 : f32
  } -> tensor<6x4x8xf32>
  %eo = tensor.empty() : tensor<6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%eo : tensor<6xf32>) -> tensor<6xf32>
  %r = linalg.generic {indexing_maps = [#a, #q, #o], iterator_types = ["parallel", "reduction", "reduction"]} ins(%a, %w : tensor<4x8xf32>, tensor<6x4x8xf32>) outs(%acc : tensor<6xf32>) {
  ^bb0(%ai: f32, %wi: f32, %out: f32):
    %0 = arith.mulf %ai, %wi : f32
    %1 = arith.addf %0, %out : f32
    linalg.yield %1 : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----

// Scales and zero points with a unit innermost dim are read at its zero.
// CHECK-LABEL: func.func @unit_group_dim(
//       CHECK:   linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1, 0)>, affine_map<(d0, d1) -> (d0, d1, 0)>, affine_map<(d0, d1) -> (d0)>]
#q = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#g = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#a = affine_map<(d0, d1, d2) -> (d1, d2)>
#o = affine_map<(d0, d1, d2) -> (d0)>
func.func @unit_group_dim(%q: tensor<6x4x8xi4>, %a: tensor<4x8xf32>, %s: tensor<6x4x1xf32>, %zp: tensor<6x4x1xf32>) -> tensor<6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x4x8xf32>
  %w = linalg.generic {indexing_maps = [#q, #g, #g, #q], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %s, %zp : tensor<6x4x8xi4>, tensor<6x4x1xf32>, tensor<6x4x1xf32>) outs(%e : tensor<6x4x8xf32>) {
  ^bb0(%qi: i4, %si: f32, %zi: f32, %out: f32):
    %0 = arith.extui %qi : i4 to i32
    %1 = arith.uitofp %0 : i32 to f32
    %2 = arith.subf %1, %zi : f32
    %3 = arith.mulf %2, %si : f32
    linalg.yield %3 : f32
  } -> tensor<6x4x8xf32>
  %eo = tensor.empty() : tensor<6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%eo : tensor<6xf32>) -> tensor<6xf32>
  %r = linalg.generic {indexing_maps = [#a, #q, #o], iterator_types = ["parallel", "reduction", "reduction"]} ins(%a, %w : tensor<4x8xf32>, tensor<6x4x8xf32>) outs(%acc : tensor<6xf32>) {
  ^bb0(%ai: f32, %wi: f32, %out: f32):
    %0 = arith.mulf %ai, %wi : f32
    %1 = arith.addf %0, %out : f32
    linalg.yield %1 : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----

// Without zero points the rewrite has nothing to subtract: IREE's pass
// matches the dequantization and leaves it.
// CHECK-LABEL: func.func @no_zero_points(
//   CHECK-NOT:   arith.fptosi
//       CHECK:   arith.uitofp
//   CHECK-NOT:   arith.fptosi
#q = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#g = affine_map<(d0, d1, d2) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d1, d2)>
#o = affine_map<(d0, d1, d2) -> (d0)>
func.func @no_zero_points(%q: tensor<6x4x8xi8>, %a: tensor<4x8xf32>, %s: tensor<6x4xf32>) -> tensor<6xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 128.0 : f32
  %e = tensor.empty() : tensor<6x4x8xf32>
  %w = linalg.generic {indexing_maps = [#q, #g, #q], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %s : tensor<6x4x8xi8>, tensor<6x4xf32>) outs(%e : tensor<6x4x8xf32>) {
  ^bb0(%qi: i8, %si: f32, %out: f32):
    %0 = arith.extui %qi : i8 to i32
    %1 = arith.uitofp %0 : i32 to f32
    %2 = arith.subf %1, %half : f32
    %3 = arith.mulf %2, %si : f32
    linalg.yield %3 : f32
  } -> tensor<6x4x8xf32>
  %eo = tensor.empty() : tensor<6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%eo : tensor<6xf32>) -> tensor<6xf32>
  %r = linalg.generic {indexing_maps = [#a, #q, #o], iterator_types = ["parallel", "reduction", "reduction"]} ins(%a, %w : tensor<4x8xf32>, tensor<6x4x8xf32>) outs(%acc : tensor<6xf32>) {
  ^bb0(%ai: f32, %wi: f32, %out: f32):
    %0 = arith.mulf %ai, %wi : f32
    %1 = arith.addf %0, %out : f32
    linalg.yield %1 : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----

// Signed weights (extsi, sitofp) are not the unsigned dequantization the
// integer matmul's extui assumes.
// CHECK-LABEL: func.func @signed_weights(
//   CHECK-NOT:   arith.fptosi
//       CHECK:   arith.sitofp
//   CHECK-NOT:   arith.fptosi
#q = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#g = affine_map<(d0, d1, d2) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d1, d2)>
#o = affine_map<(d0, d1, d2) -> (d0)>
func.func @signed_weights(%q: tensor<6x4x8xi8>, %a: tensor<4x8xf32>, %s: tensor<6x4xf32>, %zp: tensor<6x4xf32>) -> tensor<6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x4x8xf32>
  %w = linalg.generic {indexing_maps = [#q, #g, #g, #q], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %s, %zp : tensor<6x4x8xi8>, tensor<6x4xf32>, tensor<6x4xf32>) outs(%e : tensor<6x4x8xf32>) {
  ^bb0(%qi: i8, %si: f32, %zi: f32, %out: f32):
    %0 = arith.extsi %qi : i8 to i32
    %1 = arith.sitofp %0 : i32 to f32
    %2 = arith.subf %1, %zi : f32
    %3 = arith.mulf %2, %si : f32
    linalg.yield %3 : f32
  } -> tensor<6x4x8xf32>
  %eo = tensor.empty() : tensor<6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%eo : tensor<6xf32>) -> tensor<6xf32>
  %r = linalg.generic {indexing_maps = [#a, #q, #o], iterator_types = ["parallel", "reduction", "reduction"]} ins(%a, %w : tensor<4x8xf32>, tensor<6x4x8xf32>) outs(%acc : tensor<6xf32>) {
  ^bb0(%ai: f32, %wi: f32, %out: f32):
    %0 = arith.mulf %ai, %wi : f32
    %1 = arith.addf %0, %out : f32
    linalg.yield %1 : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----

// An activation read transposed (element before group) cannot be quantized
// per group along its innermost dim.
// CHECK-LABEL: func.func @transposed_activation(
//   CHECK-NOT:   arith.fptosi
//       CHECK:   return
#q = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#g = affine_map<(d0, d1, d2) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d2, d1)>
#o = affine_map<(d0, d1, d2) -> (d0)>
func.func @transposed_activation(%q: tensor<6x4x8xi8>, %a: tensor<8x4xf32>, %s: tensor<6x4xf32>, %zp: tensor<6x4xf32>) -> tensor<6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x4x8xf32>
  %w = linalg.generic {indexing_maps = [#q, #g, #g, #q], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %s, %zp : tensor<6x4x8xi8>, tensor<6x4xf32>, tensor<6x4xf32>) outs(%e : tensor<6x4x8xf32>) {
  ^bb0(%qi: i8, %si: f32, %zi: f32, %out: f32):
    %0 = arith.extui %qi : i8 to i32
    %1 = arith.uitofp %0 : i32 to f32
    %2 = arith.subf %1, %zi : f32
    %3 = arith.mulf %2, %si : f32
    linalg.yield %3 : f32
  } -> tensor<6x4x8xf32>
  %eo = tensor.empty() : tensor<6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%eo : tensor<6xf32>) -> tensor<6xf32>
  %r = linalg.generic {indexing_maps = [#a, #q, #o], iterator_types = ["parallel", "reduction", "reduction"]} ins(%a, %w : tensor<8x4xf32>, tensor<6x4x8xf32>) outs(%acc : tensor<6xf32>) {
  ^bb0(%ai: f32, %wi: f32, %out: f32):
    %0 = arith.mulf %ai, %wi : f32
    %1 = arith.addf %0, %out : f32
    linalg.yield %1 : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----

// Dynamic shapes are left to the plain path, as in IREE.
// CHECK-LABEL: func.func @dynamic_rows(
//   CHECK-NOT:   arith.fptosi
//       CHECK:   return
#q = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#g = affine_map<(d0, d1, d2) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d1, d2)>
#o = affine_map<(d0, d1, d2) -> (d0)>
func.func @dynamic_rows(%q: tensor<?x4x8xi8>, %a: tensor<4x8xf32>, %s: tensor<?x4xf32>, %zp: tensor<?x4xf32>, %w0: tensor<?x4x8xf32>, %acc: tensor<?xf32>) -> tensor<?xf32> {
  %w = linalg.generic {indexing_maps = [#q, #g, #g, #q], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %s, %zp : tensor<?x4x8xi8>, tensor<?x4xf32>, tensor<?x4xf32>) outs(%w0 : tensor<?x4x8xf32>) {
  ^bb0(%qi: i8, %si: f32, %zi: f32, %out: f32):
    %0 = arith.extui %qi : i8 to i32
    %1 = arith.uitofp %0 : i32 to f32
    %2 = arith.subf %1, %zi : f32
    %3 = arith.mulf %2, %si : f32
    linalg.yield %3 : f32
  } -> tensor<?x4x8xf32>
  %r = linalg.generic {indexing_maps = [#a, #q, #o], iterator_types = ["parallel", "reduction", "reduction"]} ins(%a, %w : tensor<4x8xf32>, tensor<?x4x8xf32>) outs(%acc : tensor<?xf32>) {
  ^bb0(%ai: f32, %wi: f32, %out: f32):
    %0 = arith.mulf %ai, %wi : f32
    %1 = arith.addf %0, %out : f32
    linalg.yield %1 : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
