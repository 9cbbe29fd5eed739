// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-raise-special-ops,canonicalize))' --mlir-print-local-scope | FileCheck %s

// RaiseSpecialOps' named-op rules (globalopt/RaiseNamedOps.cpp, after IREE's
// NamedImplicitCastOpConversion, FuseMatmulTranspose,
// FuseBatchMatmulTranspose and RaiseGenericFill).

#id = affine_map<(d0, d1) -> (d0, d1)>
// An f16 -> f32 extension feeding a matmul's LHS moves into its body: the
// matmul reads the f16 tensor.
// CHECK-LABEL: func.func @extf_into_matmul(
//  CHECK-SAME:     %[[A:[a-z0-9]+]]: tensor<4x8xf16>
//  CHECK-SAME:     %[[B:[a-z0-9]+]]: tensor<8x2xf32>
//   CHECK-NOT:   linalg.generic
//       CHECK:   %[[M:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xf16>, tensor<8x2xf32>)
//       CHECK:   return %[[M]]
func.func @extf_into_matmul(%a: tensor<4x8xf16>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %wide = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf16>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f16, %out: f32):
    %x = arith.extf %in : f16 to f32
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %m = linalg.matmul ins(%wide, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %m : tensor<4x2xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// Sign extensions fold into both operands of a convolution (a named op
// extends signed operands of a narrower type itself).
// CHECK-LABEL: func.func @extsi_into_conv(
//  CHECK-SAME:     %[[I:[a-z0-9]+]]: tensor<1x6x6x2xi8>
//  CHECK-SAME:     %[[F:[a-z0-9]+]]: tensor<3x3x2x4xi8>
//       CHECK:   linalg.conv_2d_nhwc_hwcf
//  CHECK-SAME:     ins(%[[I]], %[[F]] : tensor<1x6x6x2xi8>, tensor<3x3x2x4xi8>)
//  CHECK-SAME:     -> tensor<1x4x4x4xi32>
func.func @extsi_into_conv(%i: tensor<1x6x6x2xi8>, %f: tensor<3x3x2x4xi8>) -> tensor<1x4x4x4xi32> {
  %ei = tensor.empty() : tensor<1x6x6x2xi32>
  %wi = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%i : tensor<1x6x6x2xi8>) outs(%ei : tensor<1x6x6x2xi32>) {
  ^bb0(%in: i8, %out: i32):
    %x = arith.extsi %in : i8 to i32
    linalg.yield %x : i32
  } -> tensor<1x6x6x2xi32>
  %ef = tensor.empty() : tensor<3x3x2x4xi32>
  %wf = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%f : tensor<3x3x2x4xi8>) outs(%ef : tensor<3x3x2x4xi32>) {
  ^bb0(%in: i8, %out: i32):
    %x = arith.extsi %in : i8 to i32
    linalg.yield %x : i32
  } -> tensor<3x3x2x4xi32>
  %zero = arith.constant 0 : i32
  %eo = tensor.empty() : tensor<1x4x4x4xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%eo : tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xi32>
  %c = linalg.conv_2d_nhwc_hwcf ins(%wi, %wf : tensor<1x6x6x2xi32>, tensor<3x3x2x4xi32>) outs(%acc : tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xi32>
  return %c : tensor<1x4x4x4xi32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// A matmul that extends unsigned cannot take a sign extension.
// CHECK-LABEL: func.func @extsi_into_unsigned_matmul_stays(
//       CHECK:   %[[W:.+]] = linalg.generic
//       CHECK:   linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%{{.+}}, %[[W]]
func.func @extsi_into_unsigned_matmul_stays(%a: tensor<4x8xi32>, %b: tensor<8x2xi8>) -> tensor<4x2xi32> {
  %e = tensor.empty() : tensor<8x2xi32>
  %wide = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<8x2xi8>) outs(%e : tensor<8x2xi32>) {
  ^bb0(%in: i8, %out: i32):
    %x = arith.extsi %in : i8 to i32
    linalg.yield %x : i32
  } -> tensor<8x2xi32>
  %zero = arith.constant 0 : i32
  %e2 = tensor.empty() : tensor<4x2xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e2 : tensor<4x2xi32>) -> tensor<4x2xi32>
  %m = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %wide : tensor<4x8xi32>, tensor<8x2xi32>) outs(%acc : tensor<4x2xi32>) -> tensor<4x2xi32>
  return %m : tensor<4x2xi32>
}

// -----

// A zero extension never folds (named ops extend signed).
// CHECK-LABEL: func.func @extui_stays(
//       CHECK:   %[[W:.+]] = linalg.generic
//       CHECK:   linalg.matmul ins(%{{.+}}, %[[W]]
func.func @extui_stays(%a: tensor<4x8xi32>, %b: tensor<8x2xi8>) -> tensor<4x2xi32> {
  %e = tensor.empty() : tensor<8x2xi32>
  %wide = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<8x2xi8>) outs(%e : tensor<8x2xi32>) {
  ^bb0(%in: i8, %out: i32):
    %x = arith.extui %in : i8 to i32
    linalg.yield %x : i32
  } -> tensor<8x2xi32>
  %zero = arith.constant 0 : i32
  %e2 = tensor.empty() : tensor<4x2xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e2 : tensor<4x2xi32>) -> tensor<4x2xi32>
  %m = linalg.matmul ins(%a, %wide : tensor<4x8xi32>, tensor<8x2xi32>) outs(%acc : tensor<4x2xi32>) -> tensor<4x2xi32>
  return %m : tensor<4x2xi32>
}

