// RUN: iree-opt --split-input-file --pass-pipeline="builtin.module(util.func(iree-global-opt-fuse-dequantization-matmul,iree-flow-canonicalize))" %s | FileCheck %s
// Our own stand-in for IREE's file of this name (compare_iree_globalopt.test).



#q = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#g = affine_map<(d0, d1, d2) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d1, d2)>
#o = affine_map<(d0, d1, d2) -> (d0)>
util.func public @grouped_matvec(%q: tensor<6x4x8xi8>, %a: tensor<4x8xf32>, %s: tensor<6x4xf32>, %zp: tensor<6x4xf32>) -> tensor<6xf32> {
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
  util.return %r : tensor<6xf32>
}


// CHECK-LABEL: @grouped_matvec
// CHECK: arith.fptosi %{{.+}} : f32 to i16
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %{{.+}} : tensor<4x8xi16>, tensor<6x4x8xi8>)
