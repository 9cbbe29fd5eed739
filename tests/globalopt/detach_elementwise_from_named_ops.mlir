// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-detach-elementwise-from-named-ops))' | FileCheck %s

// One case per rule of DetachElementwiseFromNamedOps (IREE's
// GlobalOptimization pass of that name).

// A matmul accumulating into a computed tensor (a broadcast bias)
// accumulates into a zero fill; a float add applies the bias after it.
#row = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_computed_init(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %init = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x16xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %mm : tensor<4x16xf32>
}
// CHECK-LABEL: func.func @matmul_computed_init(
//       CHECK:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
//       CHECK:   %[[INIT:.+]] = linalg.generic
//       CHECK:   %[[FILL:.+]] = linalg.fill ins(%[[ZERO]] : f32)
//       CHECK:   %[[MM:.+]] = linalg.matmul {{.*}} outs(%[[FILL]] : tensor<4x16xf32>)
//       CHECK:   %[[ADD:.+]] = linalg.generic
//  CHECK-SAME:     ins(%[[MM]], %[[INIT]] : tensor<4x16xf32>, tensor<4x16xf32>) outs(%[[FILL]] : tensor<4x16xf32>)
//       CHECK:     arith.addf
//       CHECK:   return %[[ADD]]

// -----

// A convolution (TOSA's conv2d accumulates into its broadcast bias) is
// detached the same way.
#c = affine_map<(d0, d1, d2, d3) -> (d3)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_computed_init(%x: tensor<1x6x6x3xf32>, %w: tensor<3x3x3x8xf32>, %bias: tensor<8xf32>) -> tensor<1x4x4x8xf32> {
  %e = tensor.empty() : tensor<1x4x4x8xf32>
  %init = linalg.generic {indexing_maps = [#c, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<8xf32>) outs(%e : tensor<1x4x4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<1x4x4x8xf32>
  %conv = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x6x6x3xf32>, tensor<3x3x3x8xf32>) outs(%init : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %conv : tensor<1x4x4x8xf32>
}
// CHECK-LABEL: func.func @conv_computed_init(
//       CHECK:   %[[FILL:.+]] = linalg.fill
//       CHECK:   %[[CONV:.+]] = linalg.conv_2d_nhwc_hwcf {{.*}} outs(%[[FILL]] : tensor<1x4x4x8xf32>)
//       CHECK:   %[[ADD:.+]] = linalg.generic {{.*}} ins(%[[CONV]], %{{.+}} : tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>)
//       CHECK:     arith.addf
//       CHECK:   return %[[ADD]]

// -----

// A non-splat constant init is detached too (it would otherwise become a
// writable buffer); integer elements are added with addi.
func.func @matmul_constant_init(%a: tensor<2x2xi32>, %b: tensor<2x2xi32>) -> tensor<2x2xi32> {
  %c = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %mm = linalg.matmul ins(%a, %b : tensor<2x2xi32>, tensor<2x2xi32>) outs(%c : tensor<2x2xi32>) -> tensor<2x2xi32>
  return %mm : tensor<2x2xi32>
}
// CHECK-LABEL: func.func @matmul_constant_init(
//       CHECK:   %[[C:.+]] = arith.constant dense<{{\[}}[1, 2], [3, 4]]> : tensor<2x2xi32>
//       CHECK:   %[[FILL:.+]] = linalg.fill
//       CHECK:   %[[MM:.+]] = linalg.matmul {{.*}} outs(%[[FILL]] : tensor<2x2xi32>)
//       CHECK:   %[[ADD:.+]] = linalg.generic {{.*}} ins(%[[MM]], %[[C]] :
//       CHECK:     arith.addi
//       CHECK:   return %[[ADD]]

// -----

// A fill init is what the pass produces: nothing to do.
func.func @keep_fill_init(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %mm : tensor<4x16xf32>
}
// CHECK-LABEL: func.func @keep_fill_init(
//   CHECK-NOT:   arith.addf
//       CHECK:   %[[MM:.+]] = linalg.matmul
//  CHECK-NEXT:   return %[[MM]]

// -----

// A function argument as init stays (IREE's keep_arg).
func.func @keep_argument_init(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %mm : tensor<4x16xf32>
}
// CHECK-LABEL: func.func @keep_argument_init(
//  CHECK-SAME:     %[[C:[a-zA-Z0-9]+]]: tensor<4x16xf32>)
//   CHECK-NOT:   linalg.fill
//       CHECK:   %[[MM:.+]] = linalg.matmul {{.*}} outs(%[[C]] : tensor<4x16xf32>)
//  CHECK-NEXT:   return %[[MM]]

// -----

// A splat-constant init of any Linalg op becomes empty + fill of its value.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @generic_splat_init(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = arith.constant dense<1.5> : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%c : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @generic_splat_init(
//       CHECK:   %[[V:.+]] = arith.constant 1.500000e+00 : f32
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<4x8xf32>
//       CHECK:   %[[F:.+]] = linalg.fill ins(%[[V]] : f32) outs(%[[E]] : tensor<4x8xf32>)
//       CHECK:   linalg.generic {{.*}} outs(%[[F]] : tensor<4x8xf32>)

// -----

// A LinalgExt op's splat-constant init becomes a fill too.
func.func @linalg_ext_splat_init(%real: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %stage = arith.constant 1 : index
  %imag = arith.constant dense<0.0> : tensor<4x16xf32>
  %fft:2 = iree_linalg_ext.fft ins(%stage : index)
      outs(%real, %imag : tensor<4x16xf32>, tensor<4x16xf32>) : tensor<4x16xf32>, tensor<4x16xf32>
  return %fft#0, %fft#1 : tensor<4x16xf32>, tensor<4x16xf32>
}
// CHECK-LABEL: func.func @linalg_ext_splat_init(
//  CHECK-SAME:     %[[REAL:[a-zA-Z0-9]+]]: tensor<4x16xf32>
//       CHECK:   %[[F:.+]] = linalg.fill
//       CHECK:   iree_linalg_ext.fft {{.*}} outs(%[[REAL]], %[[F]] :

// -----

// Ops inside a dispatch stay as they are.
#row = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @keep_in_dispatch(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<16xf32>) -> tensor<4x16xf32> {
  %d = dispatch.region -> (tensor<4x16xf32>) {
    %e = tensor.empty() : tensor<4x16xf32>
    %init = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%bias : tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
    ^bb0(%x: f32, %o: f32):
      linalg.yield %x : f32
    } -> tensor<4x16xf32>
    %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
    dispatch.return %mm : tensor<4x16xf32>
  }
  return %d : tensor<4x16xf32>
}
// CHECK-LABEL: func.func @keep_in_dispatch(
//   CHECK-NOT:   linalg.fill
//       CHECK:   linalg.matmul
//   CHECK-NOT:   arith.addf
//       CHECK:   dispatch.return
