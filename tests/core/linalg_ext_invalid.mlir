// The iree_linalg_ext verifiers: a bad operand count or rank is one clear
// error naming the op, never a crash.
//
// RUN: dispatchlab-opt %s --split-input-file --verify-diagnostics

func.func @scatter_depth(%u: tensor<4x8xf32>, %i: tensor<4x2xi32>, %o: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'iree_linalg_ext.scatter' op index depth 2 differs from the dimension_map size 1}}
  %0 = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true)
      ins(%u, %i : tensor<4x8xf32>, tensor<4x2xi32>) outs(%o : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    iree_linalg_ext.yield %a : f32
  } -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

func.func @scatter_region(%u: tensor<4x8xf32>, %i: tensor<4x1xi32>, %o: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'iree_linalg_ext.scatter' op expected 2 region arguments, found 1}}
  %0 = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true)
      ins(%u, %i : tensor<4x8xf32>, tensor<4x1xi32>) outs(%o : tensor<16x8xf32>) {
  ^bb0(%a: f32):
    iree_linalg_ext.yield %a : f32
  } -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

func.func @gather_map(%s: tensor<20x100xi32>, %i: tensor<100x1xi32>, %o: tensor<100x100xi32>) -> tensor<100x100xi32> {
  // expected-error @+1 {{'iree_linalg_ext.gather' op dimension_map entry 2 is out of range for rank 2}}
  %0 = iree_linalg_ext.gather dimension_map = [2]
      ins(%s, %i : tensor<20x100xi32>, tensor<100x1xi32>)
      outs(%o : tensor<100x100xi32>) -> tensor<100x100xi32>
  return %0 : tensor<100x100xi32>
}

// -----

func.func @sort_dimension(%a: tensor<3x5xi32>) -> tensor<3x5xi32> {
  // expected-error @+1 {{'iree_linalg_ext.sort' op dimension 2 is out of range for rank 2}}
  %0 = iree_linalg_ext.sort dimension(2) outs(%a : tensor<3x5xi32>) {
  ^bb0(%x: i32, %y: i32):
    %c = arith.cmpi sgt, %x, %y : i32
    iree_linalg_ext.yield %c : i1
  } -> tensor<3x5xi32>
  return %0 : tensor<3x5xi32>
}

// -----

func.func @topk_rank(%v: tensor<2x10xf32>, %ov: tensor<3xf32>, %oi: tensor<3xi32>) -> tensor<3xf32> {
  // expected-error @+1 {{'iree_linalg_ext.topk' op expected outputs of rank 2}}
  %0:2 = iree_linalg_ext.topk dimension(1) ins(%v : tensor<2x10xf32>)
      outs(%ov, %oi : tensor<3xf32>, tensor<3xi32>) {
  ^bb0(%x: f32, %y: f32):
    %c = arith.cmpf ogt, %x, %y : f32
    iree_linalg_ext.yield %c : i1
  } -> tensor<3xf32>, tensor<3xi32>
  return %0#0 : tensor<3xf32>
}

// -----

func.func @fft_types(%s: index, %r: tensor<4x8xf32>, %i: tensor<4x4xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'iree_linalg_ext.fft' op expected real and imag of the same type}}
  %0:2 = iree_linalg_ext.fft ins(%s : index)
      outs(%r, %i : tensor<4x8xf32>, tensor<4x4xf32>) : tensor<4x8xf32>, tensor<4x4xf32>
  return %0#0 : tensor<4x8xf32>
}

// -----

func.func @custom_op_maps(%a: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'iree_linalg_ext.custom_op' op indexing map #1 has 2 results for an operand of rank 1}}
  %0 = iree_linalg_ext.custom_op {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = [#iree_linalg_ext.iterator_type<parallel>, #iree_linalg_ext.iterator_type<reduction>]}
      ins(%a : tensor<?x?xf32>) outs(%b : tensor<?xf32>) {
  ^bb0(%x: tensor<?x?xf32>, %y: tensor<?xf32>):
    iree_linalg_ext.yield %y : tensor<?xf32>
  } -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @attention_map_count(%q: tensor<4x16xf16>, %k: tensor<8x16xf16>, %v: tensor<8x32xf16>, %s: f16, %o: tensor<4x32xf16>) -> tensor<4x32xf16> {
  // expected-error @+1 {{'iree_linalg_ext.attention' op expected 5 indexing maps, found 4}}
  %0 = iree_linalg_ext.attention {
      indexing_maps = [affine_map<(m, n, k2, k1) -> (m, k1)>,
                       affine_map<(m, n, k2, k1) -> (k2, k1)>,
                       affine_map<(m, n, k2, k1) -> (k2, n)>,
                       affine_map<(m, n, k2, k1) -> (m, n)>]}
      ins(%q, %k, %v, %s : tensor<4x16xf16>, tensor<8x16xf16>, tensor<8x32xf16>, f16)
      outs(%o : tensor<4x32xf16>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<4x32xf16>
  return %0 : tensor<4x32xf16>
}

// -----

func.func @online_attention_dims(%q: tensor<4x16xf16>, %k: tensor<8x16xf16>, %v: tensor<8x32xf16>, %s: f16, %acc: tensor<4x32xf32>, %max: tensor<4xf32>, %sum: tensor<4xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{'iree_linalg_ext.online_attention' op indexing map #6 has 3 dims, expected 4}}
  %0:3 = iree_linalg_ext.online_attention {
      indexing_maps = [affine_map<(m, n, k2, k1) -> (m, k1)>,
                       affine_map<(m, n, k2, k1) -> (k2, k1)>,
                       affine_map<(m, n, k2, k1) -> (k2, n)>,
                       affine_map<(m, n, k2, k1) -> ()>,
                       affine_map<(m, n, k2, k1) -> (m, n)>,
                       affine_map<(m, n, k2, k1) -> (m)>,
                       affine_map<(m, n, k2) -> (m)>]}
      ins(%q, %k, %v, %s : tensor<4x16xf16>, tensor<8x16xf16>, tensor<8x32xf16>, f16)
      outs(%acc, %max, %sum : tensor<4x32xf32>, tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<4x32xf32>, tensor<4xf32>, tensor<4xf32>
  return %0#0 : tensor<4x32xf32>
}
