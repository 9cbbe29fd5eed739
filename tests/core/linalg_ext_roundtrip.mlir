// IREE's iree_linalg_ext ops parse in IREE's spelling and print back the same
// way; the printed form parses again (linalg_ext_invalid.mlir: bad uses).
//
// RUN: dispatchlab-opt %s --split-input-file | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file | dispatchlab-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @scatter
// CHECK: iree_linalg_ext.scatter dimension_map = [0] unique_indices(false) ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x1xi32>) outs(%{{.*}} : tensor<16x8xf32>) {
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK: iree_linalg_ext.yield %{{.*}} : f32
// CHECK: } -> tensor<16x8xf32>
func.func @scatter(%u: tensor<4x8xf32>, %i: tensor<4x1xi32>, %o: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false)
      ins(%u, %i : tensor<4x8xf32>, tensor<4x1xi32>) outs(%o : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// CHECK-LABEL: func.func @gather
// CHECK: iree_linalg_ext.gather dimension_map = [1, 0] ins(%{{.*}}, %{{.*}} : tensor<20x20x100xi32>, tensor<100x2xi32>) outs(%{{.*}} : tensor<100x100xi32>) -> tensor<100x100xi32>
func.func @gather(%s: tensor<20x20x100xi32>, %i: tensor<100x2xi32>, %o: tensor<100x100xi32>) -> tensor<100x100xi32> {
  %0 = iree_linalg_ext.gather dimension_map = [1, 0]
      ins(%s, %i : tensor<20x20x100xi32>, tensor<100x2xi32>)
      outs(%o : tensor<100x100xi32>) -> tensor<100x100xi32>
  return %0 : tensor<100x100xi32>
}

// -----

// CHECK-LABEL: func.func @sort
// CHECK: %{{.*}}:2 = iree_linalg_ext.sort dimension(1) outs(%{{.*}}, %{{.*}} : tensor<3x5xi32>, tensor<3x5xf32>) {
// CHECK: iree_linalg_ext.yield %{{.*}} : i1
// CHECK: } -> tensor<3x5xi32>, tensor<3x5xf32>
func.func @sort(%a: tensor<3x5xi32>, %b: tensor<3x5xf32>) -> (tensor<3x5xi32>, tensor<3x5xf32>) {
  %0:2 = iree_linalg_ext.sort dimension(1) outs(%a, %b : tensor<3x5xi32>, tensor<3x5xf32>) {
  ^bb0(%x: i32, %y: i32, %p: f32, %q: f32):
    %c = arith.cmpf ogt, %p, %q : f32
    iree_linalg_ext.yield %c : i1
  } -> tensor<3x5xi32>, tensor<3x5xf32>
  return %0#0, %0#1 : tensor<3x5xi32>, tensor<3x5xf32>
}

// -----

// CHECK-LABEL: func.func @topk
// CHECK: iree_linalg_ext.topk dimension(1) ins(%{{.*}} : tensor<2x10xf32>) outs(%{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<2x3xi32>) {
// CHECK: } -> tensor<2x3xf32>, tensor<2x3xi32>
func.func @topk(%v: tensor<2x10xf32>, %ov: tensor<2x3xf32>, %oi: tensor<2x3xi32>) -> tensor<2x3xf32> {
  %0:2 = iree_linalg_ext.topk dimension(1) ins(%v : tensor<2x10xf32>)
      outs(%ov, %oi : tensor<2x3xf32>, tensor<2x3xi32>) {
  ^bb0(%x: f32, %y: f32):
    %c = arith.cmpf ogt, %x, %y : f32
    iree_linalg_ext.yield %c : i1
  } -> tensor<2x3xf32>, tensor<2x3xi32>
  return %0#0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @fft
// CHECK: %{{.*}}:2 = iree_linalg_ext.fft ins(%{{.*}}, %{{.*}}, %{{.*}} : index, tensor<1xf32>, tensor<1xf32>) outs(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>) : tensor<4x8xf32>, tensor<4x8xf32>
func.func @fft(%s: index, %rc: tensor<1xf32>, %ic: tensor<1xf32>, %r: tensor<4x8xf32>, %i: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0:2 = iree_linalg_ext.fft ins(%s, %rc, %ic : index, tensor<1xf32>, tensor<1xf32>)
      outs(%r, %i : tensor<4x8xf32>, tensor<4x8xf32>) : tensor<4x8xf32>, tensor<4x8xf32>
  return %0#0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @custom_op
// CHECK: iree_linalg_ext.custom_op{indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = [#iree_linalg_ext.iterator_type<parallel>, #iree_linalg_ext.iterator_type<reduction>]} ins(%{{.*}} : tensor<?x?xf32>) outs(%{{.*}} : tensor<?xf32>) {
// CHECK: ^bb0(%{{.*}}: tensor<?x?xf32>, %{{.*}}: tensor<?xf32>):
// CHECK: iree_linalg_ext.yield %{{.*}} : tensor<?xf32>
// CHECK: } -> tensor<?xf32>
func.func @custom_op(%a: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = iree_linalg_ext.custom_op {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = [#iree_linalg_ext.iterator_type<parallel>, #iree_linalg_ext.iterator_type<reduction>]}
      ins(%a : tensor<?x?xf32>) outs(%b : tensor<?xf32>) {
  ^bb0(%x: tensor<?x?xf32>, %y: tensor<?xf32>):
    iree_linalg_ext.yield %y : tensor<?xf32>
  } -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @attention
// CHECK: iree_linalg_ext.attention {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}, #{{.*}}, #{{.*}}, #{{.*}}]} ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x16xf16>, tensor<8x16xf16>, tensor<8x32xf16>, f16, tensor<4x8xi1>) outs(%{{.*}} : tensor<4x32xf16>) {
// CHECK: ^bb0(%{{.*}}: f32):
// CHECK: } -> tensor<4x32xf16>
func.func @attention(%q: tensor<4x16xf16>, %k: tensor<8x16xf16>, %v: tensor<8x32xf16>, %s: f16, %m: tensor<4x8xi1>, %o: tensor<4x32xf16>) -> tensor<4x32xf16> {
  %0 = iree_linalg_ext.attention {
      indexing_maps = [affine_map<(m, n, k2, k1) -> (m, k1)>,
                       affine_map<(m, n, k2, k1) -> (k2, k1)>,
                       affine_map<(m, n, k2, k1) -> (k2, n)>,
                       affine_map<(m, n, k2, k1) -> ()>,
                       affine_map<(m, n, k2, k1) -> (m, k2)>,
                       affine_map<(m, n, k2, k1) -> (m, n)>]}
      ins(%q, %k, %v, %s, %m : tensor<4x16xf16>, tensor<8x16xf16>, tensor<8x32xf16>, f16, tensor<4x8xi1>)
      outs(%o : tensor<4x32xf16>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<4x32xf16>
  return %0 : tensor<4x32xf16>
}

// -----

// CHECK-LABEL: func.func @online_attention
// CHECK: %{{.*}}:3 = iree_linalg_ext.online_attention {indexing_maps = [{{.*}}]} ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x16xf16>, tensor<8x16xf16>, tensor<8x32xf16>, f16) outs(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x32xf32>, tensor<4xf32>, tensor<4xf32>) {
// CHECK: } -> tensor<4x32xf32>, tensor<4xf32>, tensor<4xf32>
func.func @online_attention(%q: tensor<4x16xf16>, %k: tensor<8x16xf16>, %v: tensor<8x32xf16>, %s: f16, %acc: tensor<4x32xf32>, %max: tensor<4xf32>, %sum: tensor<4xf32>) -> tensor<4x32xf32> {
  %0:3 = iree_linalg_ext.online_attention {
      indexing_maps = [affine_map<(m, n, k2, k1) -> (m, k1)>,
                       affine_map<(m, n, k2, k1) -> (k2, k1)>,
                       affine_map<(m, n, k2, k1) -> (k2, n)>,
                       affine_map<(m, n, k2, k1) -> ()>,
                       affine_map<(m, n, k2, k1) -> (m, n)>,
                       affine_map<(m, n, k2, k1) -> (m)>,
                       affine_map<(m, n, k2, k1) -> (m)>]}
      ins(%q, %k, %v, %s : tensor<4x16xf16>, tensor<8x16xf16>, tensor<8x32xf16>, f16)
      outs(%acc, %max, %sum : tensor<4x32xf32>, tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<4x32xf32>, tensor<4xf32>, tensor<4xf32>
  return %0#0 : tensor<4x32xf32>
}