// -----

// An extension that also transposes is not the operand's elementwise cast.
// CHECK-LABEL: func.func @transposing_extf_stays(
//       CHECK:   %[[W:.+]] = linalg.generic
//       CHECK:   linalg.matmul ins(%{{.+}}, %[[W]]
func.func @transposing_extf_stays(%a: tensor<4x8xf32>, %b: tensor<2x8xf16>) -> tensor<4x2xf32> {
  %e = tensor.empty() : tensor<8x2xf32>
  %wide = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<2x8xf16>) outs(%e : tensor<8x2xf32>) {
  ^bb0(%in: f16, %out: f32):
    %x = arith.extf %in : f16 to f32
    linalg.yield %x : f32
  } -> tensor<8x2xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %m = linalg.matmul ins(%a, %wide : tensor<4x8xf32>, tensor<8x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %m : tensor<4x2xf32>
}

// -----

// matmul(a, transpose(b)) reads b with the transpose-B maps.
// CHECK-LABEL: func.func @matmul_of_transposed_rhs(
//  CHECK-SAME:     %[[A:[a-z0-9]+]]: tensor<4x8xf32>
//  CHECK-SAME:     %[[B:[a-z0-9]+]]: tensor<2x8xf32>
//   CHECK-NOT:   linalg.generic
//       CHECK:   linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%[[A]], %[[B]] :
func.func @matmul_of_transposed_rhs(%a: tensor<4x8xf32>, %b: tensor<2x8xf32>) -> tensor<4x2xf32> {
  %e = tensor.empty() : tensor<8x2xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<2x8xf32>) outs(%e : tensor<8x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x2xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %m = linalg.matmul ins(%a, %t : tensor<4x8xf32>, tensor<8x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %m : tensor<4x2xf32>
}

// -----

// The batched form: the two inner dims swapped, the batch dim kept.
// CHECK-LABEL: func.func @batch_matmul_of_transposed_rhs(
//  CHECK-SAME:     %[[A:[a-z0-9]+]]: tensor<3x4x8xf32>
//  CHECK-SAME:     %[[B:[a-z0-9]+]]: tensor<3x2x8xf32>
//       CHECK:   linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%[[A]], %[[B]] :
func.func @batch_matmul_of_transposed_rhs(%a: tensor<3x4x8xf32>, %b: tensor<3x2x8xf32>) -> tensor<3x4x2xf32> {
  %e = tensor.empty() : tensor<3x8x2xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2, d1)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%b : tensor<3x2x8xf32>) outs(%e : tensor<3x8x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x8x2xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<3x4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<3x4x2xf32>) -> tensor<3x4x2xf32>
  %m = linalg.batch_matmul ins(%a, %t : tensor<3x4x8xf32>, tensor<3x8x2xf32>) outs(%acc : tensor<3x4x2xf32>) -> tensor<3x4x2xf32>
  return %m : tensor<3x4x2xf32>
}

// -----

// A batch_matmul whose RHS swaps the batch dim with another is not an inner
// transpose.
// CHECK-LABEL: func.func @batch_matmul_of_outer_transpose_stays(
//       CHECK:   %[[T:.+]] = linalg.generic
//       CHECK:   linalg.batch_matmul ins(%{{.+}}, %[[T]]
func.func @batch_matmul_of_outer_transpose_stays(%a: tensor<3x4x8xf32>, %b: tensor<8x3x2xf32>) -> tensor<3x4x2xf32> {
  %e = tensor.empty() : tensor<3x8x2xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%b : tensor<8x3x2xf32>) outs(%e : tensor<3x8x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x8x2xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<3x4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<3x4x2xf32>) -> tensor<3x4x2xf32>
  %m = linalg.batch_matmul ins(%a, %t : tensor<3x4x8xf32>, tensor<3x8x2xf32>) outs(%acc : tensor<3x4x2xf32>) -> tensor<3x4x2xf32>
  return %m : tensor<3x4x2xf32>
}

// -----

// A generic without inputs yielding a value from outside is a fill.
// CHECK-LABEL: func.func @generic_to_fill(
//  CHECK-SAME:     %[[V:[a-z0-9]+]]: f32
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<2x3xf32>
//       CHECK:   %[[F:.+]] = linalg.fill ins(%[[V]] : f32) outs(%[[E]] : tensor<2x3xf32>)
//       CHECK:   return %[[F]]
func.func @generic_to_fill(%v: f32) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<2x3xf32>) {
  ^bb0(%out: f32):
    linalg.yield %v : f32
  } -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// IREE raises only an identity-mapped output; a transposed one stays,
// though it fills too.
// CHECK-LABEL: func.func @transposed_generic_fill_stays(
//       CHECK:   linalg.generic
//   CHECK-NOT:   linalg.fill
func.func @transposed_generic_fill_stays(%v: f32, %e: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<2x3xf32>) {
  ^bb0(%out: f32):
    linalg.yield %v : f32
  } -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
